#!/bin/bash
# Inline reads over a device that completes in hard-IRQ context (null_blk
# with timer completions) are deferred to softirq context, decrypt right,
# and leave the kernel log clean; softirq completions are decrypted in place.
# The old formats (lmk, tcw, eboiv, elephant) take the deferred path too.
. "$TOP/tests/lib.sh"

load_targets || die "loading targets"
k=$(hexkey 64)
head -c $((16 << 20)) /dev/urandom >/tmp/plain

# irqmode 2: an hrtimer completes each request, in hard-IRQ context (on
# PREEMPT_RT such timers expire in a thread: nothing to defer there).
# irqmode 1: completions run in softirq context.
rt=0
uname -v | grep -q PREEMPT_RT && rt=1
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
