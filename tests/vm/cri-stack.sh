#!/bin/bash
# crypt-inline in real stacks, on the queued and the force_inline path:
# - md raid1 beneath, on two memory-backed null_blk disks that take
#   discards: one leg failed, removed and re-added while fio verifies; the
#   resync done, both legs hold the same bytes; with allow_discards, ext4's
#   fstrim through the target and md reaches both disks.
# - LVM on top: a volume group on the target, a snapshot taken while fio
#   rewrites the origin (copy-on-write through the target), the snapshot
#   holding the old data, then merged back while fio verifies another
#   volume of the group, so that the merge's copies and fio's IO pass the
#   target together (the merge must end before fio does); after the merge
#   the origin holds the old data, and in-tree dm-crypt, opened on the
#   same disk, sees the same volume group and bytes.
# The debug kernel only (Debian's 6.12 source, under KASAN and lockdep):
# these stacks change which bios come (discards, resync, copy-on-write,
# md's and kcopyd's completions), not which of our paths take them, so what
# they can break is lifetimes and locking, which the debug kernel checks.
# vm-kernels: debug
# vm-check: none
# (CI tier: none; its bios take the paths cri-format, cri-faults and cri-gone run under KASAN and lockdep there)
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
modprobe raid1 || die "raid1"
modprobe dm-snapshot || die "dm-snapshot"
nullb_configfs || die "null_blk through configfs"
k=$(hexkey 64)
mnt=/tmp/mnt
mkdir -p $mnt
secs=5


# LVM without udev, on a read-only root (../shared/NOTES.md).
export LVM_SYSTEM_DIR=/tmp/lvm
mkdir -p $LVM_SYSTEM_DIR /run/lock/lvm
cat >$LVM_SYSTEM_DIR/lvm.conf <<EOF
devices {
	obtain_device_list_from_udev = 0
	filter = [ "a|^/dev/mapper/cri\$|", "a|^/dev/mapper/ref\$|", "r|.*|" ]
}
activation {
	udev_sync = 0
	udev_rules = 0
	monitoring = 0
}
backup {
	backup = 0
	archive = 0
}
global {
	locking_dir = "/run/lock/lvm"
	use_lvmpolld = 0
}
EOF

# leg N: a 160 MiB memory-backed null_blk disk that takes discards.
leg() {
	local nb=$cfg/nullb/leg$1
	mkdir "$nb" && echo 160 >"$nb/size" && echo 1 >"$nb/memory_backed" &&
		echo 1 >"$nb/discard" && echo 1 >"$nb/power" && nullb_dev "$nb"
}

# discarded DEVICE: sectors discarded on it so far (/sys/block/X/stat).
discarded() {
	awk '{ print $14 + 0 }' "/sys/block/${1#/dev/}/stat"
}

# fio_run DEVICE OFFSET SIZE [SECONDS]: fio's verify on a part of DEVICE,
# $secs s unless told.
fio_run() {
	fio --name=v --filename="$1" --direct=1 --ioengine=libaio --iodepth=16 \
		--rw=randwrite --bs=4k-64k --offset="$2" --size="$3" --verify=crc32c \
		--verify_backlog=256 --verify_fatal=1 --do_verify=1 \
		--time_based --runtime="${4:-$secs}" --output=/tmp/fio.out
}

fio_verify() {	# LABEL DEVICE OFFSET SIZE
	fio_run "${@:2}"
	check_fio "$1" $? /tmp/fio.out
}

# Whatever md_case made, gone (also after a failure).
md_cleanup() {
	umount $mnt 2>/dev/null
	dmsetup remove cri 2>/dev/null
	[ ! -e /dev/md0 ] || mdadm --stop --quiet /dev/md0
	rmdir $cfg/nullb/leg0 $cfg/nullb/leg1 2>/dev/null
	return 0
}

# md_remove LEG: md refuses while the failed leg has IO in flight; retry.
# shellcheck disable=SC2317  # called through check
md_remove() {
	local _
	for _ in $(seq 50); do
		mdadm --quiet /dev/md0 --remove "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

md_case() {	# LABEL [FLAGS]
	local label=$1 flags=$2 a b n0 n1 len
	if ! a=$(leg 0) || ! b=$(leg 1); then
		fail "$label: null_blk legs"
		md_cleanup
		return
	fi
	mdadm --create /dev/md0 --run --quiet --level=1 --raid-devices=2 \
		--metadata=1.2 --bitmap=internal --assume-clean "$a" "$b" ||
		{ fail "$label: mdadm --create"; md_cleanup; return; }
	len=$(blockdev --getsz /dev/md0)
	dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/md0 0 $((${flags%% *} + 1)) allow_discards${flags:+ ${flags#* }}"
	# A leg failed, removed and re-added under fio's verify.
	fio_run /dev/mapper/cri 0 64m &
	local fio_pid=$! rc off
	sleep 2
	check "$label: leg failed" mdadm --quiet /dev/md0 --fail "$b"
	check "$label: leg removed" md_remove "$b"
	sleep 1
	check "$label: leg re-added" mdadm --quiet /dev/md0 --re-add "$b"
	wait $fio_pid
	rc=$?
	check_fio "$label: md raid1, fio verify while a leg fails and returns" $rc /tmp/fio.out
	mdadm --wait /dev/md0 >/dev/null 2>&1
	check "$label: md in sync again" grep -q "\[UU\]" /proc/mdstat
	# The legs' superblocks differ (device numbers); their data must not.
	off=$(mdadm --examine "$a" | awk '/Data Offset/ { print $4 }')
	check "$label: both legs hold the same bytes (past ${off:-?} sectors)" \
		cmp -i $((${off:-0} << 9)) "$a" "$b"
	# Discards through the target and md to both disks.
	mkfs.ext4 -q -F -E nodiscard /dev/mapper/cri
	mount -t ext4 /dev/mapper/cri $mnt || { fail "$label: mount"; md_cleanup; return; }
	# A first trim takes all the free space; the second only what the
	# deleted file freed.
	fstrim $mnt
	dd if=/dev/urandom of=$mnt/f bs=1M count=32 status=none
	sync
	rm $mnt/f
	sync
	n0=$(discarded "$a")
	n1=$(discarded "$b")
	check "$label: fstrim through the target" fstrim $mnt
	check "$label: the deleted file's 32 MiB discarded on one disk ($(($(discarded "$a") - n0)) sectors)" \
		test $(($(discarded "$a") - n0)) -ge $((32 << 11))
	check "$label: and on the other ($(($(discarded "$b") - n1)) sectors)" \
		test $(($(discarded "$b") - n1)) -ge $((32 << 11))
	umount $mnt
	check "$label: fsck clean" e2fsck -fn /dev/mapper/cri
	md_cleanup
}

# lv2_writes: writes completed on the volume vg-lv2 (/sys/block/dm-N/stat).
lv2_writes() {
	awk '{ print $5 }' "/sys/block/dm-$(dmsetup info -c --noheadings -o minor vg-lv2 | tr -d ' ')/stat"
}

lvm_case() {	# LABEL [FLAGS]
	local label=$1 flags=$2 dev lv=/dev/mapper/vg-lv lv2=/dev/mapper/vg-lv2
	local snap=/dev/mapper/vg-snap
	dev=$(leg 0) || { fail "$label: null_blk"; return; }
	dmsetup create cri --table "0 $((160 << 11)) crypt-inline aes-xts-plain64 $k 0 $dev 0${flags:+ $flags}"
	if ! lvm pvcreate -q /dev/mapper/cri || ! lvm vgcreate -q vg /dev/mapper/cri ||
		! lvm lvcreate -q -L 64m -n lv vg || ! lvm lvcreate -q -L 32m -n lv2 vg; then
		fail "$label: LVM volume group on the target"
		dmsetup remove_all
		rmdir $cfg/nullb/leg0
		return
	fi
	head -c $((64 << 20)) /dev/urandom >/tmp/old
	dd if=/tmp/old of=$lv bs=1M oflag=direct status=none
	check "$label: snapshot taken" lvm lvcreate -q -s -L 48m -n snap vg/lv
	fio_verify "$label: fio verify on the origin while it has a snapshot" $lv 0 32m
	check "$label: the snapshot holds the old data" cmp $snap /tmp/old
	# The merge's copies and fio's verify through the target at once: fio
	# writes a second volume of the group (the origin, opened, would make
	# LVM defer the merge to its next activation), the merge starts once fio
	# writes and must be done while fio still runs, and fio's writes must
	# have gone on while it ran.
	local fio_pid rc cow t0 w0 w1
	cow=$(dmsetup status vg-snap | awk '{ split($4, a, "/"); print int((a[1] - $5) / 2048) }')
	fio_run $lv2 0 32m 20 &
	fio_pid=$!
	# fio writing (up to 10 s for it to start), then the merge.
	local _
	for _ in $(seq 100); do
		[ "$(lv2_writes)" -lt 16 ] || break
		sleep 0.1
	done
	t0=$SECONDS
	w0=$(lv2_writes)
	timeout 120 lvm lvconvert -q -i 1 --merge vg/snap >/tmp/merge.out 2>&1
	rc=$?
	w1=$(lv2_writes)
	[ $rc = 0 ] || cat /tmp/merge.out
	check_eq "$label: merge of ${cow:-?} MiB started and finished ($((SECONDS - t0)) s)" $rc 0
	check "$label: ... while fio wrote through the target ($w0 writes before, $((w1 - w0)) during)" \
		test "$w0" -gt 0 -a "$w1" -gt "$w0"
	check "$label: ... and before fio ended" kill -0 $fio_pid
	wait $fio_pid
	rc=$?
	check_fio "$label: fio verify on another volume during the merge" $rc /tmp/fio.out
	check "$label: the snapshot is gone" sh -c '! lvm lvs --noheadings -o lv_name vg | grep -q snap'
	check "$label: the origin holds the old data after the merge" cmp $lv /tmp/old
	dd if=$lv of=/tmp/lv bs=1M iflag=direct status=none
	lvm vgchange -q -an vg >/dev/null
	dmsetup remove cri
	# In-tree dm-crypt sees the same volume group and the same bytes.
	dmsetup create ref --table "0 $((160 << 11)) crypt aes-xts-plain64 $k 0 $dev 0"
	if lvm vgchange -q -ay --poll n vg >/dev/null; then
		check "$label: dm-crypt sees the same volume" cmp $lv /tmp/lv
		lvm vgchange -q -an vg >/dev/null
	else
		fail "$label: dm-crypt activates the volume group"
	fi
	dmsetup remove ref
	rmdir $cfg/nullb/leg0
}

md_case queued ""
md_case force_inline "1 force_inline"
lvm_case queued ""
lvm_case force_inline "1 force_inline"
rmmod null_blk
finish
