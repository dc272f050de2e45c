#!/usr/bin/env bash
# Findability before and after (issue 14, point 6): `canon eval findability` on the indexes that
# bench/real_sites/run.sh wrote (WORK_DIR/canon-NAME), and on indexes of the same sites built by
# an older canon binary (BASE). Older builds recorded another heading (or none) in pages.jsonl;
# the current index's are copied in (same paths), so both are searched with the same queries.
# The old indexes are searched without title matches (--title-weight 0), as canon searched then.
# "Not told apart": pages whose title and heading words are in those of more than 3 indexed pages.
#
# Usage: bench/real_sites/findability.sh WORK_DIR [BASE_CANON [NAME=SITE_DIR ...]]
#   Without BASE_CANON, only the current indexes. Prints one Markdown row per site.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${1:?work directory of run.sh}
base=${2:-}
shift 2 || shift $#
sites=("$@")
if [ ${#sites[@]} -eq 0 ]; then
  sites=(cppreference=/usr/share/cppreference/doc/html javadoc=/usr/share/doc/openjdk-17-jre-headless/api
         libstdcxx=/usr/share/doc/gcc-12-base/libstdc++ python=/usr/share/doc/python3.11/html
         postgres=/usr/share/doc/postgresql-doc-15/html)
  [ -n "${NUMBA:-}" ] && sites+=(numba="$NUMBA")
fi
canon=build/cli/canon
rates() {  # INDEX: "unique | shared, told apart | shared, naming more than 3 pages | duplicates", found/pages (rate)
  "$canon" eval findability "$@" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
f = lambda c: "%d/%d (%.3f)" % (c["found"], c["pages"], c["rate"])
print(" | ".join(f(d[k]) for k in ("unique_title", "shared_title", "shared_title_ambiguous", "duplicates")))'
}
echo "| site | before: unique titles | before: shared titles + heading | before: not told apart | before: duplicates | after: unique titles | after: shared titles + heading | after: not told apart | after: duplicates |"
echo "|---|---|---|---|---|---|---|---|---|"
for site in "${sites[@]}"; do
  name=${site%%=*}
  before="- | - | - | -"
  if [ -n "$base" ]; then
    rm -rf "$work/base-$name"
    "$base" index "${site#*=}" --out "$work/base-$name" --quiet > /dev/null
    python3 - "$work/base-$name/pages.jsonl" "$work/canon-$name/pages.jsonl" <<'PY'
import json, sys
old, new = sys.argv[1:]
heading = {}
for line in open(new):
    r = json.loads(line)
    heading[r["path"]] = r.get("heading", "")
rows = [json.loads(line) for line in open(old)]
with open(old, "w") as out:
    for r in rows:
        r["heading"] = heading.get(r["path"], "")  # the same main heading as the current index
        out.write(json.dumps(r) + "\n")
PY
    before=$(rates "$work/base-$name" --title-weight 0)  # searched as that canon searched: no title matches
  fi
  echo "| $name | $before | $(rates "$work/canon-$name") |"
done
