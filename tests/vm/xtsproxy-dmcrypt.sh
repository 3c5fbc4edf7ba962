#!/bin/bash
# vm-cpus: max
# vm-kernels: stock rt
# (not the debug kernel: the proxy takes no lock and allocates nothing per
# request; its tfms' lifetimes are the KUnit suite's, there)
# (max only: the fallback without AES-NI is proven by xtsproxy-kat and
# xtsproxy-proc on qemu64; how dm-crypt uses the proxy does not depend on
# the CPU)
# vm-check: stock
# (CI tier: not RT, as the proxy takes no lock)
# In-tree dm-crypt through capi:xts-aes-xtsproxy-plain64 leaves the same
# bytes on the backing device as aes-xts-plain64 with the same key, for
# 256- and 512-bit keys and 512/4096-byte sectors; the counters show which
# path served; the module is pinned while a device uses it.
. "$TOP/tests/lib/lib.sh"

load_aesni
load_module xtsproxy || die "insmod xtsproxy"
wait_selftest xts-aes-xtsproxy || die "self-test did not pass"
ramdisks 2 32 || die "brd"
modprobe dm_crypt || die "dm_crypt"

plain=/tmp/plain
head -c $((8 << 20)) /dev/urandom >$plain
sectors=$(($(blockdev --getsz /dev/ram0)))

# map NAME CIPHER KEY DEV [OPTS]
map() {
	dmsetup create "$1" --table "0 $sectors crypt $2 $3 8 $4 0 ${5:-}"
}

same_bytes() {
	local bits=$1 opts=$2 tag="$1-bit key${2:+, $2}" key fast0 fb0
	key=$(head -c $((bits / 8)) /dev/urandom | od -An -tx1 | tr -d ' \n')
	map ref aes-xts-plain64 "$key" /dev/ram0 "$opts" || { fail "$tag: dm-crypt table"; return; }
	map proxy capi:xts-aes-xtsproxy-plain64 "$key" /dev/ram1 "$opts" ||
		{ fail "$tag: proxy table"; dmsetup remove ref; return; }
	fast0=$(sysfs_xtsproxy fast_requests)
	fb0=$(sysfs_xtsproxy fallback_requests)

	dd if=$plain of=/dev/mapper/ref bs=1M oflag=direct status=none
	dd if=$plain of=/dev/mapper/proxy bs=1M oflag=direct status=none
	check "$tag: identical ciphertext on the backing devices" \
		cmp -n $((8 << 20)) /dev/ram0 /dev/ram1
	check_fails "$tag: backing device holds no plaintext" \
		cmp -n $((8 << 20)) /dev/ram1 $plain
	check "$tag: proxy reads back what it wrote" \
		cmp -n $((8 << 20)) /dev/mapper/proxy $plain
	if grep -qw aes /proc/cpuinfo; then
		check "$tag: fast path served" test "$(sysfs_xtsproxy fast_requests)" -gt "$fast0"
	else
		check "$tag: fallback served" test "$(sysfs_xtsproxy fallback_requests)" -gt "$fb0"
		check_eq "$tag: fast path idle" "$(sysfs_xtsproxy fast_requests)" "$fast0"
	fi
	check_fails "$tag: rmmod refused while a device uses it" rmmod xtsproxy

	# Each side reads what the other wrote.
	dmsetup remove ref proxy
	map ref aes-xts-plain64 "$key" /dev/ram1 "$opts"
	map proxy capi:xts-aes-xtsproxy-plain64 "$key" /dev/ram0 "$opts"
	check "$tag: dm-crypt reads what the proxy wrote" \
		cmp -n $((8 << 20)) /dev/mapper/ref $plain
	check "$tag: proxy reads what dm-crypt wrote" \
		cmp -n $((8 << 20)) /dev/mapper/proxy $plain
	dmsetup remove ref proxy
	blkdiscard /dev/ram0 2>/dev/null
	blkdiscard /dev/ram1 2>/dev/null
}

same_bytes 256 ""
same_bytes 512 ""
same_bytes 256 "1 sector_size:4096"
same_bytes 512 "2 sector_size:4096 iv_large_sectors"

check_eq "refcount back to 0" "$(cat /sys/module/xtsproxy/refcnt)" "0"
check "rmmod after the devices are gone" rmmod xtsproxy
finish
