#!/bin/bash
# A backing device that fails part of its IO (dm-error in the middle of a
# linear map): the errors reach the caller as errors, data around them is
# right, and nothing leaks, on the queued and the inline path.
. "$TOP/tests/lib.sh"

load_targets || die "loading targets"
ramdisks 1 16 || die "brd"
k=$(hexkey 64)
len=32768			# 16 MiB
bad_start=16384 bad_len=2048	# 1 MiB of errors at 8 MiB
dmsetup create under --table "0 $bad_start linear /dev/ram0 0
$bad_start $bad_len error
$((bad_start + bad_len)) $((len - bad_start - bad_len)) linear /dev/ram0 $((bad_start + bad_len))" ||
	die "dm-error map"
head -c $((len * 512)) /dev/urandom >/tmp/plain

for flags in "" "1 force_inline"; do
	tag=${flags:-queued}
	tag=${tag#1 }
	dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/mapper/under 0 $flags" ||
		{ fail "$tag: table"; continue; }
	check_fails "$tag: a write over the failing range fails" \
		dd if=/tmp/plain of=/dev/mapper/cri bs=64k oflag=direct status=none
	check "$tag: writes before it succeed" \
		dd if=/tmp/plain of=/dev/mapper/cri bs=64k count=128 oflag=direct status=none
	check "$tag: writes after it succeed" \
		dd if=/tmp/plain of=/dev/mapper/cri bs=64k skip=144 seek=144 oflag=direct status=none
	check_fails "$tag: a read of the failing range fails" \
		dd if=/dev/mapper/cri of=/dev/null bs=64k skip=128 count=16 iflag=direct status=none
	check_fails "$tag: a read spanning into it fails" \
		dd if=/dev/mapper/cri of=/dev/null bs=1M skip=7 count=2 iflag=direct status=none
	check "$tag: data before it reads back right" \
		cmp -n $((8 << 20)) /dev/mapper/cri /tmp/plain
	check "$tag: data after it reads back right" \
		cmp <(dd if=/dev/mapper/cri bs=64k skip=144 iflag=direct status=none) \
		<(dd if=/tmp/plain bs=64k skip=144 status=none)
	errors=$(cri_counter cri errors)
	check "$tag: errors counted ($errors)" test "$errors" -gt 0
	dmsetup remove cri
done
dmsetup remove under
check_eq "module unpinned" "$(cat /sys/module/dm_crypt_inline/refcnt)" "0"
check "module unloads" rmmod dm-crypt-inline
finish
