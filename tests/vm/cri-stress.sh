#!/bin/bash
# Sustained random read/write at queue depth 32 with two jobs and
# verification, 6 s on each path with each of two ciphers: no IO error,
# no verify failure, no memory growth.  The RT and debug kernels
# (CRI_PATHS) leave out the proxy, which differs only in what computes
# (xtsproxy-dmcrypt runs it on RT; its vectors, the debug kernel's KUnit);
# writes at qd 32 under memory pressure are cri-mem's.
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
load_module xtsproxy || die "xtsproxy"
ramdisks 1 160 || die "brd"
k=$(hexkey 64)
len=$((128 << 11))
runtime=${CRI_STRESS_SECONDS:-12}
ciphers="aes-xts-plain64 capi:xts-aes-xtsproxy-plain64"
[ -z "${CRI_PATHS:-}" ] || ciphers=aes-xts-plain64

mem_avail() { awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo; }
# brd allocates its pages on first write: touch them all before measuring.
dd if=/dev/zero of=/dev/ram0 bs=1M oflag=direct status=none

for flags in "1 force_inline" ""; do
	tag=${flags:-queued}
	tag=${tag#1 }
	for cipher in $ciphers; do
		label="$tag $cipher"
		dmsetup create vol --table "0 $len crypt-inline $cipher $k 0 /dev/ram0 0 $flags" ||
			{ fail "$label: table"; continue; }
		sync; echo 3 >/proc/sys/vm/drop_caches
		before=$(mem_avail)
		fio --name=stress --filename=/dev/mapper/vol --direct=1 --ioengine=libaio \
			--rw=randrw --bs=4k --iodepth=32 --numjobs=2 --size=60m --offset_increment=64m \
			--verify=crc32c --verify_backlog=1024 --verify_fatal=1 \
			--time_based --runtime=$((runtime / 2)) --group_reporting --output=/tmp/fio.out
		rc=$?
		echo 3 >/proc/sys/vm/drop_caches
		after=$(mem_avail)
		check_fio "$label" "$rc" /tmp/fio.out
		ios=$(grep -o 'ios=[0-9]*' /tmp/fio.out | head -n 1 | tr -dc '0-9')
		check "$label: IO happened (${ios:-0} reads)" test "${ios:-0}" -gt 1000
		check "$label: memory did not grow (before ${before} kB, after ${after} kB)" \
			test $((before - after)) -lt 65536
		dmsetup remove vol
	done
done
finish
