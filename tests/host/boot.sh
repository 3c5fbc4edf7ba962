#!/bin/bash
# The drop-in at boot, as a platform team gets it: a LUKS2 root volume
# whose crypttab line asks for no-read-workqueue,no-write-workqueue,
# opened by an initramfs that Debian's mkinitramfs made with
# cryptsetup-initramfs and this project's hook (tests/lib/boot/mkimages.sh).
# The stock 6.12 kernel boots each image under QEMU:
#
#   enabled   the drop-in opens the root: its table carries dm-crypt's two
#             flags and its status shows bios served inline; the root's
#             files read back and a file written reads back; it took
#             dm_crypt's options from the command line and modprobe.d, as
#             in-tree dm-crypt does in the boots below
#   disabled  in-tree dm-crypt opens it and reads the file the drop-in
#             wrote; the image holds the same files as one made before
#             the drop-in was installed, and no rule
#   missing   the rule without its module: in-tree dm-crypt opens the root
#             (the rule's fall-back), and reads what came before
#   enabled-static  as enabled, with busybox-static in the initramfs, whose
#             modprobe applet ignores the rule: the drop-in still serves
#   blacklisted  the enabled image with module_blacklist=dm_crypt_dropin,
#             README's way back: in-tree dm-crypt opens the root
#
# The images carry Debian's regular busybox (whose shell runs kmod's
# modprobe, which follows the rule) unless named -static.
#
# Only the stock 6.12: what this adds to cri-dropin (which runs the module
# on both stock kernels) is initramfs-tools and the modprobe rule, which
# do not differ between kernels.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/lib.sh"

v=
for k in ${KERNELS:?}; do
	case $k in 6.12.*-rt-* | *-cri-debug) ;; 6.12.*) v=$k ;; esac
done
[ -n "$v" ] || die "no stock 6.12 kernel in KERNELS"
[ -e /usr/share/initramfs-tools/hooks/cryptroot ] || die "cryptsetup-initramfs not installed (scripts/deps)"
file -L /bin/busybox | grep -q 'statically linked' || die "/bin/busybox is not busybox-static (scripts/deps)"

# Debian's regular busybox (most systems have it; this host has
# busybox-static, which it conflicts with), unpacked once.
bbdir=${XDG_CACHE_HOME:-$HOME/.cache}/dm-crypt-inline/busybox
if [ ! -x "$bbdir/bin/busybox" ]; then
	rm -rf "$bbdir" && mkdir -p "$bbdir"
	(cd "$bbdir" && apt-get download busybox >/dev/null 2>&1 && dpkg-deb -x busybox_*.deb .) ||
		die "apt-get download busybox"
fi

work=$(mktemp -d /var/tmp/cri-boot.XXXXXX)
# (--one-file-system: never into a mount, should one be left here.)
trap '[ -n "${CRI_KEEP:-}" ] || rm -rf --one-file-system "$work"' EXIT
"$TOP/scripts/build-for" "$v" >"$work/build.log" 2>&1 || { cat "$work/build.log"; die "build for $v"; }

# The root file system: busybox, our init, 1 MiB of data with its sum.
root=$work/root
mkdir -p "$root/bin" "$root/sbin" "$root/proc" "$root/sys" "$root/dev" "$root/run"
cp /bin/busybox "$root/bin/busybox"
install -m 0755 "$TOP/tests/lib/boot/init" "$root/sbin/init"
head -c 1048576 /dev/urandom >"$root/data"
sha256sum "$root/data" | cut -d' ' -f1 >"$root/data.sha256"
mkdir "$work/prep"
mkfs.ext4 -q -F -d "$root" "$work/prep/fs.img" 24M || die "mkfs.ext4 -d"

# The LUKS2 volume, made in a guest with in-tree dm-crypt.
head -c 64 /dev/urandom >"$work/root.key"
cp "$work/root.key" "$work/prep/"
uuid=$(cat /proc/sys/kernel/random/uuid)
truncate -s 48M "$work/disk.img"
VM_QEMU_ARGS="-drive file=$work/disk.img,if=virtio,format=raw" \
	"$TOP/scripts/vm" -k "$v" -t 600 -o "$work/prep" \
	"$TOP/tests/lib/boot/prepare.sh" root.key "$uuid" fs.img >"$work/prep.out" 2>&1
if grep -q '^[1-9][0-9]* passed, 0 failed$' "$work/prep.out"; then
	pass "the root volume made in a guest by in-tree dm-crypt"
else
	tail -n 20 "$work/prep.out"
	die "the root volume was not made"
fi

"$TOP/tests/lib/boot/mkimages.sh" "$v" "$work" "$uuid" "$bbdir/bin/busybox" 2>"$work/mkimages.log" ||
	{ cat "$work/mkimages.log"; die "initramfs images made by mkinitramfs"; }
pass "initramfs images made by mkinitramfs"
check_eq "the host's mounts untouched (its /etc, busybox, modules)" \
	"$(grep -E " ($work|/etc|/usr/bin/busybox|/usr/lib/modules/$v|/lib/modules/$v) " /proc/mounts)" ""

# in_image IMAGE: the drop-in's files in IMAGE.
in_image() {
	grep -E '(dm-crypt-dropin\.ko|modprobe\.d/dm-crypt-dropin\.conf)$' "$work/$1.list" |
		sed 's|.*/\(.*/\)|\1|' | sort | tr '\n' ' '
}
# unpacked IMAGE PATH: the file PATH of IMAGE.
unpacked() {
	[ -d "$work/$1.d" ] || unmkinitramfs "$work/$1.img" "$work/$1.d"
	find "$work/$1.d" -path "*/$2" -exec cat {} +
}
for i in enabled enabled-static; do
	check_eq "$i: the image holds the drop-in and its rule" "$(in_image $i)" \
		"dkms/dm-crypt-dropin.ko modprobe.d/dm-crypt-dropin.conf "
	check "$i: the rule in it is dm-inline's" cmp <(unpacked $i etc/modprobe.d/dm-crypt-dropin.conf) \
		<("$TOP/scripts/tool/dm-inline" dropin rule)
	check_eq "$i: it loads dm_crypt early, through the rule (conf/modules)" \
		"$(unpacked $i conf/modules | grep -E '^dm_crypt(_dropin)?$')" "dm_crypt"
done
check_eq "missing: the rule, no module" "$(in_image missing)" "modprobe.d/dm-crypt-dropin.conf "
check_eq "disabled: none of them" "$(in_image disabled)" ""
check_eq "disabled: the same files as an image made before the drop-in was installed" \
	"$(diff "$work/stock.list" "$work/disabled.list")" ""
check "stock: in-tree dm-crypt in it" grep -qE '/dm-crypt\.ko(\.[a-z]+)?$' "$work/stock.list"

# dm-crypt's options, one on the kernel command line, one in modprobe.d
# (mkimages.sh): whichever module serves crypt takes both.
opts="dm_crypt.max_read_size=32768"
# boot NAME IMAGE [CMDLINE]: boot the stock kernel with IMAGE on the root
# volume and $opts; the kernel's console in WORK/NAME.console, what the test's
# scripts say in WORK/NAME.boot.  Under TCG a stock kernel has been seen,
# rarely, to hang or oops in early boot: one more try if it never reached
# the initramfs.
boot() {
	local n
	for n in 1 2; do
		timeout -k 10 400 qemu-system-x86_64 -nodefaults -no-user-config -nographic -no-reboot \
			-accel tcg,thread=multi -cpu max -smp 2 -m 1024 \
			-kernel "/boot/vmlinuz-$v" -initrd "$work/$2.img" \
			-drive "file=$work/disk.img,if=virtio,format=raw" -device virtio-rng-pci \
			-append "console=ttyS0 root=/dev/mapper/cryptroot rw panic=-1 loglevel=4 $opts ${3:-}" \
			-serial "file:$work/$1.console" -serial "file:$work/$1.boot" -monitor none >/dev/null 2>&1
		grep -q 'Begin: Loading essential drivers' "$work/$1.console" && return 0
		echo "boot: $1: try $n never reached the initramfs"
	done
}
# said NAME KEY: what the boot said after "BOOT KEY: ".
said() {
	sed -n "s/^BOOT $2: //p" "$work/$1.boot" | tr -d '\r' | tail -n 1
}
# booted NAME MODULE [before]: the boot went to the end, MODULE served
# crypt, the root's data read back, a file written read back, and (with
# "before") so did the file the boot before wrote.
booted() {
	check_eq "$1: the root volume mounted, its init ran to the end" "$(grep -c '^BOOT done' "$work/$1.boot")" "1"
	check_eq "$1: $2 serves crypt" "$(said "$1" modules)" "$2 "
	check_eq "$1: it took dm_crypt's options (max_read_size, max_write_size)" \
		"$(said "$1" params)" "32768 65536 "
	check_eq "$1: the root's data reads back" "$(said "$1" data)" "read back"
	check_eq "$1: a file written reads back" "$(said "$1" write)" "read back"
	[ -z "${3:-}" ] || check_eq "$1: the file the boot before wrote reads back" "$(said "$1" written)" "read back"
}
on_inline_path() {
	check_eq "$1: the table carries crypttab's flags as dm-crypt's" \
		"$(said "$1" table | awk '{ print $3, $(NF-2), $(NF-1), $NF }')" \
		"crypt 2 no_read_workqueue no_write_workqueue"
	check "$1: bios served inline ($(said "$1" status))" \
		test "$(said "$1" status | awk '{ for (i = 1; i < NF; i++) if ($i == "inline") print $(i + 1) }')" -gt 0
}

boot enabled enabled
booted enabled dm_crypt_dropin
on_inline_path enabled
check_fails "enabled: nothing tried in-tree dm-crypt (kmod's modprobe followed the rule)" \
	grep -q "'crypt' target already registered" "$work/enabled.console"

boot disabled disabled
booted disabled dm_crypt before

boot missing missing
booted missing dm_crypt before

boot enabled-static enabled-static
booted enabled-static dm_crypt_dropin before
on_inline_path enabled-static
check "enabled-static: busybox's modprobe did try in-tree dm-crypt (the case the early load is for)" \
	grep -q "can't load module dm_crypt" "$work/enabled-static.console"

# The way back README gives for a boot that fails on the drop-in.
boot blacklisted enabled module_blacklist=dm_crypt_dropin
booted blacklisted dm_crypt before

for i in enabled disabled missing enabled-static blacklisted; do
	bad=$(grep -E '^\[ *[0-9]+\.[0-9]+\]' "$work/$i.console" | grep -E "$_kernel_bug" | head -n 3)
	check_eq "$i: no sign of a kernel bug in the kernel's messages" "$bad" ""
done
summary
