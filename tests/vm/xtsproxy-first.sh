#!/bin/bash
# vm-cpus: max
# (max only: load order and priorities do not depend on the CPU)
# vm-kernels: stock
# (load order against cryptsetup, no kernel context involved)
# vm-guest: own
# (the first user of xts(aes) in a kernel booted for it)
# Loaded before aesni-intel and the xts template, xtsproxy changes nothing
# for plain xts(aes) users: cryptsetup luksFormat/open with defaults work,
# data reads back, and the proxy serves none of it.
. "$TOP/tests/lib/lib.sh"

for m in aesni_intel xts; do
	check_fails "$m not loaded before xtsproxy" grep -q "^$m " /proc/modules
done
load_module xtsproxy || die "insmod xtsproxy"
wait_selftest xts-aes-xtsproxy || die "self-test did not pass"
ramdisks 1 64 || die "brd"
served() { echo $(($(sysfs_xtsproxy fast_requests) + $(sysfs_xtsproxy fallback_requests))); }
# The self-test has used the proxy; count from here.
base=$(served)
modprobe dm_crypt || die "dm_crypt"

pass=/tmp/pass
hexkey 32 >$pass
check "luksFormat with defaults" cryptsetup luksFormat -q --key-file $pass /dev/ram0
check "open" cryptsetup open --key-file $pass /dev/ram0 vol
head -c $((4 << 20)) /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/vol bs=1M oflag=direct status=none
check "close" cryptsetup close vol
check "reopen" cryptsetup open --key-file $pass /dev/ram0 vol
check "data reads back" cmp -n $((4 << 20)) /dev/mapper/vol /tmp/data
cipher=$(cryptsetup status vol | awk '$1 == "cipher:" { print $2 }')
check_eq "default cipher" "$cipher" "aes-xts-plain64"
check "close again" cryptsetup close vol
check_eq "proxy served none of it" "$(served)" "$base"

# A plain lookup never lands on the proxy: AF_ALG by name gets the kernel's.
read -r _ key iv pt ct < <(grep '^XTS-AES-10 ' "$TLIB/xts-vectors.txt")
check_eq "xts(aes) by name encrypts right" "$($PY "$TLIB/afalg.py" 'xts(aes)' enc "$key" "$iv" "$pt")" "$ct"
check_eq "...and the proxy did not serve it" "$(served)" "$base"
check "rmmod" rmmod xtsproxy
finish
