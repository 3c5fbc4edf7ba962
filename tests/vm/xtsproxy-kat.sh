#!/bin/bash
# vm-cpus: max qemu64
# vm-kernels: stock
# (The debug kernel runs the same vectors and both paths in the KUnit
# suite xtsproxy, with the crypto manager's extra tests on.  Not on RT:
# the vectors go through AF_ALG from a process, the context they have on
# the stock 6.12 built from the same source; xtsproxy-dmcrypt runs the
# proxy from dm-crypt's contexts there.)
# IEEE 1619 XTS-AES known answers through AF_ALG on the driver name, and
# key checks that match the kernel's xts.  Run with -c qemu64 it exercises
# the fallback alone.
. "$TOP/tests/lib/lib.sh"

load_aesni
load_module xtsproxy || die "insmod xtsproxy"
wait_selftest xts-aes-xtsproxy || die "self-test did not pass"
drv=xts-aes-xtsproxy

# One afalg.py run per batch of operations (Python starts slowly in a
# guest): queue LABEL WANT ARGS... adds an operation, run_queue checks them.
labels=() wants=() ops=()
queue() {
	labels+=("$1")
	wants+=("$2")
	shift 2
	ops+=("$*")
}
run_queue() {
	local got i
	mapfile -t got < <(printf '%s\n' "${ops[@]}" | $PY "$TLIB/afalg.py" -)
	for i in "${!ops[@]}"; do
		check_eq "${labels[$i]}" "${got[$i]:-no result}" "${wants[$i]}"
	done
	labels=() wants=() ops=()
}

before_fast=$(sysfs_xtsproxy fast_requests)
before_fb=$(sysfs_xtsproxy fallback_requests)

n=0
while read -r vec key iv pt ct; do
	case $vec in '' | '#'*) continue ;; esac
	queue "$vec encrypt" "$ct" $drv enc "$key" "$iv" "$pt"
	queue "$vec decrypt" "$pt" $drv dec "$key" "$iv" "$ct"
	n=$((n + 2))
done <"$TLIB/xts-vectors.txt"
check_eq "vector operations" "$n" "12"
run_queue

# Which path served: AF_ALG calls from process context, FPU usable.
served_fast=$(($(sysfs_xtsproxy fast_requests) - before_fast))
served_fb=$(($(sysfs_xtsproxy fallback_requests) - before_fb))
if grep -qw aes /proc/cpuinfo; then
	check_eq "fast path served every request" "$served_fast" "$n"
	check_eq "fallback served none" "$served_fb" "0"
else
	check_eq "fallback served every request" "$served_fb" "$n"
	check_eq "fast path served none" "$served_fast" "0"
fi

# Key sizes: 32, 48 and 64 bytes are AES-128/192/256 XTS; anything else,
# including odd lengths, is -EINVAL exactly as with the kernel's xts.
for len in 0 16 31 33 40 47 63 65 96; do
	key=$(head -c "$len" /dev/urandom | od -An -tx1 | tr -d ' \n')
	queue "key of $len bytes refused" EINVAL $drv setkey "$key"
	queue "key of $len bytes: same answer as kernel xts(aes)" EINVAL 'xts(aes)' setkey "$key"
done
for len in 32 48 64; do
	key=$(head -c "$len" /dev/urandom | od -An -tx1 | tr -d ' \n')
	queue "key of $len bytes accepted" ok $drv setkey "$key"
done
run_queue
finish
