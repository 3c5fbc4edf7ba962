# shellcheck shell=bash
# Shared by the guest tests (tests/lib/lib.sh) and the benchmark's hard-IRQ rows
# (scripts/bench/dev).  Source it.

# nullb_hardirq: /dev/nullb0, 1 GiB of memory, completing every request
# from a 20 µs timer in hard-IRQ context (irqmode=2, as NVMe does).
nullb_hardirq() {
	modprobe null_blk nr_devices=1 gb=1 memory_backed=1 irqmode=2 \
		completion_nsec=20000 queue_mode=2
}
