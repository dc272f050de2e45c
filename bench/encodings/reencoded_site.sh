#!/usr/bin/env bash
# Issue 32: a site re-encoded keeps its index. Each site is copied with every UTF-8 page
# re-encoded to windows-1252 (characters windows-1252 lacks as &#NNNN; references, the <meta>
# charset declaration saying windows-1252; bench/encodings/reencode.py copy), both copies are
# indexed with `canon index`, and the two indexes compared: per path the status, cluster (as
# sets of paths), authoritative page, title and heading, the links, the encoding recorded for
# each re-encoded page (windows-1252, from the <meta>), and the results of 40 queries (titles
# spread over the site and words with non-ASCII letters: URLs in order, then titles, snippets
# and alternates). Prints a report per site with the wall time and peak RSS of the index runs
# (each copy indexed RUNS times, alternately; the medians); exits non-zero when anything differs.
#
# Usage: bench/encodings/reencoded_site.sh [WORK_DIR] [NAME=SITE_DIR ...]
#   default sites: python3.11-doc and postgresql-doc-15 (installed if missing).
#   CANON=build/cli/canon (default) the binary; QUERIES=40; RUNS=3 index runs of each copy;
#   PYTHON=/usr/bin/python3 (standard library only). SYNTH=RATIO also compares, for each site,
#   its `canon synth` copy with near-duplicates (--segment-ratio RATIO, seed 1), so that there
#   are clusters to keep. The copies and indexes are removed once compared, KEEP=1 keeps them in
#   WORK_DIR (default /tmp/canon-reencoded).
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${1:-/tmp/canon-reencoded}
shift || true
sites=("$@")
if [ ${#sites[@]} -eq 0 ]; then
  sites=(python=/usr/share/doc/python3.11/html postgres=/usr/share/doc/postgresql-doc-15/html)
  need=()
  for p in python3.11-doc postgresql-doc-15; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
  done
  if [ ${#need[@]} -gt 0 ]; then
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null
  fi
fi
canon=$(realpath "${CANON:-build/cli/canon}")
[ -x "$canon" ] || { echo "no canon binary at $canon: run scripts/build.sh first" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
python=${PYTHON:-/usr/bin/python3}
reencode=bench/encodings/reencode.py
mkdir -p "$work"

# index SITE OUT: a full `canon index SITE --out OUT`; appends "wall_s rss_kib" to OUT.times.
index() {
  rm -rf "$2"
  /usr/bin/time -f "%e %M" -a -o "$2.times" "$canon" index "$1" --out "$2" --quiet > /dev/null
}

# compare NAME SITE: re-encodes SITE, indexes both copies, prints the report; fails when they
# differ (or a step fails: called as `compare ... ||`, errexit is off inside).
compare() {
  local name=$1 site=$2 run status=0
  echo "$name ($site):"
  "$python" "$reencode" copy "$site" "$work/$name-site-1252" "$work/$name.reencoded" || return 1
  rm -f "$work/$name-orig.times" "$work/$name-1252.times"
  for run in $(seq "${RUNS:-3}"); do
    index "$site" "$work/$name-orig" || return 1
    index "$work/$name-site-1252" "$work/$name-1252" || return 1
  done
  "$python" "$reencode" queries "$work/$name-orig" "$site" "$work/$name.queries" "${QUERIES:-40}" || return 1
  "$python" "$reencode" compare "$canon" "$work/$name-orig" "$work/$name-1252" "$work/$name.reencoded" \
    "$work/$name.queries" "$work/$name-orig.times" "$work/$name-1252.times" || status=1
  [ -n "${KEEP:-}" ] || rm -rf "$work/$name-site-1252" "$work/$name-orig" "$work/$name-1252"
  return $status
}

failures=0
for entry in "${sites[@]}"; do
  name=${entry%%=*}
  site=${entry#*=}
  compare "$name" "$site" || failures=$((failures + 1))
  if [ -n "${SYNTH:-}" ]; then
    rm -rf "$work/$name-synth"
    "$canon" synth "$site" "$work/$name-synth" --segment-ratio "$SYNTH" --seed 1 > /dev/null
    compare "$name-synth" "$work/$name-synth" || failures=$((failures + 1))
    [ -n "${KEEP:-}" ] || rm -rf "$work/$name-synth"
  fi
done
exit $((failures > 0))
