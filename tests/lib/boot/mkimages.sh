#!/bin/bash
# On the host, in a mount namespace of its own (it always re-runs itself
# under unshare -m; /proc/1/ns may not be readable to tell): Debian's mkinitramfs, with
# cryptsetup-initramfs and this project's hook, makes the boot test's
# initramfs images of kernel KVER in WORK, each with its file list (.list)
# and log (.log).  They carry BUSYBOX, Debian's regular busybox, whose
# shell runs kmod's modprobe, unless said otherwise:
#
#   stock           no drop-in installed, no rule
#   enabled         the drop-in installed in updates/dkms (as DKMS puts
#                   it) and the rule `dm-inline dropin rule` prints in
#                   /etc/modprobe.d
#   enabled-static  the same with busybox-static, whose shell runs its own
#                   modprobe applet (deaf to the rule)
#   missing         the rule, but no drop-in module for this kernel
#   disabled        the drop-in installed, the rule gone
#
# The host's /etc, busybox and /lib/modules/KVER are not touched: the
# namespace sees a tmpfs copy of /etc, an overlay on the modules and
# BUSYBOX bound over /usr/bin/busybox, all gone with it.  The root
# volume's crypttab line carries the perf flags and a key file
# (WORK/root.key, put in /etc/keys and into the initramfs as
# cryptsetup-initramfs does with KEYFILE_PATTERN); modprobe.d gives
# dm_crypt an option.
#
#   mkimages.sh KVER WORK UUID BUSYBOX
set -euo pipefail
if [ -z "${CRI_MKIMAGES_NS:-}" ]; then
	CRI_MKIMAGES_NS=$$ exec unshare -m --propagation private "$0" "$@"
fi
top=$(cd "$(dirname "$0")/../../.." && pwd)
v=$1 work=$2 uuid=$3 busybox=$4
mods=/lib/modules/$v
ns=$work/ns
hooks=/usr/share/initramfs-tools/hooks

mkdir -p "$ns"
mount -t tmpfs tmpfs "$ns"
cp -a /etc "$ns/etc"
mount --bind "$ns/etc" /etc
mkdir "$ns/upper" "$ns/wd"
mount -t overlay overlay -o "lowerdir=$mods,upperdir=$ns/upper,workdir=$ns/wd" "$mods"
mount --bind "$busybox" /usr/bin/busybox

# The test's configuration and modules, nothing of the host's: no
# drop-in DKMS may have installed, no installed copy of the hook (which
# mkinitramfs would run beside ours; it skips a hook it cannot execute).
rm -rf "$mods/updates/dkms"
depmod "$v"
[ ! -e "$hooks/dm-crypt-dropin" ] || mount --bind /dev/null "$hooks/dm-crypt-dropin"
rm -f /etc/modprobe.d/dm-crypt-dropin.conf /etc/initramfs-tools/hooks/dm-crypt-dropin \
	/etc/initramfs-tools/conf.d/*
# Only the modules hooks and this list ask for: MODULES=most takes minutes.
printf 'MODULES=list\nUMASK=0077\n' >/etc/initramfs-tools/conf.d/cri-boot
printf 'virtio_pci\nvirtio_blk\next4\n' >/etc/initramfs-tools/modules
mkdir -p /etc/keys /etc/cryptsetup-initramfs
install -m 0600 "$work/root.key" /etc/keys/root.key
echo "cryptroot UUID=$uuid /etc/keys/root.key luks,initramfs,no-read-workqueue,no-write-workqueue" >/etc/crypttab
echo 'KEYFILE_PATTERN="/etc/keys/*.key"' >/etc/cryptsetup-initramfs/conf-hook
# An option for dm_crypt, which whichever module serves crypt takes.
echo 'options dm_crypt max_write_size=65536' >/etc/modprobe.d/cri-boot.conf
mkdir -p /etc/initramfs-tools/hooks /etc/initramfs-tools/scripts/local-bottom
install -m 0755 "$top/scripts/pkg/initramfs-hook" /etc/initramfs-tools/hooks/dm-crypt-dropin
install -m 0755 "$top/tests/lib/boot/report" /etc/initramfs-tools/scripts/local-bottom/cri-report

image() {
	echo "mkimages: $1" >&2
	mkinitramfs -o "$work/$1.img" "$v" >"$work/$1.log" 2>&1 ||
		{ cat "$work/$1.log" >&2; return 1; }
	lsinitramfs "$work/$1.img" >"$work/$1.list"
}
install_dropin() {
	mkdir -p "$mods/updates/dkms"
	cp "$top/build/$v/dm-crypt-dropin.ko" "$mods/updates/dkms/"
	depmod "$v"
}

image stock
install_dropin
"$top/scripts/tool/dm-inline" dropin rule >/etc/modprobe.d/dm-crypt-dropin.conf
image enabled
umount /usr/bin/busybox
image enabled-static
mount --bind "$busybox" /usr/bin/busybox
rm "$mods/updates/dkms/dm-crypt-dropin.ko"
depmod "$v"
image missing
install_dropin
rm /etc/modprobe.d/dm-crypt-dropin.conf
image disabled
