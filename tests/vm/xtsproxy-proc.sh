#!/bin/bash
# xtsproxy registers as a synchronous, public, low-priority xts(aes) that
# passed the kernel's self-test, reports its fast path, and is unloadable
# when idle.
. "$TOP/tests/vm/lib.sh"

load_aesni
load_module xtsproxy || die "insmod xtsproxy"

drv=xts-aes-xtsproxy
check_eq "/proc/crypto name" "$(proc_crypto $drv name)" "xts(aes)"
check_eq "/proc/crypto module" "$(proc_crypto $drv module)" "xtsproxy"
check_eq "/proc/crypto type" "$(proc_crypto $drv type)" "skcipher"
check_eq "/proc/crypto async" "$(proc_crypto $drv async)" "no"
check_eq "/proc/crypto internal" "$(proc_crypto $drv internal)" "no"
check_eq "/proc/crypto selftest" "$(proc_crypto $drv selftest)" "passed"
check_eq "/proc/crypto min keysize" "$(proc_crypto $drv 'min')" "32"
check_eq "/proc/crypto max keysize" "$(proc_crypto $drv 'max')" "64"
check_eq "/proc/crypto ivsize" "$(proc_crypto $drv ivsize)" "16"

# Lower than every other xts(aes) the kernel has registered.
prio=$(proc_crypto $drv priority)
lowest_other=$(awk '
	/^name/ { name = $3 }
	$1 == "driver" { drv = $3 }
	$1 == "priority" && name == "xts(aes)" && drv != "xts-aes-xtsproxy" { print $3 }
' /proc/crypto | sort -n | head -n 1)
if [ -n "$lowest_other" ] && [ "$prio" -lt "$lowest_other" ]; then
	pass "priority $prio below every other xts(aes) (lowest $lowest_other)"
else
	fail "priority below other xts(aes)" "ours $prio, lowest other '$lowest_other'"
fi

# The fast path is the best internal synchronous XTS-AES of this kernel.
fast=$(sysfs_xtsproxy fast_driver)
want=$(awk '
	/^name/ { name = $3 }
	$1 == "driver" { drv = $3 }
	$1 == "priority" { prio = $3 }
	$1 == "internal" && $3 == "yes" && name == "__xts(aes)" { print prio, drv }
' /proc/crypto | sort -n | tail -n 1 | cut -d" " -f2)
if grep -qw aes /proc/cpuinfo; then
	check_eq "fast path is the best internal __xts(aes)" "$fast" "$want"
	case $fast in __xts-aes-*) pass "fast path found by name: $fast" ;;
	*) fail "fast path found" "$fast" ;; esac
else
	check_eq "no fast path without AES-NI" "$fast" "none"
fi
for f in fast_requests fallback_requests; do
	check_eq "$f starts at 0" "$(sysfs_xtsproxy $f)" "0"
done

check_eq "idle refcount" "$(cat /sys/module/xtsproxy/refcnt)" "0"
check "rmmod when idle" rmmod xtsproxy
check_fails "gone from /proc/crypto" grep -q "driver *: $drv" /proc/crypto
finish
