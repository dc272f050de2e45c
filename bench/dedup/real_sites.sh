#!/usr/bin/env bash
# minhash vs exact on real documentation sites at the same options: pairs found by each,
# minhash's recall against exact, and minhash's clusters (to be judged by reading them).
# Usage: bench/dedup/real_sites.sh CANON_BINARY WORK_DIR [NAME=SITE_DIR ...]
#   EXTRA="--no-title-rule --threshold 0.2" (environment): options for both detectors' runs, e.g.
#   to compare them where the default finds nothing.
set -euo pipefail
canon=${1:?canon binary}
work=${2:?work directory}
shift 2
sites=("$@")
[[ ${#sites[@]} -gt 0 ]] || sites=(python=/usr/share/doc/python3.11/html postgres=/usr/share/doc/postgresql-doc-15/html)
read -r -a extra <<< "${EXTRA:-}"
mkdir -p "$work"
for site in "${sites[@]}"; do
  name=${site%%=*}
  for detector in minhash exact; do
    "$canon" index "${site#*=}" --out "$work/$name-$detector" --detector "$detector" "${extra[@]}" --quiet > /dev/null
  done
  python3 - "$work/$name-minhash" "$work/$name-exact" "$name" <<'PY'
import json, sys
from collections import defaultdict
mh, ex, name = sys.argv[1:]
def pairs(d):
    return {tuple(sorted(l.split("\t")[:2])) for l in open(d + "/pairs.tsv") if l.strip()}
m, e = pairs(mh), pairs(ex)
recall = len(m & e) / len(e) if e else 1.0
print(f"## {name}: minhash {len(m)} pairs, exact {len(e)} pairs, common {len(m & e)}, "
      f"minhash recall vs exact {recall:.3f}, minhash-only {len(m - e)}")
clusters = defaultdict(list)
for line in open(mh + "/pages.jsonl"):
    r = json.loads(line)
    if "cluster" in r: clusters[r["cluster"]].append(r["path"])
for c in sorted(v for v in clusters.values() if len(v) > 1):
    print("- " + " ~ ".join(sorted(c)))
PY
done
