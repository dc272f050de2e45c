#!/usr/bin/env bash
# Shows that a change keeps canon's output: two builds index the same sites and their records
# and search results are compared byte for byte (issue 15, point 6).
#
# Usage: scripts/same_output.sh BASE_CANON NEW_CANON WORK_DIR [SITE_DIR ...]
#   SITE_DIRs default: sample_site/ and python3.11-doc's HTML (when installed).
# For each site: pages.jsonl, graph.tsv, pairs.tsv and `canon search --json` of up to 40 queries
# (titles spread over the site) on each build's index; prints "same" or the first differences,
# and exits non-zero when anything differs. Each build's wall time, CPU time (user + system) and
# peak RSS are printed too (/usr/bin/time; one run each, base then new, site by site).
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?base canon binary}
new=${2:?new canon binary}
work=${3:?work directory}
shift 3
sites=("$@")
if [ ${#sites[@]} -eq 0 ]; then
  sites=(sample_site)
  [ -d /usr/share/doc/python3.11/html ] && sites+=(/usr/share/doc/python3.11/html)
fi
mkdir -p "$work"
[ -x /usr/bin/time ] || { apt-get update -q > /dev/null; apt-get install -y -q time > /dev/null; }
status=0
for site in "${sites[@]}"; do
  name=$(basename "$site")
  for build in base new; do
    binary=$base
    [ $build = new ] && binary=$new
    rm -rf "$work/$name-$build"
    /usr/bin/time -f "%e %U %S %M" -o "$work/$name-$build.time" "$binary" index "$site" --out "$work/$name-$build" \
      --quiet > /dev/null
    read -r wall user sys rss < "$work/$name-$build.time"
    echo "$name $build: wall $wall s, CPU $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') s, peak RSS $((rss / 1024)) MiB"
  done
  python3 - "$work/$name-base/pages.jsonl" > "$work/$name.queries" <<'PY'
import json, sys
titles = [json.loads(line).get("title", "") for line in open(sys.argv[1])]
titles = [t for t in titles if t.strip()]
for t in titles[::max(1, len(titles) // 40)][:40]:
    print(t.replace('"', " "))
PY
  for build in base new; do
    binary=$base
    [ $build = new ] && binary=$new
    while IFS= read -r query; do
      "$binary" search "$work/$name-$build" "$query" --json
    done < "$work/$name.queries" > "$work/$name-$build.search"
  done
  for file in pages.jsonl graph.tsv pairs.tsv; do
    if cmp -s "$work/$name-base/$file" "$work/$name-new/$file"; then
      echo "$name $file: same"
    else
      echo "$name $file: DIFFERS"; diff "$work/$name-base/$file" "$work/$name-new/$file" | head -5; status=1
    fi
  done
  if cmp -s "$work/$name-base.search" "$work/$name-new.search"; then
    echo "$name search ($(wc -l < "$work/$name.queries") queries): same"
  else
    echo "$name search: DIFFERS"; diff "$work/$name-base.search" "$work/$name-new.search" | head -5; status=1
  fi
done
exit $status
