#!/usr/bin/env bash
# @file run.sh
# @brief What serving from remote shards costs (docs/serving.md): `canon serve` on one local
# database against `canon serve` on a stub of 3 shards that xapian-tcpsrv serves on loopback,
# the same index (python3.11-doc by default) split with `canon shard`, under the same wrk load
# (bench/serve_load/queries.lua: the queries of bench/query_latency/queries.txt, the search
# page and the JSON API in turn), the two servers taking turns so that machine noise hits both.
# Then one search at a time (canon_query_latency, full mode) on both, for the latency of a
# single search without queueing.
#
# Usage: bench/serving/run.sh CANON WORK_DIR [SITE_DIR] [SECONDS] [CONNECTIONS] [ROUNDS]
#   defaults: python3.11-doc's HTML, 20 s, 64 connections, 2 rounds. Needs wrk and xapian-tools.
#   LATENCY=path/to/canon_query_latency (default: beside CANON in the build tree).
#   FRONT_CPUS=LIST SHARD_CPUS=LIST: run `canon serve` and wrk on the cores LIST names (taskset -c)
#   and the shards' xapian-tcpsrv on others, as when the shards have machines of their own: the
#   front end and the load then have the same cores in both layouts, and the shards' work does
#   not take them. Unset: everything shares every core.
set -euo pipefail
cd "$(dirname "$0")/../.."
canon=$(realpath "${1:?canon binary}")
work=${2:?work directory}
site=${3:-/usr/share/doc/python3.11/html}
seconds=${4:-20}
connections=${5:-64}
rounds=${6:-2}
latency=${LATENCY:-$(dirname "$canon")/../bench/query_latency/canon_query_latency}
front=() shards=()
[ -n "${FRONT_CPUS:-}" ] && front=(taskset -c "$FRONT_CPUS")
[ -n "${SHARD_CPUS:-}" ] && shards=(taskset -c "$SHARD_CPUS")
for tool in wrk xapian-tcpsrv; do
  command -v $tool >/dev/null || { echo "serving: needs $tool (apt-get install wrk xapian-tools)" >&2; exit 1; }
done
mkdir -p "$work"
"$canon" index "$site" --out "$work/index" --quiet >/dev/null
"$canon" shard "$work/index" --parts 3 --out "$work/shards" >/dev/null

pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
: >"$work/remote.stub"
for part in 1 2 3; do
  port=$(free_port)
  "${shards[@]}" xapian-tcpsrv --interface 127.0.0.1 --port "$port" --quiet "$work/shards/shard-$part" &
  pids+=($!)
  echo "remote 127.0.0.1:$port" >>"$work/remote.stub"
  for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
done

# serve NAME TARGET: starts canon serve on TARGET, sets url_NAME.
serve() {
  "${front[@]}" "$canon" serve "$2" --port 0 2>"$work/serve-$1.log" &
  pids+=($!)
  local url=""
  for _ in $(seq 100); do
    url=$(sed -n 's|^canon: serving .* at \(http://[^ ]*/\)$|\1|p' "$work/serve-$1.log")
    [ -n "$url" ] && break
    sleep 0.1
  done
  [ -n "$url" ] || { echo "serving: canon serve $2 did not start:" >&2; cat "$work/serve-$1.log" >&2; exit 1; }
  printf -v "url_$1" '%s' "$url"
}
serve local "$work/index"
serve remote "$work/remote.stub"

echo "python3.11-doc ($(basename "$site")): one database against 3 remote shards; wrk -t2 -c$connections -d${seconds}s, $rounds rounds"
[ -n "${FRONT_CPUS:-}${SHARD_CPUS:-}" ] && echo "front end and wrk on cores ${FRONT_CPUS:-all}, the shards on cores ${SHARD_CPUS:-all}"
echo
echo "| round | layout | requests/s | p50 ms | p90 ms | p99 ms | errors, non-200 |"
echo "|---:|---|---:|---:|---:|---:|---|"
# to_ms VALUE: wrk's "1.23ms" / "456.78us" / "1.02s" in milliseconds.
to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'; }
for round in $(seq "$rounds"); do
  for layout in local remote; do
    url_var="url_$layout"
    out=$(CANON_QUERIES=bench/query_latency/queries.txt "${front[@]}" wrk -t2 -c"$connections" -d"${seconds}s" --timeout 5s --latency \
      -s bench/serve_load/queries.lua "${!url_var}")
    rps=$(awk '/^Requests\/sec/ { print $2 }' <<<"$out")
    p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' <<<"$out")")
    p90=$(to_ms "$(awk '$1 == "90%" { print $2 }' <<<"$out")")
    p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' <<<"$out")")
    errors=$(grep -E "Socket errors|non-200" <<<"$out" | tr '\n' ' ')
    echo "| $round | $layout | $rps | $p50 | $p90 | $p99 | ${errors:-none} |"
  done
done

if [ -x "$latency" ]; then
  echo
  echo "One search at a time (canon_query_latency, 3 repeats, modes interleaved):"
  for target in "$work/index" "$work/remote.stub"; do
    echo
    echo "$target"
    "${front[@]}" "$latency" "$target" bench/query_latency/queries.txt 3 | sed -n '1,3p;6p'
  done
fi
