#!/bin/bash
# The backing device gone mid-IO, on the queued and the force_inline path:
# - a dm-linear device beneath is reloaded as `error` while fio verifies;
# - a null_blk device completing in hard-IRQ context (as NVMe) is powered
#   off through configfs while fio verifies (a surprise removal).
# In each case fio ends with IO errors instead of hanging, reads and writes
# of the target fail with EIO, the errors are counted, and the target is
# removed cleanly; the kernel log holds no sign of a kernel bug.
# vm-kernels: stock debug
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
ramdisks 1 64 || die "brd"
nullb_configfs || die "null_blk through configfs"
k=$(hexkey 64)
len=$((64 << 11))

# io_dies LABEL CUT...: fio verifies on the target while CUT runs 2 s in;
# fio must end within 30 s with IO errors, the target fail IO with EIO
# and count errors, and go away cleanly.
io_dies() {
	local label=$1 rc t0 elapsed
	shift
	t0=$(date +%s)
	timeout -s KILL 60 fio --name=gone --filename=/dev/mapper/cri --direct=1 \
		--ioengine=libaio --iodepth=16 --rw=randrw --bs=4k-64k --size=48m \
		--verify=crc32c --verify_backlog=256 --time_based --runtime=30 \
		--output=/tmp/fio.out >/dev/null 2>&1 &
	local fio_pid=$! _
	# fio's IO reaching the target, then a moment more, before the cut.
	for _ in $(seq 100); do
		[ $(($(cri_counter cri inline) + $(cri_counter cri queued))) -lt 64 ] || break
		sleep 0.1
	done
	sleep 1
	check "$label: the device goes" "$@"
	wait $fio_pid
	rc=$?
	elapsed=$(($(date +%s) - t0))
	check "$label: fio failed, as it must ($rc)" test "$rc" != 0 -a "$rc" != 137
	check "$label: and did not wait for its runtime (${elapsed} s)" test "$elapsed" -lt 25
	check "$label: fio saw EIO" grep -q "Input/output error" /tmp/fio.out
	check "$label: a read fails" \
		sh -c '! dd if=/dev/mapper/cri of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null'
	check "$label: a write fails" \
		sh -c '! dd if=/dev/zero of=/dev/mapper/cri bs=4k count=1 oflag=direct 2>/dev/null'
	check "$label: errors counted ($(cri_counter cri errors))" test "$(cri_counter cri errors)" -gt 0
	check "$label: the target removes cleanly" timeout 30 dmsetup remove cri
}

# shellcheck disable=SC2317  # called through check
to_error() {
	dmsetup suspend lower &&
		dmsetup load lower --table "0 $len error" &&
		dmsetup resume lower
}

for flags in "" "1 force_inline"; do
	label=${flags#1 }
	label=${label:-queued}
	dmsetup create lower --table "0 $len linear /dev/ram0 0" || die "linear"
	dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/mapper/lower 0${flags:+ $flags}" ||
		die "crypt-inline"
	io_dies "$label, linear reloaded as error" to_error
	dmsetup remove lower

	nb=$cfg/nullb/crigone
	mkdir $nb || die "null_blk configfs"
	echo 64 >$nb/size
	echo 1 >$nb/memory_backed
	echo 2 >$nb/irqmode
	echo 20000 >$nb/completion_nsec
	echo 1 >$nb/power || die "null_blk power on"
	dev=$(nullb_dev $nb)
	dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k 0 $dev 0${flags:+ $flags}" ||
		die "crypt-inline on null_blk"
	io_dies "$label, hard-IRQ null_blk powered off" sh -c "echo 0 >$nb/power"
	rmdir $nb
done
rmmod null_blk
finish
