#!/usr/bin/env bash
# Query latency of `canon search` (docs/benchmarks-search.md, "Query latency"): indexes Debian's
# python3.11-doc with index-time and with query-time collapse (--no-collapse), and the same
# site plus a full mirror copy of it (530 two-page clusters, so that alternates and collapsing
# have work to do), then times a few hundred queries on each index with latency.cpp.
#
#   bench/query_latency/run.sh                 # Release build in build/ (scripts/build.sh)
#   BUILD=build-q REPEATS=5 bench/query_latency/run.sh
#   REGENERATE=1 bench/query_latency/run.sh    # draw queries.txt again from the page titles
#
# queries.txt is drawn reproducibly (fixed seed) from the page titles in pages.jsonl: 300
# queries of the first 1-3 words of a title. Needs python3 (only to draw the queries).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${BUILD:-$root/build}"
canon="$build/cli/canon"
latency="$build/bench/query_latency/canon_query_latency"
site="${SITE:-/usr/share/doc/python3.11/html}"
work="${WORK:-${TMPDIR:-/tmp}/canon-bench-latency}"
repeats="${REPEATS:-3}"
queries="$here/queries.txt"

for binary in "$canon" "$latency"; do
  if [ ! -x "$binary" ]; then
    echo "run.sh: no $binary (build with -DCANON_BUILD_BENCH=ON, or set BUILD)" >&2
    exit 1
  fi
done
[ -d "$site" ] || { echo "run.sh: $site is missing: apt-get install python3.11-doc" >&2; exit 1; }
mkdir -p "$work"

# The site, and the site with a mirror copy of every page under mirror/.
if [ ! -d "$work/mirrored/mirror" ]; then
  rm -rf "$work/mirrored"
  mkdir -p "$work/mirrored"
  mkdir -p "$work/mirrored/mirror"
  (cd "$site" && find . -name '*.html' -exec cp --parents -t "$work/mirrored" {} +)
  (cd "$site" && find . -name '*.html' -exec cp --parents -t "$work/mirrored/mirror" {} +)
fi
base=https://docs.python.org/3.11/
"$canon" index "$site" --out "$work/python-index" --base-url "$base" --quiet
"$canon" index "$site" --out "$work/python-query" --base-url "$base" --quiet --no-collapse
"$canon" index "$work/mirrored" --out "$work/mirrored-index" --base-url "$base" --quiet
"$canon" index "$work/mirrored" --out "$work/mirrored-query" --base-url "$base" --quiet \
  --no-collapse

if [ ! -s "$queries" ] || [ -n "${REGENERATE:-}" ]; then
  PAGES="$work/python-index/pages.jsonl" python3 - >"$queries" <<'PY'
import json, os, random, re
titles = set()
with open(os.environ["PAGES"], encoding="utf-8") as f:
    for line in f:
        title = json.loads(line).get("title", "").split(" — Python")[0]
        words = re.findall(r"[A-Za-z][A-Za-z0-9_]*", title)
        if words:
            titles.add(" ".join(words).lower())
rng = random.Random(20240511)
titles = sorted(titles)
for _ in range(300):
    words = rng.choice(titles).split()
    print(" ".join(words[:rng.randint(1, 3)]))
PY
fi
echo "$(wc -l <"$queries") queries from $queries, $repeats timed passes each;" \
  "machine: $(nproc) cores"
for index in python-index python-query mirrored-index mirrored-query; do
  docs=$(xapian-delve "$work/$index/xapian" 2>/dev/null |
    sed -n 's/^number of documents = //p' || true)
  echo
  echo "### $index (${docs:-?} documents)"
  echo
  "$latency" "$work/$index" "$queries" "$repeats"
done
