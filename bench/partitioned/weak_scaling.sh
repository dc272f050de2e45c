#!/usr/bin/env bash
# Weak scaling of a partitioned build (issue 57, point 2): generated sites of N, 2N and 4N pages
# built by P, 2P and 4P processes of one thread each, so that every process has the same share.
# Per stage, the most any process received and sent (summary.json's processes.by_process), and
# the largest process's peak RSS (/usr/bin/time); then each figure at 4P over the one at P. A
# build whose processes' costs grow with the site, not with their share, shows a ratio above 1.
#
# Usage: bench/partitioned/weak_scaling.sh WORK_DIR
#   PAGES=12000 and PROCESSES=2 (N and P) unless given; STEPS="1 2 4" the multiples.
#   CANON=PATH runs that binary (a copy, so that the build tree can change during a long run).
# Needs a Release build with the bench tools (scripts/build.sh) and Open MPI. Oversubscribed:
# on a machine with fewer cores than 4P the seconds say little, the bytes and memory are exact.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${1:?work directory}
canon=${CANON:-$PWD/build/cli/canon}
gen=$PWD/build/bench/gen_site/gen_site
pages=${PAGES:-12000}
processes=${PROCESSES:-2}
steps=${STEPS:-1 2 4}
[ -x /usr/bin/time ] || { apt-get update -q > /dev/null; apt-get install -y -q time > /dev/null; }
mkdir -p "$work"

runs=()
for step in $steps; do
  n=$((pages * step))
  p=$((processes * step))
  site="$work/generated-$n"
  [ -d "$site" ] || "$gen" --pages "$n" --out "$site" > /dev/null
  index="$work/index-$n-p$p"
  rm -rf "$index" "$work/time-$n-p$p".*
  mpirun --oversubscribe --allow-run-as-root -np "$p" bash -c \
    'exec /usr/bin/time -f "%e %M" -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' "$work/time-$n-p$p" \
    "$canon" index "$site" --out "$index" --quiet --full --threads 1 > /dev/null
  runs+=("$n:$p:$index:$work/time-$n-p$p")
done

python3 - "$work" "${runs[@]}" <<'PY'
import glob, json, sys

runs = []
work = sys.argv[1]
for arg in sys.argv[2:]:
    n, p, index, times = arg.split(":")
    s = json.load(open(index + "/summary.json"))
    by_process = s["processes"]["by_process"]
    run_order = ["walk", "sample", "parse", "graph", "pagerank", "dedup", "authority", "xapian", "merge", "records"]
    stages = sorted(s["seconds"].keys(), key=lambda st: run_order.index(st) if st in run_order else len(run_order))
    received = {st: max(pr["exchanged_bytes"].get(st, {}).get("received", 0) for pr in by_process) for st in stages}
    sent = {st: max(pr["exchanged_bytes"].get(st, {}).get("sent", 0) for pr in by_process) for st in stages}
    total = max(sum(v["received"] for v in pr["exchanged_bytes"].values()) for pr in by_process)
    wall_rss = [open(f).read().split() for f in sorted(glob.glob(times + ".*"))]
    runs.append({"pages": int(n), "processes": int(p), "stages": stages, "received": received, "sent": sent,
                 "received_total": total, "peak_rss_kib": max(int(r[1]) for r in wall_rss),
                 "wall_seconds": max(float(r[0]) for r in wall_rss)})
json.dump(runs, open(work + "/weak_scaling.json", "w"), indent=1)

mb = lambda b: f"{b / 1e6:.2f}"
ratio = lambda a, b: f"{a / b:.2f}" if b else "-"
first, last = runs[0], runs[-1]
head = " | ".join(f"{r['pages'] // 1000}k / P={r['processes']}" for r in runs)
print(f"| MB received (sent) by the busiest process | {head} | × at {last['processes']} over {first['processes']} |")
print("|---" * (len(runs) + 2) + "|")
for st in first["stages"]:
    if not any(r["received"].get(st) or r["sent"].get(st) for r in runs):
        continue
    cells = " | ".join(f"{mb(r['received'].get(st, 0))} ({mb(r['sent'].get(st, 0))})" for r in runs)
    print(f"| {st} | {cells} | {ratio(last['received'].get(st, 0), first['received'].get(st, 0))} |")
cells = " | ".join(mb(r["received_total"]) for r in runs)
print(f"| **all stages, received** | {cells} | {ratio(last['received_total'], first['received_total'])} |")
cells = " | ".join(f"{r['peak_rss_kib'] / 1024:.0f}" for r in runs)
print(f"| **largest peak RSS, MiB** | {cells} | {ratio(last['peak_rss_kib'], first['peak_rss_kib'])} |")
cells = " | ".join(f"{r['wall_seconds']:.1f}" for r in runs)
print(f"| wall seconds (oversubscribed) | {cells} | {ratio(last['wall_seconds'], first['wall_seconds'])} |")
PY
