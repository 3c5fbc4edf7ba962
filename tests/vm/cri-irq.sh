#!/bin/bash
# Inline reads over a device that completes in hard-IRQ context (null_blk
# with timer completions) are deferred to softirq context, decrypt right,
# and leave the kernel log clean; softirq completions are decrypted in place.
# The old formats (lmk, tcw, eboiv, elephant) take the deferred path too.
# The read policy: under no_read_workqueue, pieces of read_spread_min bytes
# or more go to the workqueue from hard IRQ (spread), smaller ones are
# deferred as with force_inline, which never spreads; the same for writes
# of write_spread_min bytes under no_write_workqueue, which dm-crypt reads
# back; fio verifies data on both paths at once while the parameters change.
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
k=$(hexkey 64)
head -c $((16 << 20)) /dev/urandom >/tmp/plain

# irqmode 2: an hrtimer completes each request, in hard-IRQ context (on
# PREEMPT_RT such timers expire in a thread: nothing to defer there).
# irqmode 1: completions run in softirq context.
rt=0
uname -v | grep -q PREEMPT_RT && rt=1
params=/sys/module/dm_crypt_inline/parameters

# delta DEVICE COUNTER COMMAND...: how much COUNTER grew while COMMAND ran.
delta() {
	local dev=$1 c=$2 n0
	shift 2
	n0=$(cri_counter "$dev" "$c")
	"$@"
	echo $(($(cri_counter "$dev" "$c") - n0))
}

readdirect() {	# BS COUNT
	dd if=/dev/mapper/cri of=/dev/null bs="$1" count="$2" iflag=direct status=none
}

writedirect() {	# BS COUNT
	dd if=/tmp/plain of=/dev/mapper/cri bs="$1" count="$2" oflag=direct status=none
}

# The write side of the policy, on the device spread_policy made.
write_spread() {
	local len=$1
	check_eq "write_spread_min defaults to 64 KiB" "$(cat $params/write_spread_min)" "65536"
	# Eight pieces each, or one where dm-crypt cuts writes only at a clone.
	if dmcrypt_has_max_io_size; then
		check_eq "no_write_workqueue: 16 writes of 1 MiB, 128 pieces spread" \
			"$(delta cri spread_writes writedirect 1M 16)" "128"
	else
		check_eq "no_write_workqueue: 16 writes of 1 MiB, spread whole" \
			"$(delta cri spread_writes writedirect 1M 16)" "16"
	fi
	check_eq "no_write_workqueue: 4 KiB writes not spread" "$(delta cri spread writedirect 4k 256)" "0"
	check_eq "no_write_workqueue: 64 KiB writes spread" "$(delta cri spread_writes writedirect 64k 64)" "64"
	check_eq "no_write_workqueue: spread writes are counted as spread too" \
		"$(delta cri spread writedirect 64k 64)" "64"
	echo 0 >$params/write_spread_min
	check_eq "write_spread_min=0: nothing spread" "$(delta cri spread writedirect 1M 16)" "0"
	echo 65536 >$params/write_spread_min
	writedirect 1M 16
	dmsetup remove cri
	dmsetup create ref --table "0 $len crypt aes-xts-plain64 $k 0 /dev/nullb0 0"
	check "no_write_workqueue: dm-crypt reads the spread writes" \
		cmp -n $((16 << 20)) /dev/mapper/ref /tmp/plain
	dmsetup remove ref
}

# On the null_blk of irqmode=2 (hard-IRQ completions, but on PREEMPT_RT).
spread_policy() {
	local len=$((64 << 11)) n
	# The guests have 2 CPUs (scripts/vm); with one, nothing may spread.
	[ "$(nproc)" -gt 1 ] || { check_eq "the guest has the 2 CPUs the policy needs" "$(nproc)" "2"; return; }
	check_eq "read_spread_min defaults to 64 KiB" "$(cat $params/read_spread_min)" "65536"
	dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/nullb0 0 2 no_read_workqueue no_write_workqueue"
	dd if=/tmp/plain of=/dev/mapper/cri bs=1M oflag=direct status=none
	n=$(delta cri spread readdirect 1M 16)
	if dmcrypt_has_max_io_size; then
		check_eq "no_read_workqueue: 16 reads of 1 MiB, 128 pieces spread" "$n" "128"
		check_eq "no_read_workqueue: each 1 MiB read split 7 times, as dm-crypt's" \
			"$(delta cri split readdirect 1M 16)" "112"
	else
		check_eq "no_read_workqueue: 16 reads of 1 MiB spread whole" "$n" "16"
		check_eq "no_read_workqueue: spread reads not split, as dm-crypt's" \
			"$(delta cri split readdirect 1M 16)" "0"
	fi
	check_eq "no_read_workqueue: spread reads are not counted as writes" \
		"$(delta cri spread_writes readdirect 1M 16)" "0"
	check_eq "no_read_workqueue: spread pieces are never deferred" "$(delta cri deferred readdirect 1M 4)" "0"
	check_eq "no_read_workqueue: 4 KiB reads not spread" "$(delta cri spread readdirect 4k 256)" "0"
	check_eq "no_read_workqueue: 32 KiB reads not spread" "$(delta cri spread readdirect 32k 64)" "0"
	check_eq "no_read_workqueue: 64 KiB reads spread" "$(delta cri spread readdirect 64k 64)" "64"
	[ $rt = 1 ] || check "no_read_workqueue: 4 KiB reads deferred" \
		test "$(delta cri deferred readdirect 4k 256)" -gt 0
	check "no_read_workqueue: spread reads decrypt right" \
		cmp -n $((16 << 20)) /dev/mapper/cri /tmp/plain
	echo 0 >$params/read_spread_min
	check_eq "read_spread_min=0: nothing spread" "$(delta cri spread readdirect 1M 16)" "0"
	check_eq "read_spread_min=0: inline reads cut at 128 KiB" "$(delta cri split readdirect 1M 16)" "112"
	# No piece over 128 KiB is decrypted inline: with max_read_size at 256
	# KiB and read_spread_min at 512 KiB, where dm-crypt cuts reads the
	# pieces are 128 KiB and inline; where it does not, a 1 MiB read's
	# first three 256 KiB pieces (each cut from 512 KiB or more) are
	# spread and its last 256 KiB goes inline as two pieces of 128 KiB.
	echo $((512 << 10)) >$params/read_spread_min
	echo $((256 << 10)) >$params/max_read_size
	local i0 s0
	i0=$(cri_counter cri inline)
	s0=$(cri_counter cri spread)
	readdirect 1M 16
	i0=$(($(cri_counter cri inline) - i0))
	s0=$(($(cri_counter cri spread) - s0))
	if dmcrypt_has_max_io_size; then
		check_eq "max_read_size 256 KiB, read_spread_min 512 KiB: 128 KiB pieces, inline" \
			"$s0 spread of $i0" "0 spread of 128"
	else
		check_eq "max_read_size 256 KiB, read_spread_min 512 KiB: 256 KiB pieces spread, 128 KiB inline" \
			"$s0 spread of $i0" "48 spread of 80"
	fi
	echo 0 >$params/max_read_size
	echo 65536 >$params/read_spread_min
	write_spread $len
	dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/nullb0 0 1 force_inline"
	check_eq "force_inline: 1 MiB reads never spread" "$(delta cri spread readdirect 1M 16)" "0"
	check_eq "force_inline: 1 MiB writes never spread" "$(delta cri spread writedirect 1M 16)" "0"
	dmsetup remove cri
	# Both paths at once, under fio's verify, while the threshold moves
	# between every piece being spread and none (but 1 MiB reads on 6.1,
	# spread whole either way).
	dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/nullb0 0 2 no_read_workqueue no_write_workqueue"
	(while :; do
		echo 4096 >$params/read_spread_min
		echo $((1 << 20)) >$params/write_spread_min
		sleep 0.2
		echo $((1 << 20)) >$params/read_spread_min
		echo 4096 >$params/write_spread_min
		sleep 0.2
	done) &
	local flip=$! loops=3
	[ -z "${CRI_QUICK:-}" ] || loops=1
	fio --name=spread --filename=/dev/mapper/cri --direct=1 --ioengine=libaio \
		--iodepth=8 --rw=randwrite --bsrange=4k-1m --size=32m --loops=$loops \
		--verify=crc32c --do_verify=1 --verify_fatal=1 --output=/tmp/fio.out
	local rc=$?
	kill $flip
	wait $flip 2>/dev/null
	check_fio "no_read/no_write_workqueue: fio verify while the *_spread_min move" $rc /tmp/fio.out
	echo 65536 >$params/read_spread_min
	echo 65536 >$params/write_spread_min
	local w r
	w=$(cri_counter cri spread_writes)
	r=$(($(cri_counter cri spread) - w))
	check "no_read/no_write_workqueue: fio's writes were spread ($w)" test "$w" -gt 0
	check "no_read/no_write_workqueue: fio's reads were spread ($r)" test "$r" -gt 0
	dmsetup remove cri
}

for mode in 2 1; do
	rmmod null_blk 2>/dev/null
	modprobe null_blk nr_devices=1 gb=1 memory_backed=1 irqmode=$mode \
		completion_nsec=20000 queue_mode=2 || { fail "null_blk irqmode=$mode"; continue; }
	len=$((64 << 11))
	dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/nullb0 0 1 force_inline"
	dd if=/tmp/plain of=/dev/mapper/cri bs=64k oflag=direct status=none
	check "irqmode=$mode: verified read-back" cmp -n $((16 << 20)) /dev/mapper/cri /tmp/plain
	deferred=$(cri_counter cri deferred)
	if [ $mode = 2 ] && [ $rt = 0 ]; then
		check "irqmode=$mode: hard-IRQ completions deferred ($deferred)" test "$deferred" -gt 0
	elif [ $mode = 2 ]; then
		check_eq "irqmode=$mode, PREEMPT_RT: timer-thread completions decrypted in place" "$deferred" "0"
	else
		check_eq "irqmode=$mode: softirq completions decrypted in place" "$deferred" "0"
	fi
	dmsetup remove cri
	# The same bytes as dm-crypt would read.
	dmsetup create ref --table "0 $len crypt aes-xts-plain64 $k 0 /dev/nullb0 0"
	check "irqmode=$mode: dm-crypt reads the same plaintext" cmp -n $((16 << 20)) /dev/mapper/ref /tmp/plain
	dmsetup remove ref
	[ $mode = 2 ] || continue
	spread_policy
	# The old formats' work before and after the cipher, deferred too.
	for spec in "aes:64-cbc-lmk $(hexkey 2080) 1 force_inline" \
		"aes-cbc-tcw $(hexkey 64) 1 force_inline" \
		"aes-cbc-eboiv $(hexkey 32) 3 force_inline sector_size:4096 iv_large_sectors" \
		"aes-cbc-elephant $(hexkey 64) 3 force_inline sector_size:4096 iv_large_sectors"; do
		set -- $spec
		len=$((4 << 11))
		dmsetup create cri --table "0 $len crypt-inline $1 $2 0 /dev/nullb0 0 ${*:3}"
		dd if=/tmp/plain of=/dev/mapper/cri bs=64k count=64 oflag=direct status=none
		check "irqmode=$mode, ${1#*-}: verified read-back" cmp -n $((4 << 20)) /dev/mapper/cri /tmp/plain
		[ $rt = 1 ] || check "irqmode=$mode, ${1#*-}: deferred" test "$(cri_counter cri deferred)" -gt 0
		dmsetup remove cri
		dmsetup create ref --table "0 $len crypt $1 $2 0 /dev/nullb0 0 $(($3 - 1)) ${*:5}"
		check "irqmode=$mode, ${1#*-}: dm-crypt reads the same plaintext" cmp -n $((4 << 20)) /dev/mapper/ref /tmp/plain
		dmsetup remove ref
	done
done
rmmod null_blk
finish
