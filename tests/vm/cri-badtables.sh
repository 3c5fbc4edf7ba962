#!/bin/bash
# Malformed and unsupported tables are refused, each with its reason in the
# kernel log; nothing is left behind (no device, no key, no module
# reference) and the module unloads afterwards.
#
# vm-kernels: stock
# (parsing is the same on RT; on the debug kernel the KUnit suite
# crypt-inline-table refuses the same tables under KASAN, and cri-aead's
# refusals unwind a constructor that got as far as its devices and tfms)
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
ramdisks 1 16 || die "brd"
printf 'x%.0s' $(seq 64) >/tmp/k64
keyctl link @u @s >/dev/null 2>&1
keyctl padd logon cri:vol1 @u </tmp/k64 >/dev/null || die "keyctl"
keyctl padd user cri:kmk @u </tmp/k64 >/dev/null || die "keyctl master key"
keyctl add encrypted cri:enc1 "new default user:cri:kmk 64" @u >/dev/null || die "keyctl encrypted"

k32=$(hexkey 32) k64=$(hexkey 64)
dev=/dev/ram0
len=16384
n=0

# refused WANT_IN_LOG TABLE_ARGS... : the table is refused and the log says why.
refused() {
	local want=$1 table
	shift
	table="0 $len crypt-inline $*"
	n=$((n + 1))
	dmesg_clear
	if dmsetup create bad --table "$table" >/dev/null 2>&1; then
		fail "refused: $want" "table was accepted: $table"
		dmsetup remove bad
		return
	fi
	if dmesg | grep -q -F -- "$want"; then
		pass "refused with '$want'"
	else
		fail "refused with '$want'" "log: $(dmesg | grep -m1 crypt-inline)"
	fi
	dmsetup remove bad >/dev/null 2>&1
}

long=$(printf 'a%.0s' $(seq 300))
refused "Not enough arguments" ""
refused "Not enough arguments" "aes-xts-plain64 $k32 0"
refused "Error decoding and setting key: key not hex" "aes-xts-plain64 ${k32:0:60}zz 0 $dev 0"
refused "Error decoding and setting key: wrong size for the cipher" "aes-xts-plain64 $(hexkey 20) 0 $dev 0"
refused "Error decoding and setting key: wrong size for the cipher" "aes-xts-plain64 - 0 $dev 0"
refused "Error decoding and setting key: wrong size for the cipher" "aes-xts-plain64 $(hexkey 130) 0 $dev 0"
refused "Error allocating crypto tfm" "nocipher-xts-plain64 $k32 0 $dev 0"
refused "Error allocating crypto tfm" "aes-nochain-plain64 $k32 0 $dev 0"
refused "Error allocating crypto tfm" "aes-cbc-essiv:nohash $k32 0 $dev 0"
refused "Invalid IV mode" "aes-xts-bogus $k32 0 $dev 0"
refused "Integrity profile not supported." "aes-cbc-random $k32 0 $dev 0"
refused "Error decoding and setting key: wrong key size for TCW" "aes-cbc-tcw $k32 0 $dev 0"
refused "Digest algorithm missing for ESSIV mode" "aes-cbc-essiv $k32 0 $dev 0"
refused "Error decoding and setting key: wrong size for the cipher" "aes:2-xts-plain64 $k32 0 $dev 0"
refused "Bad cipher key count specification" "aes:3-xts-plain64 $k64 0 $dev 0"
refused "IV mechanism required" "aes-cbc $k32 0 $dev 0"
refused "Invalid IV mode" "aes-xts-plain64-extra $k32 0 $dev 0"
refused "Bad cipher specification" "cbc(aes)-plain64 $k32 0 $dev 0"
# dm-crypt accepts a capi: cipher with no IV mode even where the cipher
# takes an IV, and then encrypts with whatever its request memory held.
refused "IV mechanism required" "capi:xts(aes) $k32 0 $dev 0"
refused "Error allocating crypto tfm" "capi:cbc(aes)-essiv:sha256-nonexistent $k32 0 $dev 0"
refused "Error allocating crypto tfm" "capi:authenc(hmac(sha256),cbc(aes))-plain64 $k32 0 $dev 0"
refused "Integrity profile not supported." "capi:authenc(hmac(sha256),cbc(aes))-random $k64 0 $dev 0 1 integrity:48:aead"
refused "Invalid AEAD cipher spec" "capi:authenc(nohash,cbc(aes))-random $k64 0 $dev 0 1 integrity:48:aead"
refused "Cannot allocate cipher strings: name too long" "$long-xts-plain64 $k32 0 $dev 0"
refused "Invalid iv_offset sector" "aes-xts-plain64 $k32 abc $dev 0"
refused "Invalid device sector" "aes-xts-plain64 $k32 0 $dev -1"
refused "Device lookup failed" "aes-xts-plain64 $k32 0 /dev/nonexistent 0"
refused "too small for target" "aes-xts-plain64 $k32 0 $dev 30000"
refused "Invalid feature arguments" "aes-xts-plain64 $k32 0 $dev 0 1 frobnicate"
refused "Invalid number of feature args" "aes-xts-plain64 $k32 0 $dev 0 2 force_inline"
refused "Invalid number of feature args" "aes-xts-plain64 $k32 0 $dev 0 1 force_inline same_cpu_crypt"
refused "Invalid number of feature args" "aes-xts-plain64 $k32 0 $dev 0 x"
refused "Invalid feature value for sector_size" "aes-xts-plain64 $k32 0 $dev 0 1 sector_size:1000"
refused "Invalid feature value for sector_size" "aes-xts-plain64 $k32 0 $dev 0 1 sector_size:8192"
refused "Invalid feature value for sector_size" "aes-xts-plain64 $k32 0 $dev 0 1 sector_size:256"
# integrity_key_size where the kernel's dm-crypt has it (target 1.28, 6.11),
# else an unknown feature, as dm-crypt says.
crypt_minor=$(dmsetup targets | awk '$1 == "crypt" { split(substr($2, 2), v, "."); print v[1] * 1000 + v[2] }')
if [ "${crypt_minor:-0}" -ge 1028 ]; then
	iks=1
	refused "Invalid integrity_key_size argument" "aes-xts-plain64 $k32 0 $dev 0 1 integrity_key_size:0"
else
	iks=""
	refused "Invalid feature arguments" "aes-xts-plain64 $k32 0 $dev 0 1 integrity_key_size:32"
	refused "Invalid feature arguments" "aes-xts-plain64 $k32 0 $dev 0 2 sector_size:4096 integrity_key_size:20"
fi
refused "Invalid number of feature args" "aes-xts-plain64 $k32 0 $dev 0 12 a b c d e f g h i j k l"
refused "Bad cipher specification" "aes-xts-plain64 $k32 0 $dev 0 1 integrity:28:aead"
refused "Unknown integrity profile" "capi:gcm(aes)-random $k32 0 $dev 0 1 integrity:28:hmac"
refused "Invalid integrity arguments" "capi:gcm(aes)-random $k32 0 $dev 0 1 integrity:481:aead"
refused "Invalid iv_offset sector" "aes-xts-plain64 $k32 3 $dev 0 1 sector_size:4096"
# The start on the device: refused by dm core, as for dm-crypt.
refused "start=5 not aligned to h/w logical block size 4096" "aes-xts-plain64 $k32 0 $dev 5 1 sector_size:4096"
len=16380
refused "Device size is not multiple of sector_size feature" "aes-xts-plain64 $k32 0 $dev 0 1 sector_size:4096"
len=16384
refused "Error decoding and setting key: keyring key not found or not accessible" "aes-xts-plain64 :64:logon:cri:missing 0 $dev 0"
refused "Error decoding and setting key: keyring key size differs from the table's" "aes-xts-plain64 :32:logon:cri:vol1 0 $dev 0"
refused "Error decoding and setting key: keyring key type logon, user, encrypted or trusted expected" "aes-xts-plain64 :64:trusty:cri:vol1 0 $dev 0"
refused "Error decoding and setting key: keyring key size differs from the table's" "aes-xts-plain64 :32:encrypted:cri:enc1 0 $dev 0"
# Trusted keys: refused by name where the kernel lacks the key type (ENODEV
# from keyctl), as all kernels tested here do.
if keyctl add trusted cri:probe "new 32" @u 2>&1 | grep -q "No such device"; then
	refused "Error decoding and setting key: keyring key type trusted not available in this kernel" "aes-xts-plain64 :32:trusted:cri:t 0 $dev 0"
else
	refused "Error decoding and setting key: keyring key not found or not accessible" "aes-xts-plain64 :32:trusted:cri:missing 0 $dev 0"
fi
refused "Cannot parse key size" "aes-xts-plain64 :64 0 $dev 0"
refused "Error decoding and setting key: key size 0" "aes-xts-plain64 :0:logon:cri:vol1 0 $dev 0"
check "at least 25 bad tables tried ($n)" test "$n" -ge 25

# Tables in-tree dm-crypt accepts, easy to refuse by mistake: accepted,
# with the line printed back as given; and dm-crypt accepts them too,
# except where ANY_KERNEL says crypt-inline takes a field on every kernel
# that this kernel's dm-crypt may predate (high_priority: 6.10).
accepted() {
	local table="$*" cri ref=accepts
	if dmsetup create good --table "0 $len crypt-inline $table" >/dev/null 2>&1; then
		cri=$(dmsetup table good | cut -d' ' -f4,9-)
		dmsetup remove good
		check_eq "accepted ($table): printed back" "$cri" "$(echo "$table" | cut -d' ' -f1,6-)"
	else
		fail "accepted: $table" "$(dmesg | grep crypt-inline | tail -n 1)"
	fi
	dmsetup create ref --table "0 $len crypt $table" >/dev/null 2>&1 || ref=refuses
	dmsetup remove ref >/dev/null 2>&1
	if [ $ref = refuses ] && [ -z "${ANY_KERNEL:-}" ]; then
		fail "dm-crypt accepts it too: $table"
	fi
}
accepted "aes-xts-plain64:ignored $k32 0 $dev 0"
accepted "capi:ecb(aes) $k32 0 $dev 0"
# A cipher without IV ignores any IV mode, even one dm-crypt does not know.
accepted "aes-ecb-bogus $k32 0 $dev 0"
accepted "capi:ecb(aes)- $k32 0 $dev 0"
accepted "aes:01-xts-plain64 $k32 0 $dev 0"
accepted "aes-xts-plain64 $k32 0 $dev 0 1 iv_large_sectors"
# essiv naming a hash driver ("essiv:sha256-generic"): parsed as dm-crypt
# parses it (the dash is part of the name), then it is the crypto
# API's to take or refuse.  On the kernels here it refuses: the essiv()
# instance is named after the hash, not the driver asked for, and the
# lookup ends in EEXIST.  Whatever it answers, both targets must get the
# same answer; each form is asked with its own hash, dm-crypt first for
# one, crypt-inline first for the other.
# same_verdict FIRST TABLE_ARGS...: FIRST (crypt or crypt-inline) is asked
# first; both accept or both refuse.
same_verdict() {
	local first=$1 t v1 v2 second=crypt
	shift
	[ "$first" = crypt ] && second=crypt-inline
	dmsetup create sv1 --table "0 $len $first $*" >/dev/null 2>&1 && v1=accepts || v1=refuses
	dmsetup create sv2 --table "0 $len $second $*" >/dev/null 2>&1 && v2=accepts || v2=refuses
	dmsetup remove sv1 sv2 >/dev/null 2>&1
	check_eq "same verdict as dm-crypt ($first asked first): $1" "$second $v2" "$second $v1"
}
same_verdict crypt "aes-cbc-essiv:sha256-generic $k32 0 $dev 0"
same_verdict crypt-inline "capi:cbc(aes)-essiv:sha1-generic $k32 0 $dev 0"
ANY_KERNEL=1 accepted "aes-xts-plain64 $k32 0 $dev 0 1 high_priority"
if [ -n "$iks" ]; then
	accepted "aes-xts-plain64 $k32 0 $dev 0 1 integrity_key_size:32"
	ANY_KERNEL=1 accepted "aes-xts-plain64 $k32 0 $dev 0 9 allow_discards same_cpu_crypt high_priority submit_from_crypt_cpus no_read_workqueue no_write_workqueue sector_size:4096 iv_large_sectors integrity_key_size:20"
else
	ANY_KERNEL=1 accepted "aes-xts-plain64 $k32 0 $dev 0 8 allow_discards same_cpu_crypt high_priority submit_from_crypt_cpus no_read_workqueue no_write_workqueue sector_size:4096 iv_large_sectors"
fi

check_eq "no device left behind" "$(dmsetup ls 2>/dev/null | grep -c bad)" "0"
live_keys=$(awk '$9 ~ /^crypt-inline:/ && substr($2, 2, 1) != "R"' /proc/keys | wc -l)
check_eq "no key of ours left in the keyring" "$live_keys" "0"
check_eq "module not pinned" "$(cat /sys/module/dm_crypt_inline/refcnt)" "0"
check "module unloads" rmmod dm-crypt-inline
finish
