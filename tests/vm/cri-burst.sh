#!/bin/bash
# Bursts of hard-IRQ read completions larger than one run of the deferral's
# budget, each followed by silence: every read must come back without
# another IO to wake it.  NVMe at queue depth 32 and more gives such
# bursts; here null_blk completes 4 KiB reads at queue depth 512 from 100 µs
# timers in hard-IRQ context on the CPU fio is pinned to (what they read
# was never written: only the path matters here).  fio reads for
# half a second, waits for all its reads, pauses, and again; a read that
# stays in flight with nothing completing for 1.5 s is stranded: it is
# counted, and released by one read on that CPU.  Under force_inline and
# under no_read_workqueue (cryptsetup's --perf-no_read_workqueue; 4 KiB
# reads stay below read_spread_min).  Then the same on the second CPU,
# which goes offline and online again all the while: reads on its list
# when it goes must complete on a live CPU.
# PREEMPT_RT expires null_blk's timers in a thread: nothing is deferred
# there (cri-irq checks that).
# vm-kernels: stock debug
# vm-guest: own
# (CPU hotplug: no later test inherits a CPU that went offline and back.)
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
modprobe null_blk nr_devices=1 gb=1 memory_backed=1 irqmode=2 \
	completion_nsec=100000 hw_queue_depth=1024 queue_mode=2 ||
	die "null_blk irqmode=2 hw_queue_depth=1024"
k=$(hexkey 64)
len=$((256 << 11))
[ "$(nproc)" -gt 1 ] || die "the guest has one CPU; the test needs two"
cpu1=/sys/devices/system/cpu/cpu1/online
[ -w $cpu1 ] || die "CPU 1 cannot go offline (no CPU hotplug)"
secs=12
[ -z "${CRI_QUICK:-}" ] || secs=8

blk() {
	dmsetup info -c --noheadings -o blkdevname cri
}

# reads_done, reads_inflight: of the target, from the block layer.
reads_done() {
	awk '{ print $1 }' "/sys/block/$(blk)/stat"
}
reads_inflight() {
	awk '{ print $1 }' "/sys/block/$(blk)/inflight"
}

# toggle_cpu1: once fio's reads complete, CPU 1 offline for 0.3 s every
# 0.7 s, fio put back on it each time it returns, in the background (pid in
# $toggle_pid).
toggle_cpu1() {
	(trap 'echo 1 >$cpu1; exit 0' TERM
	local r0
	r0=$(reads_done)
	while [ "$(reads_done)" = "$r0" ]; do sleep 0.1; done
	while :; do
		sleep 0.7
		echo 0 >$cpu1
		sleep 0.3
		echo 1 >$cpu1
		for p in $(pgrep -x fio); do taskset -a -p -c 1 "$p" >/dev/null; done
	done) &
	toggle_pid=$!
}

# bursts LABEL CPU [hotplug]: $secs seconds of fio's bursts pinned to CPU.
bursts() {
	local label=$1 cpu=$2 d0 e0 prev= now same=0 stuck=0 t0=$SECONDS
	d0=$(cri_counter cri deferred)
	e0=$(cri_counter cri errors)
	fio --name=burst --filename=/dev/mapper/cri --direct=1 --ioengine=libaio \
		--rw=randread --bs=4k --iodepth=512 --iodepth_batch_complete_max=512 \
		--thinktime=200ms --thinktime_iotime=500ms \
		--cpus_allowed="$cpu" --time_based --runtime=$secs --output=/tmp/fio.out &
	local fio_pid=$!
	[ -z "${3:-}" ] || toggle_cpu1
	while kill -0 $fio_pid 2>/dev/null && [ $((SECONDS - t0)) -lt $((secs + 60)) ]; do
		sleep 0.25
		now=$(reads_done)
		if [ "$(reads_inflight)" -gt 0 ] && [ "$now" = "$prev" ]; then
			same=$((same + 1))
		else
			same=0
		fi
		prev=$now
		[ $same -ge 6 ] || continue
		stuck=$((stuck + 1))
		echo "$label: $(reads_inflight) reads stranded after $((SECONDS - t0)) s"
		taskset -c "$cpu" dd if=/dev/mapper/cri of=/dev/null bs=4k count=1 iflag=direct status=none
		same=0
	done
	[ -z "${3:-}" ] || { kill $toggle_pid; wait $toggle_pid; }
	check "$label: fio ended" wait $fio_pid
	check "$label: reads deferred ($(($(cri_counter cri deferred) - d0)))" \
		test $(($(cri_counter cri deferred) - d0)) -gt $((secs * 128))
	check_eq "$label: times reads were stranded" "$stuck" "0"
	check_eq "$label: reads in flight at the end" "$(reads_inflight)" "0"
	check_eq "$label: no IO error" "$(($(cri_counter cri errors) - e0))" "0"
}

# The RT and debug kernels (CRI_PATHS) take one of the two tables: the
# deferral is the same code under both.
tables=("1 force_inline" "2 no_read_workqueue no_write_workqueue")
[ -z "${CRI_PATHS:-}" ] || tables=("${tables[0]}")
for flags in "${tables[@]}"; do
	dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/nullb0 0 $flags" ||
		{ fail "${flags#* }: table"; continue; }
	bursts "${flags#* }" 0
	dmsetup remove cri
done
dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/nullb0 0 1 force_inline" ||
	die "force_inline table"
bursts "force_inline, CPU 1 offline and online" 1 hotplug
dmsetup remove cri
check_eq "CPU 1 online at the end" "$(cat $cpu1)" "1"
check "CPU 1 runs timers again" timeout 10 taskset -c 1 sleep 0.2
rmmod null_blk
finish
