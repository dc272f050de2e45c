#!/usr/bin/env bash
# Qualified member queries: a type's name and one of its members as the query ("Option map",
# "Vec push", "String valueOf", "vector push_back", "os makedirs", "str split") should land on the
# member's place: the first result is the member's page and, when the member is documented
# inside a longer page, links its section. Per list 60 queries written down in
# bench/known_item/members/LIST.tsv (drawn once from the site's HTML by
# `bench/known_item/members.py LIST --draw SITE_DIR`, seeded; the rules are in members.py). A
# site's list has its name; rust has two, both run on the one rust index: rust (row "rust"), the
# types' own methods (their inherent impls' methods, a trait's own required and provided
# methods), where the type's page at the method's anchor is right, and rust-trait-impls (row
# "rust (trait impls)"), the methods a type has from a trait impl ("Take min", "HashMap eq",
# "Stderr as_fd"), which the trait's page documents: the type's page at the method's anchor and
# the trait's page at its anchor of the method are both right.
# Reports, per list, the share of queries whose first result lands on the member (member top 1:
# the page, and the result's URL fragment or its first "sections" entry is the member's anchor),
# is the member's page (page top 1), and has the member among its first 3 "sections" entries
# (or lands on it).
#
# Usage: bench/known_item/members.sh WORK_DIR [CANON_BINARY]
#   CANON_BINARY defaults to build/cli/canon (CANON=... works too). Indexes every site with
#   `canon index SITE --out WORK_DIR/canon-NAME --quiet`, runs members.py per list, prints the
#   table and writes WORK_DIR/members.md, WORK_DIR/members-LIST.json and WORK_DIR/members-LIST.tsv
#   (per query: list, query, target, first result's URL, its first "sections" entry's URL or "-",
#   member top 1, page top 1, member in sections).
#   SITES="python rust ..." selects sites (default: python rust javadoc cppreference, the sites
#   with a query list; rust runs both rust lists); NAME=DIR runs NAME's lists against another
#   directory of the same site (SITES="python=/path/to/python-docs"). REUSE=1 keeps indexes
#   already in WORK_DIR (the same WORK_DIR as headings.sh's or phrases.sh's works: only the
#   queries are run again). The Debian packages are not installed here: run
#   bench/known_item/run.sh once, or scripts/install-deps.sh.
#   Time on 2 cores (shared with other work, load average 8-9): about 4.5 minutes for the four
#   sites, nearly all of it indexing (python 15 s, rust-doc's 32,000 files 102 s, javadoc 85 s,
#   cppreference 31 s); the 61 searches take about 4 s a list (SITES=rust REUSE=1: 14 s). The
#   lists are not drawn again here (members.py --draw takes 2-9 s a list).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
work=${1:?usage: bench/known_item/members.sh WORK_DIR [CANON_BINARY]}
canon=${2:-${CANON:-build/cli/canon}}
[ -x "$canon" ] || { echo "no canon binary at $canon (build it with scripts/build.sh, or give its path)" >&2; exit 1; }
canon=$(cd "$(dirname "$canon")" && pwd)/$(basename "$canon")
mkdir -p "$work"
work=$(cd "$work" && pwd)

# shellcheck source=site_args.sh
. "$here/site_args.sh"
select_sites python rust javadoc cppreference
# the query lists of a site: rust has two (its types' own methods, and those of their trait impls)
site_lists() { if [ "$1" = rust ]; then echo rust rust-trait-impls; else echo "$1"; fi; }
lists=()
for s in "${sites[@]}"; do
  name=${s%%=*}
  for l in $(site_lists "$name"); do
    [ -f "$here/members/$l.tsv" ] ||
      { echo "$name: no query list bench/known_item/members/$l.tsv (members.py knows python rust javadoc cppreference)" >&2; exit 1; }
    lists+=("$l")
  done
done

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

for s in "${sites[@]}"; do
  name=${s%%=*}
  dir=${s#*=}
  for l in $(site_lists "$name"); do
    echo "== $l ($dir)" >&2
    python3 "$here/members.py" "$l" "$canon" "$work/canon-$name" \
      --out "$work/members-$l.tsv" --summary "$work/members-$l.json" >&2
  done
done

python3 - "$work" "${lists[@]}" <<'EOF' | tee "$work/members.md"
import json, os, sys
work, lists = sys.argv[1], sys.argv[2:]
label = {"rust-trait-impls": "rust (trait impls)"}
print("Qualified member queries (bench/known_item/members.py): a type's name and one of its "
      "members (\"Vec push\", \"String valueOf\", \"vector push_back\", \"os makedirs\"), 60 per "
      "site from bench/known_item/members/SITE.tsv. Member top 1: the first result is the "
      "member's page and its URL fragment or first \"sections\" entry is the member's anchor (a "
      "member that is a page of its own: the page). Page top 1: the first result is the member's "
      "page. Member in sections: member top 1, or the member is among the first result's "
      "\"sections\" (up to 3). Rust has two lists: rust, a type's own methods (its inherent "
      "impls; a trait's own required and provided methods), and rust (trait impls), the methods "
      "a type has from a trait impl (\"Take min\", \"HashMap eq\"), where the trait's page at "
      "the method's anchor is right too.")
print()
print("| site | queries | member top 1 | page top 1 | member in first result's sections |")
print("|---|---:|---:|---:|---:|")
notes = []
for l in lists:
    name = label.get(l, l)
    with open(os.path.join(work, "members-%s.json" % l)) as f:
        r = json.load(f)
    print("| %s | %d | %.3f | %.3f | %.3f |" % (
        name, r["queries"], r["member_top1"], r["page_top1"], r["member_in_sections"]))
    if r["missing_targets"]:
        notes.append("%s: %d queries with no target page indexed (counted as misses)" % (name, r["missing_targets"]))
    if r["errors"]:
        notes.append("%s: %d searches failed (counted as misses)" % (name, r["errors"]))
    if not r["has_sections"]:
        notes.append("%s: no first result had a \"sections\" list" % name)
if notes:
    print()
    for n in notes:
        print("- " + n)
EOF
{
  echo
  echo "Index seconds (canon index): $(for t in "${times[@]}"; do read -r n c <<< "$t"; printf '%s %s; ' "$n" "$c"; done | sed 's/; $//')"
  echo "canon: $canon ($(sha256sum "$canon" | cut -c1-12)); $(date -u +%Y-%m-%d)"
} | tee -a "$work/members.md"
