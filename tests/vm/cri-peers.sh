#!/bin/bash
# What crypt-inline shows the kernel around it, on Debian's own kernels.
#
# - dm-ima: with IMA measuring critical data, loading a table records the
#   target's IMA text: this kernel's dm-crypt's fields in its order (6.1
#   has no high_priority), our force_inline, key sizes, and never the key
#   or its keyring description.
#   (Before, crypt-inline emitted nothing and dm-ima recorded no fields.)
# - A crypto driver that allocates memory per request (virtio-crypto, a
#   QEMU device) is never used, as dm-crypt never uses one: named by
#   capi: both targets refuse it; by generic name both pass it over.
#
# vm-kernels: stock
# vm-cmdline: ima_policy=critical_data
# vm-qemu: -object cryptodev-backend-builtin,id=cryptodev0 -device virtio-crypto-pci,id=crypto0,cryptodev=cryptodev0
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
ramdisks 2 16 || die "brd"
k32=$(hexkey 32) k64=$(hexkey 64)
len=$((8 << 11))

# ---- dm-ima ----
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
log=/sys/kernel/security/ima/ascii_runtime_measurements
# ima_text NAME: the last table-load record of device NAME, decoded (the
# log holds each record's buffer in hex).
ima_text() {
	awk '$5 == "dm_table_load" { print $6 }' $log | $PY -c '
import sys
recs = [bytes.fromhex(l.strip()).decode(errors="replace") for l in sys.stdin]
recs = [r for r in recs if ";name=" + sys.argv[1] + "," in r]
print(recs[-1] if recs else "")' "$1"
}
if [ -r $log ]; then
	keyctl link @u @s >/dev/null 2>&1
	unhex "$k64" | keyctl padd logon cri:imakey @u >/dev/null
	dmsetup create ima1 --table "0 $len crypt-inline aes-xts-plain64 :64:logon:cri:imakey 0 /dev/ram0 0 3 allow_discards force_inline sector_size:4096" ||
		fail "create ima1"
	text=$(ima_text ima1)
	case $text in
	*"target_name=crypt-inline,target_version=0.1.0,allow_discards=y,"*"sector_size=4096,cipher_string=aes-xts-plain64,key_size=64,key_parts=1,key_extra_size=0,key_mac_size=0,force_inline=y;"*)
		pass "IMA record holds the target's fields" ;;
	*) fail "IMA record holds the target's fields" "${text:-no record}" ;;
	esac
	case $text in
	*imakey* | *"${k64:0:16}"*) fail "no key material in the IMA record" "$text" ;;
	*) pass "no key material in the IMA record" ;;
	esac
	dmsetup create ima2 --table "0 $len crypt-inline aes-xts-plain64 $k64 0 /dev/ram1 0" || fail "create ima2"
	case $(ima_text ima2) in
	*crypt-inline:* | *"${k64:0:16}"*) fail "a hex key is not in the IMA record either" "$(ima_text ima2)" ;;
	*"key_size=64,"*) pass "a hex key is not in the IMA record either" ;;
	*) fail "a hex key is not in the IMA record either" "no record: $(ima_text ima2)" ;;
	esac
	# dm-crypt's own record, for the order of the fields.
	dmsetup create ref --table "0 $len crypt aes-xts-plain64 :64:logon:cri:imakey 0 /dev/ram1 0 2 allow_discards sector_size:4096"
	ours=$(ima_text ima1 | sed 's/.*target_version=[0-9.]*,//; s/,force_inline=.;.*//')
	theirs=$(ima_text ref | sed 's/.*target_version=[0-9.]*,//; s/;.*//')
	check "dm-crypt's record found" test -n "$theirs"
	check_eq "fields as dm-crypt records them" "$ours" "$theirs"
	dmsetup remove ima1 ima2 ref
else
	fail "IMA measurements available" "no $log"
fi

# ---- a crypto driver that allocates memory ----
# True when every sign of a kernel bug in the log is a crypto manager
# self-test WARNING and a virtio driver's self-test failure is logged.
virtio_rsa_warning_only() {
	local bad tm traces
	bad=$(dmesg | grep -cE 'BUG:|WARNING:|Oops|KASAN|UBSAN|scheduling while atomic|possible recursive locking|circular locking')
	tm=$(dmesg | grep -c 'WARNING: .* at crypto/testmgr.c')
	traces=$(dmesg | grep -c 'Call Trace')
	[ "$bad" -gt 0 ] && [ "$bad" = "$tm" ] && [ "$traces" -le "$tm" ] &&
		dmesg | grep -q 'alg: self-tests for .*virtio.*failed'
}

modprobe virtio_crypto
for i in $(seq 50); do
	[ "$(proc_crypto virtio_crypto_aes_cbc selftest)" = passed ] && break
	sleep 0.1
done
if [ "$(proc_crypto virtio_crypto_aes_cbc selftest)" = passed ]; then
	pass "virtio-crypto's cbc(aes) registered"
	check_fails "dm-crypt refuses it by driver name" dmsetup create ref --table \
		"0 $len crypt capi:virtio_crypto_aes_cbc-plain64 $k32 0 /dev/ram0 0"
	# QEMU's virtio-crypto has no raw RSA: its rsa fails the crypto
	# manager's self-test, with a WARNING, when the driver loads.  That
	# warning, and no other, may precede this clear.
	if virtio_rsa_warning_only; then
		echo "NOTE: virtio-crypto's rsa self-test WARNING (QEMU has no raw RSA) cleared"
		dmesg -C
	else
		dmesg_clear
	fi
	check_fails "crypt-inline refuses it by driver name" dmsetup create cri --table \
		"0 $len crypt-inline capi:virtio_crypto_aes_cbc-plain64 $k32 0 /dev/ram1 0"
	check "with dm-crypt's reason" sh -c "dmesg | grep -q 'Error allocating crypto tfm'"
	dmsetup remove ref cri >/dev/null 2>&1
	refs0=$(proc_crypto virtio_crypto_aes_cbc refcnt)
	dmsetup create cri --table "0 $len crypt-inline aes-cbc-plain64 $k32 0 /dev/ram1 0" || fail "create cri"
	check_eq "cbc(aes) by name: virtio-crypto not taken" "$(proc_crypto virtio_crypto_aes_cbc refcnt)" "$refs0"
	dmsetup remove cri
else
	fail "virtio-crypto's cbc(aes) registered" "$(grep -A3 virtio /proc/crypto | head -n 8 | tr '\n' ' ')"
fi
check_eq "module unpinned" "$(cat /sys/module/dm_crypt_inline/refcnt)" "0"
finish
