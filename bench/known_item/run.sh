#!/usr/bin/env bash
# Known-item search (issue 30; docs/known-item.md): on six documentation sites, is the page about
# a thing first when the thing's name is the query? canon and Omega in the same run, on the same
# sites and queries: 120 items per site drawn from its item pages (items/SITE.tsv, the bare name as
# the query; right: a page naming the item, judged by bench/known_item/sites.py) and 60 qualified
# queries (qualified/SITE.tsv: `vector push_back`, `os path join`; right: the listed pages).
# Reports, per site and engine, the share of queries whose first result is right (top 1) and the
# mean reciprocal rank of the first right result in the top 10 (MRR@10, 0 when none).
#
# Usage: bench/known_item/run.sh WORK_DIR [CANON_BINARY]
#   CANON_BINARY defaults to build/cli/canon (CANON=... works too). Indexes every site with
#   `canon index SITE --out WORK_DIR/canon-NAME` and with omindex (HTML only, as
#   bench/real_sites/run.sh) into WORK_DIR/omega-NAME, runs all queries with
#   `canon search ... --json --limit 10` and with quest, prints the tables and writes
#   WORK_DIR/results.md and WORK_DIR/NAME.tsv (per query: set, query, expected, canon rank,
#   Omega rank, canon's first result and its title, Omega's first result; "-" = not in the top 10).
#   SITES="javadoc python ..." (or NAME=DIR) selects sites; REUSE=1 keeps indexes already in
#   WORK_DIR (only the queries are run again); CANON_SEARCH_ARGS="--anchor-weight 2" adds
#   arguments to every `canon search`. The Debian packages are installed if missing.
#   About 7 minutes on 2 cores, nearly all of it indexing (canon's and omindex's seconds are in
#   results.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
work=${1:?usage: bench/known_item/run.sh WORK_DIR [CANON_BINARY]}
canon=${2:-${CANON:-build/cli/canon}}
[ -x "$canon" ] || { echo "no canon binary at $canon (build it with scripts/build.sh, or give its path)" >&2; exit 1; }
canon=$(cd "$(dirname "$canon")" && pwd)/$(basename "$canon")
mkdir -p "$work"
work=$(cd "$work" && pwd)

declare -A default_dir=(
  [javadoc]=/usr/share/doc/openjdk-17-jre-headless/api
  [cppreference]=/usr/share/cppreference/doc/html
  [python]=/usr/share/doc/python3.11/html
  [rust]=/usr/share/doc/rust-doc/html
  [libstdcxx]=/usr/share/doc/gcc-12-base/libstdc++
  [postgres]=/usr/share/doc/postgresql-doc-15/html)
declare -A package=(
  [javadoc]=openjdk-17-doc [cppreference]=cppreference-doc-en-html [python]=python3.11-doc
  [rust]=rust-doc [libstdcxx]=libstdc++-12-doc [postgres]=postgresql-doc-15)
sites=()
for s in ${SITES:-javadoc cppreference python rust libstdcxx postgres}; do
  name=${s%%=*}
  [ -n "${default_dir[$name]:-}" ] || { echo "unknown site $name" >&2; exit 1; }
  if [ "$s" = "$name" ]; then sites+=("$name=${default_dir[$name]}"); else sites+=("$s"); fi
done

need=()
command -v omindex >/dev/null || need+=(xapian-omega)
command -v quest >/dev/null || need+=(xapian-tools)
[ -x /usr/bin/time ] || need+=(time)
for s in "${sites[@]}"; do
  p=${package[${s%%=*}]}
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null
fi

# seconds LOG CMD...: runs CMD (output to LOG), prints its wall time in seconds.
seconds() {
  local log=$1; shift
  /usr/bin/time -f "%e" -o "$log.time" "$@" >"$log" 2>&1
  cat "$log.time"
}

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
  # omindex as a site search would run it over saved HTML: HTML only (as bench/real_sites/run.sh).
  o=$(seconds "$work/omega-$name.log" omindex --db "$work/omega-$name" --url / \
    -Mtxt:skip -Mjs:skip -Mcss:skip -Mpy:skip -Mjson:skip -Mxml:skip -Msvg:skip -Mpng:skip -Mgz:skip \
    -Mjpg:skip -Mgif:skip -Mzip:skip -Mpdf:skip -Mipynb:skip -Mrst:skip -Mmd:skip "$dir")
  times+=("$name $c $o")
done

python3 "$here/judge.py" "$work" "$canon" "${sites[@]}"
{
  echo
  echo "Index seconds (canon index / omindex): $(for t in "${times[@]}"; do read -r n c o <<< "$t"; printf '%s %s / %s; ' "$n" "$c" "$o"; done | sed 's/; $//')"
  echo "canon: $canon ($(sha256sum "$canon" | cut -c1-12)); $(omindex --version | head -1); $(date -u +%Y-%m-%d)"
} | tee -a "$work/results.md"
