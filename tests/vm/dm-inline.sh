#!/bin/bash
# scripts/tool/dm-inline on volumes cryptsetup opened (LUKS2 defaults with a
# keyring key and 4096-byte sectors, LUKS1, plain): enable moves them onto
# crypt-inline with force_inline and every other parameter kept, data stays
# readable, the volume key shows up in no output and in no table (not even
# with --showkeys); mode switches under fio verify; suspend/resume wipe and
# restore the key; disable moves them back and cryptsetup closes them, or
# dm-inline closes them on crypt-inline.  Every refusal exits with its code and
# changes nothing.
#
# vm-kernels: stock-6.12
# (user space, the same on every kernel: one stock kernel; its kernel side,
# messages and reloads, is in cri-switch and cri-resume on every kernel)
. "$TOP/tests/lib/lib.sh"

tool=$TOP/scripts/tool/dm-inline
load_targets || die "loading targets"
ramdisks 2 64 || die "brd"
head -c 32 /dev/urandom >/tmp/pass
head -c $((4 << 20)) /dev/urandom >/tmp/data
keyctl link @u @s >/dev/null 2>&1

# run LABEL WANT_RC CMD...: the tool's exit code, output kept in /tmp/out.
run() {
	local label=$1 want=$2 rc
	shift 2
	"$@" >/tmp/out 2>&1
	rc=$?
	check_eq "$label (exit $want)" "$rc" "$want"
	cat /tmp/out >>/tmp/all-output
}

# The volume key in hex, from the header or (plain) the live table.
vk_hex() {
	if [ "$1" = plain ]; then
		dmsetup table --showkeys vol | awk '{ print $5 }'
	else
		cryptsetup luksDump -q --dump-volume-key --key-file /tmp/pass /dev/ram0 |
			awk '/^MK dump:/ { on = 1; sub(/^MK dump:/, "") } on && /^[^ \t]/ && !/^MK dump:/ { on = 0 }
			     on { gsub(/[ \t]/, ""); printf "%s", $0 }'
	fi
}

field() {
	dmsetup table vol | awk -v f="$1" '{ print $f }'
}

for kind in luks2 luks1 plain; do
	: >/tmp/all-output
	blkdiscard -f /dev/ram0 2>/dev/null
	case $kind in
	luks2) cryptsetup luksFormat -q $KDF_LUKS2 --key-file /tmp/pass /dev/ram0 ;;
	luks1) cryptsetup luksFormat -q --type luks1 $KDF_LUKS1 --key-file /tmp/pass /dev/ram0 ;;
	esac
	if [ $kind = plain ]; then
		cryptsetup open --type plain -q --key-file /tmp/pass --cipher aes-xts-plain64 \
			--key-size 256 /dev/ram0 vol
	else
		cryptsetup open --key-file /tmp/pass /dev/ram0 vol
	fi || { fail "$kind: open"; continue; }
	vk=$(vk_hex $kind)
	check "$kind: volume key known to the test" test ${#vk} -ge 32
	dd if=/tmp/data of=/dev/mapper/vol bs=1M oflag=direct status=none
	before=$(dmsetup table vol)
	before_keys=$(dmsetup table --showkeys vol)

	run "$kind: dry run" 0 "$tool" enable vol --key-file /tmp/pass --dry-run
	check_eq "$kind: dry run changed nothing" "$(dmsetup table vol)" "$before"
	check "$kind: dry run shows the crypt-inline table" grep -q ' crypt-inline .* force_inline' /tmp/out

	run "$kind: enable" 0 "$tool" enable vol --key-file /tmp/pass
	check_eq "$kind: target now" "$(field 3)" "crypt-inline"
	check "$kind: force_inline set" sh -c "dmsetup table vol | grep -q ' force_inline'"
	for f in 1 2 4 6 7 8; do
		check_eq "$kind: table field $f kept" "$(field $f)" "$(awk -v f=$f '{ print $f }' <<<"$before")"
	done
	case $before in *sector_size:4096*)
		check "$kind: sector_size kept" sh -c "dmsetup table vol | grep -q sector_size:4096" ;;
	esac
	check "$kind: data reads back" cmp -n $((4 << 20)) /dev/mapper/vol /tmp/data
	dmsetup table --showkeys vol >>/tmp/all-output
	"$tool" status >>/tmp/all-output 2>&1
	check_fails "$kind: volume key in no output and no table" grep -qi "$vk" /tmp/all-output

	# Under load: the path switches with no reload and no error.
	fio_verify_bg /dev/mapper/vol 12
	for m in off read write auto off on; do
		sleep 1
		run "$kind: mode $m" 0 "$tool" mode vol $m
	done
	wait $fio_pid
	check_fio "$kind: mode switches" $? /tmp/fio.out
	# fio wrote over the data: write it again through crypt-inline, for
	# dm-crypt to read back after disable.
	dd if=/tmp/data of=/dev/mapper/vol bs=1M oflag=direct status=none
	check "$kind: status names the device and mode" sh -c "'$tool' status vol | grep -q '^vol  *crypt-inline  *inline .*inline [0-9]'"
	run "$kind: mode auto" 0 "$tool" mode vol auto
	check "$kind: status says auto" sh -c "'$tool' status vol | grep -q '^vol  *crypt-inline  *auto '"
	run "$kind: mode on" 0 "$tool" mode vol on

	# What luksSuspend/luksResume do, for crypt-inline (cryptsetup refuses
	# target types it does not know).
	if [ $kind = plain ]; then
		run "$kind: suspend refused (no header to resume from)" 3 "$tool" suspend vol
		check_fails "$kind: not suspended" sh -c "dmsetup info vol | grep -q SUSPENDED"
	else
		run "$kind: suspend" 0 "$tool" suspend vol
		check "$kind: suspended" sh -c "dmsetup info vol | grep -q SUSPENDED"
		check_fails "$kind: key wiped: no resume without it" dmsetup resume vol
		run "$kind: resume with a wrong passphrase refused" 4 sh -c "echo wrong | '$tool' resume vol"
		check "$kind: still suspended" sh -c "dmsetup info vol | grep -q SUSPENDED"
		run "$kind: resume" 0 "$tool" resume vol --key-file /tmp/pass
		check_fails "$kind: running again" sh -c "dmsetup info vol | grep -q SUSPENDED"
		check "$kind: data reads back after suspend/resume" cmp -n $((4 << 20)) /dev/mapper/vol /tmp/data
		dmsetup table --showkeys vol >>/tmp/all-output
		check_fails "$kind: volume key nowhere after resume" grep -qi "$vk" /tmp/all-output
		run "$kind: resume of a running device refused" 3 "$tool" resume vol --key-file /tmp/pass
	fi
	run "$kind: enable again is a no-op message" 0 "$tool" enable vol
	if [ $kind = plain ]; then
		# No header to read the key from, and crypt-inline never gives it out.
		run "$kind: disable without a key source refused" 4 "$tool" disable vol
		dmsetup reload vol --table "$before_keys" && dmsetup suspend vol && dmsetup resume vol
	else
		run "$kind: disable" 0 "$tool" disable vol --key-file /tmp/pass
	fi
	check_eq "$kind: target back" "$(field 3)" "crypt"
	check_fails "$kind: force_inline gone" sh -c "dmsetup table vol | grep -q force_inline"
	# (The plain volume got its original table back, hex key and all.)
	[ $kind = plain ] || dmsetup table --showkeys vol >>/tmp/all-output
	check_fails "$kind: still no volume key anywhere" grep -qi "$vk" /tmp/all-output
	check "$kind: data reads back after disable" cmp -n $((4 << 20)) /dev/mapper/vol /tmp/data
	check "$kind: cryptsetup status" cryptsetup status vol
	check "$kind: cryptsetup close" cryptsetup close vol
	keyctl clear @s >/dev/null 2>&1
	keyctl link @u @s >/dev/null 2>&1
done

# Boot time: every listed device that is open goes inline; others are skipped.
cryptsetup luksFormat -q --type luks1 $KDF_LUKS1 --key-file /tmp/pass /dev/ram1 &&
	cryptsetup open --key-file /tmp/pass /dev/ram1 bootvol || fail "boot: open"
printf '# devices\nbootvol\nnotopen --key-file /tmp/pass  # not open\n' >/tmp/dm-inline.conf
DM_INLINE_CONF=/tmp/dm-inline.conf run "boot" 0 "$tool" boot
check_eq "boot: listed device on crypt-inline" "$(dmsetup table bootvol | awk '{ print $3 }')" "crypt-inline"
check "boot: device not open skipped" grep -q "notopen is not open" /tmp/out
run "boot: close while on crypt-inline" 0 "$tool" close bootvol
check_fails "boot: device gone" test -e /dev/mapper/bootvol
check_eq "boot: crypt-inline's copy of the key revoked" \
	"$(awk '$9 ~ /^crypt-inline:/ && substr($2, 2, 1) != "R"' /proc/keys | wc -l)" "0"

# Refusals: each with its code, and nothing changed.
run "no arguments" 1 "$tool"
run "unknown command" 1 "$tool" frobnicate vol
run "unknown option" 1 "$tool" enable vol --frob
run "unreadable key file" 1 "$tool" enable vol --key-file /nonexistent
run "missing device" 2 "$tool" enable nosuchdev
run "status of a missing device" 2 "$tool" status nosuchdev
dmsetup create lin --table "0 1024 linear /dev/ram1 0"
run "linear device refused" 3 "$tool" enable lin
run "mode on a non crypt-inline device refused" 3 "$tool" mode lin on
check_eq "linear device unchanged" "$(dmsetup table lin | awk '{ print $3 }')" "linear"
dmsetup remove lin
# An old format with 64 keys (loop-AES v3, a 2080-byte key) moves over
# with its data: the tool takes every IV mode crypt-inline takes.
lmk_table="0 1024 crypt aes:64-cbc-lmk $(hexkey 2080) 0 /dev/ram1 0"
if dmsetup create lmk --table "$lmk_table"; then
	head -c $((1024 * 512)) /dev/urandom >/tmp/lmk
	dd if=/tmp/lmk of=/dev/mapper/lmk bs=64k oflag=direct status=none
	run "lmk (64 keys) volume enabled" 0 "$tool" enable lmk
	check_eq "lmk volume on crypt-inline" "$(dmsetup table lmk | awk '{ print $3 }')" "crypt-inline"
	check "lmk data reads back" cmp /dev/mapper/lmk /tmp/lmk
	# No LUKS header to take the key from: back by its original table,
	# as the plain volume above.
	run "lmk volume: disable needs a LUKS header" 4 "$tool" disable lmk
	dmsetup reload lmk --table "$lmk_table" && dmsetup suspend lmk && dmsetup resume lmk
	check "lmk data reads back on dm-crypt" cmp /dev/mapper/lmk /tmp/lmk
	dmsetup remove lmk
else
	fail "dm-crypt takes an lmk table"
fi
cryptsetup luksFormat -q $KDF_LUKS2 --key-file /tmp/pass /dev/ram1 && cryptsetup open --key-file /tmp/pass /dev/ram1 kr
run "keyring volume without key file: wrong passphrase refused" 4 \
	sh -c "echo wrong | '$tool' enable kr"
check_eq "keyring volume unchanged" "$(dmsetup table kr | awk '{ print $3 }')" "crypt"
run "close of a crypt device goes through cryptsetup" 0 "$tool" close kr
check_fails "crypt device gone" test -e /dev/mapper/kr
run "help" 0 "$tool" --help
finish
