#!/bin/bash
# Volumes made and opened by cryptsetup (LUKS2 with defaults, LUKS1, plain)
# move live onto crypt-inline with the table rebuilt from the volume key,
# carry ext4 that fscks clean, survive the key wipe/set messages that
# luksSuspend/luksResume send, move back, and cryptsetup manages them again.
#
# cryptsetup itself refuses a device whose target type it does not know
# (libcryptsetup accepts only crypt, verity, integrity, linear, zero and
# error), so on crypt-inline its messages are sent with dmsetup, and
# status/suspend/resume/close by cryptsetup are checked after moving back.
#
# vm-kernels: stock
# (cryptsetup interplay, user space; the key messages' locking and memory
# lifetimes are cri-resume's, whose storms of concurrent key set and key
# wipe run on the RT and debug kernels)
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
ramdisks 1 96 || die "brd"
head -c 32 /dev/urandom >/tmp/pass
head -c $((8 << 20)) /dev/urandom >/tmp/file

# hex_table NAME VKFILE: the device's table with the volume key in hex.
hex_table() {
	local vk
	vk=$(od -An -tx1 -v "$2" | tr -d ' \n')
	dmsetup table "$1" | awk -v k="$vk" '{ $5 = k; print }'
}

# retarget LINE TYPE [EXTRA_OPT]: the line with another target type and,
# optionally, one more optional argument.
retarget() {
	echo "$1" | awk -v t="$2" -v extra="${3:-}" '{
		$3 = t
		if (extra != "") {
			if (NF >= 9) { $9 = $9 + 1; $0 = $0 " " extra }
			else { $0 = $0 " 1 " extra }
		}
		print
	}'
}

swap_table() {
	dmsetup reload vol --table "$1" && dmsetup suspend vol && dmsetup resume vol
}

volume() {
	local kind=$1
	shift
	blkdiscard -f /dev/ram0 2>/dev/null
	case $kind in
	plain)
		check "$kind: open" cryptsetup open --type plain -q --key-file /tmp/pass \
			--cipher aes-xts-plain64 --key-size 256 /dev/ram0 vol
		;;
	*)
		check "$kind: luksFormat" cryptsetup luksFormat -q "$@" --key-file /tmp/pass /dev/ram0
		check "$kind: open" cryptsetup open --key-file /tmp/pass /dev/ram0 vol
		check "$kind: volume key from the header" cryptsetup luksDump -q --dump-volume-key \
			--volume-key-file /tmp/vk --key-file /tmp/pass /dev/ram0
		;;
	esac
	[ -e /dev/mapper/vol ] || return
	[ "$kind" = plain ] && dmsetup table --showkeys vol | awk '{ print $5 }' | unhex_stdin >/tmp/vk
	orig=$(dmsetup table vol)
	hex=$(hex_table vol /tmp/vk)

	check "$kind: moved onto crypt-inline" swap_table "$(retarget "$hex" crypt-inline force_inline)"
	check_eq "$kind: target is crypt-inline" "$(dmsetup table vol | cut -d' ' -f3)" "crypt-inline"
	check "$kind: mkfs.ext4" mkfs.ext4 -q /dev/mapper/vol
	mkdir -p /tmp/mnt
	mount /dev/mapper/vol /tmp/mnt && cp /tmp/file /tmp/mnt/file && umount /tmp/mnt
	check "$kind: fsck clean" fsck.ext4 -fn /dev/mapper/vol
	# What luksSuspend and luksResume do, sent to crypt-inline.
	local vkhex
	vkhex=$(od -An -tx1 -v /tmp/vk | tr -d ' \n')
	check_fails "$kind: key messages refused while running" dmsetup message vol 0 key wipe
	dmsetup suspend vol
	check "$kind: key wipe while suspended" dmsetup message vol 0 key wipe
	check_fails "$kind: no resume without a key" dmsetup resume vol
	check_fails "$kind: key of the wrong size refused" dmsetup message vol 0 key set "${vkhex:0:$((${#vkhex} / 2))}"
	check "$kind: key set while suspended" dmsetup message vol 0 key set "$vkhex"
	check "$kind: resume with the key set" dmsetup resume vol
	unset vkhex
	check "$kind: fsck clean after key wipe/set" fsck.ext4 -fn /dev/mapper/vol

	check "$kind: moved back to crypt" swap_table "$(retarget "$hex" crypt)"
	check_eq "$kind: target is crypt again" "$(dmsetup table vol | cut -d' ' -f3)" "crypt"
	check "$kind: fsck clean on dm-crypt" fsck.ext4 -fn /dev/mapper/vol
	mount -o ro /dev/mapper/vol /tmp/mnt
	check "$kind: file intact on dm-crypt" cmp /tmp/mnt/file /tmp/file
	umount /tmp/mnt
	check "$kind: cryptsetup status" cryptsetup status vol
	if [ "$kind" != plain ]; then
		check "$kind: luksSuspend" cryptsetup luksSuspend vol
		check "$kind: luksResume" cryptsetup luksResume --key-file /tmp/pass vol
	fi
	check "$kind: close" cryptsetup close vol
	check_fails "$kind: gone" test -e /dev/mapper/vol
	rm -f /tmp/vk
}

unhex_stdin() { $PY -c 'import sys; sys.stdout.buffer.write(bytes.fromhex(sys.stdin.read().strip()))'; }

volume luks2 $KDF_LUKS2
volume luks1 --type luks1 $KDF_LUKS1
volume plain
check_eq "module unpinned" "$(cat /sys/module/dm_crypt_inline/refcnt)" "0"
finish
