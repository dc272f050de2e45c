#!/usr/bin/env bash
# Re-indexing against full builds, side by side in one run: for each site, a full `canon index`,
# then two rounds of changes, each to PERCENT % of the page files and each followed by
# `canon index` on the existing index (a re-index) and a `--full` build of the same changed
# site: `text` adds a sentence to a paragraph (the link graph stays as it was), `links` adds a
# sentence with a link to another page (PageRank moves on every page). Prints a Markdown row per
# site and round with wall time, CPU time and peak RSS of the runs, the re-index's share of
# each full build's wall time, what the re-index found (summary.json's `reindex`) and whether
# its pages.jsonl is byte-identical to the full build's.
#
# Usage: bench/reindex/run.sh [NAME=SITE_DIR ...]
#   default sites: python (python3.11-doc), cppreference (cppreference-doc-en-html) and
#   synth100k (bench/gen_site --pages 100000 --seed 1, generated into WORK when missing)
#   WORK=DIR     where copies of the sites and the indexes go (default: a temp dir). The copies
#                are hard links (cp -al); changed files are written anew, never in place, so
#                the originals are not touched.
#   PERCENT=1    share of page files changed;  SEED=1  which ones
# Needs a Release build: scripts/build.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
canon=$PWD/build/cli/canon
gen=$PWD/build/bench/gen_site/gen_site
[ -x "$canon" ] || { echo "run scripts/build.sh first" >&2; exit 1; }
[ -x /usr/bin/time ] || { apt-get update -q >/dev/null; apt-get install -y -q time >/dev/null; }
percent=${PERCENT:-1}
seed=${SEED:-1}
if [ -n "${WORK:-}" ]; then work=$WORK; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi

sites=("$@")
if [ ${#sites[@]} -eq 0 ]; then
  sites=(python=/usr/share/doc/python3.11/html cppreference=/usr/share/cppreference/doc/html
         synth100k="$work/gen-100000")
fi

# timed LABEL ARGS...: runs canon with ARGS under /usr/bin/time into $work/time-LABEL.
timed() {
  local label=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/time-$label" "$canon" "$@" --quiet > "$work/out-$label"
}

echo "| site | files | changes | changed | full s (CPU s, MiB) | re-index s (CPU s, MiB) | full after the change s (CPU s, MiB) | re-index / full | re-index / full after | re-index found | same pages.jsonl |"
echo "|---|---:|---|---:|---|---|---|---:|---:|---|---|"
for entry in "${sites[@]}"; do
  name=${entry%%=*}
  source=${entry#*=}
  if [ "$name" = synth100k ] && [ ! -d "$source" ]; then "$gen" --pages 100000 --out "$source" --seed 1 >/dev/null; fi
  [ -d "$source" ] || { echo "no site at $source" >&2; exit 1; }
  site=$work/site-$name
  rm -rf "$site" "$work/index-$name" "$work/full-$name"
  cp -al "$source" "$site"
  timed "$name-full" index "$site" --out "$work/index-$name"
  for round in text links; do
    changed=$(python3 - "$site" "$percent" "$seed" "$round" <<'PY'
import os, random, sys
site, percent, seed, kind = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
pages = sorted(os.path.join(d, f) for d, _, fs in os.walk(site) for f in fs if f.endswith((".html", ".htm")))
rng = random.Random(seed * 2 + (kind == "links"))
chosen = rng.sample(pages, max(1, round(len(pages) * percent / 100)))
for n, path in enumerate(chosen):
    with open(path, "rb") as f:
        html = f.read()
    at = html.rfind(b"</p>")
    at = at if at >= 0 else len(html)
    added = b" Changed for the re-index benchmark (%s), page %d." % (kind.encode(), n)
    if kind == "links":
        target = os.path.relpath(rng.choice(pages), os.path.dirname(path))
        added += b' See <a href="%s">another page</a>.' % target.encode()
    html = html[:at] + added + html[at:]
    tmp = path + ".reindex-tmp"
    with open(tmp, "wb") as f:  # a new file: the hard-linked original stays as it was
        f.write(html)
    os.replace(tmp, path)
print(len(chosen))
PY
  )
    timed "$name-reindex" index "$site" --out "$work/index-$name"
    rm -rf "$work/full-$name"
    timed "$name-after" index "$site" --out "$work/full-$name" --full
    same=no
    cmp -s "$work/index-$name/pages.jsonl" "$work/full-$name/pages.jsonl" && same=yes
    python3 - "$name" "$changed" "$work" "$same" "$round" <<'PY'
import json, sys
name, changed, work, same, kind = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
def run(label):
    wall, user, system, rss = open(f"{work}/time-{name}-{label}").read().split()
    return float(wall), float(user) + float(system), int(rss) // 1024
full, again, after = run("full"), run("reindex"), run("after")
s = json.load(open(f"{work}/index-{name}/summary.json"))
r = s["reindex"]
files = r["files"]
docs = r["documents"]
found = (f"{files['new']} new, {files['changed']} changed, {files['deleted']} deleted, "
         f"{files['unchanged']} unchanged; documents {docs['added']} added, {docs['rewritten']} rewritten, "
         f"{docs['updated']} updated, {docs['removed']} removed, {docs['kept']} kept")
if r["full_because"]:
    found = "FULL BUILD: " + r["full_because"]
cell = lambda t: f"{t[0]:.2f} ({t[1]:.1f}, {t[2]})"
print(f"| {name} | {s['input_files']} | {kind} | {changed} | {cell(full)} | {cell(again)} | {cell(after)} | "
      f"{again[0] / full[0]:.3f} | {again[0] / after[0]:.3f} | {found} | {same} |")
stages = ", ".join(f"{k} {v:.2f}" for k, v in s["seconds"].items())
print(f"<!-- {name} {kind} re-index stages: {stages} -->")
PY
  done
done
