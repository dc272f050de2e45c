#!/usr/bin/env bash
# Two builds of canon side by side on the same sites, one run: `canon index` with each, taken
# in turn REPEATS times, the fastest run of each reported (on a shared machine the fastest run
# is the least disturbed). Prints a Markdown row per site and build: wall and CPU seconds, peak
# RSS, the stage seconds of summary.json (parse, dedup, authority, xapian) and the size of
# xapian/.
#
# Usage: [REPEATS=3] bench/index_speed/compare_builds.sh BASE_CANON NEW_CANON SITE...
#   Used for issue 17's "full build before and after each document is written once".
set -euo pipefail
base=$(realpath "${1:?base canon binary}")
new=$(realpath "${2:?new canon binary}")
shift 2
[ $# -gt 0 ] || { echo "give at least one SITE directory" >&2; exit 1; }
repeats=${REPEATS:-3}
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "| site | build | wall s | CPU s | peak RSS MiB | parse s | dedup s | authority s | xapian s | xapian/ MiB |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for site in "$@"; do
  declare -A best=()
  for ((r = 0; r < repeats; r++)); do
    for build in base new; do
      binary=$base
      [ $build = new ] && binary=$new
      out="$work/index-$build"
      rm -rf "$out"
      /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$binary" index "$site" --out "$out" --quiet > /dev/null
      read -r wall user sys rss < "$work/time"
      stages=$(python3 -c "
import json,sys
s=json.load(open('$out/summary.json'))['seconds']
print(' | '.join('%.2f' % s.get(k, 0) for k in ('parse','dedup','authority','xapian')))")
      size=$(du -sm "$out/xapian" | cut -f1)
      row=$(printf '%.2f | %.2f | %d | %s | %s' "$wall" "$(awk "BEGIN{print $user + $sys}")" $((rss / 1024)) "$stages" "$size")
      previous=${best[$build]:-}
      if [ -z "$previous" ] || awk "BEGIN{exit !($wall < ${previous%% *})}"; then best[$build]="$wall $row"; fi
    done
  done
  for build in base new; do
    echo "| $(basename "$site") | $build | ${best[$build]#* } |"
  done
  unset best
done
