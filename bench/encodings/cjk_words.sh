#!/usr/bin/env bash
# Chinese and Japanese words inside longer runs of characters (issue 32, point 6): how many pages
# `canon search` finds for each of a few words of a Japanese site, and the Xapian database's size,
# with one canon binary or two side by side (an older build without the n-gram mode as BASE).
#
# Usage: bench/encodings/cjk_words.sh WORK_DIR [BASE_CANON]
#   SITE (default /usr/share/gimp/2.0/help/ja, Debian's gimp-help-ja, installed if missing),
#   CANON (default build/cli/canon), WORDS (default: layer, brush, selection, filter, image).
# Prints a Markdown table: per word, the pages found by each build and the pages whose HTML holds
# the word (navigation included); then each database's size.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${1:?work directory}
base=${2:-}
canon=${CANON:-$PWD/build/cli/canon}
site=${SITE:-/usr/share/gimp/2.0/help/ja}
words=${WORDS:-"レイヤー ブラシ 選択範囲 フィルター 画像"}
if [ ! -d "$site" ] && [ "$site" = /usr/share/gimp/2.0/help/ja ]; then
  apt-get install -y -q --no-install-recommends gimp-help-ja > /dev/null
fi
mkdir -p "$work"
builds=(new)
[ -n "$base" ] && builds=(base new)
for b in "${builds[@]}"; do
  binary=$canon
  [ "$b" = base ] && binary=$base
  rm -rf "$work/$b"
  "$binary" index "$site" --out "$work/$b" --quiet > /dev/null
done
count() {  # BINARY INDEX WORD: pages found
  "$1" search "$2" "$3" --json -n 10000 | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["results"]))'
}
header="| word |"
[ -n "$base" ] && header+=" pages found, base |"
echo "$header pages found | pages whose HTML holds it |"
echo "|---|$([ -n "$base" ] && echo -n '---:|')---:|---:|"
for w in $words; do
  row="| $w |"
  [ -n "$base" ] && row+=" $(count "$base" "$work/base" "$w") |"
  holding=$(grep -rl --include='*.html' "$w" "$site" | wc -l)
  echo "$row $(count "$canon" "$work/new" "$w") | $holding |"
done
for b in "${builds[@]}"; do
  echo "database ($b): $(du -sk "$work/$b/xapian" | cut -f1) KiB"
done
