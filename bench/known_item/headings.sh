#!/usr/bin/env bash
# Heading queries: on documentation sites, a section's heading typed as the query ("Storage
# Parameters", "The Stack and the Heap") should bring up that section: its page first, and ideally
# a link to the section itself. Per site 80 headings (h1-h6 of the main content) of two or more
# words whose text is unique on the site, drawn by bench/known_item/headings.py (seeded), each
# searched as typed and again with one typo in one word of 5+ letters. Reports, per site and set,
# the share of queries whose first result is the heading's page, links the section (the result's
# URL is PAGE#ANCHOR, or its first "sections" entry is), either, the page in the top 10, the share
# of result snippets holding a query word, and the share of queries canon corrected ("did you
# mean": corrected_query in the JSON).
#
# Usage: bench/known_item/headings.sh WORK_DIR [CANON_BINARY]
#   CANON_BINARY defaults to build/cli/canon (CANON=... works too). Indexes every site with
#   `canon index SITE --out WORK_DIR/canon-NAME --quiet`, runs headings.py per site, prints the
#   table and writes WORK_DIR/headings.md, WORK_DIR/headings-NAME.json and
#   WORK_DIR/headings-NAME.tsv (per query: set, query, heading, page, anchor, first result, page
#   hit, section hit, page rank, corrected_query; "-" = not in the top 10 / null).
#   SITES="python postgres ..." selects sites (default: python postgres cppreference rust; also
#   javadoc, libstdcxx); NAME=DIR adds any directory of HTML (SITES="python sample=sample_site").
#   REUSE=1 keeps indexes already in WORK_DIR (only the queries are run again). QUERIES=N
#   (default 80) and SEED=S are passed to headings.py. The Debian packages are not installed
#   here: run bench/known_item/run.sh once, or scripts/install-deps.sh.
#   Time on 2 cores: about 5 minutes for the four default sites, nearly all of it indexing
#   (rust-doc's 32,000 files, about 80 s; cppreference 17 s) and reading every indexed page once
#   for the draw (two processes: rust's 13,000 pages 60-85 s, cppreference 30-40 s); the 627
#   searches take about 7 s a site.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
work=${1:?usage: bench/known_item/headings.sh WORK_DIR [CANON_BINARY]}
canon=${2:-${CANON:-build/cli/canon}}
[ -x "$canon" ] || { echo "no canon binary at $canon (build it with scripts/build.sh, or give its path)" >&2; exit 1; }
canon=$(cd "$(dirname "$canon")" && pwd)/$(basename "$canon")
mkdir -p "$work"
work=$(cd "$work" && pwd)

# shellcheck source=site_args.sh
. "$here/site_args.sh"
select_sites python postgres cppreference rust

times=()
for s in "${sites[@]}"; do
  name=${s%%=*}
  dir=${s#*=}
  if [ "${REUSE:-0}" = 1 ] && [ -f "$work/canon-$name/pages.jsonl" ]; then
    times+=("$name reused")
    continue
  fi
  rm -rf "$work/canon-$name"
  echo "indexing $name ..." >&2
  c=$(seconds "$work/canon-$name.log" "$canon" index "$dir" --out "$work/canon-$name" --quiet)
  times+=("$name $c")
done

args=(--queries "${QUERIES:-80}")
[ -z "${SEED:-}" ] || args+=(--seed "$SEED")
for s in "${sites[@]}"; do
  name=${s%%=*}
  dir=${s#*=}
  echo "== $name ($dir)" >&2
  python3 "$here/headings.py" "$dir" "$canon" "$work/canon-$name" "${args[@]}" \
    --out "$work/headings-$name.tsv" --summary "$work/headings-$name.json" >&2
done

python3 - "$work" "${sites[@]}" <<'EOF' | tee "$work/headings.md"
import json, os, sys
work, sites = sys.argv[1], sys.argv[2:]
print("Heading queries (bench/known_item/headings.py): a unique heading of 2+ words as the query, "
      "as typed (heading) and with one typo (typo). Top 1: share of queries whose first result is "
      "the heading's page / links the section (PAGE#ANCHOR, or its first \"sections\" entry) / "
      "either. Snippets: share of the top-10 results whose snippet holds a query word. "
      "Corrected: share of queries canon answered with a corrected query.")
print()
print("| site | set | queries | page top 1 | section top 1 | page or section top 1 | page top 10 | snippets holding a query word | corrected |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
notes = []
for s in sites:
    name = s.split("=", 1)[0]
    with open(os.path.join(work, "headings-%s.json" % name)) as f:
        r = json.load(f)
    for set_name, x in r["sets"].items():
        print("| %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |" % (
            name, set_name, x["queries"], x["page_top1"], x["section_top1"], x["either_top1"],
            x["page_top10"], x["snippets"], x["corrected"]))
    notes.append("%s: %d indexed pages, %d headings, %d of 2+ words, %d unique (%d without an "
                 "anchor), %d drawn (%s), %d without a word for a typo" % (
                     name, r["pages"], r["headings"], r["multiword"], r["candidates"],
                     r["candidates_without_anchor"], r["drawn"],
                     " ".join("%s %d" % kv for kv in r["drawn_levels"].items()), r["no_typo_word"]))
    errors = sum(x["errors"] for x in r["sets"].values())
    if errors:
        notes.append("%s: %d searches failed (counted as misses)" % (name, errors))
    if not r["has_sections"]:
        notes.append("%s: no result had a \"sections\" list" % name)
print()
for n in notes:
    print("- " + n)
EOF
{
  echo
  echo "Index seconds (canon index): $(for t in "${times[@]}"; do read -r n c <<< "$t"; printf '%s %s; ' "$n" "$c"; done | sed 's/; $//')"
  echo "canon: $canon ($(sha256sum "$canon" | cut -c1-12)); $(date -u +%Y-%m-%d)"
} | tee -a "$work/headings.md"
