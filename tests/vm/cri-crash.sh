#!/bin/bash
# Power cuts, replayed: dm-log-writes beneath crypt-inline records every
# write that reached the disk, with its flush and FUA flags, while ext4 on
# top takes files that are each fsynced and then acknowledged (logged as a
# mark), beside fsmix.py's metadata churn.  logreplay.py then rebuilds the
# disk entry by entry and stops at every flush and FUA write: a copy of
# that state, opened by in-tree dm-crypt (the bytes are the same), must
# mount, hold every file acknowledged before that point with its data, and
# fsck clean after the unmount.  Once with the queued path and once with
# force_inline.
# On the stock 6.12 and the debug kernel: what the states judge, the order
# of our writes and flushes, is the same code on every kernel, and the
# debug kernel adds KASAN and lockdep to the recording (our clones' flushes
# and FUA writes completing through dm-log-writes); there, slower, fewer
# states are made and a third of them judged.
# vm-kernels: stock-6.12 debug
# vm-check: none
# (CI tier: none; the order of our writes and flushes is cri-format's and cri-fs's ext4 there)
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
modprobe dm-log-writes || die "dm-log-writes"
# ram0 the disk, ram1 the log, ram2 the replayed disk, ram3 its copy;
# 16 MiB of each but the log (brd allocates on write).
ramdisks 4 256 || die "brd"
k=$(hexkey 64)
mb=16
len=$((mb << 11))
mnt=/tmp/mnt
mkdir -p $mnt
files=4 every=1
# The debug kernel: two files, the first and every third state judged (and
# the log's end when the last state was passed over).
[ -z "${CRI_QUICK:-}" ] || { files=2; every=3; }

# The check of one state (logreplay.py runs it with MARKS set).
cat >/tmp/crash-check <<EOF
#!/bin/bash
set -u
dd if=/dev/ram2 of=/dev/ram3 bs=1M count=$mb oflag=direct status=none
dmsetup create chk --table "0 $len crypt aes-xts-plain64 $k 0 /dev/ram3 0" || exit 1
rc=0
if mount -t ext4 /dev/mapper/chk $mnt 2>/tmp/crash-mount; then
	# The files acknowledged before this point, with their hashes.
	awk 'NR == FNR { m[\$1]; next } \$1 in m { print \$2 "  $mnt/acked/" \$1 }' \
		"\$MARKS" /tmp/acked.list >/tmp/crash-want
	echo "fsmix: \$(wc -l </tmp/crash-want) acknowledged files checked" >>/tmp/crash-acked
	[ ! -s /tmp/crash-want ] || sha256sum -c --quiet /tmp/crash-want || rc=1
	umount $mnt
	e2fsck -fn /dev/mapper/chk >/tmp/crash-fsck 2>&1 || { echo "fsck: \$(tail -n 3 /tmp/crash-fsck)"; rc=1; }
else
	echo "mount: \$(cat /tmp/crash-mount)"
	rc=1
fi
dmsetup remove chk
exit \$rc
EOF
chmod +x /tmp/crash-check

crash_case() {	# LABEL [OPT...]
	local label=$1 opts=("${@:2}") rc
	blkdiscard /dev/ram0; blkdiscard /dev/ram1; blkdiscard /dev/ram2
	: >/tmp/acked.list
	: >/tmp/crash-acked
	dmsetup create lw --table "0 $len log-writes /dev/ram0 /dev/ram1" || { fail "$label: log-writes"; return; }
	dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/mapper/lw 0${opts[*]:+ ${#opts[@]} ${opts[*]}}"
	if ! mkfs.ext4 -q -F /dev/mapper/cri || ! mount -t ext4 /dev/mapper/cri $mnt; then
		fail "$label: mkfs and mount"
		dmsetup remove cri lw
		return
	fi
	sync
	dmsetup message lw 0 mark mkfs
	FSMIX_NO_FSYNC=1 FSMIX_MAX_MB=2 "$PY" "$TLIB/fsmix.py" run $mnt/churn 600 3 1 >/tmp/churn.out 2>&1 &
	local churn=$! _
	# Running (its workers made their directories, its SIGTERM handler
	# set) before the files come and before it is stopped.
	for _ in $(seq 100); do
		[ ! -d $mnt/churn/w0 ] || break
		sleep 0.1
	done
	sleep 0.5
	check "$label: $files files fsynced and acknowledged as marks" \
		mix acked $mnt/acked $files /tmp/acked.list dmsetup message lw 0 mark
	kill $churn
	wait $churn
	rc=$?
	check_eq "$label: metadata churn beside them ($(tr '\n' ' ' </tmp/churn.out))" "$rc" "0"
	check "$label: and the churn did something" grep -q "^fsmix: [1-9][0-9]* operations" /tmp/churn.out
	umount $mnt
	dmsetup remove cri lw
	local out
	out=$($PY "$TLIB/logreplay.py" --after-mark mkfs --every $every /dev/ram1 /dev/ram2 /tmp/crash-check 2>&1)
	rc=$?
	check_eq "$label: every judged flush/FUA state mounts, holds what was acknowledged, fsck clean ($(echo "$out" | tail -n 1))" \
		"$rc" "0"
	[ $rc = 0 ] || echo "$out" | tail -n 8
	local checked
	checked=$(awk '{ n += $2 } END { print n + 0 }' /tmp/crash-acked)
	check "$label: acknowledged files checked across the states ($checked)" test "$checked" -ge "$files"
	check "$label: the last state holds all $files files" \
		grep -q "^fsmix: $files acknowledged files checked$" <(tail -n 1 /tmp/crash-acked)
}

crash_case queued
crash_case force_inline force_inline
finish
