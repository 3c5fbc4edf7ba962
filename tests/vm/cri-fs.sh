#!/bin/bash
# Filesystems on top: ext4, xfs and btrfs made on crypt-inline over null_blk
# completing in hard-IRQ context (irqmode=2, as NVMe).  For each: files
# written first; then fsmix.py's metadata churn (creates, renames, links,
# truncates, xattrs, fsyncs) and fio verify on a file at once, while the
# `inline` message switches the device between queued, inline and each
# direction; the first files unchanged; unmounted, fsck clean; remounted,
# the whole tree as it was before the unmount (read from the device, not
# the page cache); and in-tree dm-crypt mounts the same device and sees the
# same tree.  ext4 on the stock and RT kernels, xfs and btrfs on the debug
# kernel (Debian's 6.12 source under KASAN, lockdep and the atomic-sleep
# checks: btrfs under fio is where the original inline patches slept in
# atomic context); the debug kernel's ext4 is cri-soak's, the same and more.
# vm-kernels: stock rt debug
# vm-check: stock
# (CI tier: ext4 on the stock kernels; RT's ext4 and the debug kernel's xfs and btrfs in the full tier)
. "$TOP/tests/lib/lib.sh"

fs_on_hardirq
rt=0
uname -v | grep -q PREEMPT_RT && rt=1
secs=8

# shellcheck disable=SC2317  # called through check
fsck_of() {	# FS DEVICE
	case $1 in
	ext4) e2fsck -fn "$2" ;;
	xfs) xfs_repair -n "$2" ;;
	btrfs) btrfs check --readonly "$2" ;;
	esac
}

mkfs_of() {	# FS DEVICE
	case $1 in
	ext4) mkfs.ext4 -q -F "$2" ;;
	xfs) mkfs.xfs -q -f "$2" ;;
	btrfs) mkfs.btrfs -q -f "$2" ;;
	esac
}

# The kernel can mount FS (built in, or a module it can load).
has_fs() {
	modprobe -q "$1" 2>/dev/null
	grep -qw "$1" /proc/filesystems
}

fs_case() {
	local fs=$1 rc sw
	dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/nullb0 0"
	if ! mkfs_of "$fs" /dev/mapper/cri >/tmp/mkfs.out 2>&1; then
		fail "$fs: mkfs" "$(tail -n 3 /tmp/mkfs.out | tr '\n' ' ')"
		dmsetup remove cri
		return
	fi
	mount -t "$fs" /dev/mapper/cri $mnt || { fail "$fs: mount"; dmsetup remove cri; return; }
	check "$fs: files written first" mix run $mnt/before 2 1
	sync
	mix manifest $mnt/before >/tmp/before
	# Churn and fio at once while the paths switch.
	inline_switcher cri 0.3
	fio --name=fsv --directory=$mnt --size=48m --rw=randwrite --bs=4k-64k \
		--ioengine=libaio --direct=1 --iodepth=8 --verify=crc32c \
		--verify_backlog=256 --verify_fatal=1 --do_verify=1 \
		--time_based --runtime=$secs --output=/tmp/fio.out &
	local fio_pid=$!
	mix run $mnt/mix $secs 2 >/tmp/mix.out 2>&1
	rc=$?
	wait $fio_pid
	local frc=$?
	kill $sw_pid
	wait $sw_pid
	sw=$(cat /tmp/switches)
	check_eq "$fs: metadata churn ($(tr '\n' ' ' </tmp/mix.out))" "$rc" "0"
	check_fio "$fs: fio verify on the filesystem" $frc /tmp/fio.out
	check "$fs: the inline message switched paths during the run ($sw)" test "$sw" -ge 8
	check_fails "$fs: every switch accepted" test -s /tmp/switches.err
	# Both paths served (one direction inline, the other queued, counts).
	check_paths "$fs" "no_read_workqueue"
	dmsetup message cri 0 inline on
	check "$fs: the files written first unchanged" \
		cmp /tmp/before <(mix manifest $mnt/before)
	mix manifest $mnt >/tmp/tree
	umount $mnt
	check "$fs: fsck clean after the run" fsck_of "$fs" /dev/mapper/cri
	# Remounted, with the page cache dropped: every byte from the device,
	# decrypted inline from hard-IRQ completions.
	echo 3 >/proc/sys/vm/drop_caches
	local d0
	d0=$(cri_counter cri deferred)
	if mount -t "$fs" /dev/mapper/cri $mnt; then
		check "$fs: after a remount, the tree as it was" \
			cmp /tmp/tree <(mix manifest $mnt)
		umount $mnt
	else
		fail "$fs: remount"
	fi
	local deferred=$(($(cri_counter cri deferred) - d0))
	if [ $rt = 0 ]; then
		check "$fs: the remount's reads deferred out of hard IRQ ($deferred)" test "$deferred" -gt 100
	fi
	check_eq "$fs: no IO error counted" "$(cri_counter cri errors)" "0"
	dmsetup remove cri
	# The same bytes as dm-crypt would write: it mounts the device and sees
	# the same tree.
	dmsetup create ref --table "0 $len crypt aes-xts-plain64 $k 0 /dev/nullb0 0"
	if mount -t "$fs" -o ro /dev/mapper/ref $mnt; then
		check "$fs: dm-crypt sees the same tree" cmp /tmp/tree <(mix manifest $mnt)
		umount $mnt
	else
		fail "$fs: dm-crypt mounts it"
	fi
	dmsetup remove ref
}

# xfs and btrfs on the debug kernel only: the filesystem changes which bios
# come, not which of our paths they take, and CI time is short.
fss=ext4
case $(uname -r) in *-cri-debug) fss="xfs btrfs" ;; esac
for fs in $fss; do
	if has_fs "$fs"; then
		fs_case "$fs"
	else
		fail "$fs: the kernel has it"
	fi
done
rmmod null_blk
finish
