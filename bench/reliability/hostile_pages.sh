#!/usr/bin/env bash
# @file hostile_pages.sh
# @brief Time and peak memory of `canon index` on one hostile page at a time, then on all of them
# together (docs/reliability.md, "Limits"): a 48 MB page of `<p>word` (cut at 8 MiB), 300,000
# links, 200,000 nested <div>s, a 2 MB title.
#
# Usage: bench/reliability/hostile_pages.sh CANON WORK_DIR     (needs /usr/bin/time)
set -euo pipefail
canon=$(realpath "${1:?canon binary}")
work=${2:?work directory}
rm -rf "$work" && mkdir -p "$work/all"
python3 - "$work/all" <<'PY'
import sys
d = sys.argv[1]
n = 200000
open(f"{d}/deep.html", "w").write("<html><head><title>Deep</title></head><body>" + "<div>" * n + "deep text" + "</div>" * n + "</body></html>")
open(f"{d}/bigtitle.html", "w").write("<html><head><title>" + "T" * 2000000 + "</title></head><body><p>x y z</p></body></html>")
open(f"{d}/big.html", "w").write("<html><head><title>Big</title></head><body>" + "<p>word " * 6000000 + "</body></html>")
open(f"{d}/links.html", "w").write("<html><head><title>Links</title></head><body>" + "".join('<a href="p%d.html">l</a>' % i for i in range(300000)) + "</body></html>")
PY
for page in big links deep bigtitle; do
  mkdir -p "$work/$page" && cp "$work/all/$page.html" "$work/$page/"
  /usr/bin/time -f "$page: %e s wall, %M KB peak RSS" "$canon" index "$work/$page" --out "$work/$page.index" --quiet >/dev/null
done
/usr/bin/time -f "all four, 2 threads: %e s wall, %M KB peak RSS" "$canon" index "$work/all" --out "$work/all.index" --quiet >/dev/null
