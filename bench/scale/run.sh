#!/usr/bin/env bash
# How `canon index` grows with site size: generates synthetic sites (bench/gen_site) of
# 10k, 100k and 1M pages (or the sizes given) of ~300 words, indexes each, and prints a
# Markdown table of seconds per stage (from summary.json), wall time, CPU time (user + system),
# the share of the machine's CPU time stolen by the hypervisor during the run (a VM's noise:
# stolen time stretches wall time but is not in the CPU column) and peak RSS. RSS is also
# sampled every 30 s into WORK/rss-PAGES.log ("seconds KiB"), to see where memory grows.
#
# Usage: bench/scale/run.sh [PAGES...]      e.g. bench/scale/run.sh 10000 100000 1000000
#   WORK=/path/with/space  where sites and indexes go (default: a temp dir; 1M pages take
#                          about 6 GB of HTML). Sites are kept between runs when WORK is set.
#   CANON=PATH             runs that binary (a copy, so that the build tree can change during
#                          a long run).
# Needs a Release build with the bench tools: scripts/build.sh (CANON_BUILD_BENCH is on).
set -euo pipefail
cd "$(dirname "$0")/../.."
canon=${CANON:-build/cli/canon}
gen=build/bench/gen_site/gen_site
[ -x "$canon" ] && [ -x "$gen" ] || { echo "run scripts/build.sh first" >&2; exit 1; }
[ -x /usr/bin/time ] || { apt-get update -q >/dev/null; apt-get install -y -q time >/dev/null; }

sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000 1000000)
if [ -n "${WORK:-}" ]; then work=$WORK; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi

# steal_ticks / all_ticks: the machine's stolen and total CPU ticks so far (/proc/stat).
steal_ticks() { awk '/^cpu / { print $9; exit }' /proc/stat; }
all_ticks() { awk '/^cpu / { s = 0; for (i = 2; i <= 9; i++) s += $i; print s; exit }' /proc/stat; }

# sample_rss PID FILE: every 30 s, "seconds RSS-KiB" of PID's child (canon) into FILE.
sample_rss() {
  local start=$SECONDS child
  : > "$2"
  while kill -0 "$1" 2>/dev/null; do
    child=$(cut -d' ' -f1 "/proc/$1/task/$1/children" 2>/dev/null || true)
    if [ -n "$child" ]; then
      awk -v t=$((SECONDS - start)) '/^VmRSS/ { print t, $2 }' "/proc/$child/status" >> "$2" 2>/dev/null || true
    fi
    sleep 30
  done
}

echo "| pages (+ copies) | walk | parse | graph | pagerank | dedup | authority | xapian | merge | records | wall s | CPU s | steal % | peak RSS MiB |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "${sizes[@]}"; do
  site="$work/site-$n"
  [ -f "$site/truth.json" ] || "$gen" --pages "$n" --out "$site" --seed 1
  rm -rf "$work/index-$n"
  steal0=$(steal_ticks); all0=$(all_ticks)
  /usr/bin/time -f "%e %U %S %M" -o "$work/time-$n" "$canon" index "$site" --out "$work/index-$n" --quiet >/dev/null &
  indexer=$!
  sample_rss "$indexer" "$work/rss-$n.log" &
  sampler=$!
  wait "$indexer"
  kill "$sampler" 2>/dev/null || true
  steal_pct=$(( 100 * ($(steal_ticks) - steal0) / ($(all_ticks) - all0 + 1) ))
  read -r wall user sys rss_kb < "$work/time-$n"
  python3 - "$work/index-$n/summary.json" "$wall" "$user" "$sys" "$steal_pct" "$rss_kb" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
sec = s["seconds"]
stages = ["walk", "parse", "graph", "pagerank", "dedup", "authority", "xapian", "merge", "records"]
wall, user, system, steal, rss_kb = sys.argv[2:7]
print("| %d | %s | %s | %.1f | %s | %.0f |" % (s["input_files"], " | ".join("%.1f" % sec.get(k, 0) for k in stages),
                                             wall, float(user) + float(system), steal, int(rss_kb) / 1024))
# Where the time went: each stage's seconds and CPU seconds (summary.json's cpu_seconds; CPU well
# below seconds x threads: the stage waited).
cpu = s.get("cpu_seconds", {})
print("CPU s / wall s per stage: " + ", ".join("%s %.1f/%.1f" % (k, cpu[k], sec[k]) for k in ["walk", "sample"] + stages[1:] if k in cpu),
      file=sys.stderr)
# The kernel's CPU and the storage each stage read and wrote (summary.json's system_cpu_seconds and
# storage): a stage that slows once the site outgrows the page cache shows it here.
sys_cpu = s.get("system_cpu_seconds", {})
storage = s.get("storage", {})
if storage:
    print("kernel CPU s, GB read / written, major faults per stage: " +
          ", ".join("%s %.1f, %.2f/%.2f, %d" % (k, sys_cpu[k], storage[k]["read_bytes"] / 1e9, storage[k]["written_bytes"] / 1e9,
                                               storage[k]["major_faults"])
                    for k in ["walk", "sample"] + stages[1:] if k in storage), file=sys.stderr)
# Where the memory went: each stage's resident MiB at its end / the peak so far (summary.json's memory).
mem = s.get("memory", {})
print("memory (MiB at each stage's end / peak so far): " +
      ", ".join("%s %d/%d" % (k, mem[k]["resident_bytes"] >> 20, mem[k]["peak_resident_bytes"] >> 20)
                for k in ["walk", "sample"] + stages[1:] if k in mem), file=sys.stderr)
PY
done
