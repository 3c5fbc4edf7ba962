# shellcheck shell=bash
# Sourced by scripts/bench/guest and scripts/bench/dev: one timed fio run as the
# bench takes it, so both measure alike.
#
#   bench_fio RUN DEV SECONDS [FIO-OPTION...]
#
# Writes fio's JSON to RUN.json and the CPU time all CPUs spent during the
# run (clock ticks neither idle nor iowait, from /proc/stat) to RUN.cpu.
# With PERF=1 in the environment it also takes a system-wide cpu-clock
# profile (2000 Hz) of the run into RUN.perf (perf report by symbol with
# sample counts), which scripts/bench/prof-report.py sums per IO; RUN.cpu then
# includes perf's own work.

bench_busy() {
	awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat
}

# Refuse PERF=1 up front rather than after a round's worth of runs.
bench_perf_check() {
	[ "${PERF:-0}" != 1 ] || command -v perf >/dev/null && return 0
	echo "$(basename "$0"): PERF=1 needs perf (Debian's linux-perf)" >&2
	return 1
}

bench_fio() {
	local run=$1 dev=$2 secs=$3 b0 data=/tmp/bench-fio.perf
	shift 3
	local fio=(fio --name=bench --filename="$dev" --direct=1 --size=256m "$@"
		--time_based --runtime="$secs" --percentile_list=50:99:99.9
		--output-format=json --output="$run.json")

	b0=$(bench_busy)
	if [ "${PERF:-0}" = 1 ]; then
		perf record -q -a -e cpu-clock -F 2000 -o "$data" -- "${fio[@]}" >/dev/null
	else
		"${fio[@]}" >/dev/null
	fi
	echo $(($(bench_busy) - b0)) >"$run.cpu"
	if [ "${PERF:-0}" = 1 ]; then
		perf report -q -n --stdio --sort sym -i "$data" >"$run.perf"
		rm -f "$data"
	fi
}
