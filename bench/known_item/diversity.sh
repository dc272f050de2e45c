#!/usr/bin/env bash
# Result diversity of two canon builds on the same synth sites (issue 30, point 3: "canon eval
# diversity figures on python and postgres no worse"). For each corpus: one `canon synth` site
# (the new build's; ratio 0.05, seed 1, as docs/evaluation.md's diversity table), indexed with
# --no-collapse by each build and scored by that build's `canon eval diversity --truth` (100
# drawn queries). Prints one Markdown row per corpus, build and collapse mode.
#
# Usage: bench/known_item/diversity.sh BASE_CANON NEW_CANON WORK_DIR [NAME=SITE_DIR ...]
#   SITE_DIRs default: python=/usr/share/doc/python3.11/html postgres=/usr/share/doc/postgresql-doc-15/html
set -euo pipefail
base=$(realpath "${1:?base canon binary}")
new=$(realpath "${2:?new canon binary}")
work=${3:?work directory}
shift 3
corpora=("$@")
[ ${#corpora[@]} -gt 0 ] || corpora=(python=/usr/share/doc/python3.11/html postgres=/usr/share/doc/postgresql-doc-15/html)
mkdir -p "$work"
echo "| corpus | build | mode | documents | Dup@10 | Distinct@10 | cluster recall@10 | α-nDCG@10 |"
echo "|---|---|---|---:|---:|---:|---:|---:|"
for corpus in "${corpora[@]}"; do
  name=${corpus%%=*}
  src=${corpus#*=}
  site="$work/site-$name"
  [ -d "$site" ] || "$new" synth "$src" "$site" --segment-ratio 0.05 --seed 1 > /dev/null
  for build in base new; do
    binary=$base
    [ $build = new ] && binary=$new
    index="$work/index-$name-$build"
    rm -rf "$index"
    "$binary" index "$site" --out "$index" --no-collapse --quiet > /dev/null
    "$binary" eval diversity "$index" --truth "$site/truth.json" --sample 100 --json > "$work/diversity-$name-$build.json"
    python3 - "$work/diversity-$name-$build.json" "$name" "$build" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for m in d["modes"]:
    print("| %s | %s | %s | %d | %.3f | %.2f | %.3f | %.3f |" % (
        sys.argv[2], sys.argv[3], m["mode"], m["documents"], m["dup_at_k"], m["distinct_at_k"],
        m["cluster_recall_at_k"], m["alpha_ndcg_at_k"]))
PY
  done
done
