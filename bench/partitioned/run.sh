#!/usr/bin/env bash
# Issue 29, point 6: a partitioned build against one process on the same machine, in one run:
# `canon index --threads T` (one process, T threads) and `mpirun -np P canon index --threads 1`
# (P processes of one thread), taking turns site by site. Per build: wall seconds, CPU seconds
# (user + system, all processes), peak RSS of each process (KiB, /usr/bin/time), the stage
# seconds of process 0 and the bytes it sent and received in each stage (summary.json).
# Prints a Markdown table.
#
# Usage: bench/partitioned/run.sh WORK_DIR [NAME=SITE_DIR ...]
#   default sites: cppreference and a generated site of GENERATED pages (default 100000,
#   bench/gen_site, kept in WORK_DIR between runs). P=2 and T=2 unless PROCESSES / THREADS say.
#   PARTITIONED_ONLY=1 leaves the one-process builds out (a site whose one-process build was
#   measured before: the 1M-page site takes an hour each way). CANON=PATH runs that binary (a copy,
#   so that the build tree can change during a long run).
# Needs a Release build with the bench tools (scripts/build.sh) and Open MPI.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${1:?work directory}
shift
canon=${CANON:-$PWD/build/cli/canon}
gen=$PWD/build/bench/gen_site/gen_site
processes=${PROCESSES:-2}
threads=${THREADS:-2}
[ -x /usr/bin/time ] || { apt-get update -q > /dev/null; apt-get install -y -q time > /dev/null; }
mkdir -p "$work"
sites=("$@")
if [ ${#sites[@]} -eq 0 ]; then
  pages=${GENERATED:-100000}
  [ -d "$work/generated-$pages" ] || "$gen" --pages "$pages" --out "$work/generated-$pages" > /dev/null
  sites=(cppreference=/usr/share/cppreference/doc/html "generated-$pages=$work/generated-$pages")
fi

# summary NAME INDEX TIMES...: one table row from summary.json and the /usr/bin/time files.
summary() {
  python3 - "$@" <<'PY'
import json, sys
name, index, times = sys.argv[1], sys.argv[2], sys.argv[3:]
s = json.load(open(index + "/summary.json"))
rows = [open(t).read().split() for t in times]  # wall user system maxrss
wall = max(float(r[0]) for r in rows)
cpu = sum(float(r[1]) + float(r[2]) for r in rows)
rss = " / ".join(str(int(r[3]) // 1024) for r in rows)
stages = ", ".join(f"{k} {v:.1f}" for k, v in s["seconds"].items() if v >= 0.05)
ex = s["processes"]["exchanged_bytes"]
sent = ", ".join(f"{k} {v['sent'] / 1e6:.1f}/{v['received'] / 1e6:.1f}" for k, v in ex.items() if v["sent"] or v["received"])
print(f"| {name} | {wall:.1f} | {cpu:.1f} | {rss} | {stages} | {sent or '-'} |")
PY
}

echo "| build | wall s | CPU s | peak RSS MiB per process | stage seconds (process 0) | MB sent/received by process 0 per stage |"
echo "|---|---:|---:|---|---|---|"
for entry in "${sites[@]}"; do
  name=${entry%%=*}
  site=${entry#*=}
  rm -rf "$work/$name-p$processes"
  if [ "${PARTITIONED_ONLY:-0}" != 1 ]; then
    rm -rf "$work/$name-one"
    /usr/bin/time -f "%e %U %S %M" -o "$work/time-one" "$canon" index "$site" --out "$work/$name-one" --quiet --full \
      --threads "$threads" > /dev/null
    summary "$name, 1 process x $threads threads" "$work/$name-one" "$work/time-one"
  fi
  mpirun --oversubscribe --allow-run-as-root -np "$processes" bash -c \
    'exec /usr/bin/time -f "%e %U %S %M" -o "$0-$OMPI_COMM_WORLD_RANK" "$@"' "$work/time-p" \
    "$canon" index "$site" --out "$work/$name-p$processes" --quiet --full --threads 1 > /dev/null
  summary "$name, $processes processes x 1 thread" "$work/$name-p$processes" \
    $(for ((r = 0; r < processes; r++)); do echo "$work/time-p-$r"; done)
  [ -d "$work/$name-one" ] || continue
  for file in pages.jsonl graph.tsv pairs.tsv; do
    cmp -s "$work/$name-one/$file" "$work/$name-p$processes/$file" || echo "($name: $file differs)"
  done
done
