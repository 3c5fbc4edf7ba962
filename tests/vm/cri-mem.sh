#!/bin/bash
# Memory pressure and swap, on the queued and the force_inline path.
#
# - Writes at queue depth 32 (direct, and buffered beside them) run in a
#   memory cgroup held at its limit by hogs that allocate until the OOM
#   killer takes them, one after another: the IO completes and verifies
#   (our bios draw on mempools, never on the cgroup), and the kernel log
#   holds nothing but the hogs' OOM reports.
# - The target as a swap partition: a process in a cgroup of 48 MiB fills
#   128 MiB with random data, which must go out to swap through the target,
#   and reads it all back intact; a shell outside the cgroup keeps
#   answering meanwhile.
# The debug kernel (lockdep follows reclaim: an allocation of ours that
# could recurse into the writeback it serves is reported there) and RT
# (whose reclaim takes sleeping locks); both are Debian's 6.12 source, and
# what is ours here (mempools, allocations in reclaim's writeback) is the
# same code on 6.1.
# vm-kernels: rt debug
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
ramdisks 1 320 || die "brd"
k=$(hexkey 64)
len=$((320 << 11))
cg=/sys/fs/cgroup
if ! grep -q " $cg cgroup2 " /proc/mounts; then
	mount -t cgroup2 none $cg || die "cgroup2"
	trap 'umount $cg' EXIT
fi
echo +memory >$cg/cgroup.subtree_control || die "memory controller"
grp=$cg/cri-mem
mkdir -p $grp || die "cgroup"

# in_cgroup CMD...: CMD run inside $grp.
in_cgroup() {
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$grp" "$@"
}

# A hog: touches 1 MiB after another until the OOM killer takes it.
hog='
import os
open("/proc/self/comm", "w").write("cri-hog")
open("/proc/self/oom_score_adj", "w").write("1000")
held = []
while True:
    b = bytearray(1 << 20)
    for i in range(0, len(b), 4096):
        b[i] = 1
    held.append(b)
'

# The OOM reports of the hogs are the only signs of trouble allowed in the
# kernel log: every kill names a hog, and each stack dump belongs to one.
check_oom_log() {	# LABEL
	local log bad kills others
	log=$(dmesg)
	kills=$(grep -c "Killed process [0-9]* (cri-hog)" <<<"$log")
	others=$(grep "Killed process" <<<"$log" | grep -vc "(cri-hog)")
	check "$1: the OOM killer took hogs ($kills)" test "$kills" -gt 0
	check_eq "$1: and nothing else" "$others" "0"
	bad=$(grep -E "$_kernel_bug" <<<"$log" | grep -v "Call Trace:" | head -n 5)
	check_eq "$1: no other sign of trouble in the kernel log" "$bad" ""
	check "$1: a stack dump for each OOM report, none else" \
		test "$(grep -c "Call Trace:" <<<"$log")" -le "$(grep -c "invoked oom-killer" <<<"$log")"
	dmesg -C
}

oom_kills() {
	awk '$1 == "oom_kill" { print $2 }' $grp/memory.events
}

pressure_case() {	# LABEL [OPTS]
	local label=$1 flags=$2 fio_pid rc n=0 kills0
	dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/ram0 0${flags:+ $flags}" ||
		{ fail "$label: table"; return; }
	echo 96M >$grp/memory.max
	echo 0 >$grp/memory.swap.max
	kills0=$(oom_kills)
	in_cgroup fio --name=direct --filename=/dev/mapper/cri --direct=1 --ioengine=libaio \
		--rw=randwrite --bs=4k --iodepth=32 --size=96m --verify=crc32c \
		--verify_backlog=1024 --verify_fatal=1 --time_based --runtime=8 \
		--name=buffered --filename=/dev/mapper/cri --offset=128m --size=128m \
		--direct=0 --ioengine=psync --rw=write --bs=64k --verify=crc32c \
		--verify_fatal=1 --time_based --runtime=8 --output=/tmp/fio.out &
	fio_pid=$!
	while kill -0 $fio_pid 2>/dev/null; do
		in_cgroup "$PY" -c "$hog" 2>/dev/null
		n=$((n + 1))
	done
	wait $fio_pid
	rc=$?
	check_fio "$label: writes at qd 32 under the cgroup's limit, $n hogs" $rc /tmp/fio.out
	check "$label: the cgroup met its limit ($(($(oom_kills) - kills0)) OOM kills)" \
		test $(($(oom_kills) - kills0)) -gt 0
	check_oom_log "$label"
	check_eq "$label: no IO error counted" "$(cri_counter cri errors)" "0"
	dmsetup remove cri
}

# Fills MiB of random data in 1 MiB pieces, then checks every piece.
swapper='
import hashlib, os, sys
n = int(sys.argv[1])
pieces, sums = [], []
for _ in range(n):
    b = bytearray(os.urandom(1 << 20))
    pieces.append(b)
    sums.append(hashlib.sha256(b).digest())
bad = sum(hashlib.sha256(b).digest() != s for b, s in zip(pieces, sums))
print(f"{n - bad} of {n} MiB intact")
sys.exit(bad != 0)
'

vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

swap_case() {	# LABEL [OPTS]
	local label=$1 flags=$2 pid out0 in0 worst=0 t0 t rc
	dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/ram0 0${flags:+ $flags}" ||
		{ fail "$label: table"; return; }
	if ! mkswap /dev/mapper/cri >/dev/null || ! swapon /dev/mapper/cri; then
		fail "$label: swap on the target"
		dmsetup remove cri
		return
	fi
	echo 48M >$grp/memory.max
	echo max >$grp/memory.swap.max
	out0=$(vmstat pswpout)
	in0=$(vmstat pswpin)
	in_cgroup "$PY" -c "$swapper" 128 >/tmp/swapper.out 2>&1 &
	pid=$!
	# Responsive: a command outside the cgroup, timed while it swaps.
	while kill -0 $pid 2>/dev/null; do
		t0=$(date +%s%N)
		cat /proc/loadavg >/dev/null
		t=$((($(date +%s%N) - t0) / 1000000))
		[ $t -le $worst ] || worst=$t
		sleep 0.2
	done
	wait $pid
	rc=$?
	check_eq "$label: swapped data read back ($(cat /tmp/swapper.out))" "$rc" "0"
	check "$label: pages went out through the target ($(($(vmstat pswpout) - out0)))" \
		test $(($(vmstat pswpout) - out0)) -gt $((64 << 8))
	check "$label: and came back ($(($(vmstat pswpin) - in0)))" \
		test $(($(vmstat pswpin) - in0)) -gt 0
	check "$label: a shell outside answered within 2 s throughout (worst ${worst} ms)" \
		test $worst -lt 2000
	check "$label: swapoff" swapoff /dev/mapper/cri
	check_eq "$label: no IO error counted" "$(cri_counter cri errors)" "0"
	dmsetup remove cri
}

pressure_case queued ""
pressure_case force_inline "1 force_inline"
swap_case queued ""
swap_case force_inline "1 force_inline"
rmdir $grp
echo -memory >$cg/cgroup.subtree_control
finish
