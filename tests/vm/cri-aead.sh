#!/bin/bash
# Integrity tables: dm-crypt's authenticated encryption over
# dm-integrity, and random IVs kept in its metadata.
#
# 1. LUKS2 volumes made by cryptsetup, --integrity hmac-sha256 (authenc of
#    HMAC-SHA256 and XTS, random IVs) and aes-gcm-random --integrity aead:
#    what dm-crypt wrote reads back through crypt-inline on each path, and
#    dm-crypt reads what crypt-inline wrote, in 64 KiB and in 1 MiB
#    requests (split in pieces, each with its tags).
# 2. Tables over dm-integrity devices made here: a deterministic AEAD
#    (gcm(aes)-plain64, 16-byte tags, 512- and 4096-byte sectors) gives the
#    same bytes on the integrity device as dm-crypt; random IVs without an
#    AEAD (xts(aes)-random, integrity:N:none) cross-read.
# 3. One sector's data changed beneath dm-crypt's tag, or its tag and IV
#    replaced beneath its data: a read of it fails with dm-crypt's error
#    (EILSEQ), the log names the sector and dm-audit records it as for
#    dm-crypt, the sectors beside it read, and the reader's buffer holds
#    none of its plaintext.
# 4. Tables dm-crypt refuses are refused with its reason on this kernel
#    (no integrity profile beneath, tag and sector size mismatches, an AEAD
#    tag size the cipher cannot do), the others taken; nothing left behind.
# Where CRI_NO_VARIANTS is set (RT, debug, and in CI all stock kernels but
# 6.12) the cases that differ only in what computes are left to another
# kernel: the second LUKS2 volume is read on the inline path only, and of
# 2. authenc, chacha20-poly1305 and integrity_key_size are skipped; RT
# (CRI_PATHS without CRI_QUICK) skips 4. (parsing).
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
audit_on || die "audit"
modprobe dm_integrity || die "dm-integrity"
ramdisks 2 48 || die "brd"
mkdir -p /run/cryptsetup /run/lock
PY=${PY:-python3}
bytes=$((2 * 1024 * 1024))
# 1 MiB on the slow debug kernel: still one 1 MiB request, split beneath.
[ -z "${CRI_QUICK:-}" ] || bytes=$((1024 * 1024))

# integrity NAME DEV TAG SECTOR [MODE]: dm-integrity keeping TAG bytes per
# SECTOR-byte sector for the layer above (no hash of its own), formatted
# at first load, its whole data area mapped; journaled unless MODE is D
# (direct: a write that brings no metadata leaves the sector's as it was,
# where the journal would zero it).
integrity() {
	local n mode=${5:-J}
	# A device of zeroes is formatted at first load (6.1's brd takes no
	# discard: write them).
	dd if=/dev/zero of="$2" bs=1M count=8 oflag=direct status=none
	dmsetup create "$1" --table "0 8 integrity $2 0 $3 $mode 1 block_size:$4" || return 1
	n=$(dmsetup status "$1" | awk '{ print $5 }')
	dmsetup reload "$1" --table "0 $n integrity $2 0 $3 $mode 1 block_size:$4" &&
		dmsetup resume "$1" && echo "$n"
}

# with_opts ARGS OPT...: a crypt table's arguments with more options.
with_opts() {
	local a=($1) n=0 opts=()
	shift
	if [ ${#a[@]} -gt 5 ]; then
		n=${a[5]}
		opts=("${a[@]:6}")
	fi
	opts+=("$@")
	n=$((n + $#))
	if [ "$n" -eq 0 ]; then
		echo "${a[*]:0:5}"
	else
		echo "${a[*]:0:5} $n ${opts[*]}"
	fi
}

# readback DEV FILE: DEV's first bytes, read past the page cache in
# requests of $BS bytes (64 KiB unless set), are FILE.
readback() {
	local bs=${BS:-65536}
	cmp -s <(dd if="$1" bs=$bs count=$((bytes / bs)) iflag=direct status=none) "$2"
}

# crossread LABEL LEN ARGS [OPT...]: dm-crypt writes through ARGS, then
# crypt-inline with the options reads that and writes, then dm-crypt reads.
crossread() {
	local label=$1 len=$2 args=$3 cargs
	shift 3
	cargs=$(with_opts "$args" "$@")
	head -c $bytes /dev/urandom >/tmp/p1
	head -c $bytes /dev/urandom >/tmp/p2
	dmsetup create ref --table "0 $len crypt $args" || { fail "$label: dm-crypt loads"; return; }
	dd if=/tmp/p1 of=/dev/mapper/ref bs=${BS:-65536} oflag=direct status=none
	dmsetup remove ref
	if ! dmsetup create cri --table "0 $len crypt-inline $cargs"; then
		fail "$label: crypt-inline loads" "$(dmesg | tail -n 1)"
		return
	fi
	check "$label: crypt-inline reads dm-crypt's" readback /dev/mapper/cri /tmp/p1
	dd if=/tmp/p2 of=/dev/mapper/cri bs=${BS:-65536} oflag=direct status=none
	check "$label: crypt-inline reads its own" readback /dev/mapper/cri /tmp/p2
	check_paths "$label" "$*"
	check_eq "$label: no errors counted" "$(cri_counter cri errors)" "0"
	dmsetup remove cri
	dmsetup create ref --table "0 $len crypt $args"
	check "$label: dm-crypt reads crypt-inline's" readback /dev/mapper/ref /tmp/p2
	dmsetup remove ref
}

paths=("" force_inline no_read_workqueue no_write_workqueue)

# 1. cryptsetup's AEAD volumes.
echo -n "correct horse battery staple" >/tmp/pass
luks() {
	local kind=$1 table len args p ps=("${paths[@]}")
	shift
	dd if=/dev/zero of=/dev/ram0 bs=1M count=8 oflag=direct status=none
	check "$kind: luksFormat" cryptsetup luksFormat -q --type luks2 "$@" \
		--integrity-no-wipe --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
		--key-file /tmp/pass /dev/ram0
	check "$kind: open" cryptsetup open --disable-keyring --key-file /tmp/pass /dev/ram0 vol
	table=$(dmsetup table --showkeys vol)
	echo "$kind: $(echo "$table" | sed 's/ [0-9a-f]\{32,\} / <key> /')"
	len=$(echo "$table" | awk '{ print $2 }')
	args=$(echo "$table" | cut -d' ' -f4-)
	dmsetup remove vol
	# Without variants the second volume, which differs from the first
	# in what computes its tags, takes one path.
	[ -n "${CRI_NO_VARIANTS:-}" ] && [ "$kind" != "$first" ] && ps=(force_inline)
	for p in "${ps[@]}"; do
		crossread "$kind ${p:-queued}" "$len" "$args" $p
		# Requests above the 128 KiB split, as filesystems and dd send
		# them: each piece carries its own tags (6.1 once lost them).
		BS=$((1 << 20)) crossread "$kind ${p:-queued}, 1 MiB requests" "$len" "$args" $p
	done
	dmsetup remove vol_dif
}
first="LUKS2 hmac-sha256"
luks "$first" --integrity hmac-sha256
luks "LUKS2 aes-gcm-random" --cipher aes-gcm-random --integrity aead

# 2. Tables over integrity devices of our own.  same_meta LABEL TAG SECTOR
# CIPHER KEY OPTS: the same plaintext through dm-crypt and crypt-inline on
# two integrity devices gives the same data beneath; each reads the other's.
same_meta() {
	local label=$1 tag=$2 sector=$3 cipher=$4 key=$5 n opts
	shift 5
	opts=$(with_opts "$cipher $key 0 /dev/mapper/i0 0" "$@")
	n=$(integrity i0 /dev/ram0 "$tag" "$sector") || { fail "$label: integrity device"; return; }
	integrity i1 /dev/ram1 "$tag" "$sector" >/dev/null
	head -c $bytes /dev/urandom >/tmp/p1
	if dmsetup create ref --table "0 $n crypt $opts" &&
		dmsetup create cri --table "0 $n crypt-inline $(with_opts "${opts/i0/i1}" force_inline)"; then
		dd if=/tmp/p1 of=/dev/mapper/ref bs=64k oflag=direct status=none
		dd if=/tmp/p1 of=/dev/mapper/cri bs=64k oflag=direct status=none
		check "$label: crypt-inline reads its own" readback /dev/mapper/cri /tmp/p1
		dmsetup remove ref cri
		if [ "${SAME_BYTES:-1}" = 1 ]; then
			check "$label: the same bytes beneath as dm-crypt" cmp -s \
				<(dd if=/dev/mapper/i0 bs=64k count=$((bytes / 65536)) iflag=direct status=none) \
				<(dd if=/dev/mapper/i1 bs=64k count=$((bytes / 65536)) iflag=direct status=none)
		fi
		dmsetup create ref --table "0 $n crypt ${opts/i0/i1}"
		dmsetup create cri --table "0 $n crypt-inline $opts"
		check "$label: dm-crypt reads crypt-inline's" readback /dev/mapper/ref /tmp/p1
		check "$label: crypt-inline reads dm-crypt's" readback /dev/mapper/cri /tmp/p1
	else
		fail "$label: both load" "$(dmesg | tail -n 2 | tr '\n' '|')"
	fi
	dmsetup remove ref cri 2>/dev/null
	dmsetup remove i0 i1
}
k16=$(hexkey 16)
k64=$(hexkey 64)
# Without the variants (lib.sh) one AEAD stays at both sector sizes (the
# tag buffers are sized by it), and the random IVs without one.
same_meta "gcm(aes)-plain64, 512-byte sectors" 16 512 "capi:gcm(aes)-plain64" "$k16" "integrity:16:aead"
same_meta "gcm(aes)-plain64, 4096-byte sectors" 16 4096 "capi:gcm(aes)-plain64" "$k16" "integrity:16:aead" "sector_size:4096"
variant same_meta "authenc(hmac(sha256),xts(aes))-plain64, iv_offset" 32 512 \
	"capi:authenc(hmac(sha256),xts(aes))-plain64" "$(hexkey 96)" "integrity:32:aead"
SAME_BYTES=0 same_meta "xts(aes)-random, integrity:16:none" 16 512 "capi:xts(aes)-random" "$k64" "integrity:16:none"
SAME_BYTES=0 variant same_meta "rfc7539(chacha20,poly1305)-random" 28 512 \
	"capi:rfc7539(chacha20,poly1305)-random" "$(hexkey 32)" "integrity:28:aead"
# integrity_key_size, where the kernel's dm-crypt has it (target 1.28,
# 6.12): a 20-byte MAC key, taken from the key's tail as dm-crypt takes it.
if [ -z "${CRI_NO_VARIANTS:-}" ] &&
	[ "$(dmsetup targets | awk '$1 == "crypt" { split($2, v, "."); print v[2] }')" -ge 28 ]; then
	same_meta "authenc(hmac(sha256),xts(aes))-plain64, integrity_key_size:20" 32 512 \
		"capi:authenc(hmac(sha256),xts(aes))-plain64" "$(hexkey 84)" "integrity:32:aead" \
		"integrity_key_size:20"
fi

# 3. Tampering.  A volume written by dm-crypt (authenc, random IVs); its
# sector 17 is changed beneath it, in the data or in the metadata.
n=$(integrity i0 /dev/ram0 48 512 D) || die "integrity device"
ka=$(hexkey 96)
args="capi:authenc(hmac(sha256),xts(aes))-random $ka 0 /dev/mapper/i0 0 1 integrity:48:aead"
head -c $bytes /dev/urandom >/tmp/p1
dmsetup create ref --table "0 $n crypt $args"
dd if=/tmp/p1 of=/dev/mapper/ref bs=64k oflag=direct status=none
dmsetup remove ref
# read_sector DEV SECTOR: read it O_DIRECT into a buffer filled with 0xa5;
# prints the errno name, then the buffer in hex.
read_sector() {
	$PY - "$1" "$2" <<'EOF'
import errno, mmap, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECT)
buf = mmap.mmap(-1, 4096)
buf.write(b"\xa5" * 4096)
try:
    os.preadv(fd, [memoryview(buf)[:512]], int(sys.argv[2]) * 512)
    print("OK")
except OSError as e:
    print(errno.errorcode[e.errno])
print(bytes(buf[:512]).hex())
EOF
}
# tampered LABEL: sector 17 fails as dm-crypt fails it, 16 and 18 read;
# each read of it leaves one dm-audit record naming the device beneath.
i0_dev=$(stat -Lc '%Hr:%Lr' /dev/mapper/i0)
tampered() {
	local out plain blk leak=0
	dmesg_clear
	dmsetup create cri --table "0 $n crypt-inline $(with_opts "$args" force_inline)" ||
		{ fail "$1: crypt-inline loads"; return; }
	out=$(read_sector /dev/mapper/cri 17)
	check_eq "$1: reading sector 17 fails with EILSEQ" "$(echo "$out" | head -n 1)" "EILSEQ"
	plain=$(dd if=/tmp/p1 bs=512 skip=17 count=1 status=none | od -An -tx1 -v | tr -d ' \n')
	for blk in $(seq 0 31); do
		case $(echo "$out" | tail -n 1) in
		*"${plain:$((blk * 32)):32}"*) leak=1 ;;
		esac
	done
	check_eq "$1: no block of sector 17's plaintext in the buffer" "$leak" "0"
	check "$1: the log names sector 17" sh -c "dmesg | grep -q 'INTEGRITY AEAD ERROR, sector 17'"
	check "$1: sector 16 reads" bash -c "cmp -s <(dd if=/dev/mapper/cri bs=512 skip=16 count=1 iflag=direct status=none) <(dd if=/tmp/p1 bs=512 skip=16 count=1 status=none)"
	check "$1: sector 18 reads" bash -c "cmp -s <(dd if=/dev/mapper/cri bs=512 skip=18 count=1 iflag=direct status=none) <(dd if=/tmp/p1 bs=512 skip=18 count=1 status=none)"
	check "$1: the error is counted" test "$(cri_counter cri errors)" -gt 0
	dmsetup remove cri
	dmsetup create ref --table "0 $n crypt $args"
	check_eq "$1: dm-crypt fails it too" "$(read_sector /dev/mapper/ref 17 | head -n 1)" "EILSEQ"
	dmsetup remove ref
	check_eq "$1: one dm-audit record of sector 17 each, as dm-crypt's" "$(audit_records 1339)" \
		"module=crypt-inline op=integrity-aead dev=$i0_dev sector=17 res=0
module=crypt op=integrity-aead dev=$i0_dev sector=17 res=0"
}
# Data: one byte of sector 17 flipped through dm-integrity, its tag kept.
dd if=/dev/mapper/i0 of=/tmp/s17 bs=512 skip=17 count=1 iflag=direct status=none
$PY -c 'import sys; b = bytearray(open("/tmp/s17", "rb").read()); b[100] ^= 1; sys.stdout.buffer.write(b)' >/tmp/s17x
dd if=/tmp/s17x of=/dev/mapper/i0 bs=512 seek=17 count=1 oflag=direct conv=notrunc status=none
tampered "data changed"
dd if=/tmp/s17 of=/dev/mapper/i0 bs=512 seek=17 count=1 oflag=direct conv=notrunc status=none
dmsetup create ref --table "0 $n crypt $args"
check "data restored: sector 17 reads again" bash -c "cmp -s <(dd if=/dev/mapper/ref bs=512 skip=17 count=1 iflag=direct status=none) <(dd if=/tmp/p1 bs=512 skip=17 count=1 status=none)"
dmsetup remove ref
# Metadata: sector 17 written through another key (new tag and IV), then
# its old data put back beneath.
dmsetup create ref --table "0 $n crypt ${args/$ka/$(hexkey 96)}"
dd if=/dev/urandom of=/dev/mapper/ref bs=512 seek=17 count=1 oflag=direct status=none
dmsetup remove ref
dd if=/tmp/s17 of=/dev/mapper/i0 bs=512 seek=17 count=1 oflag=direct conv=notrunc status=none
tampered "tag replaced"
dmsetup remove i0

# 4. Tables either refused by both, with the reason the kernel's dm-crypt
# gives, or taken by both.  Not on RT (CRI_PATHS without CRI_QUICK): that
# is parsing; the debug kernel runs it for the unwinding.
if [ -n "${CRI_PATHS:-}" ] && [ -z "${CRI_QUICK:-}" ]; then
	finish
fi
# outcome TARGET TABLE NO_REASON: "accepted", or the reason the kernel log
# gives for TARGET's refusal, or NO_REASON (the two sides use different
# ones, so that two refusals without a reason never compare equal).
outcome() {
	local why
	if dmsetup create bad --table "0 8 $1 $2" 2>/dev/null; then
		dmsetup remove bad
		echo accepted
		return
	fi
	why=$(dmesg | sed -n "s/.*table: [0-9:]*: $1: \(.*\) (-[A-Z0-9]*)\$/\1/p" | tail -n 1)
	echo "${why:-$3}"
}
agree() {
	local label=$1 table=$2 want ours
	dmesg_clear
	want=$(outcome crypt "$table" "refused, reason not found")
	dmesg_clear
	ours=$(outcome crypt-inline "$table" "refused, no reason found")
	check_eq "$label: as dm-crypt ($want)" "$ours" "$want"
	check_fails "$label: nothing left" dmsetup info bad
}
integrity i0 /dev/ram0 16 512 >/dev/null || die "integrity device"
agree "no integrity profile beneath" "capi:gcm(aes)-random $k16 0 /dev/ram1 0 1 integrity:28:aead"
agree "tag size larger than the profile's" "capi:gcm(aes)-random $k16 0 /dev/mapper/i0 0 1 integrity:28:aead"
agree "tag size smaller than the profile's" "capi:gcm(aes)-plain64 $k16 0 /dev/mapper/i0 0 1 integrity:12:aead"
agree "sector size not the profile's" "capi:gcm(aes)-plain64 $k16 0 /dev/mapper/i0 0 2 integrity:16:aead sector_size:4096"
agree "a tag size gcm cannot do" "capi:gcm(aes)-plain64 $k16 0 /dev/mapper/i0 0 1 integrity:3:aead"
agree "random IVs in part of the metadata" "capi:xts(aes)-random $k64 0 /dev/mapper/i0 0 1 integrity:8:none"
agree "random IVs, no integrity argument" "capi:xts(aes)-random $k64 0 /dev/mapper/i0 0"
agree "random IVs, no profile" "capi:xts(aes)-random $k64 0 /dev/ram1 0"
agree "integrity:N:none, plain IVs, no profile" "capi:xts(aes)-plain64 $k64 0 /dev/ram1 0 1 integrity:16:none"
agree "AEAD in the old cipher format" "aes-gcm-random $k16 0 /dev/mapper/i0 0 1 integrity:16:aead"
dmsetup remove i0
finish
