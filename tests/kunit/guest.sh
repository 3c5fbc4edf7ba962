#!/bin/bash
# Guest side of `make kunit`, in the debug kernel: load xtsproxy the way a
# user does (after aesni_intel), then the KUnit modules, whose suites run at
# load time.  Each suite's KTAP record in debugfs becomes one line per test
# case; a skipped case, a missing result or a suite that did not finish
# counts as a failure.  The kernel log must stay clean (KASAN, lockdep, ...).
. "$TOP/tests/lib/lib.sh"

[ -d /sys/kernel/debug/kunit ] || die "no KUnit in this kernel ($(uname -r))"
load_aesni
# The crypto manager's extra tests (booted off for speed) fuzz xtsproxy
# against the generic xts(aes) at registration, with and without SIMD.
check "extra crypto self-tests on" sh -c 'echo 0 >/sys/module/cryptomgr/parameters/noextratests'
load_module xtsproxy || die "insmod xtsproxy"
wait_selftest xts-aes-xtsproxy || die "xtsproxy self-test did not pass"
for m in cri_kunit xtsproxy_kunit; do
	check "insmod $m" load_module "$m"
done

# ktap SUITE FILE: PASS/FAIL per test case (the lines indented once).
ktap() {
	local suite=$1 file=$2 planned got=0 line status name
	planned=$(sed -n 's/^    1\.\.\([0-9]*\)$/\1/p' "$file" | head -n 1)
	while IFS= read -r line; do
		[[ $line =~ ^\ {4}(ok|not\ ok)\ [0-9]+\ ([^ ]+)(.*)$ ]] || continue
		status=${BASH_REMATCH[1]} name="$suite.${BASH_REMATCH[2]}"
		got=$((got + 1))
		if [ "$status" = ok ] && [[ ${BASH_REMATCH[3]} != *'# SKIP'* ]]; then
			pass "$name"
		else
			# The failing parameters and expectations, from the case's log.
			fail "$name" "$(grep -E '^ {8}(not ok|# )|Expected|but|line' "$file" |
				grep -v '^ *ok' | head -n 6 | tr '\n' '|')"
		fi
	done <"$file"
	check_eq "$suite: every planned case reported" "$got" "${planned:-none}"
	check "$suite: suite passed" grep -qx "ok 1 $suite" "$file"
}

for s in crypt-inline-table crypt-inline-key crypt-inline-iv crypt-inline-integrity crypt-inline-status xtsproxy; do
	r=/sys/kernel/debug/kunit/$s/results
	if [ -r "$r" ]; then
		ktap "$s" "$r"
		cp "$r" "$VM_OUT/ktap-$s"
	else
		fail "$s: suite ran" "no $r"
	fi
done
finish
