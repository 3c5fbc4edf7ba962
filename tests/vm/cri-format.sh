#!/bin/bash
# crypt-inline writes dm-crypt's disk format: for each supported cipher, IV
# mode, key size and key source, sector size, iv_offset/offset and flag set,
# the same plaintext and key leave identical bytes on the backing device,
# and each target reads what the other wrote.  (Where CRI_NO_VARIANTS is
# set, the cases that differ only in cipher, key size or IV generator are
# left to another kernel: see variant in lib.sh.)
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
load_module xtsproxy || die "insmod xtsproxy"
ramdisks 2 24 || die "brd"
keyctl link @u @s >/dev/null 2>&1
len=8192			# 4 MiB mapped
[ -n "${CRI_QUICK:-}" ] && len=2048	# 1 MiB on slow (debug) kernels
bytes=$((len * 512))
head -c $bytes /dev/urandom >/tmp/plain

k32=$(hexkey 32) k64=$(hexkey 64) k16=$(hexkey 16)
# Without the variants (lib.sh) one case of each code path stays: sync and
# async tfms, essiv's second tfm, split writes, sector sizes, flags,
# keyring keys.
variant same_bytes "aes-xts-plain64 256" aes-xts-plain64 "$k32" 0 0
same_bytes "aes-xts-plain64 512" aes-xts-plain64 "$k64" 0 0
same_bytes "aes-xts-plain64 inline" aes-xts-plain64 "$k64" 0 0 force_inline
variant same_bytes "aes-xts-plain" aes-xts-plain "$k32" 5 0 force_inline
variant same_bytes "aes-xts-plain64be" aes-xts-plain64be "$k32" 0 0
variant same_bytes "aes-cbc-essiv:sha256 128" aes-cbc-essiv:sha256 "$k16" 0 0
same_bytes "aes-cbc-essiv:sha256 256 inline" aes-cbc-essiv:sha256 "$k32" 0 0 force_inline
variant same_bytes "aes-cbc-plain (legacy 'aes')" aes "$k32" 0 0
variant same_bytes "aes-cbc-null" aes-cbc-null "$k16" 0 0 force_inline
variant same_bytes "aes-ecb" aes-ecb "$k16" 0 0
variant same_bytes "aes-lrw-benbi" aes-lrw-benbi "$(hexkey 48)" 0 0 force_inline
variant same_bytes "serpent-xts-plain64" serpent-xts-plain64 "$k64" 0 0 force_inline
variant same_bytes "twofish-cbc-essiv:sha256" twofish-cbc-essiv:sha256 "$k32" 0 0
variant same_bytes "aes:1 keycount" aes:1-xts-plain64 "$k32" 0 0
variant same_bytes "capi:xts(aes)-plain64" "capi:xts(aes)-plain64" "$k64" 0 0 force_inline
variant same_bytes "capi:cbc(aes)-essiv:sha256" "capi:cbc(aes)-essiv:sha256" "$k32" 0 0
same_bytes "capi:xts-aes-xtsproxy-plain64" capi:xts-aes-xtsproxy-plain64 "$k64" 0 0 force_inline
variant same_bytes "IV options ignored as dm-crypt ignores them" aes-xts-plain64:sha256 "$k64" 0 0
# dm-crypt takes high_priority from 6.10 on; it changes no byte.
CRI_ONLY="high_priority" same_bytes "high_priority" aes-xts-plain64 "$k64" 0 0 high_priority
# cryptd makes every request asynchronous: callbacks and backlog, both
# paths.  dm-crypt refuses cryptd() by name, so it writes with plain xts.
REF_CIPHER=aes-xts-plain64 same_bytes "async tfm, inline" "capi:cryptd(xts(ecb(aes-generic)))-plain64" "$k64" 0 0 force_inline
REF_CIPHER=aes-xts-plain64 same_bytes "async tfm, queued" "capi:cryptd(xts(ecb(aes-generic)))-plain64" "$k64" 0 0
# Writes larger than one clone (1 MiB) are split.
BS=$bytes same_bytes "one write of the whole device, inline" aes-xts-plain64 "$k64" 0 0 force_inline
BS=$bytes same_bytes "one write of the whole device, queued" aes-xts-plain64 "$k64" 0 0
same_bytes "iv_offset and offset" aes-xts-plain64 "$k32" 12345 2048 force_inline
same_bytes "sector_size:4096" aes-xts-plain64 "$k64" 0 0 sector_size:4096
same_bytes "sector_size:4096 inline" aes-xts-plain64 "$k64" 8 8 force_inline sector_size:4096
same_bytes "sector_size:4096 iv_large_sectors" aes-xts-plain64 "$k64" 16 8 sector_size:4096 iv_large_sectors
same_bytes "sector_size:1024 iv_large_sectors inline" aes-cbc-essiv:sha256 "$k32" 0 0 force_inline sector_size:1024 iv_large_sectors
same_bytes "no_read_workqueue" aes-xts-plain64 "$k64" 0 0 no_read_workqueue
same_bytes "no_write_workqueue" aes-xts-plain64 "$k64" 0 0 no_write_workqueue
same_bytes "both no-workqueue flags" aes-xts-plain64 "$k64" 0 0 no_read_workqueue no_write_workqueue
same_bytes "same_cpu_crypt" aes-xts-plain64 "$k64" 0 0 same_cpu_crypt
same_bytes "submit_from_crypt_cpus" aes-xts-plain64 "$k64" 0 0 submit_from_crypt_cpus
same_bytes "allow_discards" aes-xts-plain64 "$k64" 0 0 allow_discards force_inline

# A 4096-byte sector never straddles two buffer segments: a buffer 512 bytes
# into a page is refused by the kernel or works, never an IO error.
for flags in "2 sector_size:4096 force_inline" "1 sector_size:4096"; do
	dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k64 0 /dev/ram1 0 $flags"
	res=$($PY "$TLIB/dio-offset.py" /dev/mapper/cri 4096 512)
	case $res in
	ok | refused) pass "${flags#* }: misaligned O_DIRECT buffer $res, no IO error" ;;
	*) fail "${flags#* }: misaligned O_DIRECT buffer" "$res" ;;
	esac
	check_eq "${flags#* }: aligned O_DIRECT buffer works" "$($PY "$TLIB/dio-offset.py" /dev/mapper/cri 4096 0)" "ok"
	dmsetup remove cri
done

# Discards reach the device only with allow_discards.
dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k64 0 /dev/ram1 0 1 force_inline"
check_fails "discard refused without allow_discards" blkdiscard /dev/mapper/cri
dmsetup remove cri
if [ "$(cat /sys/block/ram1/queue/discard_max_bytes)" -gt 0 ]; then
	dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k64 0 /dev/ram1 0 2 force_inline allow_discards"
	check "discard passes with allow_discards" blkdiscard /dev/mapper/cri
	dmsetup remove cri
else
	echo "SKIP: brd of this kernel takes no discards; allow_discards not exercised"
fi

# Keyring keys, logon and user, as cryptsetup passes them.
unhex "$k64" >/tmp/kbin
keyctl padd logon cri:vol1 @u </tmp/kbin >/dev/null || fail "keyctl add logon"
keyctl padd user cri:vol2 @u </tmp/kbin >/dev/null || fail "keyctl add user"
same_bytes "logon keyring key" aes-xts-plain64 ":64:logon:cri:vol1" 0 0 force_inline
same_bytes "user keyring key" aes-xts-plain64 ":64:user:cri:vol2" 0 0
# An encrypted key (its bytes never seen by user space) under a user master key.
keyctl padd user cri:kmk @u </tmp/kbin >/dev/null || fail "keyctl add master key"
keyctl add encrypted cri:vol3 "new default user:cri:kmk 64" @u >/dev/null || fail "keyctl add encrypted"
same_bytes "encrypted keyring key" aes-xts-plain64 ":64:encrypted:cri:vol3" 0 0 force_inline

# The table line never shows key material, and loads again unchanged.
dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 $k64 0 /dev/ram1 0 1 force_inline"
dd if=/tmp/plain of=/dev/mapper/cri bs=256k oflag=direct status=none
line=$(dmsetup table --showkeys cri)
case $line in
*"$k64"* | *"${k64:0:32}"* | *"${k64:64:32}"*) fail "table line hides the hex key" "$line" ;;
*) pass "table line hides the hex key" ;;
esac
case $line in
*" aes-xts-plain64 :64:logon:crypt-inline:"*) pass "hex key shown as a keyring reference" ;;
*) fail "hex key shown as a keyring reference" "$line" ;;
esac
check_fails "the keyring copy is not readable from user space" \
	keyctl pipe "$(awk '$9 ~ /^crypt-inline:/ && substr($2, 2, 1) != "R" { print $1; exit }' /proc/keys)"
check "the printed line loads again" dmsetup reload cri --table "$line"
check "and resumes" dmsetup resume cri
check_eq "table unchanged after reload" "$(dmsetup table cri)" "$line"
check "data intact through the reloaded table" cmp -n $bytes /dev/mapper/cri /tmp/plain
check "the printed line makes a second device" dmsetup create cri2 --table "$line"
check "which reads the same data" cmp -n $bytes /dev/mapper/cri2 /tmp/plain
dmsetup remove cri2 cri
live=$(awk '$9 ~ /^crypt-inline:/ && substr($2, 2, 1) != "R"' /proc/keys | wc -l)
check_eq "key revoked once no table uses it" "$live" "0"
check_fails "and a stale line no longer loads" dmsetup create cri --table "$line"
dmsetup remove cri >/dev/null 2>&1
check_eq "keyring keys print as given" \
	"$(dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 :64:logon:cri:vol1 0 /dev/ram1 0" && dmsetup table cri | cut -d' ' -f4,5)" \
	"aes-xts-plain64 :64:logon:cri:vol1"
dmsetup remove cri
check_eq "encrypted keys print as given" \
	"$(dmsetup create cri --table "0 $len crypt-inline aes-xts-plain64 :64:encrypted:cri:vol3 0 /dev/ram1 0" && dmsetup table cri | cut -d' ' -f4,5)" \
	"aes-xts-plain64 :64:encrypted:cri:vol3"
dmsetup remove cri
check_eq "module unpinned" "$(cat /sys/module/dm_crypt_inline/refcnt)" "0"
check "module unloads" rmmod dm-crypt-inline
finish
