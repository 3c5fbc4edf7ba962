#!/bin/bash
# The soak: for SOAK_SECONDS (default 120, what the full tier runs; `make
# soak DURATION=N` for longer) ext4 on crypt-inline over null_blk completing in
# hard-IRQ context takes fsmix.py's metadata churn and fio verify on a file
# at once, while the `inline` message cycles through every mode, the device
# is suspended and resumed, every third time with the key wiped and set
# again while suspended (cryptsetup's luksSuspend/luksResume), and its
# table is reloaded from its own line.  Then: every cycle resumed, fio and
# the churn clean, the files written first unchanged, fsck clean, the tree
# the same after a remount read from the device and through in-tree
# dm-crypt, no IO error, a clean kernel log.
# On the debug kernel (KASAN, lockdep, atomic-sleep checks), where
# lifetimes and locking go wrong first.
# vm-kernels: debug
# vm-check: none
# (CI tier: none; cri-resume cycles suspend, key wipe/set, reloads and switches under fio verify on the debug kernel)
. "$TOP/tests/lib/lib.sh"

secs=${SOAK_SECONDS:-120}
fs_on_hardirq

# The cycler and the reloader take turns (flock on /tmp/soak.lock): a
# table line read while a cycle has the key wiped would carry no key.
# Counters are per table and a reload starts new ones: the cycler notes
# any IO error counted before each resume in /tmp/errors.

# cycler: suspend/resume every 2 s, every third time with the key wiped
# and set again while suspended; counts in /tmp/cycles, failures in
# /tmp/cycles.err.  Stopped by SIGTERM between cycles; a device it cannot
# resume ends it (the checks then fail instead of the IO hanging).
cycler() {
	local n=0 stop=0 e
	trap 'stop=1' TERM
	exec 9>/tmp/soak.lock
	while [ $stop = 0 ]; do
		sleep 2
		flock 9
		if ! dmsetup suspend cri; then
			echo "suspend $n" >>/tmp/cycles.err
			flock -u 9
			continue
		fi
		if [ $((n % 3)) = 2 ]; then
			dmsetup message cri 0 key wipe &&
				dmsetup message cri 0 key set "$k" ||
				echo "key cycle $n" >>/tmp/cycles.err
		fi
		e=$(cri_counter cri errors)
		[ "$e" = 0 ] || echo "cycle $n: $e" >>/tmp/errors
		if ! dmsetup resume cri; then
			echo "resume $n" >>/tmp/cycles.err
			dmsetup message cri 0 key set "$k"
			dmsetup resume cri || { echo "stuck suspended $n" >>/tmp/cycles.err; break; }
		fi
		flock -u 9
		n=$((n + 1))
		echo $n >/tmp/cycles
	done
}

# reloader: the table reloaded from its own line every 5 s (it takes
# effect at the cycler's next resume); failures in /tmp/reloads.err.
reloader() {
	local n=0 stop=0
	trap 'stop=1' TERM
	exec 9>/tmp/soak.lock
	while [ $stop = 0 ]; do
		sleep 5
		flock 9
		if dmsetup reload cri --table "$(dmsetup table --showkeys cri)"; then
			n=$((n + 1))
			echo $n >/tmp/reloads
		else
			echo "reload $((n + 1))" >>/tmp/reloads.err
		fi
		flock -u 9
	done
}

dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/nullb0 0" || die "create"
mkfs.ext4 -q -F /dev/mapper/cri || die "mkfs"
mount -t ext4 /dev/mapper/cri $mnt || die "mount"
check "files written first" mix run $mnt/before 2 1
sync
mix manifest $mnt/before >/tmp/before
rm -f /tmp/cycles /tmp/cycles.err /tmp/reloads /tmp/reloads.err /tmp/switches /tmp/errors
inline_switcher cri 0.5
cycler &
cyc_pid=$!
reloader &
rel_pid=$!
fio --name=soak --directory=$mnt --size=64m --rw=randwrite --bs=4k-64k \
	--ioengine=libaio --direct=1 --iodepth=8 --verify=crc32c \
	--verify_backlog=256 --verify_fatal=1 --do_verify=1 \
	--time_based --runtime="$secs" --output=/tmp/fio.out &
fio_pid=$!
mix run $mnt/mix "$secs" 3 2 >/tmp/mix.out 2>&1
rc=$?
wait $fio_pid
frc=$?
kill $sw_pid $cyc_pid $rel_pid
wait $sw_pid $cyc_pid $rel_pid
# A reload left loaded but not yet resumed is made live, as at a resume
# (the errors of the table it replaces noted first).
e=$(cri_counter cri errors)
[ "$e" = 0 ] || echo "last table: $e" >>/tmp/errors
check "a last suspend and resume" sh -c 'dmsetup suspend cri && dmsetup resume cri'
cycles=$(cat /tmp/cycles 2>/dev/null || echo 0)
check_eq "metadata churn for $secs s ($(tr '\n' ' ' </tmp/mix.out))" "$rc" "0"
check_fio "fio verify on the filesystem for $secs s" $frc /tmp/fio.out
check "suspend/resume cycles ($cycles, every third with key wipe/set)" \
	test "$cycles" -ge $((secs / 20))
check_fails "every cycle suspended, cycled its key and resumed ($(tr '\n' ' ' </tmp/cycles.err 2>/dev/null))" \
	test -s /tmp/cycles.err
check "table reloads ($(cat /tmp/reloads 2>/dev/null || echo 0))" test -s /tmp/reloads
check_fails "every reload loaded ($(tr '\n' ' ' </tmp/reloads.err 2>/dev/null))" test -s /tmp/reloads.err
check "inline switches ($(cat /tmp/switches))" test "$(cat /tmp/switches)" -ge $((secs / 4))
check_fails "every inline switch accepted ($(tr '\n' ' ' </tmp/switches.err 2>/dev/null))" \
	test -s /tmp/switches.err
check_fails "no IO error counted by any table ($(tr '\n' ' ' </tmp/errors 2>/dev/null))" \
	test -s /tmp/errors
check "the files written first unchanged" cmp /tmp/before <(mix manifest $mnt/before)
mix manifest $mnt >/tmp/tree
umount $mnt
check "fsck clean after the soak" e2fsck -fn /dev/mapper/cri
# Remounted, with the page cache dropped: every byte from the device,
# decrypted inline from hard-IRQ completions.
echo 3 >/proc/sys/vm/drop_caches
dmsetup message cri 0 inline on
d0=$(cri_counter cri deferred)
if mount -t ext4 /dev/mapper/cri $mnt; then
	check "after a remount, the tree as it was" cmp /tmp/tree <(mix manifest $mnt)
	umount $mnt
else
	fail "remount"
fi
deferred=$(($(cri_counter cri deferred) - d0))
check "the remount's reads deferred out of hard IRQ ($deferred)" test "$deferred" -gt 100
check_eq "no IO error counted" "$(cri_counter cri errors)" "0"
dmsetup remove cri
dmsetup create ref --table "0 $len crypt aes-xts-plain64 $k 0 /dev/nullb0 0"
if mount -t ext4 -o ro /dev/mapper/ref $mnt; then
	check "dm-crypt sees the same tree" cmp /tmp/tree <(mix manifest $mnt)
	umount $mnt
else
	fail "dm-crypt mounts it"
fi
dmsetup remove ref
rmmod null_blk
finish
