#!/bin/bash
# vm-cpus: max qemu64
# vm-kernels: stock
# (registration and priorities do not change with the RT or debug config;
# KUnit runs the paths under KASAN)
# xtsproxy registers as a synchronous, public, low-priority xts(aes) that
# passes the kernel's self-test, reports its fast path, and is unloadable
# when idle.
. "$TOP/tests/lib/lib.sh"

load_aesni
load_module xtsproxy || die "insmod xtsproxy"

drv=xts-aes-xtsproxy
check "self-test finished" wait_selftest $drv
check_eq "/proc/crypto selftest" "$(proc_crypto $drv selftest)" "passed"
check_eq "/proc/crypto name" "$(proc_crypto $drv name)" "xts(aes)"
check_eq "/proc/crypto module" "$(proc_crypto $drv module)" "xtsproxy"
check_eq "/proc/crypto type" "$(proc_crypto $drv type)" "skcipher"
check_eq "/proc/crypto async" "$(proc_crypto $drv async)" "no"
check_eq "/proc/crypto internal" "$(proc_crypto $drv internal)" "no"
check_eq "/proc/crypto min keysize" "$(proc_crypto $drv 'min keysize')" "32"
check_eq "/proc/crypto max keysize" "$(proc_crypto $drv 'max keysize')" "64"
check_eq "/proc/crypto ivsize" "$(proc_crypto $drv ivsize)" "16"
check_eq "/proc/crypto blocksize" "$(proc_crypto $drv blocksize)" "16"

# All registered algorithms as "name driver priority async internal".
algs() {
	awk 'BEGIN { RS = ""; FS = "\n" } {
		delete f
		for (i = 1; i <= NF; i++) { split($i, kv, / *: /); f[kv[1]] = kv[2] }
		if (f["type"] != "larval")
			print f["name"], f["driver"], f["priority"], f["async"], f["internal"]
	}' /proc/crypto
}

# Lower than every other xts(aes) the kernel has registered.
prio=$(proc_crypto $drv priority)
lowest_other=$(algs | awk '$1 == "xts(aes)" && $2 != "xts-aes-xtsproxy" { print $3 }' | sort -n | head -n 1)
if [ -n "$lowest_other" ] && [ "$prio" -lt "$lowest_other" ]; then
	pass "priority $prio below every other xts(aes) (lowest $lowest_other)"
else
	fail "priority below other xts(aes)" "ours $prio, lowest other '$lowest_other'"
fi

# The fast path is the best internal synchronous XTS-AES of this kernel.
fast=$(sysfs_xtsproxy fast_driver)
want=$(algs | awk '$1 == "__xts(aes)" && $4 == "no" && $5 == "yes" { print $3, $2 }' |
	sort -n | tail -n 1 | cut -d" " -f2)
if grep -qw aes /proc/cpuinfo; then
	check_eq "fast path is the best internal sync __xts(aes)" "$fast" "$want"
	case $fast in __xts-aes-*) pass "fast path present: $fast" ;;
	*) fail "fast path present" "$fast" ;; esac
	# The self-test ran in process context: the fast path served it.
	check "self-test served by the fast path" test "$(sysfs_xtsproxy fast_requests)" -gt 0
	check_eq "fallback is the AES-NI cipher without FPU" \
		"$(sysfs_xtsproxy fallback_driver)" "xts(ecb(aes-aesni))"
else
	check_eq "no fast path without AES-NI" "$fast" "none"
	check "self-test served by the fallback" test "$(sysfs_xtsproxy fallback_requests)" -gt 0
	check_eq "fast path served nothing" "$(sysfs_xtsproxy fast_requests)" "0"
	check_eq "fallback without AES-NI" "$(sysfs_xtsproxy fallback_driver)" "xts(ecb(aes-generic))"
fi

check_eq "idle refcount" "$(cat /sys/module/xtsproxy/refcnt)" "0"
check "rmmod when idle" rmmod xtsproxy
check_fails "gone from /proc/crypto" grep -q "xts-aes-xtsproxy" /proc/crypto
check_fails "sysfs directory gone" test -e /sys/kernel/xtsproxy
finish
