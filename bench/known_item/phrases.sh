#!/usr/bin/env bash
# Is a page's body text searchable? On documentation sites, a rare five-word phrase from a page's
# paragraphs (<p>, and <dd>/<li> of at least 8 words) should find the page in the first 10
# results: as a phrase (in quotes) exactly when the text is indexed in order, as plain words when
# ranking brings it up too. canon and Omega (omindex + quest) in the same run, on the same sites and
# queries: per site 100 phrases drawn by bench/known_item/phrases.py (seeded; "rare": in the
# paragraphs of no other indexed page). Reports, per site, engine and form, the share of queries
# whose page is in the top 10 and, for plain words, the share whose page is first (top 1).
#
# Usage: bench/known_item/phrases.sh WORK_DIR [CANON_BINARY]
#   CANON_BINARY defaults to build/cli/canon (CANON=... works too). Indexes every site with
#   `canon index SITE --out WORK_DIR/canon-NAME --quiet` and with omindex (HTML only, with the
#   options of bench/known_item/run.sh) into WORK_DIR/omega-NAME, runs phrases.py per site, prints
#   the table and writes WORK_DIR/phrases.md and WORK_DIR/phrases-NAME.tsv (per query: query,
#   page, canon rank, Omega rank, first results; "-" = not in the top 10).
#   SITES="python postgres ..." selects sites (default: python postgres cppreference javadoc rust
#   libstdcxx); NAME=DIR adds any directory of HTML (SITES="python sample=sample_site").
#   REUSE=1 keeps indexes already in WORK_DIR (the same WORK_DIR as run.sh's works: only the
#   phrases are run again). QUERIES=N (default 100), SEED=S and OMEGA_OP=or (quest's own default
#   operator; default and, Omega's) are passed to phrases.py. The Debian packages are not
#   installed here: run bench/known_item/run.sh once, or scripts/install-deps.sh.
#   Time: docs/real-sites.md, "Body text" has the run's times.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
work=${1:?usage: bench/known_item/phrases.sh WORK_DIR [CANON_BINARY]}
canon=${2:-${CANON:-build/cli/canon}}
[ -x "$canon" ] || { echo "no canon binary at $canon (build it with scripts/build.sh, or give its path)" >&2; exit 1; }
canon=$(cd "$(dirname "$canon")" && pwd)/$(basename "$canon")
command -v omindex >/dev/null && command -v quest >/dev/null ||
  { echo "omindex and quest are needed (apt-get install xapian-omega xapian-tools)" >&2; exit 1; }
mkdir -p "$work"
work=$(cd "$work" && pwd)

# shellcheck source=site_args.sh
. "$here/site_args.sh"
select_sites python postgres cppreference javadoc rust libstdcxx

times=()
for s in "${sites[@]}"; do
  name=${s%%=*}
  dir=${s#*=}
  if [ "${REUSE:-0}" = 1 ] && [ -d "$work/canon-$name" ] && [ -d "$work/omega-$name" ]; then
    times+=("$name reused reused")
    continue
  fi
  rm -rf "$work/canon-$name" "$work/omega-$name"
  echo "indexing $name ..." >&2
  c=$(seconds "$work/canon-$name.log" "$canon" index "$dir" --out "$work/canon-$name" --quiet)
  # omindex as a site search would run it over saved HTML: HTML only (as bench/known_item/run.sh).
  o=$(seconds "$work/omega-$name.log" omindex --db "$work/omega-$name" --url / \
    -Mtxt:skip -Mjs:skip -Mcss:skip -Mpy:skip -Mjson:skip -Mxml:skip -Msvg:skip -Mpng:skip -Mgz:skip \
    -Mjpg:skip -Mgif:skip -Mzip:skip -Mpdf:skip -Mipynb:skip -Mrst:skip -Mmd:skip "$dir")
  times+=("$name $c $o")
done

args=(--queries "${QUERIES:-100}" --omega-op "${OMEGA_OP:-and}")
[ -z "${SEED:-}" ] || args+=(--seed "$SEED")
for s in "${sites[@]}"; do
  name=${s%%=*}
  dir=${s#*=}
  echo "== $name ($dir)" >&2
  python3 "$here/phrases.py" "$dir" "$canon" "$work/canon-$name" --omega "$work/omega-$name" \
    "${args[@]}" --out "$work/phrases-$name.tsv" --summary "$work/phrases-$name.json" >&2
done

python3 - "$work" "${OMEGA_OP:-and}" "${sites[@]}" <<'EOF' | tee "$work/phrases.md"
import json, os, sys
work, op, sites = sys.argv[1], sys.argv[2], sys.argv[3:]
print("Rare five-word phrases from a page's paragraphs (bench/known_item/phrases.py): share of "
      "queries whose page is in the top 10 / first. Omega: quest -o %s." % op)
print()
print("| site | pages drawn from | queries | phrase: canon top 10 | Omega top 10 | words: canon top 10 | Omega top 10 | canon top 1 | Omega top 1 |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for s in sites:
    name = s.split("=", 1)[0]
    with open(os.path.join(work, "phrases-%s.json" % name)) as f:
        r = json.load(f)
    sc = r["scores"]
    cp, op_, cw, ow = sc["canon phrase"], sc["omega phrase"], sc["canon words"], sc["omega words"]
    print("| %s | %d | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |" % (
        name, r["pages"], r["queries"], cp["top10"], op_["top10"], cw["top10"], ow["top10"], cw["top1"], ow["top1"]))
EOF
{
  echo
  echo "Index seconds (canon index / omindex): $(for t in "${times[@]}"; do read -r n c o <<< "$t"; printf '%s %s / %s; ' "$n" "$c" "$o"; done | sed 's/; $//')"
  echo "canon: $canon ($(sha256sum "$canon" | cut -c1-12)); $(omindex --version | head -1); $(date -u +%Y-%m-%d)"
} | tee -a "$work/phrases.md"
