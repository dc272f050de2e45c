#!/usr/bin/env bash
# The floor of a page's cost against canon's whole run, per site, on one core: CPU seconds of
# (a) gumbo parsing every page alone and (b) Xapian indexing canon's extracted text of each with
# canon's term generation settings (canon_floor, bench/floor/floor.cpp), and (c) `canon index
# --threads 1 --full`; canon / (a + b), and canon's stage seconds (summary.json), which say where
# the rest goes. REPEATS runs of each (default 2), the least CPU kept (a shared machine only adds).
#
# Usage: bench/floor/run.sh [WORK_DIR] [NAME=SITE_DIR ...]
#   default sites: cppreference, rust-doc, the Javadoc api/ tree and numba-doc when NUMBA=DIR is
#   given. Needs a Release build in build/ (scripts/build.sh) with the bench programs.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${1:-/tmp/canon-floor}
shift || true
sites=("$@")
if [ ${#sites[@]} -eq 0 ]; then
  sites=(cppreference=/usr/share/cppreference/doc/html
         rust=/usr/share/doc/rust-doc/html
         javadoc=/usr/share/doc/openjdk-17-jre-headless/api)
  [ -n "${NUMBA:-}" ] && sites+=(numba="$NUMBA")
fi
repeats=${REPEATS:-2}
canon=$PWD/build/cli/canon
floor=$PWD/build/bench/floor/canon_floor
[ -x "$canon" ] && [ -x "$floor" ] || { echo "run scripts/build.sh first" >&2; exit 1; }
mkdir -p "$work"

echo "| site | pages | (a) gumbo s | (b) xapian s | a + b | (c) canon CPU s | c / (a + b) | canon's stages, s |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
for site in "${sites[@]}"; do
  name=${site%%=*}
  dir=${site#*=}
  best_floor="" best_canon="" best_cpu=""
  for ((r = 0; r < repeats; r++)); do
    line=$("$floor" "$dir" "$work/$name-floor")
    sum=$(python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print(j["gumbo_s"] + j["xapian_s"])' "$line")
    if [ -z "$best_floor" ] || python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)' "$sum" "$best_sum"; then
      best_floor=$line best_sum=$sum
    fi
    rm -rf "$work/$name-canon"
    /usr/bin/time -f "%U %S" -o "$work/time" "$canon" index "$dir" --out "$work/$name-canon" --full --threads 1 --quiet >/dev/null
    cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$work/time")
    if [ -z "$best_cpu" ] || python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)' "$cpu" "$best_cpu"; then
      best_cpu=$cpu
      cp "$work/$name-canon/summary.json" "$work/$name-summary.json"
    fi
  done
  python3 - "$name" "$best_floor" "$best_cpu" "$work/$name-summary.json" <<'EOF'
import json, sys
name, floor, cpu, summary = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3]), json.load(open(sys.argv[4]))
a, b = floor["gumbo_s"], floor["xapian_s"]
stages = ", ".join("%s %.1f" % (k, v) for k, v in sorted(summary["seconds"].items(), key=lambda kv: -kv[1]) if v >= 0.05)
print("| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %s |" % (name, floor["pages"], a, b, a + b, cpu, cpu / (a + b), stages))
EOF
done
