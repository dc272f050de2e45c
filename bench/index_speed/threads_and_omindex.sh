#!/usr/bin/env bash
# @file threads_and_omindex.sh
# @brief canon's wall time against omindex's and its own 1 -> 2 thread speed-up, in one run
# (docs/benchmarks.md, "Threads and omindex"): per site, REPEATS rounds, each round running
# omindex, `canon index` on 2 threads and `canon index` on 1 thread one after the other (each
# round starting with the next of them, each after `sync` and with the site's files read into the
# page cache), so that the machine's noise falls on all three; medians of wall and CPU seconds,
# and each database's size per document.
#
# Usage: [REPEATS=5] bench/index_speed/threads_and_omindex.sh CANON WORK_DIR [NAME=SITE_DIR ...]
#   default sites: cppreference, rust-doc and openjdk-17's api/ (Debian's packages).
#   Needs omindex (xapian-omega) and /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/../.."
canon=$(realpath "${1:?canon binary}")
work=${2:?work directory}
shift 2
sites=("$@")
[ ${#sites[@]} -gt 0 ] || sites=(cppreference=/usr/share/cppreference/doc/html
                                 rust=/usr/share/doc/rust-doc/html
                                 javadoc=/usr/share/doc/openjdk-17-jre-headless/api)
repeats=${REPEATS:-5}
for tool in omindex xapian-delve /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "threads_and_omindex: needs $tool" >&2; exit 1; }
done
mkdir -p "$work"

# timed CMD...: runs CMD under /usr/bin/time -v; prints "wall_s cpu_s".
timed() {
  /usr/bin/time -v "$@" >/dev/null 2>"$work/time.log" || { cat "$work/time.log" >&2; exit 1; }
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); wall = (n == 3) ? p[1]*3600 + p[2]*60 + p[3] : p[1]*60 + p[2] }
    /User time/ { user = $2 } /System time/ { sys = $2 }
    END { printf "%.2f %.2f\n", wall, user + sys }' "$work/time.log"
}
# median: the median of the numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# size DB: "MB documents bytes_a_document" of the database on disk.
size() {
  local docs
  docs=$(xapian-delve "$1" 2>/dev/null | awk '/number of documents/ { print $NF }')
  awk -v b="$(du -sb "$1" | cut -f1)" -v d="$docs" 'BEGIN { printf "%.1f %d %.0f\n", b / 1e6, d, b / d }'
}

echo "canon $("$canon" --version 2>/dev/null | head -1), $repeats rounds a site, each round omindex, canon -j2 and canon -j1, starting with the next"
echo
echo "| site | omindex wall s | canon wall s | canon ÷ omindex (wall) | omindex CPU s | canon CPU s | canon 1 thread wall s | 1 → 2 threads | omindex's database MB (documents) | canon's database MB (documents) | bytes a document, omindex / canon |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|"
for entry in "${sites[@]}"; do
  name=${entry%%=*} dir=${entry#*=}
  : >"$work/$name.runs"
  for ((round = 0; round < repeats; round++)); do
    rm -rf "$work/omega" "$work/canon2" "$work/canon1"
    # Each round starts with the next of the three, so that none always follows the same one
    # (the writes of the one before are still being flushed).
    for ((k = 0; k < 3; k++)); do
      # Every run starts with the site's files in the page cache: omindex leaves the files it read
      # out of it (`fincore` shows none of them resident after an omindex run), so whichever run
      # came after omindex read the site from the disk (rust-doc: 2.2-2.5 s of I/O wait against
      # 0.2 s) and the order of the runs, not the tools, decided a part of the ratios.
      find "$dir" -type f -print0 | xargs -0 cat >/dev/null
      case $(((round + k) % 3)) in
        # omindex as a site search would run it over saved HTML: HTML only (as bench/real_sites).
        0) read -r o_wall o_cpu < <(timed omindex --db "$work/omega" --url / \
             -Mtxt:skip -Mjs:skip -Mcss:skip -Mpy:skip -Mjson:skip -Mxml:skip -Msvg:skip -Mpng:skip -Mgz:skip \
             -Mjpg:skip -Mgif:skip -Mzip:skip -Mpdf:skip -Mipynb:skip -Mrst:skip -Mmd:skip "$dir") ;;
        1) read -r c2_wall c2_cpu < <(timed "$canon" index "$dir" --out "$work/canon2" --threads 2 --quiet) ;;
        2) read -r c1_wall c1_cpu < <(timed "$canon" index "$dir" --out "$work/canon1" --threads 1 --quiet) ;;
      esac
      # What a run left for the kernel to write is written before the next run starts.
      sync
    done
    echo "$o_wall $o_cpu $c2_wall $c2_cpu $c1_wall $c1_cpu" >>"$work/$name.runs"
  done
  col() { awk -v c="$1" '{ print $c }' "$work/$name.runs" | median; }
  o_wall=$(col 1) o_cpu=$(col 2) c2_wall=$(col 3) c2_cpu=$(col 4) c1_wall=$(col 5)
  read -r o_mb o_docs o_bpd < <(size "$work/omega")
  read -r c_mb c_docs c_bpd < <(size "$work/canon2/xapian")
  awk -v n="$name" -v ow="$o_wall" -v oc="$o_cpu" -v cw="$c2_wall" -v cc="$c2_cpu" -v c1="$c1_wall" \
    -v om="$o_mb" -v od="$o_docs" -v ob="$o_bpd" -v cm="$c_mb" -v cd="$c_docs" -v cb="$c_bpd" \
    'BEGIN { printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s (%s) | %s (%s) | %s / %s |\n", n, ow, cw, cw / ow, oc, cc, c1, c1 / cw, om, od, cm, cd, ob, cb }'
done
echo
echo "Each round's figures (omindex wall, CPU; canon -j2 wall, CPU; canon -j1 wall, CPU): $work/NAME.runs"
