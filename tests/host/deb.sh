#!/bin/bash
# The Debian package: `scripts/pkg/deb`, run in a release tree (no .git), builds
# dm-crypt-inline-dkms from a clean copy with debhelper and dh-dkms; lintian
# finds no error and no warning; `apt install ./deb` builds and installs
# the three modules (not placeholders) for every installed kernel with headers,
# signed with DKMS's key, the tool, its man page and the (disabled) unit are
# in place and nothing is enabled; a guest loads the installed modules; a
# kernel outside the tested series, and one whose build fails, pass Debian's
# DKMS kernel hooks with placeholders and a message; a kernel installed
# afterwards gets the modules and loses them when removed; with the drop-in
# enabled (its modprobe rule, an initramfs carrying it) `apt remove` leaves
# no module, no rule and an initramfs without it, and `apt purge` nothing at
# all.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/lib.sh"
. "$TOP/scripts/lib/tree.sh"

name=dm-crypt-inline
pkg=$name-dkms
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/dkms.conf")
modules="xtsproxy dm-crypt-inline dm-crypt-dropin"
untested=6.99.0-cri-fake
broken=6.12.999-cri-broken
export DEBIAN_FRONTEND=noninteractive

# The stock 6.12 (not RT) headers, on which the fake kernels build.
headers=$(ls -d /usr/src/linux-headers-6.12.*-amd64 2>/dev/null | grep -v -e -rt- -e -cloud- | sort -V | tail -n 1)
[ -n "$headers" ] || die "no 6.12 headers"
common=$(sed -n 's/^include //p' "$headers/Makefile")
headers_ver=${headers#/usr/src/linux-headers-}

work=$(mktemp -d)
cloud_kernels() {
	dpkg-query -W -f='${Package}\n' 'linux-image-6.12.*-cloud-amd64*' 'linux-headers-6.12.*-cloud-amd64' 2>/dev/null
}
cleanup() {
	apt-get purge -y -qq "$pkg" >/dev/null 2>&1
	local p
	p=$(cloud_kernels)
	[ -z "$p" ] || apt-get purge -y -qq $p >/dev/null 2>&1
	dkms remove "$name/$ver" --all >/dev/null 2>&1
	rm -f /etc/modprobe.d/dm-crypt-dropin.conf /etc/initramfs-tools/conf.d/cri-deb-test
	[ -z "${made_initrd:-}" ] || update-initramfs -d -k "$headers_ver" >/dev/null 2>&1
	rm -rf "/usr/src/$name-$ver" "/var/lib/dkms/$name" "$TOP/build/stubs" \
		"/lib/modules/$untested" "/lib/modules/$broken"
}
trap 'cleanup; rm -rf "$work"' EXIT
cleanup

# From a release tree: the project without .git, as `git archive` gives it.
clean_copy "$work/release"
check "the release tree has no .git" test ! -e "$work/release/.git"
deb=$("$work/release/scripts/pkg/deb" "$work") || die "scripts/pkg/deb in a release tree"
check_eq "package file name" "$(basename "$deb")" "${pkg}_${ver}_all.deb"
lint=$(lintian --fail-on error,warning "$deb" 2>&1)
check_eq "lintian: exit status" "$?" "0"
check_eq "lintian: no errors, no warnings" "$(echo "$lint" | grep -E '^(E|W):')" ""

check "apt install ./$(basename "$deb")" sh -c "apt-get install -y -qq '$deb' >'$work/install.log' 2>&1"
for v in ${KERNELS:?}; do
	check "$v: dkms status says installed" \
		sh -c "dkms status '$name/$ver' -k '$v' | grep -q ': installed'"
	for m in $modules; do
		f=$(modinfo -k "$v" -F filename "$m" 2>/dev/null)
		case $f in
		/lib/modules/$v/updates/dkms/$m.ko*) pass "$v: $m installed in updates/dkms" ;;
		*) fail "$v: $m installed in updates/dkms" "got '$f'" ;;
		esac
		d=$(modinfo -k "$v" -F description "$m" 2>/dev/null)
		case $d in
		"" | *placeholder*) fail "$v: $m is the real module" "got '$d'" ;;
		*) pass "$v: $m is the real module" ;;
		esac
	done
done

# Secure Boot: DKMS signs what it builds with its MOK key (generated at the
# first build unless one is configured); each module names that certificate.
mok=$(cat /etc/dkms/framework.conf /etc/dkms/framework.conf.d/*.conf 2>/dev/null |
	sed -n 's/^[[:space:]]*mok_certificate=["]\{0,1\}\([^"]*\)["]\{0,1\}/\1/p' | tail -n 1)
mok=${mok:-/var/lib/dkms/mok.pub}
serial=$(openssl x509 -inform DER -in "$mok" -noout -serial 2>/dev/null | sed 's/^serial=//')
check "DKMS signing certificate $mok" test -n "$serial"
for v in ${KERNELS:?}; do
	for m in $modules; do
		got=$(modinfo -k "$v" -F sig_key "$m" 2>/dev/null | tr -d ':')
		check_eq "$v: $m signed by DKMS's key" "${got:-unsigned}" "$serial"
	done
done

# fake_kernel RELEASE MAKEFILE: a kernel "installed" with the stock 6.12's
# headers under another release, its Makefile replaced.
fake_kernel() {
	local b=/lib/modules/$1/build f
	mkdir -p "$b"
	for f in .config .kernelvariables Module.symvers arch include scripts tools vmlinux; do
		ln -s "$headers/$f" "$b/$f"
	done
	echo "$2" >"$b/Makefile"
}
# hooks RELEASE: Debian's DKMS kernel hooks, as a kernel's installation
# runs them (run-parts --exit-on-error): each must succeed.
hooks() {
	local hook out said=
	for hook in /etc/kernel/header_postinst.d/dkms /etc/kernel/postinst.d/dkms; do
		out=$("$hook" "$1" 2>&1)
		check_eq "$1: $hook succeeds" "$?" "0"
		said="$said$out"
	done
	echo "$said" >"$work/hooks-$1.log"
}
# placeholders RELEASE REASON: what DKMS installed, and said, for it.
placeholders() {
	local m d
	for m in $modules; do
		d=$(modinfo -k "$1" -F description "$m" 2>/dev/null)
		case $d in
		"$m placeholder: $2"*) pass "$1: $m is a placeholder: $2" ;;
		*) fail "$1: $m is a placeholder: $2" "got '$d'" ;;
		esac
		if grep -q "dm-crypt-inline: kernel $1: $m placeholder: $2" "$work/hooks-$1.log"; then
			pass "$1: DKMS says $m is a placeholder, and why"
		else
			fail "$1: DKMS says $m is a placeholder, and why" "$(tail -n 5 "$work/hooks-$1.log")"
		fi
	done
}

# A kernel outside the tested series.
fake_kernel "$untested" "include $common"
hooks "$untested"
placeholders "$untested" "not built for this kernel: the code is written and tested"
# A kernel of the series whose build fails: DKMS tries again for placeholders.
fake_kernel "$broken" "ifeq (\$(CRI_STUB)\$(filter-out clean,\$(MAKECMDGOALS)),modules)
\$(error simulated failure of the build)
endif
include $common"
hooks "$broken"
placeholders "$broken" "not built for this kernel: its build failed"

# The placeholders built for the stock 6.12, to load in its guest.
stubs=$TOP/build/stubs
clean_copy "$stubs"
check "placeholders build for 6.12" make -s -C "$stubs" KDIR="$headers" KERNELRELEASE="$untested"

# The installed modules, not a build tree's, in a guest of the stock 6.12.
guest=$(basename "$headers")
guest=${guest#linux-headers-}
out=$("$TOP/scripts/vm" -k "$guest" "$TOP/tests/lib/installed-modules.sh" "$stubs" 2>&1)
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
# INITRD=No: nothing boots this kernel, and its initramfs (MODULES=most)
# would take a minute to pack; DKMS's hooks run all the same.
extra=$(apt-cache search --names-only '^linux-headers-6\.12\.[0-9]+\+deb12-cloud-amd64$' |
	awk '{ print $1 }' | sort -V | tail -n 1)
extra=${extra#linux-headers-}
if [ -n "$extra" ]; then
	check "$extra: installed" sh -c "INITRD=No apt-get install -y -qq --no-install-recommends \
		linux-headers-$extra linux-image-$extra-unsigned >'$work/extra.log' 2>&1"
	check "$extra: DKMS's autoinstall ran" grep -q "auto installation service for kernel $extra" "$work/extra.log"
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

# gone WHAT: nothing of the modules left in any kernel or in DKMS.
gone() {
	local v left
	for v in ${KERNELS:?} $untested $broken; do
		left=$(ls /lib/modules/"$v"/updates/dkms/ 2>/dev/null | grep -E '^(xtsproxy|dm-crypt-inline|dm-crypt-dropin)\.ko' || true)
		check_eq "$1: $v: no module left" "$left" ""
	done
	check_fails "$1: no DKMS state left" test -e "/var/lib/dkms/$name"
	check_fails "$1: no source left" test -e "/usr/src/$name-$ver"
}
# The drop-in enabled (its rule, as `dm-inline dropin enable` writes it,
# and an initramfs that carries it): removing the package puts both back.
rule=/etc/modprobe.d/dm-crypt-dropin.conf
initrd=/boot/initrd.img-$headers_ver
in_initrd() {
	[ -s "$initrd" ] || { echo "no $initrd"; return; }
	lsinitramfs "$initrd" | grep -E 'dm-crypt-dropin\.(ko|conf)' | sed 's|.*/||' | sort | tr '\n' ' '
}
check "drop-in rule written" sh -c "dm-inline dropin rule >$rule"
# Only the modules hooks ask for (MODULES=most takes minutes to pack); the
# drop-in's hook is one of those.
mkdir -p /etc/initramfs-tools/conf.d
echo MODULES=list >/etc/initramfs-tools/conf.d/cri-deb-test
made_initrd=1
check "initramfs of $headers_ver made with the drop-in enabled" sh -c "update-initramfs -c -k '$headers_ver' >'$work/initramfs.log' 2>&1"
check_eq "that initramfs carries the drop-in and its rule" "$(in_initrd)" "dm-crypt-dropin.conf dm-crypt-dropin.ko "
# dm_crypt early, by kmod's modprobe, which follows the rule to the drop-in.
check_eq "and loads dm_crypt early (conf/modules), which the rule makes the drop-in" \
	"$(unmkinitramfs "$initrd" "$work/initrd.d" && find "$work/initrd.d" -path '*/conf/modules' -exec cat {} + | grep -c '^dm_crypt$')" "1"
check "apt remove" sh -c "apt-get remove -y -qq '$pkg' >'$work/remove.log' 2>&1"
gone "apt remove"
check_fails "apt remove: no drop-in rule left" test -e "$rule"
check_eq "apt remove: the initramfs rebuilt without the drop-in" "$(in_initrd)" ""
update-initramfs -d -k "$headers_ver" >/dev/null 2>&1 && made_initrd=
rm -f /etc/initramfs-tools/conf.d/cri-deb-test
check "apt purge" sh -c "apt-get purge -y -qq '$pkg' >'$work/purge.log' 2>&1"
gone "apt purge"
check_fails "no tool left" test -e /usr/sbin/dm-inline
check_fails "no unit left" test -e /lib/systemd/system/dm-inline.service
check_eq "package state gone" "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || echo not-installed)" "not-installed"
summary
