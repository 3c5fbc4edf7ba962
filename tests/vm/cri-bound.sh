#!/bin/bash
# The bound on ciphertext pages, side by side with in-tree dm-crypt: four
# devices of each target share 2% of RAM (at least 16 MiB each), and a
# write burst much larger than one device's share (512 writes of 128 KiB in
# flight for a second each on null_blk) takes no more memory through
# crypt-inline than through dm-crypt, queued beside dm-crypt's default and
# force_inline beside its no-workqueue flags; fio sees no error:
# at the bound writes wait for pages, they never fail.  The memory a burst
# takes is the fall of MemFree during it (fio's own buffers fall the same
# in every run; null_blk keeps no data).
# vm-kernels: stock
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
modprobe null_blk nr_devices=1 gb=8 memory_backed=0 irqmode=2 \
	completion_nsec=1000000000 hw_queue_depth=1024 queue_mode=2 ||
	die "null_blk with 1 s completions"
k=$(hexkey 64)
len=$((1 << 21))		# 1 GiB each
for i in 0 1 2 3; do
	dmsetup create ref$i --table "0 $len crypt aes-xts-plain64 $k 0 /dev/nullb0 $((i * len))" ||
		die "dm-crypt device $i"
done

# memfree: KiB free, counting the pages in the CPUs' page lists, which
# MemFree does not (they grow and shrink with where pages are freed).
memfree() {
	awk '/^ *count:/ { pcp += $2 } END { print pcp * 4 }' /proc/zoneinfo |
		cat - /proc/meminfo | awk 'NR == 1 { kib = $1 } /^MemFree:/ { print kib + $2 }'
}

# burst DEV: how many KiB of memory fio's write burst on DEV took at its
# peak, in $took; fio's output in /tmp/fio.out, its status in $fio_rc.
burst() {
	local base low=999999999 m
	sync
	echo 3 >/proc/sys/vm/drop_caches
	base=$(memfree)
	fio --name=bound --filename="$1" --direct=1 --ioengine=libaio --rw=write \
		--bs=128k --iodepth=512 --time_based --runtime=3 --output=/tmp/fio.out &
	local pid=$!
	while kill -0 $pid 2>/dev/null; do
		m=$(memfree)
		[ "$m" -lt "$low" ] && low=$m
		sleep 0.05
	done
	wait $pid
	fio_rc=$?
	took=$((base - low))
}

# Queued beside dm-crypt's default, force_inline beside dm-crypt with both
# no-workqueue flags: pages taken and freed in the same contexts.
for pair in "|" "2 no_read_workqueue no_write_workqueue|1 force_inline"; do
	flags=${pair#*|}
	tag=${flags:-queued}
	tag=${tag#1 }
	dmsetup suspend ref0
	dmsetup load ref0 --table "0 $len crypt aes-xts-plain64 $k 0 /dev/nullb0 0 ${pair%|*}"
	dmsetup resume ref0
	burst /dev/mapper/ref0
	ref=$took
	check_fio "$tag: dm-crypt" $fio_rc /tmp/fio.out
	for i in 0 1 2 3; do
		dmsetup create cri$i --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/nullb0 $((i * len)) $flags" ||
			die "crypt-inline device $i"
	done
	burst /dev/mapper/cri0
	ours=$took
	check_fio "$tag" $fio_rc /tmp/fio.out
	echo "burst: dm-crypt took $((ref >> 10)) MiB, crypt-inline $tag $((ours >> 10)) MiB"
	check "$tag: a burst takes at most 8 MiB more than through dm-crypt ($((ours >> 10)) vs $((ref >> 10)) MiB)" \
		test "$ours" -le $((ref + (8 << 10)))
	dmsetup remove cri0 cri1 cri2 cri3
done
dmsetup remove ref0 ref1 ref2 ref3
rmmod null_blk
finish
