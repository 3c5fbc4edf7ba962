#!/bin/bash
# The build contract: `make KDIR=...` builds every module into its
# directory, with no warning under W=1 and sparse (C=2), on each kernel
# series tested (6.1, 6.12); `make clean` removes the products; the sources pass
# checkpatch --strict.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/lib.sh"
. "$TOP/scripts/lib/tree.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
clean_copy "$work/tree"
cd "$work/tree" || die "copy"

# As many jobs as CPUs, as DKMS builds.
jobs=$(nproc)
modules="xtsproxy/xtsproxy.ko dm-crypt-inline/dm-crypt-inline.ko dm-crypt-inline/dm-crypt-dropin.ko"
# Each kernel series once: the PREEMPT_RT kernel is the stock 6.12's source
# with another config; scripts/build-for builds for it and deb.sh has DKMS
# build the package there.
for v in ${KERNELS:?}; do
	case $v in *-rt-*) continue ;; esac
	log=$work/build-$v.log
	if make -j"$jobs" KDIR="/lib/modules/$v/build" W=1 C=2 >"$log" 2>&1; then
		pass "$v: make W=1 C=2"
	else
		fail "$v: make W=1 C=2" "$(tail -n 5 "$log" | tr '\n' ' ')"
		continue
	fi
	warnings=$(grep -E 'warning:|error:|sparse:' "$log" | head -n 5)
	check_eq "$v: no compiler or sparse warnings" "$warnings" ""
	for ko in $modules; do
		check "$v: $ko built" test -s "$ko"
		check_eq "$v: $ko vermagic" "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" "$v"
	done
	# Nothing may make the crypto API load xtsproxy on its own: a module
	# alias (crypto-xts(aes) or the like) would put it in front of every
	# xts(aes) user at boot.
	check_eq "$v: xtsproxy.ko declares no module alias" \
		"$(modinfo -F alias xtsproxy/xtsproxy.ko)" ""
	# Nor may anything load the drop-in in dm-crypt's place unless the
	# administrator asks for it (dm-inline dropin enable).
	check_eq "$v: dm-crypt-dropin.ko declares no module alias" \
		"$(modinfo -F alias dm-crypt-inline/dm-crypt-dropin.ko)" ""
	make KDIR="/lib/modules/$v/build" clean >/dev/null 2>&1
	left=$(find . -name '*.ko' -o -name '*.o' | head -n 3)
	check_eq "$v: make clean leaves no objects" "$left" ""
done

# The placeholders DKMS builds (include/cri_stub.h) for a kernel outside
# the tested series and after a failed build, on the headers of the last
# kernel above.
for stub in KERNELRELEASE=6.99.0-cri-fake CRI_STUB=failed; do
	log=$work/build-stub.log
	make -j"$jobs" KDIR="/lib/modules/$v/build" "$stub" W=1 C=2 >"$log" 2>&1
	check_eq "placeholders ($stub): make W=1 C=2" "$?" "0"
	warnings=$(grep -E 'warning:|error:|sparse:' "$log" | head -n 5)
	check_eq "placeholders ($stub): no compiler or sparse warnings" "$warnings" ""
	for ko in $modules; do
		case $(modinfo -F description "$ko" 2>/dev/null) in
		*placeholder:*) pass "placeholders ($stub): $ko is one" ;;
		*) fail "placeholders ($stub): $ko is one" ;;
		esac
	done
	make KDIR="/lib/modules/$v/build" clean >/dev/null 2>&1
done

if cp_dir=$(checkpatch_dir); then
	checkpatch() {
		(cd "$TOP" && perl "$cp_dir/scripts/checkpatch.pl" --strict --no-tree \
			--terse --show-types -f "$@" 2>&1 | grep -E '(ERROR|WARNING|CHECK):')
	}
	out=$(checkpatch $(git -C "$TOP" ls-files '*.c' '*.h' | grep -v '^include/'))
	check_eq "checkpatch --strict clean" "$out" ""
	# include/ (cri_compat.h, cri_dmcrypt.h) is the one place kernel versions
	# may be tested.
	out=$(checkpatch --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON \
		$(git -C "$TOP" ls-files 'include/*.h'))
	check_eq "checkpatch --strict clean on include/ (version checks allowed)" "$out" ""
else
	fail "checkpatch available" "linux-source-6.12 missing; run scripts/deps"
fi
summary
