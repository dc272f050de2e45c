#!/usr/bin/env bash
# @file run_pagefind_test.sh
# @brief ctest's browser_pagefind: `canon export pagefind`'s bundle and search box on a static
# site. Writes a small site (a guide with sections and two copies of it, a page titled with a
# script, pages in two sections of the site), indexes it with `canon index`, exports the bundle
# into the site's pagefind/ with Pagefind's own package, serves the site on loopback with
# static_server.py (a plain static file server that answers the bundle's filters late), and
# pagefind_test.py drives headless Chromium over WebDriver. The server is killed at the end,
# whatever fails.
#
# Usage: run_pagefind_test.sh CANON_BINARY
# Environment: CANON_SCREENSHOT_DIR=DIR keeps DIR/pagefind-box.png (the box with results).
set -euo pipefail

canon="${1:?usage: $0 CANON_BINARY}"
here="$(cd "$(dirname "$0")" && pwd)"

skip() {
  echo "pagefind test: $*" >&2
  [ "${CANON_REQUIRE_TOOLS:-0}" = 1 ] && exit 1
  exit 77  # ctest: skipped
}
for tool in chromium chromedriver python3 node; do
  command -v "$tool" >/dev/null || skip "$tool not found (scripts/install-deps.sh installs the Debian packages" \
    "chromium, chromium-driver, python3 and nodejs)"
done
package="${CANON_PAGEFIND:-$here/../../pagefind/node_modules/pagefind}"
[ -f "$package/lib/index.js" ] || skip "no pagefind package at $package (scripts/install-deps.sh runs npm ci in pagefind/)"

work="$(mktemp -d "${TMPDIR:-/tmp}/canon-pagefind.XXXXXX")"
static_pid=""
cleanup() {
  if [ -n "$static_pid" ]; then
    kill -KILL "$static_pid" 2>/dev/null || true
    wait "$static_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the site ---------------------------------------------------------------------------------
site="$work/site"
mkdir -p "$site/docs" "$site/print" "$site/mirror/docs" "$site/kitchen"
guide="$(cat "$here/larder_guide.html")"  # a guide with two sections
page() {  # page FILE TITLE BODY [HEAD]
  printf '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%s</title>%s</head><body><main>\n%s\n</main></body></html>\n' \
    "$2" "${4:-}" "$3" > "$site/$1"
}
page index.html "Larder" '<p>Larder keeps a pantry inventory.</p>
<a href="docs/install.html">Install</a> <a href="payload.html">Notes</a>
<a href="docs/shelves.html">Shelves</a> <a href="kitchen/soup.html">Soup</a> <a href="kitchen/bread.html">Bread</a>
<div data-canon-pagefind></div>' '<link rel="stylesheet" href="/pagefind/canon-pagefind.css">
<script type="module" src="/pagefind/canon-pagefind.js"></script>'
page docs/install.html "Installing Larder" "$guide"
# Two copies collapsed into the guide: one result, with its alternates.
page print/install.html "Installing Larder (printer-friendly)" "$guide"
page mirror/docs/install.html "Installing Larder" "$guide"
page docs/shelves.html "Shelves and stale food" '<p>Larder counts the days food has spent on a
shelf and warns before it goes stale. Each shelf has a name and a number of days.</p>'
page payload.html '&lt;script&gt;window.pwned=1&lt;/script&gt; Larder notes' \
  '<p>Larder notes on falconry: &lt;img src=x onerror="window.pwned=2"&gt; is shown as text.</p>'
page kitchen/soup.html "Larder soup" '<p>A soup from whatever the larder holds at the end of the
week: onions, beans and stock, simmered for falconry days.</p>'
page kitchen/bread.html "Larder bread" '<p>Bread from the flour in the larder, baked on Sundays.</p>'

"$canon" index "$site" --out "$work/index" -q >"$work/index.log"
"$canon" export pagefind "$work/index" --out "$site/pagefind" --pagefind "$package" >"$work/export.log" \
  || { cat "$work/export.log" >&2; echo "pagefind test: FAILED: canon export pagefind" >&2; exit 1; }

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
# The bundle's filters are answered 2 s late, as on a slow network: what the reader types while
# the box loads them must still be searched.
python3 "$here/static_server.py" "$port" "$site" --slow /pagefind/filter/=2 >"$work/static.log" 2>&1 &
static_pid=$!
for _ in $(seq 1 100); do  # at most 10 s for the server to answer
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/pagefind/search.html', timeout=1)" \
    2>/dev/null && break
  sleep 0.1
done

python3 "$here/pagefind_test.py" --site-url "http://127.0.0.1:$port/" \
  ${CANON_SCREENSHOT_DIR:+--screenshot "$CANON_SCREENSHOT_DIR/pagefind-box.png"}
