#!/bin/bash
# Host-managed zoned devices (null_blk zoned=1), as in-tree dm-crypt takes
# them: both targets load on one, the device-mapper device is host-managed
# with the same zones, writes are never queued (the table shows
# no_write_workqueue, as dm-crypt's does, and the inline message cannot
# queue them), sequential writes leave the same bytes as dm-crypt's and
# each reads the other's, zone reports and resets go to the right zones
# (also with an offset), a write off the write pointer fails, fio's zoned
# verify passes (dm core keeps one write per zone in flight) with a
# synchronous and an asynchronous tfm: its 64 KiB writes are spread to the
# workqueue under zone write plugging (6.10+), and every write reaches the
# device from map() before it (6.1), and a table of conventional zones
# only takes large writes.  The debug kernel has no zoned block devices, and
# nothing here runs in another context than the inline path of cri-format.
# vm-kernels: stock
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
# Zone 0 conventional, the rest sequential; null_blk takes requests and
# zone appends up to 2 MiB, more than one ciphertext clone (1 MiB).
modprobe null_blk nr_devices=2 gb=1 memory_backed=1 zoned=1 zone_size=4 \
	zone_nr_conv=1 queue_mode=2 max_sectors=4096 || die "zoned null_blk"
zs=8192				# sectors per 4 MiB zone
len=$((4 * zs))			# four zones mapped
k64=$(hexkey 64)
check_eq "null_blk is host-managed" "$(cat /sys/block/nullb0/queue/zoned)" "host-managed"
n=$((3 * zs * 512 / 2))		# zone 0 full, zone 1 half written
head -c $n /dev/urandom >/tmp/plain

dmname() { dmsetup info -c --noheadings -o blkdevname "$1"; }
opts() { dmsetup table "$1" | cut -d' ' -f9-; }

check "dm-crypt loads on a zoned device" \
	dmsetup create ref --table "0 $len crypt aes-xts-plain64 $k64 0 /dev/nullb0 0"
check "crypt-inline loads on a zoned device" \
	dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k64 0 /dev/nullb1 0"
check_eq "crypt-inline device is host-managed" \
	"$(cat /sys/block/"$(dmname cri)"/queue/zoned)" "host-managed"
check_eq "same zone size as dm-crypt's" \
	"$(cat /sys/block/"$(dmname cri)"/queue/chunk_sectors)" \
	"$(cat /sys/block/"$(dmname ref)"/queue/chunk_sectors)"
check_eq "optional arguments as dm-crypt prints them" "$(opts cri)" "$(opts ref)"
check_eq "writes inline" "$(opts cri)" "1 no_write_workqueue"
check_fails "inline off refused (writes would be queued)" dmsetup message cri 0 inline off
check_fails "inline read refused" dmsetup message cri 0 inline read
check "inline on accepted" dmsetup message cri 0 inline on
check "inline auto accepted" dmsetup message cri 0 inline auto
check "inline write accepted" dmsetup message cri 0 inline write
check "requests kept within one ciphertext clone" \
	test "$(cat /sys/block/"$(dmname cri)"/queue/max_hw_sectors_kb)" -le 1024
# An emulated zone append longer than a clone would be cut in map(), which
# dm core fails after the fact (6.1): appends are kept within one.
check "zone appends kept within one ciphertext clone" \
	test "$(cat /sys/block/"$(dmname cri)"/queue/zone_append_max_bytes)" -le 1048576

# Sequential 2 MiB writes (split into whole clones, never cut apart).
for d in ref cri; do
	dd if=/tmp/plain of=/dev/mapper/$d bs=2M oflag=direct status=none ||
		fail "$d: sequential writes"
done
check "identical bytes on the zoned devices" cmp -n $n /dev/nullb0 /dev/nullb1
check "crypt-inline reads its writes" cmp -n $n /dev/mapper/cri /tmp/plain
report() { blkzone report -c 4 "$1" | sed 's/^ *//'; }
check_eq "zone report as dm-crypt's" "$(report /dev/mapper/cri)" "$(report /dev/mapper/ref)"
check_fails "a write off the write pointer fails" \
	dd if=/tmp/plain of=/dev/mapper/cri bs=4k count=1 seek=$(((3 * zs + 8) / 8)) oflag=direct status=none
dmsetup remove ref cri

dmsetup create ref --table "0 $len crypt aes-xts-plain64 $k64 0 /dev/nullb1 0"
dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k64 0 /dev/nullb0 0"
check "crypt-inline reads dm-crypt's" cmp -n $n /dev/mapper/cri /tmp/plain
check "dm-crypt reads crypt-inline's" cmp -n $n /dev/mapper/ref /tmp/plain
dmsetup remove ref cri

# zoned_fio LABEL: fio's zoned write and verify through cri at queue depth
# 4.  Without zone write plugging every write must reach the device from
# map(), in fio's own task: the block layer's trace names who queued each
# write on nullb1.
zoned_fio() {
	local t=/sys/kernel/tracing dev
	grep -q " $t tracefs " /proc/mounts || mount -t tracefs none $t
	dev=$(cat /sys/block/nullb1/dev)
	echo 0 >$t/tracing_on
	echo >$t/trace
	echo 1 >$t/events/block/block_bio_queue/enable
	echo 1 >$t/tracing_on
	check "$1: fio zoned write and verify, qd 4" fio --name=z --filename=/dev/mapper/cri \
		--zonemode=zbd --direct=1 --ioengine=libaio --iodepth=4 --rw=write --bs=64k \
		--size=$((3 * zs * 512)) --verify=crc32c --do_verify=1 --output=/tmp/fio.out
	echo 0 >$t/tracing_on
	echo 0 >$t/events/block/block_bio_queue/enable
	grep -q "err= 0" /tmp/fio.out || fail "$1: fio: no errors" "$(grep -m1 err= /tmp/fio.out)"
	grep "block_bio_queue: ${dev/:/,} W" $t/trace | sed 's/.*\[\(.*\)\]$/\1/' | sort | uniq -c >/tmp/submitters
	check "$1: writes traced on nullb1" test -s /tmp/submitters
	zone_write_plugging ||
		check_eq "$1: every write queued on nullb1 by fio itself" \
			"$(awk '{ print $2 }' /tmp/submitters | sort -u | tr '\n' ' ')" "fio "
}

# With an offset of one zone, zone 0 of the target is zone 1 below.
dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k64 0 /dev/nullb1 $zs"
# wp DEV SECTOR: the write pointer of that zone, from its start, in decimal.
wp() {
	local w
	w=$(blkzone report -o "$2" -c 1 "$1" | sed -n 's/.*wptr 0x\([0-9a-f]*\).*/\1/p')
	[ -n "$w" ] && echo $((16#$w)) || echo none
}
check_eq "zone 0 of the target is zone 1 below (half written)" \
	"$(wp /dev/mapper/cri 0)" "$((zs / 2))"
zone0() { dd if=/dev/nullb1 bs=1M count=4 iflag=direct status=none | md5sum; }
before=$(zone0)
check "zone reset through the target" blkzone reset -o 0 -c 1 /dev/mapper/cri
check_eq "reset reached zone 1 below" "$(wp /dev/nullb1 $zs)" "0"
check_eq "zone 0 below untouched" "$(zone0)" "$before"
zoned_fio "64 KiB writes"
if zone_write_plugging; then
	check "fio's writes were spread to the workqueue ($(cri_counter cri spread_writes))" \
		test "$(cri_counter cri spread_writes)" -gt 0
else
	check_eq "no write spread to the workqueue" "$(cri_counter cri spread_writes)" "0"
fi
dmsetup remove cri
# An asynchronous tfm: every sector's answer comes in cryptd's worker.
dmsetup create cri --table "0 $len crypt-inline capi:cryptd(xts(ecb(aes-generic)))-plain64 $k64 0 /dev/nullb1 $zs"
blkzone reset /dev/mapper/cri
zoned_fio "async tfm"
dmsetup remove cri

# A table of conventional zones only: the dm device is not zoned on 6.12,
# whose dm core then leaves its bios whole: a 4 MiB write from huge pages
# comes as one bio of more than a clone's pages.
dmsetup create conv --table "0 $zs crypt-inline aes-xts-plain64 $k64 0 /dev/nullb1 0"
check_eq "conventional zones only: a 4 MiB write from huge pages" \
	"$($PY "$TLIB/dio-huge.py" /dev/mapper/conv $((zs * 512)))" "ok"
dmsetup remove conv

rmmod null_blk
check "module unloads" rmmod dm-crypt-inline
finish
