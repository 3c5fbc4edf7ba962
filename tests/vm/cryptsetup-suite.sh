#!/bin/bash
# cryptsetup's own test suite (the release Debian 12 ships, from the
# tarball scripts/deps keeps in the cache) against in-tree dm-crypt and
# against the drop-in serving "crypt".  Each script runs twice, each time
# in a fresh copy of the suite's tests/ directory with the installed
# binaries (CRYPTSETUP_PATH=/usr/sbin): first with in-tree dm-crypt, then
# with dm-crypt-dropin loaded and a modprobe rule that makes the scripts'
# own "modprobe dm-crypt" keep it.  Each must end on the drop-in as on
# in-tree dm-crypt: the same exit status (0, or 77 for a skip with the same
# reason) and the same lines that mark a case not applicable, for these
# scripts turn a refused table into "[N/A]" or "[SKIPPED]" and carry on.
# In-tree dm-crypt must never load behind the drop-in, and the kernel log
# must hold no sign of a kernel bug (the scripts' negative cases log dm
# errors; those are expected).
# CS_SCRIPTS (comma-separated) picks the scripts (api-test and api-test-2,
# the library's own tests, are programs built here); the default is the
# nine short ones.  scripts/cryptsetup-suite runs every script that drives
# dm-crypt, a guest each.  CS_TIMEOUT bounds each run of a script (1200 s
# unless set; the guest's own limit is scripts/vm's -t).
# Only on stock kernels: the debug kernel has neither loop nor SCSI.
# vm-kernels: stock
# vm-check: none
# vm-guest: own
# vm-timeout: 3600
# (It loads scsi_debug, loop and in-tree dm-crypt, and swaps dm-crypt for
# the drop-in: no other test may run in its guest afterwards.)
. "$TOP/tests/lib/lib.sh"

tarball=$VM_CACHE/cryptsetup_2.6.1.orig.tar.gz
[ -r "$tarball" ] || die "no $tarball (scripts/deps downloads it)"
scripts=${CS_SCRIPTS:-00modules-test,keyring-test,keyring-compat-test,password-hash-test,discards-test,device-test,loopaes-test,luks1-compat-test,mode-test}

load_aesni
# No udev here: nothing loads the SCSI disk driver for scsi_debug's disks,
# or loop; synchronous scanning makes a scsi_debug disk exist once
# modprobe returns.
modprobe scsi_mod scan=sync
for m in sd_mod loop dm_zero dm_delay dm_integrity dm_verity; do
	modprobe $m || die "modprobe $m"
done
mkdir -p /tmp/cs
tar -xzf "$tarball" -C /tmp/cs --strip-components=1 cryptsetup-2.6.1/tests cryptsetup-2.6.1/lib ||
	die "unpack the suite"
# compat-test compares header dumps with a helper the suite builds itself.
gcc -O2 -o /tmp/cs/tests/differ /tmp/cs/tests/differ.c || die "build the suite's differ"
# program NAME: whether NAME is one of the suite's test programs (the
# library's API tests) rather than a script.
program() {
	case $1 in api-test | api-test-2) return 0 ;; esac
	return 1
}
# The programs are built as the suite's Makefile.localtest builds them:
# against the installed libcryptsetup (libcryptsetup-dev).
for s in ${scripts//,/ }; do
	program "$s" || continue
	make -s -C /tmp/cs/tests -f Makefile.localtest "$s" >/tmp/cs-build.log 2>&1 ||
		{ cat /tmp/cs-build.log; die "build the suite's $s"; }
done
rule=/run/modprobe.d/cryptsetup-suite.conf
mkdir -p /run/modprobe.d

# run MODE SCRIPT: the script in a fresh copy of tests/; its output in
# /tmp/out.MODE, its exit status returned.
run() {
	rm -rf /tmp/cst
	cp -a /tmp/cs/tests /tmp/cst
	local cmd=(bash "./$2")
	program "$2" && cmd=("./$2")
	(cd /tmp/cst && CRYPTSETUP_PATH=/usr/sbin LANG=C timeout "${CS_TIMEOUT:-1200}" "${cmd[@]}") \
		>"/tmp/out.$1" 2>&1 </dev/null
}
# marks FILE: the lines by which a script says a case did not apply.
marks() {
	grep -E 'N/A|n/a|SKIPPED|IGNORED|[Ss]kip' "$1"
}
# use_intree / use_dropin: which module serves "crypt".
use_intree() {
	rm -f $rule
	rmmod dm_crypt_dropin 2>/dev/null
	modprobe dm_crypt
}
use_dropin() {
	rmmod dm_crypt 2>/dev/null
	grep -q '^dm_crypt_dropin ' /proc/modules || load_module dm-crypt-dropin || return
	echo "install dm_crypt grep -q '^dm_crypt_dropin ' /proc/modules || insmod $MODDIR/dm-crypt-dropin.ko" >$rule
}
served_by() {
	echo "$(grep -c '^dm_crypt ' /proc/modules) $(grep -c '^dm_crypt_dropin ' /proc/modules)"
}

for s in ${scripts//,/ }; do
	use_intree || { fail "$s: in-tree dm-crypt loads"; continue; }
	t0=$SECONDS
	run intree "$s"
	a=$?
	t1=$SECONDS
	check_eq "$s: in-tree run on in-tree dm-crypt" "$(served_by)" "1 0"
	use_dropin || { fail "$s: the drop-in takes over"; continue; }
	run dropin "$s"
	b=$?
	t2=$SECONDS
	echo "   $s: in-tree exit $a ($((t1 - t0)) s), drop-in exit $b ($((t2 - t1)) s)"
	check_eq "$s: drop-in run on the drop-in" "$(served_by)" "0 1"
	# A skip or failure on in-tree dm-crypt is this guest's doing, not
	# the drop-in's: it fails here, so that the guest gets fixed.
	check_eq "$s: passes on in-tree dm-crypt" "$a" 0
	check_eq "$s: the drop-in's exit status is in-tree's" "$b" "$a"
	check_eq "$s: the same cases not applicable" "$(marks /tmp/out.dropin)" "$(marks /tmp/out.intree)"
	if [ "$a" != 0 ] || [ "$b" != "$a" ]; then
		echo "--- $s on in-tree dm-crypt (tail)"
		tail -n 15 /tmp/out.intree
		echo "--- $s on the drop-in (tail)"
		tail -n 25 /tmp/out.dropin
	fi
	cp /tmp/out.intree "$VM_OUT/$s.intree" 2>/dev/null
	cp /tmp/out.dropin "$VM_OUT/$s.dropin" 2>/dev/null
done
finish
