#!/bin/bash
# dkms add/build/install for every test kernel puts the modules under
# updates/dkms, modinfo finds them there, and dkms remove --all cleans up.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib.sh"
. "$TOP/scripts/lib/tree.sh"

name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' "$TOP/dkms.conf")
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/dkms.conf")
modules=$(sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\(.*\)"/\1/p' "$TOP/dkms.conf")
src=/usr/src/$name-$ver

# Leave nothing from an earlier, interrupted run.
reset_dkms() {
	dkms remove "$name/$ver" --all >/dev/null 2>&1
	rm -rf "$src" "/var/lib/dkms/$name"
}
reset_dkms
trap reset_dkms EXIT

clean_copy "$src"
check "dkms add" dkms add "$name/$ver"
for v in ${KERNELS:?}; do
	check "$v: dkms build" dkms build "$name/$ver" -k "$v"
	check "$v: dkms install" dkms install "$name/$ver" -k "$v"
	for m in $modules; do
		f=$(modinfo -k "$v" -F filename "$m" 2>/dev/null)
		case $f in
		/lib/modules/$v/updates/dkms/$m.ko*) pass "$v: modinfo finds $m in updates/dkms" ;;
		*) fail "$v: modinfo finds $m in updates/dkms" "got '$f'" ;;
		esac
	done
	check "$v: dkms status says installed" sh -c "dkms status '$name/$ver' -k '$v' | grep -q installed"
done
check "dkms remove --all" dkms remove "$name/$ver" --all
for v in ${KERNELS:?}; do
	for m in $modules; do
		left=$(ls /lib/modules/"$v"/updates/dkms/"$m".ko* 2>/dev/null)
		check_eq "$v: $m removed" "$left" ""
	done
done
summary
