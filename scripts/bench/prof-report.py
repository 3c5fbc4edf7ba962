#!/usr/bin/env python3
"""Where the CPU time of the bench's rows goes, per IO.

    prof-report.py DIR

DIR holds a run of scripts/bench/dev or scripts/bench/guest with PERF=1
(runs/*.perf beside fio's JSON).  For every workload and mode it prints the
CPU microseconds per IO (all CPUs, medians over rounds; reads and writes
together in the RAM disk's mixes) spent in groups of kernel symbols, the
idle loop included: at queue depth 1 the idle share says how much of an IO's
time no CPU had anything to do, which no change to the IO path can win back.

Samples are cpu-clock timer ticks at the frequency fio-run.sh records with;
in a TCG guest a tick lands where the emulated CPU next takes interrupts,
so a group's figure is good to a few microseconds, and rounds differ by more.
"""
import importlib.util
import json
import os
import re
import statistics
import sys

FREQ = 2000  # fio-run.sh's perf record -F

# First match wins; a kernel symbol in no group counts as "other kernel".
GROUPS = [
    ("idle", r"^(pv_native_safe_halt|native_safe_halt|default_idle|do_idle|cpu_startup_entry|"
             r"tick_nohz_idle|schedule_idle|cpuidle|arch_cpu_idle)"),
    ("cipher", r"(aes|xts|fpu|fpregs)"),
    # The guest's clock source: an emulated HPET where TCG leaves the TSC
    # unstable (6.1), read for every IO by fio and the block layer.
    ("clock", r"^(read_hpet|read_tsc|__vdso_clock_gettime|ktime_get)"),
    ("dm-crypt", r"^(crypt_|kcryptd|dmcrypt)"),
    ("ram disk", r"^(brd_|copy_to_brd|copy_from_brd)"),
    ("crypt-inline", r"^cri_"),
    ("dm core", r"^(dm_|__dm_|clone_endio|__map_bio|__split_and_process|alloc_io|"
                r"alloc_tio|free_tio|dm_io_)"),
    ("alloc/free", r"^(bio_alloc|bio_put|bio_free|mempool|kmem_cache|__kmalloc|"
                   r"kfree|bvec_alloc|bio_init|bio_uninit|__slab|___slab|slab_|"
                   r"bio_associate|bio_endio)"),
    ("sched/wake", r"(finish_task_switch|__schedule|schedule|try_to_wake|ttwu|"
                   r"enqueue|dequeue|pick_next|select_task)"),
    ("irq/softirq", r"(_raw_spin_unlock_irq|handle_softirqs|__softirqentry|irq_exit|"
                    r"sysvec|bh_worker|tasklet|process_one_work)"),
]
LINE = re.compile(r"\s*[\d.]+%\s+(\d+)\s+\[([k.])\]\s+(\S+)")


def load_bench_report():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "bench_report", os.path.join(here, "report.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def group_of(kind, sym):
    if kind == ".":
        return "user space"
    for name, rx in GROUPS:
        if re.search(rx, sym):
            return name
    return "other kernel"


def per_io(perf_path, ios):
    us = {}
    for line in open(perf_path):
        m = LINE.match(line)
        if m:
            g = group_of(m.group(2), m.group(3))
            us[g] = us.get(g, 0) + int(m.group(1)) * 1e6 / FREQ / ios
    return us


def main(d):
    br = load_bench_report()
    runs = os.path.join(d, "runs")
    table = {}
    for name in sorted(os.listdir(runs)):
        if not name.endswith(".perf"):
            continue
        wl, mode, rnd, _ = name.split(".")
        # The RAM disk's workloads (scripts/bench/guest) mix reads and writes.
        dirs = [x[1] for x in br.IRQ_WORKLOADS + br.LARGE_WORKLOADS
                if x[0] == wl] or ["read", "write"]
        text = open(os.path.join(runs, f"{wl}.{mode}.{rnd}.json")).read()
        job = json.loads(text[text.index("{"):])["jobs"][0]
        ios = sum(job[d]["total_ios"] for d in dirs)
        runtime = max(job[d]["runtime"] for d in dirs)
        # perf also sampled fio's ramp (the guest script's 1 s ramp), whose IOs fio
        # leaves out: count them at the measured rate.
        ramp = float(job["job options"].get("ramp_time", 0)) * 1000
        if ios:
            table.setdefault(wl, {}).setdefault(mode, []).append(
                (ios / runtime * 1000,
                 per_io(os.path.join(runs, name), ios * (runtime + ramp) / runtime)))
    names = [g for g, _ in GROUPS] + ["user space", "other kernel"]
    for wl, modes in table.items():
        print(f"\n{wl}: CPU µs per IO, all CPUs (median of rounds)\n")
        print("| mode | IOPS | " + " | ".join(names) + " | busy |")
        print("|---|---:|" + "---:|" * (len(names) + 1))
        for mode, rounds in modes.items():
            med = {g: statistics.median(r[1].get(g, 0) for r in rounds) for g in names}
            busy = statistics.median(sum(v for g, v in r[1].items() if g != "idle")
                                     for r in rounds)
            iops = statistics.median(r[0] for r in rounds)
            print(f"| {mode} | {iops:.0f} | " +
                  " | ".join(f"{med[g]:.1f}" for g in names) + f" | {busy:.1f} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
