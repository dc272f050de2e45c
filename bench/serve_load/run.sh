#!/usr/bin/env bash
# @file run.sh
# @brief `canon serve` under load (issue 16): wrk with many keep-alive connections for a while,
# on loopback, over the queries of bench/query_latency/queries.txt (the search page and the
# JSON API in turn). Prints wrk's report: requests per second, the latency distribution
# (p50/p75/p90/p99), socket errors and timeouts (wrk --timeout 2s), and non-200 answers.
#
# Usage: bench/serve_load/run.sh CANON WORK_DIR [SITE_DIR] [SECONDS] [CONNECTIONS]
#   SITE_DIR defaults to python3.11-doc's HTML; its index is built once in WORK_DIR/index.
#   SECONDS defaults to 30, CONNECTIONS to 256. Needs wrk (apt-get install wrk).
#   SLOW_CLIENTS=N: meanwhile N connections from 127.0.0.2 send a request a byte a second
#   (slow_clients.py), reconnecting when the server closes them.
set -euo pipefail
cd "$(dirname "$0")/../.."
canon=$(realpath "${1:?canon binary}")
work=${2:?work directory}
site=${3:-/usr/share/doc/python3.11/html}
seconds=${4:-30}
connections=${5:-256}
command -v wrk >/dev/null || { echo "serve_load: needs wrk (apt-get install wrk)" >&2; exit 1; }
mkdir -p "$work"
[ -d "$work/index" ] || "$canon" index "$site" --out "$work/index" --quiet >/dev/null
"$canon" serve "$work/index" --port 0 2> "$work/serve.log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
url=""
for _ in $(seq 100); do
  url=$(sed -n 's|^canon: serving .* at \(http://[^ ]*/\)$|\1|p' "$work/serve.log")
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "serve_load: canon serve did not start:" >&2; cat "$work/serve.log" >&2; exit 1; }
echo "canon serve $(basename "$site") at $url: wrk, $connections connections, ${seconds}s, 2 threads"
slow=""
if [ -n "${SLOW_CLIENTS:-}" ]; then
  port=${url##*:}
  port=${port%/}
  python3 bench/serve_load/slow_clients.py 127.0.0.1 "$port" "$SLOW_CLIENTS" $((seconds + 10)) &
  slow=$!
  sleep 8  # they are all connected and trickling before wrk starts
fi
CANON_QUERIES=bench/query_latency/queries.txt wrk -t2 -c"$connections" -d"${seconds}s" --timeout 2s --latency \
  -s bench/serve_load/queries.lua "$url"
[ -z "$slow" ] || wait $slow
