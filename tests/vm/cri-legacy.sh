#!/bin/bash
# The old on-disk formats dm-crypt reads, and several keys per cipher:
# loop-AES (lmk, versions 2 and 3), TrueCrypt before 4.1 (tcw), BitLocker
# (eboiv, elephant) and "cipher:<keycount>".  For each, against in-tree
# dm-crypt: identical bytes on disk and each reads what the other wrote,
# on the queued path, inline, and each direction alone, with iv_offset and
# offset, and through an asynchronous tfm for lmk and tcw (their work after
# the cipher then runs in the continuation).  Refusals dm-crypt makes, made
# too.  The debug kernel checks the new per-sector work (hashes, the IV
# ciphers, in completion and softirq context) for sleeping and memory
# errors; RT adds nothing: that work takes no lock and allocates nothing,
# and it runs on the paths cri-format already runs there.
# vm-kernels: stock debug
# vm-check: stock
# (CI tier: the stock kernels; the paths these formats take are cri-format's on the debug kernel)
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
ramdisks 2 8 || die "brd"
len=2048			# 1 MiB mapped: old formats, few bytes needed
bytes=$((len * 512))
head -c $bytes /dev/urandom >/tmp/plain
# Without the variants (lib.sh) one case per mode and path kind stays: the
# others repeat a path with another key size or offset.

k16=$(hexkey 16) k32=$(hexkey 32) k48=$(hexkey 48) k64=$(hexkey 64)
lmk2=$(hexkey 1024)	# 64 keys of 16 bytes: loop-AES v2
lmk3=$(hexkey 2080)	# 65 parts of 32 bytes: v3, the last is the seed

same_bytes "lmk v2, keycount 64, queued" aes:64-cbc-lmk "$lmk2" 0 0
same_bytes "lmk v3, keycount 64, inline" aes:64-cbc-lmk "$lmk3" 0 0 force_inline
variant same_bytes "lmk v3, iv_offset and offset, reads inline" aes:64-cbc-lmk "$lmk3" 77 8 no_read_workqueue
variant same_bytes "lmk, one key" aes-cbc-lmk "$k32" 0 0 no_write_workqueue
variant same_bytes "capi:cbc(aes)-lmk (64 keys implied)" "capi:cbc(aes)-lmk" "$lmk3" 0 0 force_inline
variant same_bytes "tcw, AES-256" aes-cbc-tcw "$k64" 0 0
same_bytes "tcw, AES-128, inline, offsets" aes-cbc-tcw "$k48" 100 16 force_inline
variant same_bytes "tcw, serpent, writes inline" serpent-cbc-tcw "$k64" 0 0 no_write_workqueue
variant same_bytes "eboiv, 4096-byte sectors (BitLocker)" aes-cbc-eboiv "$k32" 0 0 sector_size:4096 iv_large_sectors
same_bytes "eboiv, 512-byte sectors, inline" aes-cbc-eboiv "$k16" 9 0 force_inline
same_bytes "elephant, AES-256, 4096-byte sectors, inline" aes-cbc-elephant "$k64" 0 0 force_inline sector_size:4096 iv_large_sectors
variant same_bytes "elephant, AES-128, 4096-byte sectors, queued" aes-cbc-elephant "$k32" 0 8 sector_size:4096 iv_large_sectors
same_bytes "elephant, 512-byte sectors, reads inline" aes-cbc-elephant "$k32" 3 0 no_read_workqueue
# Sector numbers past 2^32: the high bits of each IV mode's sector.
big=$(((1 << 40) + (1 << 33)))
variant same_bytes "lmk v3, iv_offset past 2^40" aes:64-cbc-lmk "$lmk3" $big 0 force_inline
variant same_bytes "tcw, iv_offset past 2^40" aes-cbc-tcw "$k64" $big 0
variant same_bytes "eboiv, iv_offset past 2^40" aes-cbc-eboiv "$k32" $big 0 force_inline
variant same_bytes "elephant, iv_offset past 2^40" aes-cbc-elephant "$k64" $big 0 sector_size:4096 iv_large_sectors
# eboiv with 4096-byte sectors counted in 512-byte units (no iv_large_sectors).
variant same_bytes "eboiv, 4096-byte sectors, 512-byte IV units" aes-cbc-eboiv "$k32" 16 0 sector_size:4096
same_bytes "keycount 4, xts" aes:4-xts-plain64 "$(hexkey 256)" 0 0 force_inline
variant same_bytes "keycount 2, essiv, offsets" aes:2-cbc-essiv:sha256 "$k64" 5 8
variant same_bytes "keycount 8, 4096-byte sectors" aes:8-cbc-plain64 "$(hexkey 256)" 8 0 force_inline sector_size:4096
# cryptd makes every request asynchronous; dm-crypt refuses it by name.
REF_CIPHER=aes:64-cbc-lmk same_bytes "lmk v3 through an async tfm, inline" \
	"capi:cryptd(cbc(aes-generic))-lmk" "$lmk3" 0 0 force_inline
REF_CIPHER=aes-cbc-tcw same_bytes "tcw through an async tfm, queued" \
	"capi:cryptd(cbc(aes-generic))-tcw" "$k64" 0 0

# The table line prints back as loaded (the key as a keyring reference).
check "lmk v3 with a 2080-byte key loads" \
	dmsetup create cri --table "0 $len crypt-inline aes:64-cbc-lmk $lmk3 7 /dev/ram1 0 1 force_inline"
line=$(dmsetup table cri)
case $line in
*" aes:64-cbc-lmk :2080:logon:crypt-inline:"*" 7 1:1 0 1 force_inline") pass "lmk v3 line prints back" ;;
*) fail "lmk v3 line prints back" "$line" ;;
esac
check "the printed line loads again" dmsetup reload cri --table "$line"
check "and resumes" dmsetup resume cri
# key wipe and key set on a device with IV state (seed) and 64 tfms.
dd if=/tmp/plain of=/dev/mapper/cri bs=64k oflag=direct status=none
check "suspend" dmsetup suspend cri
check "key wipe" dmsetup message cri 0 key wipe
check "key set" dmsetup message cri 0 key set "$lmk3"
check "resume" dmsetup resume cri
check "data intact after wipe and set" cmp -n $bytes /dev/mapper/cri /tmp/plain
dmsetup remove cri

# Refusals, with dm-crypt: both refuse, and crypt-inline says why.
# refused LABEL WHY TABLE-ARGS
refused() {
	local label=$1 why=$2 args=$3
	if dmsetup create ref --table "0 $len crypt $args" 2>/dev/null; then
		fail "$label: dm-crypt refuses it too"
		dmsetup remove ref
	fi
	dmesg_clear
	if dmsetup create cri --table "0 $len crypt-inline $args" 2>/dev/null; then
		fail "$label: refused"
		dmsetup remove cri
		return
	fi
	check "$label: refused ($why)" grep -q "$why" <(dmesg)
}
refused "tcw with a key no longer than IV seed and whitening" "Error decoding and setting key: wrong key size for TCW" \
	"aes-cbc-tcw $k32 0 /dev/ram1 0"
refused "lmk with 4096-byte sectors" "Error creating IV: unsupported sector size for LMK" \
	"aes:64-cbc-lmk $lmk2 0 /dev/ram1 0 1 sector_size:4096"
refused "tcw with 4096-byte sectors" "Error creating IV: unsupported sector size for TCW" \
	"aes-cbc-tcw $k64 0 /dev/ram1 0 1 sector_size:4096"
refused "eboiv with ctr (block size is not the IV size)" "Error creating IV: EBOIV cipher's block size is not the IV size" \
	"aes-ctr-eboiv $k32 0 /dev/ram1 0"
refused "keycount not a power of two" "Bad cipher key count specification" \
	"aes:3-cbc-plain64 $k48 0 /dev/ram1 0"
refused "keycount 4 leaves 8-byte AES keys" "Error decoding and setting key: wrong size for the cipher" \
	"aes:4-cbc-plain64 $k32 0 /dev/ram1 0"
check_eq "nothing left behind" "$(ls /dev/mapper | grep -vc '^control$')" "0"
check_eq "module unpinned" "$(cat /sys/module/dm_crypt_inline/refcnt)" "0"
check "module unloads" rmmod dm-crypt-inline
finish
