#!/usr/bin/env bash
# Where `canon index`'s memory goes, stage by stage: indexes each site once and prints, from
# summary.json's `memory`, the resident memory at the end of each stage and the peak until
# then, in MiB and in bytes per input file, with the run's peak RSS from /usr/bin/time.
#
# Usage: bench/memory/run.sh WORK_DIR NAME=SITE_DIR ...
#   THREADS (default 2) threads; CANON=PATH runs that binary (default build/cli/canon).
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${1:?work directory}
shift
[ $# -gt 0 ] || { echo "usage: $0 WORK_DIR NAME=SITE_DIR ..." >&2; exit 2; }
canon=${CANON:-$PWD/build/cli/canon}
[ -x /usr/bin/time ] || { apt-get update -q > /dev/null; apt-get install -y -q time > /dev/null; }
mkdir -p "$work"
for entry in "$@"; do
  name=${entry%%=*}
  site=${entry#*=}
  rm -rf "$work/$name"
  /usr/bin/time -f "%e %M" -o "$work/time-$name" "$canon" index "$site" --out "$work/$name" --quiet --full \
    --threads "${THREADS:-2}" > /dev/null
  python3 - "$name" "$work/$name/summary.json" "$work/time-$name" <<'PY'
import json, sys
name, summary, times = sys.argv[1:]
s = json.load(open(summary))
wall, peak_kib = open(times).read().split()
files = s["input_files"]
print(f"\n{name}: {files:,} input files, wall {float(wall):.1f} s, peak RSS {int(peak_kib) // 1024:,} MiB "
      f"({int(peak_kib) * 1024 / files:,.0f} bytes a file)\n")
print("| stage | s | resident MiB at its end | bytes a file | peak MiB so far | bytes a file |")
print("|---|---:|---:|---:|---:|---:|")
run_order = ["archives", "walk", "sample", "parse", "graph", "pagerank", "dedup", "authority", "xapian", "records"]
for stage in sorted(s["memory"], key=lambda k: run_order.index(k) if k in run_order else len(run_order)):
    seconds, m = s["seconds"][stage], s["memory"][stage]
    r, p = m["resident_bytes"], m["peak_resident_bytes"]
    print(f"| {stage} | {seconds:.1f} | {r >> 20:,} | {r / files:,.0f} | {p >> 20:,} | {p / files:,.0f} |")
PY
done
