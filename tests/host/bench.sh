#!/bin/bash
# `make bench` end to end, shortened (one round of one second per run) on
# the newest stock kernel tested: every mode of every workload of the
# default bench (RAM disk, hard-IRQ and large-IO rows) runs in the guest and
# reaches the table, the JSON and the plot; the limit row is
# priced from the round's own crypto-alone measurement (pairing by round
# over several rounds is checked on made-up rounds, without a guest).  No speed is
# asserted: that is the benchmark's job, not a test's.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/lib.sh"

kver=
for v in ${KERNELS:?}; do
	case $v in *-rt-*) ;; *) kver=$v ;; esac
done
[ -n "$kver" ] || die "no stock kernel in KERNELS"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The report alone, on two made-up rounds whose crypto speeds differ 4x:
# each round's limit must come from that round's crypto line (share 90% in
# both), and a round without one must stop the report.
fake=$out/fake
mkdir -p "$fake/runs"
echo 6.12.0-fake >"$fake/kernel"
echo "fake cpu" >"$fake/cpu"
echo 4096 >"$fake/sector"
fio_json() {	# READ_MBPS WRITE_MBPS
	local d sep=
	printf '{"jobs": [{'
	for d in read write; do
		printf '%s"%s": {"bw_bytes": %s, "clat_ns": {"percentile": {"50.000000": 1000, "99.000000": 2000, "99.900000": 3000}}}' \
			"$sep" "$d" "$(($1 * 1000000))"
		sep=", "
		shift
	done
	echo '}]}'
}
fio_json 100 100 >"$fake/runs/seq-qd1.plain.1.json"
fio_json 200 200 >"$fake/runs/seq-qd1.plain.2.json"
fio_json 30 30 >"$fake/runs/seq-qd1.cri-inline-proxy.1.json"
fio_json 90 90 >"$fake/runs/seq-qd1.cri-inline-proxy.2.json"
printf 'round %s driver d block 4096 encrypt %s decrypt %s bytes/s\n' \
	1 100000000 100000000 2 400000000 400000000 >"$fake/crypto"
check "report on made-up rounds" python3 "$TOP/scripts/bench/report.py" \
	--json "$fake/b.json" "$fake"
check_eq "share of the limit paired by round" "$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))[0]
print(round(r["workloads"]["seq-qd1"]["cri-inline-proxy"]["paired"]["limit"], 3))
' "$fake/b.json" 2>&1)" "0.9"
check_eq "the report from bench.json is the report from the runs" \
	"$(python3 "$TOP/scripts/bench/report.py" --from-json "$fake/b.json" \
		--plot "$fake/b.png" 2>/dev/null)" \
	"$(python3 "$TOP/scripts/bench/report.py" "$fake")"
check_eq "bench.json replotted" "$(head -c 4 "$fake/b.png" 2>/dev/null | tail -c 3)" "PNG"
sed -i '/^round 2 /d' "$fake/crypto"
check_fails "report refuses a round without its crypto line" \
	python3 "$TOP/scripts/bench/report.py" "$fake"
if "$TOP/scripts/bench/run" -r 1 -t 1 -o "$out" "$kver" >"$out/table.md" 2>"$out/stderr"; then
	pass "scripts/bench/run -r 1 -t 1 on $kver"
else
	fail "scripts/bench/run -r 1 -t 1 on $kver" "$(tail -n 5 "$out/stderr" | tr '\n' ' ')"
fi
check "progress reached the end" grep -q "^bench \[$kver\]: done" "$out/stderr"
check "progress named the crypto-alone step" \
	grep -q "^bench \[$kver\]: 0/41 round 1 crypto alone" "$out/stderr"
check "table heading names the kernel" grep -q "^### $kver " "$out/table.md"
check_eq "one row per mode per workload, one limit row, 12 hard-IRQ and 8 large-IO rows" \
	"$(grep -c -E '^\| (plain RAM disk|dm-crypt|crypt-inline|limit)' "$out/table.md")" "42"
check_eq "the plot is a PNG" "$(head -c 4 "$out/bench.png" 2>/dev/null | tail -c 3)" "PNG"

# The JSON: every mode moved data, the limit paired with this round.
check "bench.json: every row moved data, the limit is paired" python3 - "$out/bench.json" <<'EOF'
import json, sys
res = json.load(open(sys.argv[1]))
assert len(res) == 1, res
r = res[0]
assert r["crypto"]["rounds"] == 1 and r["crypto"]["encrypt_mbps"] > 0, r["crypto"]
modes = {"plain", "dmcrypt", "dmcrypt-noq", "dmcrypt-noq-proxy",
         "cri-queued", "cri-inline", "cri-inline-proxy"}
for wl in ("seq-qd1", "rand-qd1", "rand-qd32"):
    rows = r["workloads"][wl]
    assert set(rows) == modes, (wl, sorted(rows))
    for mode, row in rows.items():
        assert row["read"]["mbps"] > 0 and row["write"]["mbps"] > 0, (wl, mode)
        assert row["paired"]["dmcrypt"] > 0, (wl, mode)
lim = r["limit"]
assert 0 < lim["total_mbps"] < r["workloads"]["seq-qd1"]["plain"]["total_mbps"], lim
assert r["workloads"]["seq-qd1"]["cri-inline-proxy"]["paired"]["limit"] > 0
# The hard-IRQ and large-IO rows: the bench's sector size, every mode
# moved data and used CPU; the policy spread the 1 MiB and 4 MiB reads and
# writes, force_inline did not.
for kind, names in (("irq", {"rread4k-qd1", "read1m-qd4", "write1m-qd4"}),
                    ("large", {"read4m-qd16", "write4m-qd16"})):
    assert set(r[kind]) == {"4096"}, (kind, sorted(r[kind]))
    wls = r[kind]["4096"]
    assert set(wls) == names, (kind, sorted(wls))
    for wl, rows in wls.items():
        assert set(rows) == {"dmcrypt", "dmcrypt-noq", "cri-inline", "cri-noq"}, (wl, sorted(rows))
        for mode, row in rows.items():
            assert row["mbps"] > 0 and row["cpu_s_per_gib"] > 0, (kind, wl, mode, row)
            assert row["vs_dmcrypt_noq"] > 0 and row["vs_dmcrypt"] > 0, (kind, wl, mode, row)
    if kind == "large":
        for wl in names:
            assert wls[wl]["cri-noq"]["counters"]["spread"] > 0, wl
            assert wls[wl]["cri-inline"]["counters"]["spread"] == 0, wl
for sector, wls in r["irq"].items():
    assert wls["read1m-qd4"]["cri-noq"]["counters"]["spread"] > 0, sector
    assert wls["read1m-qd4"]["cri-inline"]["counters"]["spread"] == 0, sector
    assert wls["rread4k-qd1"]["cri-noq"]["counters"]["spread"] == 0, sector
    assert wls["write1m-qd4"]["cri-noq"]["counters"]["spread"] > 0, sector
    assert wls["write1m-qd4"]["cri-inline"]["counters"]["spread"] == 0, sector
EOF
summary
