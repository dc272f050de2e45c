#!/usr/bin/env bash
# @file run_embed_test.sh
# @brief ctest's browser_embed: the embeddable search box (web/embed/) on other sites' pages.
# Writes a small site (script payloads in a title and text, a page with sections, a near
# duplicate), indexes it with `canon index`, starts `canon serve --allow-origin` for one static
# site and two static sites (python3 -m http.server) whose pages embed the box: the listed one
# and one not listed. embed_test.py then drives headless Chromium over WebDriver. Every server is
# killed at the end, whatever fails.
#
# Usage: run_embed_test.sh CANON_BINARY
# Environment: CANON_SCREENSHOT_DIR=DIR keeps DIR/embed-box.png (the box with results open).
set -euo pipefail

canon="${1:?usage: $0 CANON_BINARY}"
here="$(cd "$(dirname "$0")" && pwd)"
embed_dir="$here/../../web/embed"

for tool in chromium chromedriver python3; do
  if ! command -v "$tool" >/dev/null; then
    echo "embed test: $tool not found. The browser test needs the Debian packages" \
         "chromium and chromium-driver (scripts/install-deps.sh installs them)." >&2
    [ "${CANON_REQUIRE_TOOLS:-0}" = 1 ] && exit 1
    exit 77  # ctest: skipped
  fi
done

work="$(mktemp -d "${TMPDIR:-/tmp}/canon-embed.XXXXXX")"
server_pid=""   # canon serve, in a session of its own (its process group is killed)
static_pids=()  # the two static sites
cleanup() {
  if [ -n "$server_pid" ]; then
    kill -TERM -- "-$server_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do  # at most 5 s
      kill -0 "$server_pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL -- "-$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  for pid in "${static_pids[@]}"; do
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# --- the site ---------------------------------------------------------------------------------
site="$work/site"
mkdir -p "$site/docs" "$site/print" "$site/kitchen"
guide="$(cat "$here/larder_guide.html")"  # a guide with two sections
cat > "$site/index.html" <<'HTML'
<!DOCTYPE html><html><head><title>Larder</title></head><body><main>
<p>Larder keeps a pantry inventory.</p>
<a href="docs/install.html">Install</a> <a href="payload.html">Notes</a>
<a href="docs/shelves.html">Shelves</a> <a href="kitchen/soup.html">Soup</a>
<a href="about.html">About</a>
</main></body></html>
HTML
cat > "$site/docs/install.html" <<HTML
<!DOCTYPE html><html><head><title>Installing Larder</title></head><body><main>
$guide
</main></body></html>
HTML
# The printer-friendly copy is collapsed into the guide: one result, with an alternate.
cat > "$site/print/install.html" <<HTML
<!DOCTYPE html><html><head><title>Installing Larder (print)</title>
<link rel="canonical" href="http://localhost/docs/install.html">
</head><body><main>
$guide
</main></body></html>
HTML
cat > "$site/docs/shelves.html" <<'HTML'
<!DOCTYPE html><html><head><title>Shelves and stale food</title></head><body><main>
<p>Larder counts the days food has spent on a shelf and warns before it goes stale. Each shelf
has a name and a number of days, set in the configuration file.</p>
</main></body></html>
HTML
cat > "$site/payload.html" <<'HTML'
<!DOCTYPE html><html><head>
<title>&lt;script&gt;window.pwned=1&lt;/script&gt; Larder notes</title>
</head><body><main>
<p>Larder notes on falconry: &lt;img src=x onerror="window.pwned=2"&gt; is shown as text.</p>
</main></body></html>
HTML
cat > "$site/kitchen/soup.html" <<'HTML'
<!DOCTYPE html><html><head><title>Larder soup</title></head><body><main>
<p>A soup from whatever the larder holds at the end of the week: onions, beans and stock.</p>
</main></body></html>
HTML
cat > "$site/about.html" <<'HTML'
<!DOCTYPE html><html><head><title>About Larder</title></head><body><main>
<p>Larder is written by a small team of cooks who lost track of their flour.</p>
</main></body></html>
HTML

"$canon" index "$site" --out "$work/index" -q >"$work/index.log"

# --- the search server, allowing the first static site ----------------------------------------
allowed_port="$(free_port)"
other_port="$(free_port)"
while [ "$other_port" = "$allowed_port" ]; do other_port="$(free_port)"; done
: >"$work/serve.err"  # exists before the server's shell redirects into it
setsid "$canon" serve "$work/index" --host 127.0.0.1 --port 0 \
  --allow-origin "http://127.0.0.1:$allowed_port" >"$work/serve.out" 2>>"$work/serve.err" &
server_pid=$!
serving='s|^canon: serving .* at \(http://[^ ]*:[0-9][0-9]*/\)$|\1|p'  # the whole line only
url=""
for _ in $(seq 1 200); do  # at most 20 s
  url="$(sed -n "$serving" "$work/serve.err" || true)"
  [ -n "$url" ] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "embed test: FAILED: canon serve exited:" >&2
    cat "$work/serve.err" >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "embed test: FAILED: canon serve did not start within 20 s" >&2
  exit 1
fi

# --- the two sites embedding the box ------------------------------------------------------------
# The allowed one marks the box's place; the other leaves it to the script (before its tag).
mkdir -p "$work/allowed" "$work/other"
cat > "$work/allowed/embed.html" <<HTML
<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Pantry blog</title>
<link rel="stylesheet" href="${url}embed/canon-search.css">
<script src="${url}embed/canon-search.js" defer></script>
</head><body style="margin: 2rem; font-family: sans-serif">
<header><h1>Pantry blog</h1><div id="box" data-canon-search></div></header>
<p>Notes from a well-kept larder.</p>
</body></html>
HTML
cat > "$work/other/embed.html" <<HTML
<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Elsewhere</title>
<link rel="stylesheet" href="${url}embed/canon-search.css">
</head><body>
<h1>A site the search server does not list</h1>
<script src="${url}embed/canon-search.js" defer></script>
</body></html>
HTML
python3 -m http.server "$allowed_port" --bind 127.0.0.1 --directory "$work/allowed" \
  >"$work/allowed.log" 2>&1 &
static_pids+=($!)
python3 -m http.server "$other_port" --bind 127.0.0.1 --directory "$work/other" \
  >"$work/other.log" 2>&1 &
static_pids+=($!)

status=0
python3 "$here/embed_test.py" --search-url "$url" --embed-dir "$embed_dir" \
  --allowed-url "http://127.0.0.1:$allowed_port/embed.html" \
  --other-url "http://127.0.0.1:$other_port/embed.html" \
  ${CANON_SCREENSHOT_DIR:+--screenshot "$CANON_SCREENSHOT_DIR/embed-box.png"} || status=$?
if [ "$status" -ne 0 ] && [ -s "$work/serve.err" ]; then
  echo "embed test: canon serve said:" >&2
  cat "$work/serve.err" >&2
fi
exit "$status"
