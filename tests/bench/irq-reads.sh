#!/bin/bash
# Bench helper (not a test): reads over null_blk completing in hard-IRQ
# context (irqmode=2, as NVMe), in-tree dm-crypt without queues against
# crypt-inline strictly inline (force_inline) and under its read policy
# (no_read_workqueue no_write_workqueue), interleaved over rounds.
#
#   scripts/vm -k VERSION tests/bench/irq-reads.sh [ROUNDS] [SECONDS] [SECTOR]
#
# Prints one line per workload and mode: median MB/s over rounds, the
# median of the per-round ratios to dm-crypt no-queue, p99 in us, CPU
# seconds per GiB moved (guest /proc/stat, all CPUs, not idle), and the
# crypt-inline counters of the last round.
set -euo pipefail
rounds=${1:-3} secs=${2:-5} sector=${3:-4096}

grep -qw aes /proc/cpuinfo && modprobe aesni_intel
modprobe dm_crypt
grep -q '^dm_crypt_inline ' /proc/modules || insmod "$MODDIR/dm-crypt-inline.ko"
modprobe null_blk nr_devices=1 gb=1 memory_backed=1 irqmode=2 \
	completion_nsec=20000 queue_mode=2
dd if=/dev/zero of=/dev/nullb0 bs=1M count=1024 oflag=direct status=none

key=$(head -c 64 /dev/urandom | od -An -tx1 | tr -d ' \n')
sectors=$(blockdev --getsz /dev/nullb0)
ss=""
[ "$sector" = 512 ] || ss=" sector_size:$sector"
n=$((2 + ${ss:+1}))
declare -A tables=(
	[dmcrypt-noq]="crypt aes-xts-plain64 $key 0 /dev/nullb0 0 $n no_read_workqueue no_write_workqueue$ss"
	[cri-inline]="crypt-inline aes-xts-plain64 $key 0 /dev/nullb0 0 $((n - 1)) force_inline$ss"
	[cri-noq]="crypt-inline aes-xts-plain64 $key 0 /dev/nullb0 0 $n no_read_workqueue no_write_workqueue$ss"
)
modes="dmcrypt-noq cri-inline cri-noq"
declare -A workloads=(
	[rread4k-qd1]="--rw=randread --bs=4k --ioengine=psync --iodepth=1"
	[read1m-qd4]="--rw=read --bs=1m --ioengine=libaio --iodepth=4"
	[write1m-qd4]="--rw=write --bs=1m --ioengine=libaio --iodepth=4"
)
wls="rread4k-qd1 read1m-qd4 write1m-qd4"
out=${VM_OUT:-/tmp}/irq-reads
rm -rf "$out"
mkdir -p "$out"

busy() {	# jiffies not idle or iowait, all CPUs
	awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat
}

for r in $(seq "$rounds"); do
	for wl in $wls; do
		for mode in $modes; do
			dmsetup create bench --table "0 $sectors ${tables[$mode]}"
			b0=$(busy)
			# shellcheck disable=SC2086
			fio --name=b --filename=/dev/mapper/bench --direct=1 --size=1g \
				${workloads[$wl]} --time_based --runtime="$secs" \
				--percentile_list=99 --output-format=json \
				--output="$out/$wl.$mode.$r.json" >/dev/null
			echo $(($(busy) - b0)) >"$out/$wl.$mode.$r.cpu"
			dmsetup status bench >"$out/$wl.$mode.$r.status"
			dmsetup remove bench
		done
	done
done

python3 - "$out" "$rounds" "$wls" "$modes" "$(getconf CLK_TCK)" <<'EOF'
import json, statistics, sys
out, rounds, wls, modes, hz = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4].split(), int(sys.argv[5])
def run(wl, mode, r):
    t = open(f"{out}/{wl}.{mode}.{r}.json").read()
    job = json.loads(t[t.index("{"):])["jobs"][0]
    d = "write" if wl.startswith("write") else "read"
    bw = job[d]["bw_bytes"]
    p99 = job[d]["clat_ns"].get("percentile", {}).get("99.000000", 0) / 1000
    cpu = int(open(f"{out}/{wl}.{mode}.{r}.cpu").read()) / hz
    moved = job[d]["io_bytes"] / 2**30
    return bw / 1e6, p99, cpu / moved if moved else 0
for wl in wls:
    for mode in modes:
        rs = [run(wl, mode, r) for r in range(1, rounds + 1)]
        ratio = statistics.median(run(wl, mode, r)[0] / run(wl, "dmcrypt-noq", r)[0] for r in range(1, rounds + 1))
        st = " ".join(open(f"{out}/{wl}.{mode}.{rounds}.status").read().split()[3:])
        print(f"{wl:12} {mode:12} {statistics.median(x[0] for x in rs):8.1f} MB/s  x{ratio:5.2f}  "
              f"p99 {statistics.median(x[1] for x in rs):8.0f} us  cpu {statistics.median(x[2] for x in rs):6.2f} s/GiB  {st}")
EOF
