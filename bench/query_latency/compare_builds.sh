#!/usr/bin/env bash
# @file compare_builds.sh
# @brief Query latency of two builds of canon side by side (docs/benchmarks-search.md): each build
# indexes the same sites with its own `canon index`, then each build's canon_query_latency runs
# the queries of bench/query_latency/queries.txt on its own indexes, the two taking turns site
# by site for ROUNDS rounds so that machine noise hits both. Prints the full mode's p50 and mean
# (ms) per build, and the new build's no-anchors mode (its search without anchor text).
#
# Usage: bench/query_latency/compare_builds.sh BASE_BUILD NEW_BUILD WORK_DIR [SITE...]
#   a build is a build directory (cli/canon and bench/query_latency/canon_query_latency in it);
#   sites default to Javadoc api/, python3.11-doc and rust-doc. ROUNDS=2, REPEATS=3 by default.
#   REUSE=1 searches the indexes already in WORK_DIR (a change of the search alone).
#   A build of an older commit:  git worktree add /tmp/base COMMIT && cmake -S /tmp/base -B
#   /tmp/base/build -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/base/build
#   --target canon canon_query_latency
set -euo pipefail
cd "$(dirname "$0")/../.."
base=$(realpath "${1:?base build directory}")
new=$(realpath "${2:?new build directory}")
work=${3:?work directory}
shift 3
sites=("$@")
if [ ${#sites[@]} -eq 0 ]; then
  sites=(/usr/share/doc/openjdk-17-jre-headless/api /usr/share/doc/python3.11/html /usr/share/doc/rust-doc/html)
fi
rounds=${ROUNDS:-2}
repeats=${REPEATS:-3}
queries=bench/query_latency/queries.txt
mkdir -p "$work"
for build in "$base" "$new"; do
  for binary in cli/canon bench/query_latency/canon_query_latency; do
    [ -x "$build/$binary" ] || { echo "compare_builds: no $build/$binary" >&2; exit 1; }
  done
done
name_of() { echo "$(basename "$(dirname "$1")")-$(basename "$1")"; }
for site in "${sites[@]}"; do
  [ -d "$site" ] || { echo "compare_builds: no site $site" >&2; exit 1; }
  for which in base new; do
    build=$base
    [ $which = new ] && build=$new
    out="$work/$which-$(name_of "$site")"
    [ "${REUSE:-0}" = 1 ] && [ -d "$out" ] && continue
    "$build/cli/canon" index "$site" --out "$out" --quiet >/dev/null
  done
done
# mode_row DRIVER_OUTPUT MODE: "p50 / mean" of that mode's row.
mode_row() { awk -F'|' -v m=" $2 " '$2 == m { gsub(/ /, "", $4); gsub(/ /, "", $7); print $4 " / " $7 }' <<<"$1"; }
echo "| round | site | base full p50 / mean | new full p50 / mean | new no-anchors p50 / mean |"
echo "|---:|---|---:|---:|---:|"
for round in $(seq "$rounds"); do
  for site in "${sites[@]}"; do
    name=$(name_of "$site")
    base_out=$("$base/bench/query_latency/canon_query_latency" "$work/base-$name" "$queries" "$repeats")
    new_out=$("$new/bench/query_latency/canon_query_latency" "$work/new-$name" "$queries" "$repeats")
    echo "| $round | $name | $(mode_row "$base_out" full) | $(mode_row "$new_out" full) | $(mode_row "$new_out" no-anchors) |"
  done
done
