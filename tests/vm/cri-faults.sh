#!/bin/bash
# A backing device that fails part of its IO (dm-error in the middle of a
# linear map): the errors reach the caller as errors, data around them is
# right, and nothing leaks, on the queued and the inline path.  Then one
# that fails at times (dm-flakey), under load on every path.
. "$TOP/tests/lib/lib.sh"

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

# dm-flakey beneath, on null_blk completing in hard IRQ: up one second, down
# one, in each of its failure modes (all IO fails; writes fail; writes are
# dropped; reads fail, where dm-flakey has error_reads).  Four threads of
# 4 KiB and 128 KiB reads and writes run on each path: queued, inline
# (hard-IRQ deferral) and the policy (no_read/no_write_workqueue: 128 KiB
# spread to the workqueue, 4 KiB inline).  Every read that succeeds holds
# what was written (faultmix.py), every failed IO fails with EIO, and the
# status line's error counter counts exactly the IOs that failed.  The RT
# and debug kernels (CRI_PATHS) take one mode, reads failing at completion
# (or all IO, without error_reads), for the error paths' contexts and
# memory lifetimes; what differs between modes is dm-flakey's.
nullb_hardirq || die "null_blk irqmode=2"
fmib=16
flen=$((fmib << 11))
modprobe dm_flakey || die "dm-flakey"
modes=("" "1 error_writes" "1 drop_writes")
# error_reads came to dm-flakey in 6.5 (its version did not change).
if dmsetup create flaky --table "0 $flen flakey /dev/nullb0 0 3600 0 1 error_reads" 2>/dev/null; then
	modes+=("1 error_reads")
	dmsetup remove flaky
fi
if [ -n "${CRI_PATHS:-}" ]; then
	case ${modes[-1]} in *error_reads) modes=("${modes[-1]}") ;; *) modes=("") ;; esac
fi
dmsetup create flaky --table "0 $flen flakey /dev/nullb0 0 3600 0" || die "dm-flakey table"

# flakey_table [MODE]: dm-flakey beneath cri reloaded, up for good without
# a MODE, cycling through one second up and one down in MODE with one.
flakey_table() {
	dmsetup suspend cri
	if [ $# -eq 0 ]; then
		dmsetup load flaky --table "0 $flen flakey /dev/nullb0 0 3600 0"
	else
		dmsetup load flaky --table "0 $flen flakey /dev/nullb0 0 1 1 $1"
	fi
	dmsetup resume flaky
	dmsetup resume cri
}

for fl in "" "1 force_inline" "2 no_read_workqueue no_write_workqueue"; do
	path=${fl:-queued}
	path=${path#[12] }
	dmsetup create cri --table "0 $flen crypt-inline aes-xts-plain64 $k 0 /dev/mapper/flaky 0 $fl" ||
		{ fail "$path over dm-flakey: table"; continue; }
	for mode in "${modes[@]}"; do
		label="$path, dm-flakey ${mode#1 }"
		[ -n "$mode" ] || label="$path, dm-flakey failing all IO"
		flakey_table
		check "$label: filled while dm-flakey is up" $PY "$TLIB/faultmix.py" fill /dev/mapper/cri $fmib
		flakey_table "$mode"
		lax=
		case $mode in *drop_writes*) lax=--lax ;; esac
		e0=$(cri_counter cri errors)
		out=$(timeout 60 $PY "$TLIB/faultmix.py" run /dev/mapper/cri $fmib 3 $lax 2>&1)
		check_eq "$label: every read holds what was written" "$? $out" "0 ${out%%$'\n'*}"
		failed=$(echo "$out" | awk '/^ios/ { print $4 }')
		case $mode in
		*drop_writes*) ;;
		*) check "$label: IOs failed (${failed:-none})" test "${failed:-0}" -gt 0 ;;
		esac
		check_eq "$label: the error counter counts the failed IOs" \
			"$(($(cri_counter cri errors) - e0))" "${failed:-none}"
	done
	flakey_table
	dmsetup remove cri
done
dmsetup remove flaky
rmmod dm_flakey null_blk
check_eq "module unpinned" "$(cat /sys/module/dm_crypt_inline/refcnt)" "0"
check "module unloads" rmmod dm-crypt-inline
finish
