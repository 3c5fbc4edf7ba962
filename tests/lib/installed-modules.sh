#!/bin/bash
# Guest half of tests/host/deb.sh, booted after `apt install` of the package on the
# host (whose / is the guest's): modprobe takes both modules from
# updates/dkms, not from a build tree, and each passes a smoke test:
# xtsproxy its self-test and a known answer through dm-crypt, crypt-inline
# the same bytes on disk as dm-crypt, inline, the drop-in dm-crypt's bytes
# read back in its place.  The placeholders built for
# kernels outside the tested series (directory $1) refuse to load.
. "$TOP/tests/lib/lib.sh"

v=$(uname -r)
for m in xtsproxy dm-crypt-inline dm-crypt-dropin; do
	f=$(modinfo -F filename "$m" 2>/dev/null)
	case $f in
	/lib/modules/$v/updates/dkms/$m.ko*) pass "$m found in updates/dkms" ;;
	*) fail "$m found in updates/dkms" "got '$f'" ;;
	esac
done
load_aesni
check "modprobe xtsproxy" modprobe xtsproxy
check "xtsproxy: self-test passed" wait_selftest xts-aes-xtsproxy
check "modprobe dm-crypt-inline" modprobe dm-crypt-inline
modprobe dm_crypt || die "dm_crypt"
ramdisks 3 8 || die "brd"
k=$(hexkey 64)
len=8192
head -c $((len * 512)) /dev/urandom >/tmp/plain
dmsetup create ref --table "0 $len crypt aes-xts-plain64 $k 0 /dev/ram0 0"
dmsetup create prx --table "0 $len crypt capi:xts-aes-xtsproxy-plain64 $k 0 /dev/ram1 0"
dmsetup create cri --table "0 $len crypt-inline capi:xts-aes-xtsproxy-plain64 $k 0 /dev/ram2 0 1 force_inline"
for d in ref prx cri; do
	dd if=/tmp/plain of=/dev/mapper/$d bs=64k oflag=direct status=none || fail "$d: write"
done
check "xtsproxy through dm-crypt: dm-crypt's bytes" cmp -n $((len * 512)) /dev/ram0 /dev/ram1
check "crypt-inline with xtsproxy, inline: dm-crypt's bytes" cmp -n $((len * 512)) /dev/ram0 /dev/ram2
check "crypt-inline reads back" cmp /dev/mapper/cri /tmp/plain
check "crypt-inline served inline" test "$(cri_counter cri inline)" -gt 0
dmsetup remove ref prx cri
check "both unload" rmmod dm_crypt_inline xtsproxy
# The drop-in in dm-crypt's place reads what dm-crypt wrote.
rmmod dm_crypt
check "modprobe dm-crypt-dropin" modprobe dm-crypt-dropin
dmsetup create ref --table "0 $len crypt aes-xts-plain64 $k 0 /dev/ram0 0"
check "the drop-in reads dm-crypt's bytes" cmp /dev/mapper/ref /tmp/plain
dmsetup remove ref
check "the drop-in unloads" rmmod dm_crypt_dropin

# The package's dm-inline enables the installed drop-in: the next load of
# dm-crypt is the drop-in, and cryptsetup opens a volume on it; disabled,
# in-tree dm-crypt again.  The rule goes to /run/modprobe.d, which modprobe
# reads (this guest's /etc is the host's, read-only); no initramfs here.
export DM_INLINE_MODPROBE_CONF=/run/modprobe.d/dm-crypt-dropin.conf DM_INLINE_NO_INITRAMFS=1
mkdir -p /run/modprobe.d
modprobe dm_crypt
check "dm-inline dropin enable" dm-inline dropin enable
check "the drop-in serves crypt at once" grep -q '^dm_crypt_dropin ' /proc/modules
check "dropin status says so" sh -c 'dm-inline dropin status | grep -q "served by: dm_crypt_dropin"'
head -c 64 /dev/urandom >/tmp/pass   # plain: the key file is the 512-bit key
check "cryptsetup opens a volume on it" cryptsetup open --type plain -q --key-file /tmp/pass \
	--cipher aes-xts-plain64 --key-size 512 /dev/ram1 vol
check "its table is crypt, served by the drop-in" sh -c \
	'dmsetup table vol | grep -q " crypt " && dmsetup status vol | grep -q " inline "'
check "dm-inline enable sends the inline message" dm-inline enable vol
# The drop-in's "on" is dm-crypt's two flags: inline, large IO spread.
check_eq "dm-inline status shows it auto" "$(dm-inline status vol | awk '{ print $3 }')" "auto"
check "dm-inline mode off" dm-inline mode vol off
check_eq "dm-inline status shows it queued" "$(dm-inline status vol | awk '{ print $3 }')" "queued"
cryptsetup close vol
check "dm-inline dropin disable" dm-inline dropin disable
check_fails "and leaves no rule" test -e "$DM_INLINE_MODPROBE_CONF"
check "modprobe dm_crypt loads in-tree dm-crypt again" sh -c \
	'modprobe dm_crypt && grep -q "^dm_crypt " /proc/modules'

# $1: the placeholders built for a kernel outside the tested series
# (include/cri_stub.h): each refuses to load and logs why.
for m in xtsproxy dm-crypt-inline dm-crypt-dropin; do
	ko=$(ls "$1"/*/"$m".ko 2>/dev/null)
	[ -n "$ko" ] || { fail "$m placeholder built"; continue; }
	check_fails "$m placeholder refuses to load" insmod "$ko"
	check "$m placeholder logs why" sh -c \
		"dmesg | grep -q '${m//-/_}: not built for this kernel: the code is written and tested for 6.1 and 6.12 (kernel $v)'"
done
finish
