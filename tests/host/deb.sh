#!/bin/bash
# The Debian package: `scripts/deb` builds dm-crypt-inline-dkms from a
# clean copy with debhelper and dh-dkms; lintian finds no error and no
# warning; `apt install ./deb` builds and installs both modules for every
# installed kernel with headers (DKMS), the tool, its man page and the
# (disabled) unit are in place and nothing is enabled; a kernel installed
# afterwards gets the modules and loses them when removed; `apt purge` leaves
# no module, source, DKMS state, file or package state behind.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib.sh"
. "$TOP/scripts/lib/tree.sh"

name=dm-crypt-inline
pkg=$name-dkms
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/dkms.conf")
modules="xtsproxy dm-crypt-inline"
export DEBIAN_FRONTEND=noninteractive

work=$(mktemp -d)
purge() { apt-get purge -y -qq "$pkg" >/dev/null 2>&1; }
trap 'purge; rm -rf "$work" "$TOP/build/stubs" /lib/modules/6.99.0-cri-fake' EXIT
purge
dkms remove "$name/$ver" --all >/dev/null 2>&1
rm -rf "/usr/src/$name-$ver" "/var/lib/dkms/$name"

deb=$("$TOP/scripts/deb" "$work") || die "scripts/deb"
check_eq "package file name" "$(basename "$deb")" "${pkg}_${ver}_all.deb"
lint=$(lintian --fail-on none "$deb" 2>&1 | grep -E '^(E|W):')
check_eq "lintian: no errors, no warnings" "$lint" ""

check "apt install ./$(basename "$deb")" sh -c "apt-get install -y -qq '$deb' >'$work/install.log' 2>&1"
for v in ${KERNELS:?}; do
	check "$v: dkms status says installed" \
		sh -c "dkms status '$name/$ver' -k '$v' | grep -q installed"
	for m in $modules; do
		f=$(modinfo -k "$v" -F filename "$m" 2>/dev/null)
		case $f in
		/lib/modules/$v/updates/dkms/$m.ko*) pass "$v: $m installed in updates/dkms" ;;
		*) fail "$v: $m installed in updates/dkms" "got '$f'" ;;
		esac
	done
done
# Secure Boot: DKMS signs what it builds with its MOK key (generated at the
# first build unless one is configured); each module names that certificate.
mok=/var/lib/dkms/mok.pub
serial=$(openssl x509 -inform DER -in "$mok" -noout -serial 2>/dev/null | sed 's/^serial=//')
check "DKMS signing certificate $mok" test -n "$serial"
for v in ${KERNELS:?}; do
	for m in $modules; do
		got=$(modinfo -k "$v" -F sig_key "$m" 2>/dev/null | tr -d ':')
		check_eq "$v: $m signed by DKMS's key" "${got:-unsigned}" "$serial"
	done
done

# A kernel outside the tested series (a fake 6.99 on the 6.12 headers):
# the kernel hooks Debian runs at its installation succeed, say why, and
# install placeholders (include/cri_stub.h).
fake=6.99.0-cri-fake
headers=$(for v in ${KERNELS:?}; do echo "$v"; done | grep -m1 '^6\.12\..*-amd64$' | grep -v -- -rt-)
rm -rf "/lib/modules/$fake"
mkdir -p "/lib/modules/$fake"
ln -s "/usr/src/linux-headers-$headers" "/lib/modules/$fake/build"
said=
for hook in /etc/kernel/header_postinst.d/dkms /etc/kernel/postinst.d/dkms; do
	out=$("$hook" "$fake" 2>&1)
	check_eq "$fake: $hook succeeds" "$?" "0"
	said="$said$out"
done
case $said in
*"kernel $fake is not one this code is written and tested for"*) pass "$fake: DKMS says why" ;;
*) fail "$fake: DKMS says why" "$(echo "$said" | tail -n 5)" ;;
esac
for m in $modules; do
	d=$(modinfo -k "$fake" -F description "$m" 2>/dev/null)
	case $d in
	"$m placeholder: not built for this kernel"*) pass "$fake: $m is a placeholder" ;;
	*) fail "$fake: $m is a placeholder" "got '$d'" ;;
	esac
done
# The same placeholders built for the stock 6.12, to load in its guest.
stubs=$TOP/build/stubs
rm -rf "$stubs"
clean_copy "$stubs"
check "placeholders build for 6.12" make -s -C "$stubs" KDIR="/lib/modules/$headers/build" KERNELRELEASE="$fake"
dkms remove "$name/$ver" -k "$fake" >/dev/null 2>&1
rm -rf "/lib/modules/$fake"

# The installed modules, not a build tree's, in a guest of the stock 6.12.
for v in ${KERNELS:?}; do
	case $v in *-rt-*) continue ;; esac
	guest=$v
done
out=$("$TOP/scripts/vm" -k "$guest" "$TOP/tests/pkg/installed-modules.sh" "$stubs" 2>&1)
rc=$?
echo "$out" | sed -n 's/^\(PASS\|FAIL\): /&['"$guest"' guest] /p'
check_eq "$guest guest: installed modules pass their smoke tests (exit)" "$rc" "0"
check "dm-inline installed" test -x /usr/sbin/dm-inline
check "dm-inline(8) installed" man -w dm-inline
check "unit installed" test -f /lib/systemd/system/dm-inline.service
check_fails "unit not enabled" test -e /etc/systemd/system/multi-user.target.wants/dm-inline.service
check_fails "no config written to /etc" test -e /etc/dm-inline.conf

# A kernel installed later gets the modules (DKMS autoinstall), and loses
# them with it: Debian's cloud flavour of the stock 6.12, headers first.
extra=$(apt-cache search --names-only '^linux-headers-6\.12\.[0-9]+\+deb12-cloud-amd64$' |
	awk '{ print $1 }' | sort -V | tail -n 1)
extra=${extra#linux-headers-}
if [ -n "$extra" ]; then
	check "$extra: installed" sh -c "apt-get install -y -qq --no-install-recommends \
		linux-headers-$extra linux-image-$extra-unsigned >'$work/extra.log' 2>&1"
	for m in $modules; do
		f=$(modinfo -k "$extra" -F filename "$m" 2>/dev/null)
		case $f in
		/lib/modules/$extra/updates/dkms/$m.ko*) pass "$extra: $m built for the new kernel" ;;
		*) fail "$extra: $m built for the new kernel" "got '$f'" ;;
		esac
	done
	check "$extra: removed" sh -c "apt-get purge -y -qq linux-headers-$extra \
		linux-image-$extra-unsigned >'$work/extra-rm.log' 2>&1"
	check_fails "$extra: its modules gone" test -d "/lib/modules/$extra/updates/dkms"
else
	fail "a 6.12 cloud kernel in the archive to install"
fi

check "apt purge" sh -c "apt-get purge -y -qq '$pkg' >'$work/purge.log' 2>&1"
for v in ${KERNELS:?}; do
	left=$(ls /lib/modules/"$v"/updates/dkms/ 2>/dev/null | grep -E '^(xtsproxy|dm-crypt-inline)\.ko' || true)
	check_eq "$v: no module left" "$left" ""
done
check_fails "no source left" test -e "/usr/src/$name-$ver"
check_fails "no DKMS state left" test -e "/var/lib/dkms/$name"
check_fails "no tool left" test -e /usr/sbin/dm-inline
check_fails "no unit left" test -e /lib/systemd/system/dm-inline.service
check_eq "package state gone" "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || echo not-installed)" "not-installed"
summary
