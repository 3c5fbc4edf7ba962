#!/usr/bin/python3
"""Turn scripts/bench/guest output directories into a Markdown table, JSON and a plot.

    report.py [--json FILE] [--plot FILE.png] OUTDIR...
    report.py --from-json bench.json [--plot FILE.png]

Each OUTDIR holds runs/<workload>.<mode>.<round>.json (fio JSON), crypto
("round R driver D block B encrypt E decrypt D bytes/s" per round), kernel
and cpu.  Values are medians over rounds.  The limit row models the best an
encrypting layer could do for a 50/50 read/write mix at queue depth 1: every
4 KiB operation costs the plain device's time plus one encryption or
decryption, so per direction
    limit = 1 / (1/plain + 1/crypto)  with 1/crypto = 1/enc + 1/dec,
from each round's plain run and crypto-alone measurement.

Ratios between rows are paired: within a round every mode runs back to back,
so each round gives one ratio and the table shows the median of those.  The
host's speed drifts between rounds far more than rows differ within one.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

MODES = [
    ("plain", "plain RAM disk"),
    ("dmcrypt", "dm-crypt default"),
    ("dmcrypt-noq", "dm-crypt no_read/no_write_workqueue"),
    ("dmcrypt-noq-proxy", "dm-crypt no-queue + xtsproxy"),
    ("cri-queued", "crypt-inline queued"),
    ("cri-inline", "crypt-inline force_inline"),
    ("cri-inline-proxy", "crypt-inline force_inline + xtsproxy"),
]
WORKLOADS = [
    ("seq-qd1", "sequential 4 KiB 50/50 read/write, psync, qd 1"),
    ("rand-qd1", "random 4 KiB 50/50 read/write, psync, qd 1"),
    ("rand-qd32", "random 4 KiB 50/50 read/write, libaio, qd 32, 2 jobs"),
]
# The hard-IRQ rows (scripts/bench/dev irq): null_blk irqmode=2.
IRQ_MODES = [
    ("dmcrypt", "dm-crypt default"),
    ("dmcrypt-noq", "dm-crypt no_read/no_write_workqueue"),
    ("cri-inline", "crypt-inline force_inline (strictly inline)"),
    ("cri-noq", "crypt-inline no_read/no_write_workqueue (spread policy)"),
]
IRQ_WORKLOADS = [
    ("rread4k-qd1", "read", "random 4 KiB reads, psync, qd 1"),
    ("read1m-qd4", "read", "sequential 1 MiB reads, libaio, qd 4"),
    ("write1m-qd4", "write", "sequential 1 MiB writes, libaio, qd 4"),
]
# The large-IO rows (scripts/bench/dev large): a RAM disk, one job.
LARGE_WORKLOADS = [
    ("read4m-qd16", "read", "sequential 4 MiB reads, libaio, qd 16"),
    ("write4m-qd16", "write", "sequential 4 MiB writes, libaio, qd 16"),
]
DEV_KINDS = [
    ("irq", IRQ_WORKLOADS,
     "**Hard-IRQ completions** (null_blk irqmode=2, 20 µs timer; {sector}-byte encryption sectors)."),
    ("large", LARGE_WORKLOADS,
     "**Large IO** (RAM disk, one job; {sector}-byte encryption sectors)."),
]
# Short labels for the plot's x axes (the table keeps the long ones).
SHORT = {
    "dmcrypt": "in-tree\ndefault",
    "dmcrypt-noq-proxy": "in-tree\nno-queue\n+ xtsproxy",
    "cri-queued": "crypt-inline\nqueued",
    "cri-inline": "crypt-inline\nforce_inline",
    "cri-inline-proxy": "force_inline\n+ xtsproxy",
    "cri-noq": "crypt-inline\nno-queue flags",
}
MB = 1e6


def read_run(path):
    with open(path) as f:
        text = f.read()
    # fio may print notes before the JSON object.
    job = json.loads(text[text.index("{"):])["jobs"][0]
    out = {}
    for d in ("read", "write"):
        pct = job[d]["clat_ns"].get("percentile", {})
        out[d] = {
            "mbps": job[d]["bw_bytes"] / MB,
            "p50_us": pct.get("50.000000", 0) / 1000,
            "p99_us": pct.get("99.000000", 0) / 1000,
            "p999_us": pct.get("99.900000", 0) / 1000,
        }
    return out


def median_runs(runs):
    out = {}
    for d in ("read", "write"):
        out[d] = {k: statistics.median(r[d][k] for r in runs) for k in runs[0][d]}
    out["total_mbps"] = out["read"]["mbps"] + out["write"]["mbps"]
    totals = [r["read"]["mbps"] + r["write"]["mbps"] for r in runs]
    out["total_min_mbps"], out["total_max_mbps"] = min(totals), max(totals)
    out["rounds"] = len(runs)
    return out


def load(outdir):
    res = {"kernel": open(os.path.join(outdir, "kernel")).read().strip(),
           "cpu": open(os.path.join(outdir, "cpu")).read().strip(),
           "workloads": {}}
    sector = os.path.join(outdir, "sector")
    res["sector_size"] = int(open(sector).read()) if os.path.exists(sector) else 512
    crypto = read_crypto(os.path.join(outdir, "crypto"))
    c0 = next(iter(crypto.values()))
    res["crypto"] = {"driver": c0["driver"], "block": c0["block"],
                     "rounds": len(crypto)}
    for k in ("encrypt_mbps", "decrypt_mbps"):
        res["crypto"][k] = statistics.median(c[k] for c in crypto.values())
    runs = {}
    for name in os.listdir(os.path.join(outdir, "runs")):
        wl, mode, rnd, ext = name.split(".")
        if ext != "json":  # .cpu, and .perf with PERF=1
            continue
        runs.setdefault(wl, {}).setdefault(mode, {})[rnd] = \
            read_run(os.path.join(outdir, "runs", name))
    for wl, modes in runs.items():
        rows = {mode: median_runs(list(r.values())) for mode, r in modes.items()}
        totals = {mode: {rnd: x["read"]["mbps"] + x["write"]["mbps"] for rnd, x in r.items()}
                  for mode, r in modes.items()}
        limit = {}
        if wl == "seq-qd1" and "plain" in modes:
            limit = {rnd: limit_of(x, crypto_of(crypto, rnd, outdir))
                     for rnd, x in modes["plain"].items()}
            res["limit"] = {k: statistics.median(v[k] for v in limit.values())
                            for k in ("read_mbps", "write_mbps")}
            res["limit"]["total_mbps"] = \
                res["limit"]["read_mbps"] + res["limit"]["write_mbps"]
            lim_totals = {rnd: v["read_mbps"] + v["write_mbps"] for rnd, v in limit.items()}
            res["limit"]["paired"] = vs_refs(lim_totals, totals)
        for mode, row in rows.items():
            row["paired"] = vs_refs(totals[mode], totals)
            if limit:
                row["paired"]["limit"] = paired(totals[mode], lim_totals)
        res["workloads"][wl] = rows
    for kind, wls, _ in DEV_KINDS:
        res[kind] = {}
        sectors = sorted(int(n.split("-", 1)[1]) for n in os.listdir(outdir)
                         if re.fullmatch(rf"{kind}-\d+", n))
        for sector in sectors:
            rows = load_dev(os.path.join(outdir, f"{kind}-{sector}"), wls)
            if rows:
                res[kind][str(sector)] = rows
    return res


def load_dev(d, workloads):
    """One sector size's rows on a device of their own (hard-IRQ or large
    IO): per workload and mode, medians over rounds of MB/s, read or write
    p99, CPU seconds per GiB moved, the medians of per-round ratios to
    dm-crypt no-queue and to dm-crypt's default, and crypt-inline's
    counters summed over rounds."""
    hz = int(open(os.path.join(d, "hz")).read())
    runs = {}
    for name in os.listdir(os.path.join(d, "runs")):
        wl, mode, rnd, ext = name.split(".")
        if ext != "json":
            continue
        base = os.path.join(d, "runs", f"{wl}.{mode}.{rnd}")
        direction = next(x[1] for x in workloads if x[0] == wl)
        text = open(base + ".json").read()
        job = json.loads(text[text.index("{"):])["jobs"][0][direction]
        cpu = int(open(base + ".cpu").read()) / hz
        gib = job["io_bytes"] / 2**30
        words = open(base + ".status").read().split()[3:]
        counters = {words[i]: int(words[i + 1]) for i in range(0, len(words) - 1, 2)}
        runs.setdefault(wl, {}).setdefault(mode, {})[rnd] = {
            "mbps": job["bw_bytes"] / MB,
            "p99_us": job["clat_ns"].get("percentile", {}).get("99.000000", 0) / 1000,
            "cpu_s_per_gib": cpu / gib if gib else 0,
            "counters": counters,
        }
    out = {}
    for wl, modes in runs.items():
        ref = modes.get("dmcrypt-noq", {})
        ref_default = modes.get("dmcrypt", {})
        out[wl] = {}
        for mode, rounds in modes.items():
            row = {k: statistics.median(r[k] for r in rounds.values())
                   for k in ("mbps", "p99_us", "cpu_s_per_gib")}
            row["rounds"] = len(rounds)
            mbps = {k: r["mbps"] for k, r in rounds.items()}
            row["vs_dmcrypt_noq"] = paired(mbps, {k: r["mbps"] for k, r in ref.items()})
            row["vs_dmcrypt"] = paired(mbps, {k: r["mbps"] for k, r in ref_default.items()})
            total = {}
            for r in rounds.values():
                for k, v in r["counters"].items():
                    total[k] = total.get(k, 0) + v
            row["counters"] = total
            out[wl][mode] = row
    return out


def dev_tables(res):
    lines = []
    for kind, workloads, heading in DEV_KINDS:
        for sector, wls in sorted(res.get(kind, {}).items(), key=lambda x: int(x[0])):
            lines += ["", heading.format(sector=sector) + " \"vs no-queue\" / \"vs default\": "
                      "medians of per-round ratios to dm-crypt no_read/no_write_workqueue / "
                      "to dm-crypt's default; CPU: all CPUs' busy time (guest /proc/stat) per GiB "
                      "moved; spread/deferred: share of crypt-inline's pieces sent to the "
                      "workqueue by the spread policy / reads deferred out of hard IRQ.", ""]
            for wl, _, title in workloads:
                rows = wls.get(wl)
                if not rows:
                    continue
                lines += [f"*{title}*", "",
                          "| mode | MB/s | vs no-queue | vs default | p99 µs | CPU s/GiB "
                          "| spread / deferred |",
                          "|---|---:|---:|---:|---:|---:|---|"]
                for mode, label in IRQ_MODES:
                    r = rows.get(mode)
                    if not r:
                        continue
                    c = r["counters"]
                    share = "-"
                    if c.get("inline"):
                        share = (f"{100 * c.get('spread', 0) / c['inline']:.0f}% / "
                                 f"{100 * c.get('deferred', 0) / c['inline']:.0f}%")
                    lines.append(f"| {label} | {r['mbps']:.1f} | "
                                 f"{fmt_ratio(r['vs_dmcrypt_noq'])} | "
                                 f"{fmt_ratio(r.get('vs_dmcrypt', 0))} | "
                                 f"{r['p99_us']:.0f} | {r['cpu_s_per_gib']:.1f} | {share} |")
                lines.append("")
    return "\n".join(lines)


def read_crypto(path):
    """Crypto-alone speeds by round ("round R driver D block B encrypt E
    decrypt D bytes/s" per line); a file of one line without a round (older
    runs) stands for every round."""
    out = {}
    pat = r"(?:round (\d+) )?driver (\S+) block (\d+) encrypt (\d+) decrypt (\d+)"
    for m in re.finditer(pat, open(path).read()):
        out[m.group(1) or "*"] = {"driver": m.group(2), "block": int(m.group(3)),
                                  "encrypt_mbps": int(m.group(4)) / MB,
                                  "decrypt_mbps": int(m.group(5)) / MB}
    if not out:
        sys.exit(f"bench-report: no crypto-alone result in {path}")
    return out


def crypto_of(crypto, rnd, outdir):
    """The crypto-alone result of one round; an older run's single result
    stands for every round, a missing round is an error, not a guess."""
    c = crypto.get(rnd) or crypto.get("*")
    if not c:
        sys.exit(f"bench-report: {outdir}: no crypto-alone result for round {rnd}")
    return c


def limit_of(plain, c):
    """The limit row of one round from that round's plain run and crypto."""
    crypto = 1 / (1 / c["encrypt_mbps"] + 1 / c["decrypt_mbps"])
    return {f"{d}_mbps": 1 / (1 / plain[d]["mbps"] + 1 / crypto) for d in ("read", "write")}


def paired(rounds, ref_rounds):
    """Median over rounds of this mode's total against the reference's."""
    r = [rounds[k] / ref_rounds[k] for k in rounds if ref_rounds.get(k)]
    return statistics.median(r) if r else 0


def vs_refs(rounds, totals):
    """Paired ratios of one row's per-round totals against each reference row."""
    return {ref: paired(rounds, totals[ref]) for ref in ("dmcrypt", "dmcrypt-noq")
            if ref in totals}


def fmt_ratio(x):
    return f"{x:.2f}x" if x else "-"


def table(res):
    lines = [f"### {res['kernel']} ({res['cpu']})", ""]
    c = res["crypto"]
    lines.append(f"Every dm table uses {res['sector_size']}-byte encryption sectors. "
                 f"Crypto alone ({c['driver']}, {c['block']}-byte requests, median of "
                 f"{c['rounds']} measurement(s)): encrypt {c['encrypt_mbps']:.0f} MB/s, "
                 f"decrypt {c['decrypt_mbps']:.0f} MB/s. "
                 "The \"vs\" and \"share\" columns are medians of per-round ratios (each "
                 "round measures the crypto alone, then runs every mode back to back).")
    for wl, title in WORKLOADS:
        rows = res["workloads"].get(wl)
        if not rows:
            continue
        lines += ["", f"**{title}** (median of {rows['plain']['rounds']} rounds)", "",
                  "| mode | read MB/s | write MB/s | read+write, lowest-highest round "
                  "| read clat p50 / p99 / p99.9 µs "
                  "| vs dm-crypt default | vs dm-crypt no-queue | share of limit |",
                  "|---|---:|---:|---:|---|---:|---:|---:|"]
        for mode, label in MODES:
            r = rows.get(mode)
            if not r:
                continue
            share = "-"
            if r["paired"].get("limit") and mode != "plain":
                share = f"{100 * r['paired']['limit']:.0f}%"
            rd = r["read"]
            lines.append(
                f"| {label} | {rd['mbps']:.1f} | {r['write']['mbps']:.1f} | "
                f"{r['total_min_mbps']:.0f}-{r['total_max_mbps']:.0f} | "
                f"{rd['p50_us']:.0f} / {rd['p99_us']:.0f} / {rd['p999_us']:.0f} | "
                f"{fmt_ratio(r['paired'].get('dmcrypt', 0))} | "
                f"{fmt_ratio(r['paired'].get('dmcrypt-noq', 0))} | {share} |")
        if wl == "seq-qd1" and "limit" in res:
            lim = res["limit"]
            lines.append(f"| limit: 1/(1/plain + 1/crypto) | {lim['read_mbps']:.1f} | "
                         f"{lim['write_mbps']:.1f} | | | "
                         f"{fmt_ratio(lim['paired'].get('dmcrypt', 0))} | "
                         f"{fmt_ratio(lim['paired'].get('dmcrypt-noq', 0))} | 100% |")
    dev = dev_tables(res)
    # A blank line ends the last table: Markdown takes a line after a
    # table for one more row.
    return "\n".join(lines) + ("\n" + dev if dev else "")


def panels(results):
    """The plot's panels: per workload, each encrypted mode's median of
    per-round ratios to in-tree no-queue, one value per kernel.  The plain
    RAM disk and the reference itself are left out: they would only
    squash the bars that matter."""
    out = []
    for wl, title in WORKLOADS:
        modes = [m for m, _ in MODES if m not in ("plain", "dmcrypt-noq")]
        vals = [[r["workloads"].get(wl, {}).get(m, {}).get("paired", {}).get("dmcrypt-noq", 0)
                 for r in results] for m in modes]
        out.append((f"RAM disk: {title}", modes, vals))
    for kind, workloads, _ in DEV_KINDS:
        where = "hard-IRQ null_blk" if kind == "irq" else "RAM disk"
        sectors = sorted({s for r in results for s in r.get(kind, {})}, key=int)
        for sector in sectors:
            for wl, _, title in workloads:
                modes = [m for m, _ in IRQ_MODES if m != "dmcrypt-noq"]
                vals = [[r.get(kind, {}).get(sector, {}).get(wl, {}).get(m, {})
                         .get("vs_dmcrypt_noq", 0) for r in results] for m in modes]
                out.append((f"{where}, {sector} B sectors: {title}", modes, vals))
    return out


def plot(results, path):
    """One panel per workload, bars per kernel: throughput as a ratio to
    in-tree dm-crypt no-queue (the dashed line at 1)."""
    ps = panels(results)
    cols = 3
    rows = (len(ps) + cols - 1) // cols
    files = []
    body = []
    for i, (title, modes, vals) in enumerate(ps):
        data = f"{path}.{i}.dat"
        files.append(data)
        with open(data, "w") as f:
            f.write("mode " + " ".join(f'"{r["kernel"]}"' for r in results) + "\n")
            for m, v in zip(modes, vals):
                label = SHORT[m].replace("\n", "\\n")
                f.write(f'"{label}" ' + " ".join(f"{x:.3f}" for x in v) + "\n")
        series = ", ".join(f"'{data}' using {2 + k}:xtic(1) title columnheader({2 + k})"
                           for k in range(len(results)))
        body.append(f"set title '{title}'\nplot {series}")
    script = f"""
set terminal pngcairo size {cols * 560},{rows * 420 + 40} font ',9' noenhanced
set output '{path}'
set multiplot layout {rows},{cols} title 'Throughput as a ratio to in-tree dm-crypt no_read/no_write_workqueue (dashed line = 1; median of per-round ratios; emulated guest: compare bars, not absolutes)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:*]
set offsets 0,0,graph 0.2,0
set xtics scale 0
set bmargin 5
set key top left
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 front
set ylabel 'x in-tree no-queue'
{chr(10).join(body)}
unset multiplot
"""
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"bench-report: no plot ({e})", file=sys.stderr)
    finally:
        for f in files:
            os.unlink(f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--plot")
    ap.add_argument("--from-json", metavar="FILE",
                    help="report and plot a saved bench.json instead of OUTDIRs")
    ap.add_argument("outdirs", nargs="*")
    args = ap.parse_args()
    if args.from_json:
        with open(args.from_json) as f:
            results = json.load(f)
    elif args.outdirs:
        results = [load(d) for d in args.outdirs]
    else:
        ap.error("give OUTDIRs or --from-json FILE")
    print("\n\n".join(table(r) for r in results))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    if args.plot:
        plot(results, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
