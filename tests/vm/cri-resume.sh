#!/bin/bash
# Key messages and the suspend/resume hooks against each other and against
# IO, where a message racing a resume or another message can lose data.
#
# 1. The resume window.  dm core lets queued bios through and thaws the
#    filesystem before it marks the device resumed; ext4 writes its
#    superblock on thaw, so over a slow device (dm-delay) that window lasts
#    seconds.  A "key wipe" sent inside it, while a read is in flight, must
#    be refused and the read must return the file's bytes; the device ends
#    up active with its key.  On the queued and on the inline path.
# 2. Storms on one device: two "key set" loops, "key wipe", "inline",
#    "dmsetup table" and "dmsetup status" at once on a suspended device,
#    then resume with the key; and, under fio verify, suspend/key set/resume
#    cycles, reloads, inline switches, status and key wipes (refused while
#    active) at once.  Nothing may leak, underflow or corrupt.
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
modprobe dm_delay || die "dm-delay"
ramdisks 2 64 || die "brd"
k=$(hexkey 64)
len=$((48 << 11))
rounds=150
[ -n "${CRI_QUICK:-}" ] && rounds=60

# ---- 1. the resume window ----

# slow READ_MS WRITE_MS: the delay device under the volume, changed live.
slow() {
	dmsetup reload slow --table "0 $len delay /dev/ram0 0 $1 /dev/ram0 0 $2" &&
		dmsetup suspend --nolockfs slow && dmsetup resume slow
}

dmsetup create slow --table "0 $len delay /dev/ram0 0 0" || die "dm-delay device"
dmsetup create vol --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/mapper/slow 0" || die "create"
mkfs.ext4 -q /dev/mapper/vol || die "mkfs"
mkdir -p /tmp/mnt
mount /dev/mapper/vol /tmp/mnt || die "mount"
head -c $((1 << 20)) /dev/urandom >/tmp/want
cp /tmp/want /tmp/mnt/f && sync

# window MODE: one resume with a read in flight and a key wipe sent inside it.
window() {
	local mode=$1 pid_resume pid_read n0 n1 state
	dmsetup message vol 0 inline "$mode"
	check "$mode: suspend with ext4 mounted" dmsetup suspend vol
	slow 2000 4000 || { fail "$mode: slow device"; return; }
	n0=$(($(cri_counter vol inline) + $(cri_counter vol queued)))
	dmsetup resume vol &
	pid_resume=$!
	sleep 0.5
	dd if=/tmp/mnt/f of=/tmp/got bs=1M iflag=direct status=none &
	pid_read=$!
	sleep 0.5
	# Inside the window: our read was mapped, dm core still says suspended.
	n1=$(($(cri_counter vol inline) + $(cri_counter vol queued)))
	state=$(dmsetup info -c --noheadings -o suspended vol)
	check_eq "$mode: window reached (bios mapped $((n1 - n0)), dm says $state)" \
		"$([ "$n1" -gt "$n0" ] && echo mapped) $state" "mapped Suspended"
	check_fails "$mode: key wipe refused while resuming" dmsetup message vol 0 key wipe
	wait $pid_read
	check_eq "$mode: read in flight finished" "$?" "0"
	wait $pid_resume
	check_eq "$mode: resume finished" "$?" "0"
	check "$mode: the read returned the file's bytes" cmp /tmp/got /tmp/want
	slow 0 0
	check_eq "$mode: device active" "$(dmsetup info -c --noheadings -o suspended vol)" "Active"
	check "$mode: key still there (file reads back)" \
		dd if=/tmp/mnt/f of=/tmp/got bs=1M iflag=direct status=none
	check "$mode: and is intact" cmp /tmp/got /tmp/want
}

window off
window on
check "refusal logged with its reason" sh -c "dmesg | grep -q 'not suspended during key manipulation'"
umount /tmp/mnt
check "fsck clean" fsck.ext4 -fn /dev/mapper/vol
dmsetup remove vol slow

# ---- 2. storms ----

# owned_keys: crypt-inline's own keyring keys still alive.
owned_keys() {
	awk '$9 ~ /^crypt-inline:/ && substr($2, 2, 1) != "R"' /proc/keys | wc -l
}

# loop N CMD...: run CMD N times, ignoring its answers (refusals are fine,
# a crash, a splat or a leak is what this looks for).
loop() {
	local n=$1 i
	shift
	for ((i = 0; i < n; i++)); do
		"$@" >/dev/null 2>&1
	done
}

toggle() {
	local i
	for ((i = 0; i < $1; i++)); do
		dmsetup message st 0 inline "$([ $((i % 2)) = 0 ] && echo on || echo off)" 2>/dev/null
	done
}

dmsetup create st --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/ram1 0" || die "create st"
head -c $((4 << 20)) /dev/urandom >/tmp/st
dd if=/tmp/st of=/dev/mapper/st bs=1M oflag=direct status=none
check "suspend" dmsetup suspend st
pids=()
loop $rounds dmsetup message st 0 key set "$k" & pids+=($!)
loop $rounds dmsetup message st 0 key set "$k" & pids+=($!)
loop $rounds dmsetup message st 0 key wipe & pids+=($!)
loop $rounds dmsetup table st & pids+=($!)
loop $rounds dmsetup status st & pids+=($!)
toggle $rounds & pids+=($!)
wait "${pids[@]}"
pass "suspended storm: $rounds rounds of 6 loops"
check "key set after the storm" dmsetup message st 0 key set "$k"
check "resume" dmsetup resume st
check "data intact after the storm" cmp -n $((4 << 20)) /dev/mapper/st /tmp/st
check_eq "one key of ours alive" "$(owned_keys)" "1"

# Under IO: cryptsetup's luksSuspend/luksResume pattern (suspend, key set,
# resume) in a loop against key wipes, reloads, inline switches, status and
# table.  A wipe (sent every 0.3 s) lands now and then between a key set
# and its resume, and that resume is then refused, as it must be; the cycle
# sets the key again and retries, as a user would.  The cycles are counted,
# not timed: fio and the other loops run until the cycle loop has done its
# $cycles (a guest on a slow machine takes longer, and does as much).
cycles=12
[ -n "${CRI_QUICK:-}" ] && cycles=6
busy() {
	[ -e /tmp/cycling ]
}
# luks_resume: key set and resume until the resume goes through (20 tries).
luks_resume() {
	local try
	for try in $(seq 20); do
		dmsetup message st 0 key set "$k" 2>/dev/null
		dmsetup resume st 2>/dev/null && return 0
	done
	return 1
}
cycle() {
	local i
	for i in $(seq $cycles); do
		dmsetup suspend st
		luks_resume && echo ok || echo "no resume in 20 tries" >>/tmp/cycle.err
	done >/tmp/cycles
	rm -f /tmp/cycling
}
# while_busy CMD...: CMD while the cycles run, PAUSE seconds apart.
while_busy() {
	while busy; do
		"$@" >/dev/null 2>&1
		[ -n "${PAUSE:-}" ] && sleep "$PAUSE"
	done
}
reload() {
	dmsetup reload st --table "$(dmsetup table st)" 2>/dev/null && echo ok >>/tmp/reloads
}
rm -f /tmp/cycle.err /tmp/reloads
touch /tmp/cycling
fio_verify_bg /dev/mapper/st 600
sleep 2
pids=()
cycle & pids+=($!)
while_busy reload & pids+=($!)
while_busy toggle 1 & pids+=($!)
PAUSE=0.3 while_busy dmsetup message st 0 key wipe & pids+=($!)
while_busy dmsetup table st & pids+=($!)
while_busy dmsetup status st & pids+=($!)
wait "${pids[@]}"
check "fio ran until the last cycle" kill -0 $fio_pid
fio_stop
check_eq "suspend/key set/resume cycles under IO" "$(grep -c ok /tmp/cycles)" "$cycles"
check_fails "every cycle resumed with the key" test -s /tmp/cycle.err
check "some reloads went in ($(grep -c ok /tmp/reloads 2>/dev/null))" grep -q ok /tmp/reloads
check_eq "device active after the storm" "$(dmsetup info -c --noheadings -o suspended st)" "Active"
check_fio "storm under IO" "$fio_rc" /tmp/fio.out
dmsetup remove st
check_eq "no key of ours left" "$(owned_keys)" "0"
check_eq "module unpinned" "$(cat /sys/module/dm_crypt_inline/refcnt)" "0"
finish
