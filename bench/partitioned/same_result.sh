#!/usr/bin/env bash
# Issue 29, point 2: a partitioned build gives the one-process index on real sites. For each site
# and each P: `mpirun -np P canon index` (P = 1 too: the same code, one process under mpirun),
# compared with the one-process `canon index`: pages.jsonl, graph.tsv and pairs.tsv byte for
# byte, and the search results (URLs, order, titles, snippets, alternates; weights left out, see
# tests/mpi_index.sh) of 40 queries, titles spread over the site. Prints one line per site and P,
# and the wall time of each build; exits non-zero when anything differs.
#
# Usage: bench/partitioned/same_result.sh WORK_DIR [NAME=SITE_DIR ...]
#   default sites: sample_site, python3.11-doc, cppreference, and numba-doc when NUMBA is set.
#   PROCESSES="1 2 3 4" (default) the values of P; MERGE=1 adds a --merge build per P. Each
#   partitioned index is removed once compared (a 100k-page index takes ~2 GB), KEEP=1 keeps it.
#   CANON=BINARY builds with another canon than build/cli/canon (a copy, while build/ changes).
set -uo pipefail
cd "$(dirname "$0")/../.."
work=${1:?work directory}
shift
sites=("$@")
if [ ${#sites[@]} -eq 0 ]; then
  sites=(sample=sample_site python=/usr/share/doc/python3.11/html cppreference=/usr/share/cppreference/doc/html)
  [ -n "${NUMBA:-}" ] && sites+=(numba="$NUMBA")
fi
canon=${CANON:-$PWD/build/cli/canon}
mpi() { mpirun --oversubscribe --allow-run-as-root "$@"; }
seen() {
  python3 -c '
import json, sys
r = json.load(sys.stdin)
keep = ("rank", "url", "title", "matched_url", "alternates", "place", "snippet", "pagerank")
print(json.dumps([{k: hit[k] for k in keep} for hit in r["results"]]))'
}
mkdir -p "$work"
failures=0
for entry in "${sites[@]}"; do
  name=${entry%%=*}
  site=${entry#*=}
  start=$(date +%s%N)
  "$canon" index "$site" --out "$work/$name-one" --quiet --full > /dev/null || { echo "$name: one process failed"; failures=$((failures + 1)); continue; }
  echo "$name: one process $(( ($(date +%s%N) - start) / 1000000 )) ms"
  python3 - "$work/$name-one/pages.jsonl" > "$work/$name.queries" <<'PY'
import json, sys
titles = [t for t in (json.loads(line).get("title", "") for line in open(sys.argv[1])) if t.strip()]
for t in titles[::max(1, len(titles) // 40)][:40]:
    print(t.replace('"', " "))
PY
  for p in ${PROCESSES:-1 2 3 4}; do
    for merge in "" ${MERGE:+--merge}; do
      out="$work/$name-p$p${merge:+-merged}"
      start=$(date +%s%N)
      mpi -np "$p" "$canon" index "$site" --out "$out" --quiet --full $merge > /dev/null || { echo "$name P=$p $merge: failed"; failures=$((failures + 1)); continue; }
      wall=$(( ($(date +%s%N) - start) / 1000000 ))
      differs=()
      for file in pages.jsonl graph.tsv pairs.tsv; do cmp -s "$work/$name-one/$file" "$out/$file" || differs+=("$file"); done
      searches=0
      while IFS= read -r query; do
        [ "$("$canon" search "$work/$name-one" "$query" --json --limit 20 | seen)" == \
          "$("$canon" search "$out" "$query" --json --limit 20 | seen)" ] || searches=$((searches + 1))
      done < "$work/$name.queries"
      [ "$searches" -eq 0 ] || differs+=("$searches of $(wc -l < "$work/$name.queries") searches")
      if [ ${#differs[@]} -eq 0 ]; then
        echo "$name P=$p $merge: same ($wall ms)"
      else
        echo "$name P=$p $merge: DIFFERENT: ${differs[*]} ($wall ms)"
        failures=$((failures + 1))
      fi
      [ -n "${KEEP:-}" ] || rm -rf "$out"
    done
  done
done
exit $((failures > 0))
