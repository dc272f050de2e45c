#!/usr/bin/env bash
# Side by side: Xapian's omindex and `canon index` on the same real sites, one run.
# Reports wall time, CPU time, peak RSS, index size and documents indexed (Markdown table).
#
# Usage: [REPEATS=3] bench/index_speed/run.sh [SITE...]   (each tool runs REPEATS times; the
#   fastest run is reported)
#   default sites: the HTML of Debian's python3.11-doc and postgresql-doc-15 (installed if
#   missing). Needs a Release build in build/ (scripts/build.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
command -v omindex >/dev/null || need+=(xapian-omega)
[ -x /usr/bin/time ] || need+=(time)
[ -d /usr/share/doc/python3.11/html ] || need+=(python3.11-doc)
[ -d /usr/share/doc/postgresql-doc-15/html ] || need+=(postgresql-doc-15)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null
fi
canon=build/cli/canon
[ -x "$canon" ] || { echo "run scripts/build.sh first" >&2; exit 1; }

sites=("$@")
[ ${#sites[@]} -gt 0 ] || sites=(/usr/share/doc/python3.11/html /usr/share/doc/postgresql-doc-15/html)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# measure CMD...: runs CMD $repeats times under /usr/bin/time -v (the output directory is
# removed before each run by the caller's CMD), prints "wall cpu rss_mib" of the fastest run:
# on a shared machine the fastest run is the one least disturbed by others.
repeats=${REPEATS:-3}
measure() {
  local log="$work/time.log" best=""
  for ((run = 0; run < repeats; run++)); do
    rm -rf "$work/omega" "$work/canon"
    /usr/bin/time -v "$@" >/dev/null 2>"$log"
    local this
    this=$(awk -F': ' '
      /Elapsed \(wall clock\)/ { n = split($2, p, ":"); wall = (n == 3) ? p[1]*3600 + p[2]*60 + p[3] : p[1]*60 + p[2] }
      /User time/ { user = $2 } /System time/ { sys = $2 }
      /Maximum resident set size/ { rss = $2 / 1024 }
      END { printf "%.2f %.2f %.0f\n", wall, user + sys, rss }' "$log")
    if [[ -z "$best" ]] || awk -v a="${this%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then best=$this; fi
  done
  echo "$best"
}

echo "| site | tool | wall s | CPU s | peak RSS MiB | index MiB | documents | pages/s (wall) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for site in "${sites[@]}"; do
  name=$(basename "$(dirname "$site")")
  html_files=$(find "$site" -type f \( -name '*.html' -o -name '*.htm' \) | wc -l)

  # omindex as a site search would run it over saved HTML: HTML only (the python docs also
  # ship .txt sources, which would otherwise be indexed too), no other file types.
  rm -rf "$work/omega"
  read -r wall cpu rss < <(measure omindex --db "$work/omega" --url / -Mtxt:skip -Mjs:skip -Mcss:skip \
    -Mpy:skip -Mjson:skip -Mxml:skip -Msvg:skip -Mpng:skip -Mgz:skip "$site")
  docs=$(xapian-delve "$work/omega" 2>/dev/null | awk '/number of documents/ { print $NF }')
  size=$(du -sm "$work/omega" | cut -f1)
  echo "| $name ($html_files HTML files) | omindex | $wall | $cpu | $rss | $size | $docs | $(awk -v n="$html_files" -v w="$wall" 'BEGIN { printf "%.0f", n / w }') |"

  rm -rf "$work/canon"
  read -r wall cpu rss < <(measure "$canon" index "$site" --out "$work/canon" --quiet)
  docs=$(xapian-delve "$work/canon/xapian" 2>/dev/null | awk '/number of documents/ { print $NF }')
  size=$(du -sm "$work/canon/xapian" | cut -f1)
  echo "| $name ($html_files HTML files) | canon index | $wall | $cpu | $rss | $size | $docs | $(awk -v n="$html_files" -v w="$wall" 'BEGIN { printf "%.0f", n / w }') |"
done
