#!/usr/bin/env bash
# canon's Pagefind bundle against plain Pagefind, side by side in one run (docs/pagefind.md,
# "Against plain Pagefind"): per site, `canon index` + `canon export pagefind` and Pagefind's
# own CLI (the same npm package) on the same files, then bench/pagefind/compare.py asks both
# bundles the same queries in headless Chromium.
#
# Usage: bench/pagefind/run.sh WORK_DIR [CANON_BINARY]
#   SITES="sample python rust numba" (default) or NAME=DIR entries; numba needs NUMBA_DIR (the
#   numba-doc releases side by side, e.g. `git archive` of numba/numba-doc). REUSE=1 keeps the
#   bundles already in WORK_DIR and only asks the queries again.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
work=${1:?usage: bench/pagefind/run.sh WORK_DIR [CANON_BINARY]}
canon=${2:-${CANON:-build/cli/canon}}
canon=$(cd "$(dirname "$canon")" && pwd)/$(basename "$canon")
package=${CANON_PAGEFIND:-$PWD/pagefind/node_modules/pagefind}
mkdir -p "$work"
work=$(cd "$work" && pwd)
declare -A default_dir=([sample]=$PWD/sample_site [python]=/usr/share/doc/python3.11/html
                        [rust]=/usr/share/doc/rust-doc/html [numba]=${NUMBA_DIR:-/work/numba})
source "$here/seconds.sh"
echo "| site | bundle | copies among the top 10 of heading queries | known items top 1 | build s | bundle MiB | first query KiB |"
echo "|---|---|---:|---:|---:|---:|---:|"
for entry in ${SITES:-sample python rust numba}; do
  name=${entry%%=*}
  dir=${entry#*=}
  [ "$dir" = "$entry" ] && dir=${default_dir[$name]}
  out=$work/$name
  if [ "${REUSE:-0}" != 1 ] || [ ! -f "$out/times.json" ]; then
    rm -rf "$out" && mkdir -p "$out"
    index_s=$(seconds "$canon" index "$dir" --out "$out/index" -q)
    export_s=$(seconds "$canon" export pagefind "$out/index" --out "$out/canon" --pagefind "$package" -q)
    plain_s=$(seconds node "$package/lib/runner/bin.cjs" --site "$dir" --output-path "$out/plain")
    python3 -c "import json; json.dump({'canon': $index_s + $export_s, 'plain': $plain_s, 'index': $index_s, 'export': $export_s}, open('$out/times.json', 'w'))"
  fi
  python3 "$here/compare.py" "$work" "$name" "$dir" "$name"
done
