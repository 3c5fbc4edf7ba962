# Helpers for test scripts.  Source this first.  Guest tests end with
# `finish`, host tests with `summary`.
#
# Every check prints one line, "PASS: name" or "FAIL: name: why"; the end
# prints "N passed, N failed" and exits non-zero when anything failed.

set -u
_passed=0
_failed=0
PY=/usr/bin/python3
TLIB=$TOP/tests/lib
# Key-slot PBKDF at its cheapest, for luksFormat: these tests are about the
# volume's table and data, which the slot's KDF never touches, and a KDF
# calibrated by cryptsetup costs about 2 s of guest time per unlock.  LUKS2
# keeps its default argon2id; LUKS1 has only pbkdf2.
KDF_LUKS2="--pbkdf argon2id --pbkdf-force-iterations 4 --pbkdf-memory 32"
KDF_LUKS1="--pbkdf-force-iterations 1000"

pass() {
	echo "PASS: $1"
	_passed=$((_passed + 1))
}

fail() {
	echo "FAIL: $1${2:+: $2}"
	_failed=$((_failed + 1))
}

# check NAME CMD...: passes when CMD exits 0; its output is shown on failure.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		pass "$name"
	else
		fail "$name" "exit $?: $(echo "$out" | tail -n 5 | tr '\n' ' ')"
	fi
}

# check_fails NAME CMD...: passes when CMD exits non-zero.
check_fails() {
	local name=$1
	shift
	if "$@" >/dev/null 2>&1; then
		fail "$name" "succeeded but should have failed"
	else
		pass "$name"
	fi
}

# check_eq NAME GOT WANT
check_eq() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1" "got '$2', want '$3'"
	fi
}

# die WHY: a set-up step failed; nothing after it can be trusted.
die() {
	fail "setup" "$1"
	summary
}

_kernel_bug='BUG:|WARNING:|Oops|KASAN|UBSAN|scheduling while atomic|possible recursive locking|circular locking|Call Trace'

# The kernel log must hold no sign of a kernel bug.
check_dmesg_clean() {
	local bad
	bad=$(dmesg | grep -E "$_kernel_bug" | head -n 5)
	if [ -z "$bad" ]; then
		pass "kernel log clean"
	else
		fail "kernel log clean" "$(echo "$bad" | tr '\n' '|')"
	fi
}

# Clear the kernel log (to read one refusal's reason), failing first if it
# holds a sign of a kernel bug: finish() sees only what came after.
dmesg_clear() {
	local bad
	bad=$(dmesg | grep -E "$_kernel_bug" | head -n 5)
	[ -z "$bad" ] || fail "kernel log clean before clearing" "$(echo "$bad" | tr '\n' '|')"
	dmesg -C
}

summary() {
	echo "$_passed passed, $_failed failed"
	[ "$_failed" -eq 0 ]
	exit
}

# The end of a guest test: the kernel log is part of the verdict.
finish() {
	check_dmesg_clean
	summary
}

# Modules of this project, built for the running kernel.
load_module() {
	insmod "$MODDIR/$1.ko" "${@:2}"
}

# A guest without udev does not load the CPU's AES drivers by itself; real
# systems get aesni_intel from its CPU-feature alias at boot.
load_aesni() {
	grep -qw aes /proc/cpuinfo && modprobe aesni_intel
	return 0
}

# audit_on: from now on the kernel writes audit records, dm-audit's among
# them, to its log (with no auditd the kernel prints them), enabled through
# the audit netlink socket; fails where the kernel has no audit.
audit_on() {
	sysctl -qw kernel.printk_ratelimit_burst=10000 || return
	$PY - <<'EOF'
import socket, struct, sys
# NETLINK_AUDIT; AUDIT_SET with struct audit_status's mask and enabled
# (AUDIT_STATUS_ENABLED, 1), the rest zero; NLM_F_REQUEST | NLM_F_ACK.
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 9)
body = struct.pack("=8I", 1, 1, 0, 0, 0, 0, 0, 0)
s.sendto(struct.pack("=IHHII", 16 + len(body), 1001, 5, 1, 0) + body, (0, 0))
reply = s.recv(4096)
# NLMSG_ERROR (2) with error 0 is the ack.
sys.exit(struct.unpack_from("=H", reply, 4)[0] != 2 or struct.unpack_from("=i", reply, 16)[0] != 0)
EOF
}

# audit_records TYPE...: the records of these types in the kernel log,
# from "module=" on (kauditd prints them a moment after they are made).
audit_records() {
	local t re=""
	sleep 0.5
	for t in "$@"; do re="$re${re:+|}type=$t "; done
	dmesg | grep -E "audit: ($re)" | sed 's/.* module=/module=/'
}

# proc_crypto DRIVER FIELD: one field of DRIVER's /proc/crypto entry (the
# registered algorithm, not a larval of it).
proc_crypto() {
	awk -v drv="$1" -v field="$2" 'BEGIN { RS = ""; FS = "\n" }
		$0 ~ "\ndriver +: " drv "\n" && $0 !~ "\ntype +: larval" {
			for (i = 1; i <= NF; i++) {
				split($i, kv, / *: /)
				if (kv[1] == field) { print kv[2]; exit }
			}
		}' /proc/crypto
}

# wait_selftest DRIVER: newer kernels test a new algorithm asynchronously.
wait_selftest() {
	local i
	for i in $(seq 100); do
		[ "$(proc_crypto "$1" selftest)" = passed ] && return 0
		sleep 0.1
	done
	return 1
}

# ramdisks N SIZE_MB: /dev/ram0.. of SIZE_MB each.
ramdisks() {
	modprobe brd rd_nr="$1" rd_size=$(($2 * 1024)) max_part=0
}

sysfs_xtsproxy() {
	cat "/sys/kernel/xtsproxy/$1"
}

# hexkey BYTES: a random key in hex.
hexkey() {
	head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \n'
}

# Both targets ready: in-tree dm-crypt and crypt-inline.
load_targets() {
	load_aesni
	modprobe dm_crypt || return 1
	load_module dm-crypt-inline
}

# The kernel's dm-crypt (loaded) cuts reads at max_read_size and writes at
# max_write_size (6.11+); before that it cuts no reads and writes only at
# one clone (1 MiB), and crypt-inline cuts writes and the reads it decrypts
# in a worker (queued or spread) only at 1 MiB.
dmcrypt_has_max_io_size() {
	[ -e /sys/module/dm_crypt/parameters/max_read_size ]
}

# zone_write_plugging: whether the block layer plugs zoned writes (6.10+),
# and dm core takes a zone's write pointer from the device; before that,
# dm core follows it around the target's map().
zone_write_plugging() {
	local v
	v=$(uname -r | cut -d- -f1)
	[ "$(printf '%s\n6.10\n' "${v%.*}" | sort -V | head -n 1)" = 6.10 ]
}

# nullb_hardirq, shared with the benchmark.
# shellcheck source=scripts/lib/nullb.sh
. "$TOP/scripts/lib/nullb.sh"

# fs_on_hardirq: the set-up of the filesystem tests on hard-IRQ null_blk:
# the targets loaded, /dev/nullb0 from nullb_hardirq, a key in $k, the
# table's length (768 MiB) in $len and the mount point $mnt.
fs_on_hardirq() {
	load_targets || die "loading targets"
	nullb_hardirq || die "null_blk irqmode=2"
	k=$(hexkey 64)
	len=$((768 << 11))
	mnt=/tmp/mnt
	mkdir -p $mnt
}

# mix ARGS...: tests/lib/fsmix.py, the filesystem churn and its checks.
mix() {
	"$PY" "$TLIB/fsmix.py" "$@"
}

# nullb_configfs: null_blk loaded without devices, for devices made in
# configfs under $cfg/nullb (configfs mounted if it was not, and unmounted
# when the test exits, or configfs would not unload).
nullb_configfs() {
	cfg=/sys/kernel/config
	modprobe null_blk nr_devices=0 || return 1
	if ! grep -q " $cfg configfs " /proc/mounts; then
		mount -t configfs none $cfg || return 1
		trap 'umount $cfg' EXIT
	fi
}

# nullb_dev DIR: the disk of a null_blk device made in configfs (named after
# DIR on 6.12, nullb<index> on 6.1).
nullb_dev() {
	if [ -b "/dev/${1##*/}" ]; then
		echo "/dev/${1##*/}"
	else
		echo "/dev/nullb$(cat "$1/index")"
	fi
}

# inline_switcher DEVICE SECONDS: the inline message every SECONDS through
# every mode, in the background (pid in $sw_pid); the count of switches
# lands in /tmp/switches when it is killed, refusals in /tmp/switches.err.
inline_switcher() {
	rm -f /tmp/switches.err
	(n=0
	trap 'echo $n >/tmp/switches; exit 0' TERM
	while :; do
		for m in on read off write auto; do
			if dmsetup message "$1" 0 inline $m; then
				n=$((n + 1))
			else
				echo "inline $m" >>/tmp/switches.err
			fi
			sleep "$2"
		done
	done) &
	sw_pid=$!
}

# cri_counter DEVICE NAME: one counter of a crypt-inline status line
# ("inline", "queued", "deferred", "errors", "split", "spread",
# "spread_writes").
cri_counter() {
	dmsetup status "$1" | awk -v f="$2" '{ for (i = 1; i < NF; i++) if ($i == f) print $(i + 1) }'
}

# unhex HEX: the bytes, on stdout.
unhex() {
	$PY -c 'import sys; sys.stdout.buffer.write(bytes.fromhex(sys.argv[1]))' "$1"
}

# check_fio LABEL RC OUTPUT: fio exited 0, reported no IO error and no
# verify failure.
check_fio() {
	local errs
	check_eq "$1: fio exit status" "$2" "0"
	errs=$(grep -o 'err= *[0-9]*' "$3" | tr -dc '0-9\n' | sort -n | tail -n 1)
	check_eq "$1: fio reports no IO error" "${errs:-missing}" "0"
	check_fails "$1: no verify failure" grep -qi 'verify.*fail\|bad magic\|crc32c: verify' "$3"
}

# fio_verify_bg DEVICE SECONDS: random writes with verification (2 jobs,
# qd 16, 20 MiB each in their own 24 MiB slice) in the background; output
# in /tmp/fio.out, pid in $fio_pid.
fio_verify_bg() {
	fio --name=verify --filename="$1" --direct=1 --ioengine=libaio \
		--rw=randwrite --bs=4k --iodepth=16 --numjobs=2 --size=20m --offset_increment=24m \
		--verify=crc32c --verify_backlog=256 --verify_fatal=1 --do_verify=1 \
		--time_based --runtime="$2" --group_reporting --output=/tmp/fio.out &
	fio_pid=$!
}

# fio_stop: end the background fio of fio_verify_bg before its runtime is
# up and wait for it; its exit status in $fio_rc.  fio ends its jobs on
# SIGINT and reports as usual, exiting 128 for the signal: that counts as 0.
fio_stop() {
	kill -INT "$fio_pid" 2>/dev/null
	wait "$fio_pid"
	fio_rc=$?
	[ "$fio_rc" = 128 ] && fio_rc=0
}

# same_bytes LABEL CIPHER KEY IV_OFFSET OFFSET [OPT...]
# dm-crypt on /dev/ram0 and crypt-inline on /dev/ram1, $len sectors each,
# write /tmp/plain ($bytes bytes): identical bytes on disk, each reads
# what the other wrote, and the counters show the path asked for.
# OPTs apply to both targets except those in CRI_ONLY (default
# force_inline, which dm-crypt lacks).
# REF_CIPHER, if set, is what dm-crypt gets instead of CIPHER; BS is the
# write size.
same_bytes() {
	local label=$1 cipher=$2 key=$3 ivoff=$4 off=$5
	shift 5
	local opts=("$@") ref_opts=() o tbl ref
	for o in "${opts[@]}"; do
		case " ${CRI_ONLY:-force_inline} " in
		*" $o "*) ;;
		*) ref_opts+=("$o") ;;
		esac
	done
	tbl="$cipher $key $ivoff"
	ref="0 $len crypt ${REF_CIPHER:-$cipher} $key $ivoff /dev/ram0 $off${ref_opts[*]:+ ${#ref_opts[@]} ${ref_opts[*]}}"
	cri="0 $len crypt-inline $tbl /dev/ram1 $off${opts[*]:+ ${#opts[@]} ${opts[*]}}"

	blkdiscard /dev/ram0 2>/dev/null; blkdiscard /dev/ram1 2>/dev/null
	if ! dmsetup create ref --table "$ref" 2>/tmp/err; then
		fail "$label: dm-crypt accepts the table" "$(cat /tmp/err)"
		return
	fi
	if ! dmsetup create cri --table "$cri" 2>/tmp/err; then
		fail "$label: crypt-inline accepts the table" "$(dmesg | tail -n 1)"
		dmsetup remove ref
		return
	fi
	dd if=/tmp/plain of=/dev/mapper/ref bs=${BS:-256k} oflag=direct status=none
	dd if=/tmp/plain of=/dev/mapper/cri bs=${BS:-256k} oflag=direct status=none
	local start=$((off * 512))
	if cmp -s <(tail -c +$((start + 1)) /dev/ram0 | head -c $bytes) \
		<(tail -c +$((start + 1)) /dev/ram1 | head -c $bytes); then
		pass "$label: identical bytes on disk"
	else
		fail "$label: identical bytes on disk"
	fi
	check "$label: reads back its own writes" cmp -n $bytes /dev/mapper/cri /tmp/plain
	check_paths "$label" "${opts[*]}"
	dmsetup remove ref cri

	# Each side reads what the other wrote.
	dmsetup create ref --table "${ref/\/dev\/ram0/\/dev\/ram1}"
	dmsetup create cri --table "${cri/\/dev\/ram1/\/dev\/ram0}"
	check "$label: crypt-inline reads dm-crypt's" cmp -n $bytes /dev/mapper/cri /tmp/plain
	check "$label: dm-crypt reads crypt-inline's" cmp -n $bytes /dev/mapper/ref /tmp/plain
	dmsetup remove ref cri
}

# variant CMD...: a case that differs from the kept ones only in what
# computes (cipher, key size, IV generator, AEAD): run unless
# CRI_NO_VARIANTS is set (RT, debug, and in CI every stock kernel but the
# last), which leaves it to a kernel that runs them all.
variant() {
	[ -n "${CRI_NO_VARIANTS:-}" ] || "$@"
}

# check_paths LABEL "OPTS": the status counters show the path the flags ask
# for: both directions inline, both queued, or one of each.
check_paths() {
	local inl q want_inline=0 want_queued=0
	inl=$(cri_counter cri inline)
	q=$(cri_counter cri queued)
	case " $2 " in
	*" force_inline "* | *" no_read_workqueue "*"no_write_workqueue "*) want_inline=1 ;;
	*" no_read_workqueue "* | *" no_write_workqueue "*) want_inline=1 want_queued=1 ;;
	*) want_queued=1 ;;
	esac
	if [ "$want_inline" = 1 ]; then
		check "$1: bios served inline ($inl)" test "$inl" -gt 0
	else
		check_eq "$1: no bio served inline" "$inl" "0"
	fi
	if [ "$want_queued" = 1 ]; then
		check "$1: bios queued ($q)" test "$q" -gt 0
	else
		check_eq "$1: no bio queued" "$q" "0"
	fi
}
