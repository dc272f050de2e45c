#!/usr/bin/env bash
# After a change to the site: `canon index` re-indexes (re-using its page store) and
# `canon export pagefind` writes the whole bundle again (Pagefind has no update in place). Times
# the first build and the build after one page changed, side by side (docs/pagefind.md,
# "After a change").
#
# Usage: bench/pagefind/reexport.sh SITE_DIR WORK_DIR [CANON_BINARY]
#   The site is copied into WORK_DIR/site; the change appends a paragraph to its first page.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
site=${1:?usage: bench/pagefind/reexport.sh SITE_DIR WORK_DIR [CANON_BINARY]}
work=${2:?usage: bench/pagefind/reexport.sh SITE_DIR WORK_DIR [CANON_BINARY]}
canon=${3:-${CANON:-$here/../../build/cli/canon}}
package=${CANON_PAGEFIND:-$here/../../pagefind/node_modules/pagefind}
rm -rf "$work" && mkdir -p "$work"
cp -rL "$site" "$work/site"
source "$here/seconds.sh"
build() {
  local index export
  index=$(seconds "$canon" index "$work/site" --out "$work/index" -q)
  export=$(seconds "$canon" export pagefind "$work/index" --out "$work/bundle" --pagefind "$package" -q)
  echo "| $1 | $index | $export |"
}
echo "| build | canon index s | canon export pagefind s |"
echo "|---|---:|---:|"
build "first"
page=$(find "$work/site" -name '*.html' | sort | head -1)
sed -i 's|</body>|<p>A paragraph added after the first build: quetzalcoatlus.</p></body>|' "$page"
build "after one page changed"
