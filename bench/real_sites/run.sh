#!/usr/bin/env bash
# Real documentation sites, one run: `canon index` and omindex side by side on each site (wall
# time, peak RSS), canon's duplicates, clusters, largest cluster and dedup seconds, the share of
# clusters of releases whose authoritative page is the newest release, recall and body overlap across
# releases (releases.py), and a random sample of
# duplicate -> indexed pairs per site to judge by reading (docs/real-sites.md).
#
# Usage: bench/real_sites/run.sh [WORK_DIR] [NAME=SITE_DIR ...]
#   default sites: cppreference, openjdk-17 api/, libstdc++-12, python3.11, postgresql-15, rust-doc
#   (the Debian packages, installed if missing) and numba (numba/numba-doc's gh-pages branch, all
#   releases side by side: give its directory as NUMBA=DIR, e.g. extracted with
#   `git archive gh-pages | tar -x -C DIR` from a clone).
#   SAMPLE=60 pairs per site; SEED=1. Needs a Release build in build/ (scripts/build.sh).
#   Writes WORK_DIR/results.md (the table) and WORK_DIR/samples/NAME.tsv (pairs to judge).
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${1:-/tmp/canon-real-sites}
shift || true
sites=("$@")
if [ ${#sites[@]} -eq 0 ]; then
  sites=(cppreference=/usr/share/cppreference/doc/html
         javadoc=/usr/share/doc/openjdk-17-jre-headless/api
         libstdcxx=/usr/share/doc/gcc-12-base/libstdc++
         python=/usr/share/doc/python3.11/html
         postgres=/usr/share/doc/postgresql-doc-15/html
         rust=/usr/share/doc/rust-doc/html)
  [ -n "${NUMBA:-}" ] && sites+=(numba="$NUMBA")
fi
need=()
command -v omindex >/dev/null || need+=(xapian-omega)
[ -x /usr/bin/time ] || need+=(time)
for p in cppreference-doc-en-html openjdk-17-doc libstdc++-12-doc python3.11-doc postgresql-doc-15 rust-doc; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null
fi
canon=build/cli/canon
[ -x "$canon" ] || { echo "run scripts/build.sh first" >&2; exit 1; }
mkdir -p "$work/samples"

# timed LOG CMD...: runs CMD under /usr/bin/time -v; prints "wall_s rss_mib".
timed() {
  local log=$1; shift
  /usr/bin/time -v "$@" >/dev/null 2>"$log"
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); wall = (n == 3) ? p[1]*3600 + p[2]*60 + p[3] : p[1]*60 + p[2] }
    /Maximum resident set size/ { rss = $2 / 1024 }
    END { printf "%.2f %.0f\n", wall, rss }' "$log"
}

rows=()
for site in "${sites[@]}"; do
  name=${site%%=*}
  dir=${site#*=}
  rm -rf "$work/omega-$name" "$work/canon-$name"
  # omindex as a site search would run it over saved HTML: HTML only.
  read -r o_wall o_rss < <(timed "$work/omega-$name.time" omindex --db "$work/omega-$name" --url / \
    -Mtxt:skip -Mjs:skip -Mcss:skip -Mpy:skip -Mjson:skip -Mxml:skip -Msvg:skip -Mpng:skip -Mgz:skip \
    -Mjpg:skip -Mgif:skip -Mzip:skip -Mpdf:skip -Mipynb:skip -Mrst:skip -Mmd:skip "$dir")
  read -r c_wall c_rss < <(timed "$work/canon-$name.time" "$canon" index "$dir" --out "$work/canon-$name" --quiet)
  rows+=("$name $o_wall $o_rss $c_wall $c_rss")
done

{
  echo "| site | pages | duplicates | clusters | largest | dedup s | canon wall s | omindex wall s | wall ratio | canon RSS MiB | omindex RSS MiB | RSS ratio | release clusters: newest indexed | same-document pairs in one cluster |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for row in "${rows[@]}"; do
    read -r name o_wall o_rss c_wall c_rss <<< "$row"
    python3 bench/real_sites/analyse.py "$work/canon-$name" "$name" "$work/samples/$name.tsv" \
      "$c_wall" "$o_wall" "$c_rss" "$o_rss" "${SAMPLE:-60}" "${SEED:-1}"
  done
} | tee "$work/results.md"
echo "releases side by side (bench/real_sites/releases.py):" | tee -a "$work/results.md"
for site in "${sites[@]}"; do
  name=${site%%=*}
  echo "- $name: $(python3 bench/real_sites/releases.py "$work/canon-$name" "${site#*=}")" | tee -a "$work/results.md"
done
echo "largest clusters:" >&2
for row in "${rows[@]}"; do
  read -r name _ <<< "$row"
  python3 bench/real_sites/analyse.py --largest "$work/canon-$name" "$name" >&2
done
