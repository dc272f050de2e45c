#!/usr/bin/env bash
# @file compare_builds.sh
# @brief Two builds of canon on the same real sites, page by page: the pages whose main text the
# extractor keeps differently (each build's bench/extract/canon_main_texts), then each build's
# `canon index` compared: statuses, authoritative pages, pairs.tsv, and pages with warnings.
#
# Usage: bench/extract/compare_builds.sh BASE_BUILD NEW_BUILD WORK_DIR [NAME=SITE_DIR ...]
#   a build is a build directory (cli/canon and bench/extract/canon_main_texts in it); sites
#   default to the six Debian documentation sites and sample_site. A build of an older commit:
#   git worktree add /tmp/base COMMIT && cmake -S /tmp/base -B /tmp/base/build -G Ninja
#   -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/base/build --target canon canon_html, then
#   bench/extract/main_texts.cpp compiled against it (it uses extract_page alone).
#   Prints, per site, the pages whose main text changed (the first CHANGED_SHOWN=5 of them).
set -euo pipefail
cd "$(dirname "$0")/../.."
base=$(realpath "${1:?base build directory}")
new=$(realpath "${2:?new build directory}")
work=${3:?work directory}
shift 3
sites=("$@")
[ ${#sites[@]} -gt 0 ] || sites=(python=/usr/share/doc/python3.11/html postgres=/usr/share/doc/postgresql-doc-15/html
  cppreference=/usr/share/cppreference/doc/html javadoc=/usr/share/doc/openjdk-17-jre-headless/api
  libstdcxx=/usr/share/doc/gcc-12-base/libstdc++ rust=/usr/share/doc/rust-doc/html sample=sample_site)
mkdir -p "$work"
for s in "${sites[@]}"; do
  name=${s%%=*}
  dir=${s#*=}
  for build in base new; do
    root=$base
    [ $build = new ] && root=$new
    "$root/bench/extract/canon_main_texts" "$dir" > "$work/$name-$build.texts"
    rm -rf "$work/$name-$build"
    "$root/cli/canon" index "$dir" --out "$work/$name-$build" --quiet > /dev/null
  done
  python3 - "$work" "$name" "${CHANGED_SHOWN:-5}" <<'PY'
import json, sys
work, name, shown = sys.argv[1], sys.argv[2], int(sys.argv[3])
def texts(build):
    return {p: (h, int(n)) for p, h, n in (l.rstrip("\n").split("\t") for l in open(f"{work}/{name}-{build}.texts"))}
def records(build):
    return {r["path"]: r for r in map(json.loads, open(f"{work}/{name}-{build}/pages.jsonl"))}
tb, tn = texts("base"), texts("new")
changed = [p for p in tb if tb[p][0] != tn.get(p, ("",))[0]]
rb, rn = records("base"), records("new")
status = sum(1 for p in rb if rb[p]["status"] != rn[p]["status"])
authority = sum(1 for p in rb if rb[p].get("authoritative") != rn[p].get("authoritative"))
pairs = len(set(open(f"{work}/{name}-base/pairs.tsv")) ^ set(open(f"{work}/{name}-new/pairs.tsv")))
warned = json.load(open(f"{work}/{name}-new/summary.json")).get("pages_with_warnings", 0)
print(f"{name}: {len(tb)} pages, main text changed on {len(changed)}; status changed {status}, "
      f"authoritative changed {authority}, pairs differing {pairs}; new build's pages with warnings {warned}")
for p in changed[:shown]:
    print(f"  {p}: {tb[p][1]} -> {tn[p][1]} bytes")
PY
done
