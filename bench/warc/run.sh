#!/usr/bin/env bash
# A crawl against its site, in one run: SITE served by `python3 -m http.server` on loopback and
# crawled by `wget --mirror --warc-file` (a gzip member per record), which also keeps its copy of
# the pages it reached (the same site as a directory: a site's pages that no link reaches are in
# neither); then `canon index` of the archive and of that directory (with the crawl's base URL),
# alternating, RUNS times each: wall time, peak RSS and the seconds of reading the archive; then
# whether both indexes give every page the same status and authoritative page
# (docs/benchmarks.md, "A crawl against its site").
#
# Usage: bench/warc/run.sh [WORK_DIR] [SITE_DIR]
#   SITE_DIR defaults to Debian's rust-doc (/usr/share/doc/rust-doc/html); RUNS=3.
#   WARC_MAX_SIZE=10M: wget starts a new archive every 10 MB (crawl-00000.warc.gz, ...), which
#   canon reads on as many threads as it has.
#   Needs a Release build in build/ (scripts/build.sh), wget and python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${1:-/tmp/canon-warc-bench}
site=${2:-/usr/share/doc/rust-doc/html}
runs=${RUNS:-3}
canon=$PWD/build/cli/canon
[ -x "$canon" ] || { echo "run scripts/build.sh first" >&2; exit 1; }
command -v wget >/dev/null || { echo "needs wget" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"

# The crawl.
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$site" >"$work/server.out" 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do grep -q " port " "$work/server.out" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's/.* port \([0-9]*\) .*/\1/p' "$work/server.out" | head -1)
base="http://127.0.0.1:$port/"
start=$(date +%s.%N)
# --reject-regex: a URL with a query ("patterns.html?highlight=range", a search link) has no
# file a site on disk serves it from, so the copy could not hold it; left out of the crawl too.
split=()
[ -n "${WARC_MAX_SIZE:-}" ] && split=(--warc-max-size="$WARC_MAX_SIZE")
(cd "$work" && wget --mirror --no-verbose --tries=1 --timeout=10 --no-http-keep-alive --reject-regex '[?]' \
   "${split[@]}" --warc-file=crawl -P "$work/mirror" "$base" >"$work/wget.log" 2>&1) || true
crawl_s=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
kill $server
archives=("$work"/crawl*.warc.gz)
mirror="$work/mirror/127.0.0.1:$port"
echo "crawled $base in ${crawl_s}s: ${#archives[@]} archive(s), $(du -cm "${archives[@]}" | tail -1 | cut -f1) MiB, $(find "$mirror" -name '*.html' | wc -l) pages in its copy"


# timed NAME CMD...: runs CMD under /usr/bin/time; appends "NAME wall_s rss_mib" to timings.
timed() {
  local name=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/time.$name" "$@" >/dev/null 2>"$work/err.$name"
  read -r wall rss <"$work/time.$name"
  echo "$name $wall $((rss / 1024))" >>"$work/timings"
}
for run in $(seq "$runs"); do
  timed directory "$canon" index "$mirror" --base-url "$base" --out "$work/directory.idx" --full --quiet
  timed archive "$canon" index "${archives[@]}" --out "$work/archive.idx" --full --quiet
done

python3 - "$work" "${archives[@]}" <<'EOF'
import json, os, statistics, sys
work, archives = sys.argv[1], sys.argv[2:]
rows = {}
for line in open(os.path.join(work, "timings")):
    name, wall, rss = line.split()
    rows.setdefault(name, []).append((float(wall), int(rss)))
def pages(name):
    return [json.loads(l) for l in open(os.path.join(work, name + ".idx", "pages.jsonl"))]
directory, crawl = pages("directory"), pages("archive")
by_url = {p["url"]: p for p in crawl if p["status"] != "skipped"}
same = differ = missing = 0
for p in directory:
    if p["status"] == "skipped":
        continue
    c = by_url.get(p["url"])
    if c is None:
        missing += 1
    elif (c["status"], c.get("authoritative")) == (p["status"], p.get("authoritative")):
        same += 1
    else:
        differ += 1
summary = json.load(open(os.path.join(work, "archive.idx", "summary.json")))
print("| input | runs | wall s (median) | peak RSS MiB (median) |")
print("|---|---:|---:|---:|")
for name in ("directory", "archive"):
    walls = [w for w, _ in rows[name]]
    rss = [r for _, r in rows[name]]
    print("| %s | %d | %.2f | %d |" % (name, len(walls), statistics.median(walls), statistics.median(rss)))
print()
print("%d archive(s): %d MiB; read in %.2f s (summary.json seconds.archives); records %s; captures %s" % (
    len(archives), sum(os.path.getsize(a) for a in archives) >> 20, summary["seconds"]["archives"], summary["archives"]["records"],
    summary["archives"]["captures"]))
print("pages the directory records as indexed, duplicate or redirect: %d with the same status and "
      "authoritative page in the crawl's index, %d different, %d not in the crawl"
      % (same, differ, missing))
EOF
