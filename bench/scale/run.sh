#!/usr/bin/env bash
# How `canon index` grows with site size: generates synthetic sites (bench/gen_site) of
# 10k, 100k and 1M pages (or the sizes given) of ~300 words, indexes each, and prints a
# Markdown table of seconds per stage (from summary.json), wall time and peak RSS.
#
# Usage: bench/scale/run.sh [PAGES...]      e.g. bench/scale/run.sh 10000 100000 1000000
#   WORK=/path/with/space  where sites and indexes go (default: a temp dir; 1M pages take
#                          about 6 GB of HTML). Sites are kept between runs when WORK is set.
# Needs a Release build with the bench tools: scripts/build.sh (CANON_BUILD_BENCH is on).
set -euo pipefail
cd "$(dirname "$0")/../.."
canon=build/cli/canon
gen=build/bench/gen_site/gen_site
[ -x "$canon" ] && [ -x "$gen" ] || { echo "run scripts/build.sh first" >&2; exit 1; }
[ -x /usr/bin/time ] || { apt-get update -q >/dev/null; apt-get install -y -q time >/dev/null; }

sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000 1000000)
if [ -n "${WORK:-}" ]; then work=$WORK; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi

echo "| pages (+ copies) | walk | parse | graph | pagerank | dedup | authority | xapian | records | wall s | peak RSS MiB |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "${sizes[@]}"; do
  site="$work/site-$n"
  [ -f "$site/truth.json" ] || "$gen" --pages "$n" --out "$site" --seed 1
  rm -rf "$work/index-$n"
  /usr/bin/time -f "%e %M" -o "$work/time-$n" "$canon" index "$site" --out "$work/index-$n" --quiet >/dev/null
  read -r wall rss_kb < "$work/time-$n"
  python3 - "$work/index-$n/summary.json" "$wall" "$rss_kb" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
sec = s["seconds"]
stages = ["walk", "parse", "graph", "pagerank", "dedup", "authority", "xapian", "records"]
print("| %d | %s | %s | %.0f |" % (s["input_files"], " | ".join("%.1f" % sec.get(k, 0) for k in stages),
                                   float(sys.argv[2]), int(sys.argv[3]) / 1024))
PY
done
