#!/bin/bash
# The runtime switch: "dmsetup message NAME 0 inline on|off|read|write|auto"
# changes paths with no reload and no suspend, shows in the table line and
# the counters, survives a reload of the printed line, refuses unknown
# messages, and loses nothing when flipped 12+ times under fio verify.
# "auto" spreads a 1 MiB read and write over the workqueue, "on" (strictly
# inline) neither.
# Not on the debug kernel: there cri-soak switches, suspends, resumes and
# reloads under fio verify for two minutes (and KUnit checks the message's
# parsing).
# vm-kernels: stock rt
# vm-check: stock
# (CI tier: not RT; cri-toggle switches modes under fio verify there)
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
ramdisks 1 64 || die "brd"
k=$(hexkey 64)
len=$((48 << 11))
dmsetup create vol --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/ram0 0" || die "create"

counter() {
	cri_counter vol "$1"
}

# switch_to MODE OPTS_WANTED WRITE_PATH READ_PATH
switch_to() {
	local mode=$1 want=$2 wpath=$3 rpath=$4 in0 q0 in1 q1
	check "inline $mode accepted" dmsetup message vol 0 inline "$mode"
	case "$(dmsetup table vol)" in
	*"$want") pass "inline $mode: table ends with '${want:-no options}'" ;;
	*) fail "inline $mode: table ends with '$want'" "$(dmsetup table vol | cut -d' ' -f6-)" ;;
	esac
	in0=$(counter inline) q0=$(counter queued)
	dd if=/dev/urandom of=/dev/mapper/vol bs=64k count=1 oflag=direct status=none
	in1=$(counter inline) q1=$(counter queued)
	check_eq "inline $mode: a write went $wpath" \
		"$([ "$in1" -gt "$in0" ] && echo inline)$([ "$q1" -gt "$q0" ] && echo queued)" "$wpath"
	dd if=/dev/mapper/vol of=/dev/null bs=64k count=1 iflag=direct status=none
	in0=$(counter inline) q0=$(counter queued)
	check_eq "inline $mode: a read went $rpath" \
		"$([ "$in0" -gt "$in1" ] && echo inline)$([ "$q0" -gt "$q1" ] && echo queued)" "$rpath"
}

switch_to on " 1 force_inline" inline inline
switch_to off " 0" queued queued
switch_to read " 1 no_read_workqueue" queued inline
switch_to write " 1 no_write_workqueue" inline queued
switch_to auto " 2 no_read_workqueue no_write_workqueue" inline inline

# spread_after MODE: how many pieces of a 1 MiB write and of a 1 MiB read
# were spread, as "WRITES READS" (cri-irq counts the pieces exactly).
spread_after() {
	local s0 w0 s1 w1
	dmsetup message vol 0 inline "$1" || return
	s0=$(counter spread) w0=$(counter spread_writes)
	dd if=/dev/urandom of=/dev/mapper/vol bs=1M count=1 oflag=direct status=none
	dd if=/dev/mapper/vol of=/dev/null bs=1M count=1 iflag=direct status=none
	s1=$(counter spread) w1=$(counter spread_writes)
	echo "$((w1 - w0)) $((s1 - w1 - s0 + w0))"
}
got=$(spread_after auto)
# The guests have 2 CPUs (scripts/vm); with one, nothing may spread.
check_eq "the guest has the 2 CPUs the policy needs" "$(nproc)" 2
check "inline auto: a 1 MiB write and read spread ($got)" \
	awk -v w="${got% *}" -v r="${got#* }" 'BEGIN { exit !(w > 0 && r > 0) }'
check_eq "inline on: nothing spread" "$(spread_after on)" "0 0"
switch_to on " 1 force_inline" inline inline

check "reload with the printed line" dmsetup reload vol --table "$(dmsetup table vol)"
check "resume" dmsetup resume vol
case "$(dmsetup table vol)" in
*" force_inline") pass "mode kept across reload" ;;
*) fail "mode kept across reload" "$(dmsetup table vol)" ;;
esac
check_fails "unknown inline mode refused" dmsetup message vol 0 inline sideways
check_fails "unknown message refused" dmsetup message vol 0 frobnicate
check_fails "inline without a mode refused" dmsetup message vol 0 inline
check "refusals name the reason" sh -c "dmesg | grep -q 'inline: mode must be on, off, read, write or auto'"

fio_verify_bg /dev/mapper/vol 20
sleep 2
modes=(off read write on auto)
n=0
while kill -0 $fio_pid 2>/dev/null && [ $n -lt 60 ]; do
	dmsetup message vol 0 inline "${modes[$((n % 5))]}" && n=$((n + 1))
	sleep 0.4
done
wait $fio_pid
rc=$?
check "at least 12 switches under load ($n)" test $n -ge 12
check_fio "inline messages" "$rc" /tmp/fio.out
dmsetup remove vol
finish
