#!/bin/bash
# Bounds on the work one bio can cause, and on what the page stash holds.
#
# - Reads and writes are split at max_read_size/max_write_size as in-tree
#   dm-crypt splits them (6.11+, 128 KiB by default; a parameter can lower
#   the bound, not raise it): a 1 MiB O_DIRECT read or write is mapped as
#   eight bios, on the inline and on the queued path, with 512- and
#   4096-byte sectors, and the data is right.  Where dm-crypt cuts no reads
#   and cuts writes only at one clone (6.1), a write and a queued read are
#   cut only at 1 MiB; an inline read, decrypted in softirq, at 128 KiB
#   still.
# - The ciphertext page stash of a CPU is emptied when that CPU goes
#   offline, not held until module unload.
# vm-check: stock debug
# (CI tier: not RT, where the split is the stock 6.12's code and the stash drain the debug kernel's)
. "$TOP/tests/lib/lib.sh"

load_targets || die "loading targets"
ramdisks 1 64 || die "brd"
k=$(hexkey 64)
len=$((32 << 11))
params=/sys/module/dm_crypt_inline/parameters
head -c $((4 << 20)) /dev/urandom >/tmp/plain

mapped() {
	echo $(($(cri_counter vol inline) + $(cri_counter vol queued)))
}

# bios DIR: how many bios one 1 MiB O_DIRECT transfer was mapped as.
bios() {
	local n0
	n0=$(mapped)
	if [ "$1" = write ]; then
		dd if=/tmp/plain of=/dev/mapper/vol bs=1M count=1 oflag=direct status=none
	else
		dd if=/dev/mapper/vol of=/tmp/got bs=1M count=1 iflag=direct status=none
	fi
	echo $(($(mapped) - n0))
}

# On RT and debug (CRI_PATHS) each path once, each sector size once: the
# other two cases differ only in the sizes computed.
cases=("1 force_inline" "" "2 force_inline sector_size:4096" "1 sector_size:4096")
[ -z "${CRI_PATHS:-}" ] || cases=("1 force_inline" "1 sector_size:4096")
for opts in "${cases[@]}"; do
	label="${opts#* }"
	label=${label:-queued}
	# Pieces of a 1 MiB read: eight, or one where it is queued and dm-crypt
	# cuts no reads.
	rd=8
	case " $opts " in
	*" force_inline "*) ;;
	*) dmcrypt_has_max_io_size || rd=1 ;;
	esac
	# Of a 1 MiB write: eight, or one where dm-crypt cuts writes at a clone.
	wr=8
	dmcrypt_has_max_io_size || wr=1
	dmsetup create vol --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/ram0 0 $opts" || {
		fail "$label: create"
		continue
	}
	how="as $wr bios"
	[ $wr != 1 ] || how="whole"
	check_eq "$label: 1 MiB write mapped $how" "$(bios write)" "$wr"
	how="as $rd bios"
	[ $rd != 1 ] || how="whole"
	check_eq "$label: 1 MiB read mapped $how" "$(bios read)" "$rd"
	check "$label: the read returned what was written" cmp -n $((1 << 20)) /tmp/got /tmp/plain
	check_eq "$label: the status counts the cuts" "$(cri_counter vol split)" "$((wr - 1 + rd - 1))"
	echo 65536 >$params/max_read_size
	echo 32768 >$params/max_write_size
	check_eq "$label: max_write_size 32768 lowers the bound" "$(bios write)" "32"
	check_eq "$label: max_read_size 65536 lowers the bound" "$(bios read)" "16"
	check "$label: and the data is right" cmp -n $((1 << 20)) /tmp/got /tmp/plain
	echo $((1 << 20)) >$params/max_read_size
	echo $((1 << 20)) >$params/max_write_size
	check_eq "$label: a larger max_read_size does not raise it" "$(bios read)" "$rd"
	check_eq "$label: nor a larger max_write_size" "$(bios write)" "$wr"
	echo 0 >$params/max_read_size
	echo 0 >$params/max_write_size
	dmsetup remove vol
done

# The stash: pages freed on CPU 1 stay on CPU 1 until it goes offline.
stash=/sys/kernel/debug/dm_crypt_inline/stash
stashed() {
	awk -v c="cpu$1" '$1 == c { print $2 }' $stash
}
dmsetup create vol --table "0 $len crypt-inline aes-xts-plain64 $k 0 /dev/ram0 0 1 force_inline" || die "create"
dd if=/tmp/plain of=/dev/mapper/vol bs=1M count=1 oflag=direct status=none
online=/sys/devices/system/cpu/cpu1/online
if [ -w $online ]; then
	taskset -c 1 dd if=/tmp/plain of=/dev/mapper/vol bs=64k count=16 oflag=direct status=none
	n=$(stashed 1)
	check "pages stashed on cpu1 after writing there (${n:-none})" test "${n:-0}" -gt 0
	check "cpu1 offline" sh -c "echo 0 >$online"
	check_eq "cpu1's stash emptied when it went offline" "$(stashed 1)" "0"
	check "cpu1 online again" sh -c "echo 1 >$online"
	taskset -c 1 dd if=/tmp/plain of=/dev/mapper/vol bs=64k count=16 oflag=direct status=none
	check "and stashing again ($(stashed 1))" test "$(stashed 1)" -gt 0
else
	fail "cpu1 can go offline" "no writable $online"
fi
check "data intact" cmp -n $((1 << 20)) /dev/mapper/vol /tmp/plain
dmsetup remove vol
check "module unloads" rmmod dm-crypt-inline
finish
