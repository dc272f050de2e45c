#!/usr/bin/env bash
# @file run_search_page_test.sh
# @brief ctest's browser_search_page: writes a small site with script payloads in titles and
# text, indexes it with `canon index`, starts `canon serve` on a free port, runs
# search_page_test.py (headless Chromium over WebDriver), then stops the server with SIGTERM
# and checks it exits cleanly. The server is always killed, whatever fails.
#
# Usage: run_search_page_test.sh CANON_BINARY
# Environment: CANON_SCREENSHOT=FILE keeps a screenshot of the result page.
set -euo pipefail

canon="${1:?usage: $0 CANON_BINARY}"
here="$(cd "$(dirname "$0")" && pwd)"

for tool in chromium chromedriver python3; do
  if ! command -v "$tool" >/dev/null; then
    echo "browser test: $tool not found. The browser test needs the Debian packages" \
         "chromium and chromium-driver (scripts/install-deps.sh installs them)." >&2
    [ "${CANON_REQUIRE_TOOLS:-0}" = 1 ] && exit 1
    exit 77  # ctest: skipped
  fi
done

work="$(mktemp -d "${TMPDIR:-/tmp}/canon-browser.XXXXXX")"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the site ---------------------------------------------------------------------------------
site="$work/site"
mkdir -p "$site/docs" "$site/print"
guide='<h1>Installing Larder</h1>
<p>Larder installs from Debian packages: run apt install larder and answer the questions of the
installer. The configuration lives in /etc/larder and the service starts at boot. Shell
completions for bash, zsh and fish are installed with it, and the manual pages describe every
subcommand with examples.</p>'
cat > "$site/index.html" <<'HTML'
<!DOCTYPE html><html><head><title>Larder</title></head><body><main>
<p>Larder keeps a pantry inventory.</p>
<a href="docs/install.html">Install</a> <a href="payload.html">Notes</a>
<a href="about.html">About</a>
</main></body></html>
HTML
cat > "$site/docs/install.html" <<HTML
<!DOCTYPE html><html><head><title>Installing Larder</title></head><body>
<nav aria-label="Breadcrumb"><a href="/">Larder</a> › <a href="/docs/">Documentation</a></nav>
<main>
$guide
</main></body></html>
HTML
mkdir -p "$site/kitchen/recipes"
cat > "$site/kitchen/recipes/soup.html" <<'HTML'
<!DOCTYPE html><html><head><title>Larder soup</title></head><body><main>
<p>A soup from whatever the larder holds at the end of the week: onions, beans and stock.</p>
</main></body></html>
HTML
# The printer-friendly copy is collapsed into the guide: its title is an alternate's title.
cat > "$site/print/install.html" <<HTML
<!DOCTYPE html><html><head>
<title>&lt;img src=x onerror="window.pwned=2"&gt; Installing Larder (print)</title>
<link rel="canonical" href="http://localhost/docs/install.html">
</head><body><main>
$guide
</main></body></html>
HTML
cat > "$site/payload.html" <<'HTML'
<!DOCTYPE html><html><head>
<title>&lt;script&gt;document.title='pwned';window.pwned=1&lt;/script&gt; Payload page</title>
</head><body><main>
<p>Larder notes on falconry: &lt;img src=x onerror="window.pwned=3"&gt; is shown as text.</p>
</main></body></html>
HTML
cat > "$site/about.html" <<'HTML'
<!DOCTYPE html><html><head><title>About Larder</title></head><body><main>
<p>Larder is written by a small team of cooks who lost track of their flour.</p>
</main></body></html>
HTML

"$canon" index "$site" --out "$work/index" --quiet >"$work/index.log"

# --- the server -------------------------------------------------------------------------------
: >"$work/serve.err"  # exists before the server's shell redirects into it
"$canon" serve "$work/index" --host 127.0.0.1 --port 0 >"$work/serve.out" 2>>"$work/serve.err" &
server_pid=$!
serving='s|^canon: serving .* at \(http://[^ ]*:[0-9][0-9]*/\)$|\1|p'  # the whole line only
url=""
for _ in $(seq 1 200); do  # at most 20 s
  url="$(sed -n "$serving" "$work/serve.err" || true)"
  [ -n "$url" ] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "browser test: FAILED: canon serve exited:" >&2
    cat "$work/serve.err" >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "browser test: FAILED: canon serve did not start within 20 s" >&2
  exit 1
fi

python3 "$here/search_page_test.py" --base-url "$url" \
  ${CANON_SCREENSHOT:+--screenshot "$CANON_SCREENSHOT"}

# --- a clean stop on SIGTERM ------------------------------------------------------------------
kill -TERM "$server_pid"
for _ in $(seq 1 100); do  # at most 10 s
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$server_pid" 2>/dev/null; then
  echo "browser test: FAILED: canon serve did not stop within 10 s of SIGTERM" >&2
  exit 1
fi
status=0
wait "$server_pid" || status=$?
server_pid=""
if [ "$status" -ne 0 ]; then
  echo "browser test: FAILED: canon serve exited with status $status after SIGTERM" >&2
  cat "$work/serve.err" >&2
  exit 1
fi
echo "browser test: canon serve stopped cleanly"
