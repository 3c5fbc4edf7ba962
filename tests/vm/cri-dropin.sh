#!/bin/bash
# The drop-in (dm-crypt-dropin.ko, target "crypt") in place of in-tree
# dm-crypt, driven by cryptsetup and dmsetup as they drive dm-crypt.
#
# 1. It registers "crypt" with the running kernel's dm-crypt version and
#    module parameters, and only one of the two modules can be loaded; its
#    workqueues (with their sysfs directories on 6.12) and threads have
#    dm-crypt's names, also across a reload; a failed "key set" leaves
#    its key valid or not as dm-crypt's; its dm-audit records of tables
#    built, refused and torn down are dm-crypt's.
# 2. Volumes made by in-tree dm-crypt (LUKS2 defaults, LUKS1, plain with a
#    hex key, LUKS2 with hmac-sha256 integrity, lmk, tcw, elephant) open
#    on the drop-in with the same table line (keys printed as dm-crypt
#    prints them), read back, take new data that in-tree dm-crypt reads
#    after swapping back.
# 3. cryptsetup on the drop-in: status, refresh with the perf flags (the
#    inline path; with --persistent for later opens too), luksSuspend
#    (the wiped key prints as zeros, as on dm-crypt) and luksResume,
#    resize, close; systemd-cryptsetup attach/detach with crypttab's
#    no-read-workqueue,no-write-workqueue; dmsetup hides the hex key;
#    dmsetup status shows the counters.
# 4. The write-up's reload, `dmsetup table --showkeys | sed 's/$/ 1
#    force_inline/' | dmsetup reload`, on LUKS1, under fio verify;
#    force_inline prints as dm-crypt's two flags.  On LUKS2 defaults,
#    whose keyring key cryptsetup has unlinked, that reload fails as on
#    dm-crypt, and cryptsetup refresh with the perf flags does it under fio
#    verify.  The inline message switches paths with cryptsetup status
#    still working.
# 5. `dm-inline dropin` where the module is not installed: enable refuses;
#    the modprobe rule falls back to in-tree dm-crypt.  (Enabling an
#    installed drop-in is tests/lib/installed-modules.sh's, after apt.)
#
# vm-kernels: stock
# (cryptsetup and module interplay: user-space tools and registration, not
# on RT nor the debug kernel; the IO paths are the other tests', on the
# same objects as crypt-inline; the lifetime of a keyring key a reloaded
# table reuses is cri-format's keyring cases' on the debug kernel, and
# KUnit's key suite's)
. "$TOP/tests/lib/lib.sh"

load_aesni
modprobe dm_crypt || die "dm_crypt"
ramdisks 1 96 || die "brd"
head -c 32 /dev/urandom >/tmp/pass
head -c $((8 << 20)) /dev/urandom >/tmp/p1
head -c $((8 << 20)) /dev/urandom >/tmp/p2

crypt_version() { dmsetup targets | awk '$1 == "crypt" { print $2 }'; }
in_tree_version=$(crypt_version)
in_tree_params=$(ls /sys/module/dm_crypt/parameters 2>/dev/null | tr '\n' ' ')

# Swap the module that serves "crypt" (no crypt device may be open, as for
# any module swap).
to_dropin() {
	rmmod dm_crypt 2>/dev/null
	load_module dm-crypt-dropin
}
to_in_tree() {
	rmmod dm_crypt_dropin && modprobe dm_crypt
}

# 1. Registration.
check_fails "the drop-in does not load beside dm_crypt" load_module dm-crypt-dropin
check "the drop-in loads once dm_crypt is gone" to_dropin
check_eq "the drop-in reports dm-crypt's version" "$(crypt_version)" "$in_tree_version"
# (kmod reports a module whose init fails with EEXIST as loaded: look.)
modprobe dm_crypt 2>/dev/null
check_fails "dm_crypt does not load beside the drop-in" grep -q "^dm_crypt " /proc/modules
check_eq "the drop-in has dm_crypt's parameters ($in_tree_params)" \
	"$(for p in $in_tree_params; do [ -e "/sys/module/dm_crypt_dropin/parameters/$p" ] && printf '%s ' "$p"; done)" \
	"$in_tree_params"
check "back to dm_crypt" to_in_tree

# readback DEV FILE: DEV's first bytes, read past the page cache, are FILE.
readback() {
	cmp -n "$(stat -c %s "$2")" <(dd if="$1" bs=1M iflag=direct status=none) "$2"
}
writeto() {
	dd if="$2" of="$1" bs=1M oflag=direct status=none
}

# A "key set" that fails, on a suspended device: whether the message and
# the resume after it succeed, and whether the device then reads what it
# wrote (a resume refused, the right key is set again first).  Keyring
# references that name no key, a revoked key, a key of another size or a
# type that does not exist; hex that is not hex; "-" for a keyed table.
keyctl link @u @s >/dev/null 2>&1
head -c 64 /dev/urandom | keyctl padd logon cri:revoked @u >/tmp/revoked-id &&
	keyctl revoke "$(cat /tmp/revoked-id)" || die "keyctl: a revoked key"
head -c 32 /dev/urandom | keyctl padd logon cri:short @u >/dev/null || die "keyctl: a short key"
key_edges() {
	local k n c m r name
	k=$(hexkey 64)
	n=$(blockdev --getsz /dev/ram0)
	dmsetup create vol --table "0 $n crypt aes-xts-plain64 $k 0 /dev/ram0 0" || return
	writeto /dev/mapper/vol /tmp/p1
	for c in absent:64:logon:cri:absent revoked:64:logon:cri:revoked \
		short:64:logon:cri:short type:64:frob:cri:short "hex zz${k:2}" "none -"; do
		name=${c%%[: ]*} c=${c#"$name"}
		c=${c# }
		dmsetup suspend vol
		dmsetup message vol 0 key set "$c" 2>/dev/null && m=ok || m=refused
		dmsetup resume vol 2>/dev/null && r=ok || r=refused
		[ $r = ok ] || { dmsetup message vol 0 key set "$k" && dmsetup resume vol; }
		readback /dev/mapper/vol /tmp/p1 && echo "$name: set $m, resume $r, reads back" ||
			echo "$name: set $m, resume $r, reads otherwise"
	done
	dmsetup remove vol
}
# dm-audit's records of a table built, one refused for its device, one
# with too few arguments (which dm-crypt refuses before it audits) and a
# table torn down: the task's fields aside, what each says.
audit_on || die "audit"
ctl_records() {
	local n k
	n=$(blockdev --getsz /dev/ram0) k=$(hexkey 64)
	sleep 0.5	# (kauditd prints the records before this a moment late)
	dmesg_clear
	dmsetup create vol --table "0 $n crypt aes-xts-plain64 $k 0 /dev/ram0 0"
	dmsetup create bad --table "0 $n crypt aes-xts-plain64 $k 0 /dev/nonexistent 0" 2>/dev/null
	dmsetup create few --table "0 $n crypt aes-xts-plain64 $k 0" 2>/dev/null
	dmsetup remove vol
	audit_records 1338 | sed -E 's/^(module=[^ ]* op=[^ ]*) .* (dev=)/\1 \2/'
}
in_tree_ctl=$(ctl_records)
check_eq "dm_crypt audits a table built, refused and torn down (4 records)" \
	"$(sed -E 's/dev=[0-9]+:[0-9]+/dev=/' <<<"$in_tree_ctl")" \
	"module=crypt op=ctr dev= error_msg='success' res=1
module=crypt op=ctr dev= error_msg='Device lookup failed' res=0
module=crypt op=dtr dev= error_msg='success' res=1
module=crypt op=dtr dev= error_msg='success' res=1"
in_tree_edges=$(key_edges)
check_eq "dm_crypt keeps its key when a keyring key is absent or \"-\" is sent, loses it on bad hex" \
	"$(grep -E '^(absent|hex|none):' <<<"$in_tree_edges")" \
	"absent: set refused, resume ok, reads back
hex: set refused, resume refused, reads back
none: set refused, resume ok, reads back"
to_dropin
check_eq "a failed key set leaves the drop-in's key as dm_crypt's" "$(key_edges)" "$in_tree_edges"
check_eq "the drop-in's dm-audit records are dm_crypt's" "$(ctl_records)" "$in_tree_ctl"
to_in_tree

# The workqueues (their sysfs directories on 6.12) and threads (kernel
# threads, workqueue rescuers) that "crypt" makes for a device with the
# optional arguments given, its reload's inactive table loaded beside it.
# Not kworkers: a pool worker's name shows the workqueue of the item it
# runs at that moment (kworker/0:1-kcryptd/254:0), which comes and goes.
crypt_names() {
	local t
	t="0 $(blockdev --getsz /dev/ram0) crypt aes-xts-plain64 $(hexkey 64) 0 /dev/ram0 0 $*"
	dmsetup create vol --table "$t" || return
	dmsetup reload vol --table "$t" &&
		{ ls /sys/devices/virtual/workqueue; ps -e -o comm=; } | grep -v '^kworker/' |
		grep -E 'crypt' | sort
	dmsetup remove vol
}
# high_priority where in-tree dm-crypt has it (6.12, not 6.1).
names() {
	local opts=(0 "1 same_cpu_crypt") o
	[ -z "$in_tree_params" ] || opts+=("1 high_priority")
	for o in "${opts[@]}"; do
		echo "== $o"
		crypt_names "$o"
	done
}
in_tree_names=$(names)
check "dm_crypt names a write thread" grep -q '^dmcrypt_write/' <<<"$in_tree_names"
[ -z "$in_tree_params" ] ||
	check "dm_crypt's workqueues have sysfs directories (6.12)" grep -q '^kcryptd-' <<<"$in_tree_names"
to_dropin
check_eq "the drop-in's workqueues and threads are named as dm_crypt's" "$(names)" "$in_tree_names"
to_in_tree


# make_vol KIND: a volume on /dev/ram0 (tables of the old formats are kept
# in /tmp/table-KIND); open_vol KIND opens it as vol.
make_vol() {
	local n
	dd if=/dev/zero of=/dev/ram0 bs=1M count=24 status=none
	n=$(blockdev --getsz /dev/ram0)
	case $1 in
	luks2) cryptsetup luksFormat -q $KDF_LUKS2 --key-file /tmp/pass /dev/ram0 ;;
	luks1) cryptsetup luksFormat -q --type luks1 $KDF_LUKS1 --key-file /tmp/pass /dev/ram0 ;;
	luks2-hmac)
		cryptsetup luksFormat -q $KDF_LUKS2 --integrity hmac-sha256 \
			--integrity-no-wipe --key-file /tmp/pass /dev/ram0 ;;
	lmk) echo "0 $n crypt aes:64-cbc-lmk $(hexkey $((65 * 16))) 0 /dev/ram0 0" >/tmp/table-lmk ;;
	tcw) echo "0 $n crypt aes-cbc-tcw $(hexkey 64) 0 /dev/ram0 0" >/tmp/table-tcw ;;
	elephant) echo "0 $n crypt aes-cbc-elephant $(hexkey 64) 0 /dev/ram0 0 1 sector_size:4096" >/tmp/table-elephant ;;
	esac
}
open_vol() {
	case $1 in
	plain)
		cryptsetup open --type plain -q --key-file /tmp/pass \
			--cipher aes-xts-plain64 --key-size 256 /dev/ram0 vol ;;
	lmk | tcw | elephant)
		dmsetup create vol --table "$(cat "/tmp/table-$1")" ;;
	*)
		cryptsetup open --key-file /tmp/pass /dev/ram0 vol ;;
	esac
}
close_vol() {
	cryptsetup close vol 2>/dev/null || dmsetup remove vol
}

# 2. Volumes of in-tree dm-crypt on the drop-in, and back.
volume() {
	local kind=$1 line
	make_vol "$kind"
	check "$kind: in-tree dm-crypt opens it" open_vol "$kind" || return
	writeto /dev/mapper/vol /tmp/p1
	line=$(dmsetup table --showkeys vol)
	close_vol
	check "$kind: swapped to the drop-in" to_dropin
	if check "$kind: the drop-in opens it" open_vol "$kind"; then
		check_eq "$kind: the same table line, key included" "$(dmsetup table --showkeys vol)" "$line"
		check "$kind: the drop-in reads in-tree's data" readback /dev/mapper/vol /tmp/p1 ||
			dmesg | tail -n 8
		writeto /dev/mapper/vol /tmp/p2
		check "$kind: and reads its own" readback /dev/mapper/vol /tmp/p2
		check "$kind: cryptsetup status" cryptsetup status vol
		close_vol
	fi
	check "$kind: swapped back to in-tree" to_in_tree
	check "$kind: in-tree opens it again" open_vol "$kind" || return
	check "$kind: in-tree reads the drop-in's data" readback /dev/mapper/vol /tmp/p2
	close_vol
}
for kind in luks2 luks1 plain luks2-hmac lmk tcw elephant; do
	volume "$kind"
done

# 3. cryptsetup drives the drop-in.
check "swapped to the drop-in" to_dropin
make_vol luks2
check "luks2: open on the drop-in" open_vol luks2
check "luks2: dmsetup status shows the counters" sh -c \
	'dmsetup status vol | grep -q " inline [0-9]* queued [0-9]* deferred [0-9]* errors [0-9]*"'
check "luks2: cryptsetup status" cryptsetup status vol
writeto /dev/mapper/vol /tmp/p1
check_eq "luks2: queued by default" "$(cri_counter vol inline)" "0"
check "luks2: refresh with the perf flags" cryptsetup refresh --key-file /tmp/pass \
	--perf-no_read_workqueue --perf-no_write_workqueue vol
check "luks2: the table has both flags" sh -c 'dmsetup table vol | grep -q " no_read_workqueue no_write_workqueue"'
check "luks2: reads back after refresh" readback /dev/mapper/vol /tmp/p1
check "luks2: served inline" test "$(cri_counter vol inline)" -gt 0
check "luks2: luksSuspend" cryptsetup luksSuspend vol
check "luks2: the wiped key prints as zeros, as on dm-crypt" sh -c \
	"dmsetup table --showkeys vol | awk '{ print \$5 }' | grep -qx '0\{128\}'"
check "luks2: luksResume" cryptsetup luksResume --key-file /tmp/pass vol
check "luks2: reads back after resume" readback /dev/mapper/vol /tmp/p1
check "luks2: resize" cryptsetup resize --key-file /tmp/pass --size 65536 vol
check_eq "luks2: resized" "$(blockdev --getsz /dev/mapper/vol)" "65536"
check "luks2: close" cryptsetup close vol
check_fails "luks2: gone" test -e /dev/mapper/vol

# The flags kept in the LUKS2 header (--persistent) apply at every later
# open; systemd-cryptsetup with crypttab's options (run as a command, no
# systemd as init needed) puts the device on the inline path too.
make_vol luks2
open_vol luks2
check "luks2: refresh --persistent" cryptsetup refresh --key-file /tmp/pass --persistent \
	--perf-no_read_workqueue --perf-no_write_workqueue vol
cryptsetup close vol
open_vol luks2
check "luks2: reopened with the flags from the header" sh -c \
	'dmsetup table vol | grep -q " no_read_workqueue no_write_workqueue"'
cryptsetup close vol
make_vol luks2
sdc=/lib/systemd/systemd-cryptsetup
check "systemd-cryptsetup attach with no-read-workqueue,no-write-workqueue" \
	$sdc attach vol /dev/ram0 /tmp/pass no-read-workqueue,no-write-workqueue
check "systemd-cryptsetup: the table has both flags" sh -c \
	'dmsetup table vol | grep -q " no_read_workqueue no_write_workqueue"'
writeto /dev/mapper/vol /tmp/p2
check "systemd-cryptsetup: reads back" readback /dev/mapper/vol /tmp/p2
check "systemd-cryptsetup: served inline" test "$(cri_counter vol inline)" -gt 0
check "systemd-cryptsetup detach" $sdc detach vol
check_fails "systemd-cryptsetup: gone" test -e /dev/mapper/vol

make_vol plain
open_vol plain
key=$(dmsetup table --showkeys vol | awk '{ print $5 }')
check_eq "plain: a hex key of 32 bytes" "${#key}" "64"
check_fails "plain: dmsetup hides it" sh -c "dmsetup table vol | grep -q '$key'"
unset key
check "plain: close" cryptsetup close vol

# 4. The write-up's reload, under fio verify, and the inline message.
# LUKS1's line has no optional arguments: the write-up's command as it
# stands.  LUKS2's defaults have one (sector_size:4096), which the flag
# would join; its key reference names a key that is gone.
reload_inline() {
	case $1 in
	luks1) dmsetup table --showkeys vol | sed 's/$/ 1 force_inline/' ;;
	*) dmsetup table --showkeys vol | awk '{ $9 = $9 + 1; print $0 " force_inline" }' ;;
	esac | dmsetup reload vol 2>/dev/null && dmsetup suspend vol && dmsetup resume vol
}
for kind in luks2 luks1; do
	make_vol "$kind"
	open_vol "$kind"
	fio_verify_bg /dev/mapper/vol 12
	sleep 2
	if [ $kind = luks2 ]; then
		dmesg_clear
		check_fails "luks2: the reload naming the unlinked key fails, as on dm-crypt" reload_inline luks2
		check "luks2: for want of the key" sh -c 'dmesg | grep -q "Error decoding and setting key: keyring key not found.*(-ENOKEY)"'
		check "luks2: refresh with the perf flags under IO" cryptsetup refresh --key-file /tmp/pass \
			--perf-no_read_workqueue --perf-no_write_workqueue vol
		check "luks2: the table has dm-crypt's two flags" sh -c \
			'dmsetup table vol | grep -q " no_read_workqueue no_write_workqueue"'
	else
		check "$kind: reload with force_inline under IO" reload_inline "$kind"
		check "$kind: force_inline prints as dm-crypt's two flags" sh -c \
			'dmsetup table vol | grep -q " no_read_workqueue no_write_workqueue" && ! dmsetup table vol | grep -q force_inline'
	fi
	sleep 2
	check "$kind: inline off by message" dmsetup message vol 0 inline off
	check "$kind: the table follows" sh -c '! dmsetup table vol | grep -q workqueue'
	sleep 2
	check "$kind: inline auto by message" dmsetup message vol 0 inline auto
	check "$kind: auto is the drop-in's on" sh -c \
		'dmsetup table vol | grep -q " no_read_workqueue no_write_workqueue"'
	check "$kind: inline on by message" dmsetup message vol 0 inline on
	check "$kind: cryptsetup status after the message" cryptsetup status vol
	wait "$fio_pid"
	check_fio "$kind: fio verify across reload and messages" $? /tmp/fio.out
	check "$kind: served inline" test "$(cri_counter vol inline)" -gt 0
	check "$kind: close" cryptsetup close vol
done
check "the drop-in unloads" rmmod dm_crypt_dropin

# 5. dm-inline dropin where the drop-in is not installed for the running
# kernel (this guest loads it from the build tree): enable refuses and
# writes nothing; the modprobe rule itself falls back to in-tree dm-crypt.
# The rule goes to /run/modprobe.d, which modprobe reads (this guest's
# /etc is the host's, read-only).
conf=/run/modprobe.d/dm-crypt-dropin.conf
mkdir -p /run/modprobe.d
check_eq "dropin enable without the module installed: exit 3" \
	"$(DM_INLINE_MODPROBE_CONF=$conf DM_INLINE_NO_INITRAMFS=1 "$TOP/scripts/tool/dm-inline" dropin enable >/dev/null 2>&1; echo $?)" "3"
check_fails "and no rule written" test -e $conf
"$TOP/scripts/tool/dm-inline" dropin rule >$conf
check "with the rule and no drop-in, modprobe dm_crypt loads in-tree dm-crypt" sh -c \
	'modprobe dm_crypt && grep -q "^dm_crypt " /proc/modules'
rm -f $conf
finish
