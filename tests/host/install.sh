#!/bin/bash
# make install puts the dm-inline tool, its man page, the systemd unit
# (pointing at the installed tool) and the example config in place, and
# never overwrites an existing config.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/lib.sh"

dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
check "make install" make -C "$TOP" -s install DESTDIR="$dest" PREFIX=/opt/x
check "tool installed, executable" test -x "$dest/opt/x/sbin/dm-inline"
check "tool runs: --help" "$dest/opt/x/sbin/dm-inline" --help
# Commands that act refuse --dry-run before looking at any device.
for c in "mode vol on" "suspend vol" "resume vol" "close vol" boot; do
	# shellcheck disable=SC2086
	check_eq "$c --dry-run refused as usage" "$("$dest/opt/x/sbin/dm-inline" $c --dry-run >/dev/null 2>&1; echo $?)" "1"
done
check "man page installed" grep -q '^\.TH DM-INLINE 8' "$dest/opt/x/share/man/man8/dm-inline.8"
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/dkms.conf")
check "man page carries the version of dkms.conf ($ver)" \
	grep -q "^\.TH DM-INLINE 8 .*\"dm-crypt-inline $ver\"" "$dest/opt/x/share/man/man8/dm-inline.8"
unit=$dest/etc/systemd/system/dm-inline.service
check_eq "unit runs the installed tool" "$(sed -n 's/^ExecStart=//p' "$unit")" "/opt/x/sbin/dm-inline boot"
check "unit ordered after cryptsetup.target" grep -qx 'After=cryptsetup.target' "$unit"
check_eq "config is root-only" "$(stat -c %a "$dest/etc/dm-inline.conf")" "600"
echo "vol --key-file /k" >"$dest/etc/dm-inline.conf"
check "make install again" make -C "$TOP" -s install DESTDIR="$dest" PREFIX=/opt/x
check_eq "existing config kept" "$(cat "$dest/etc/dm-inline.conf")" "vol --key-file /k"
summary
