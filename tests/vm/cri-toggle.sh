#!/bin/bash
# Live A/B: with fio writing and verifying, the table is switched between
# queued, inline, per-direction flags and in-tree dm-crypt, by reload plus
# suspend/resume, to each state twice; fio sees no error and no verify
# mismatch, and the kernel log stays clean.
# Not on the debug kernel: there cri-soak switches, suspends, resumes and
# reloads under fio verify for two minutes (and KUnit checks the message's
# parsing).
# vm-kernels: stock rt
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
ramdisks 1 64 || die "brd"
k=$(hexkey 64)
len=$((48 << 11))
base="aes-xts-plain64 $k 0 /dev/ram0 0"
states=(
	"crypt-inline $base"
	"crypt-inline $base 1 force_inline"
	"crypt-inline $base 1 no_read_workqueue"
	"crypt-inline $base 1 no_write_workqueue"
	"crypt $base"
	"crypt-inline $base 2 force_inline same_cpu_crypt"
	"crypt-inline $base 1 submit_from_crypt_cpus"
	"crypt $base 2 no_read_workqueue no_write_workqueue"
)
dmsetup create vol --table "0 $len ${states[0]}" || die "create"

# Counted, not timed: fio runs until every state has been switched to
# twice, however long the guest takes.
want=$((2 * ${#states[@]}))
fio_verify_bg /dev/mapper/vol 600
sleep 3
switches=0
for i in $(seq "$want"); do
	state=${states[$((i % ${#states[@]}))]}
	if dmsetup reload vol --table "0 $len $state" && dmsetup suspend vol &&
		dmsetup resume vol; then
		switches=$((switches + 1))
	else
		fail "switch to: ${state/$k/KEY}"
		dmsetup resume vol 2>/dev/null
	fi
	sleep 0.3
done
check "fio ran until the last switch" kill -0 $fio_pid
fio_stop
check_eq "live switches under load" "$switches" "$want"
check_fio "live switches" "$fio_rc" /tmp/fio.out
# Everything written is still readable through the last table.
check "whole device reads after the switches" dd if=/dev/mapper/vol of=/dev/null bs=1M iflag=direct status=none
dmsetup remove vol
finish
