#!/usr/bin/env bash
# Authority when copies sit in numbered folders beside their originals (copies/1/, copies/2/, ...):
# `canon synth --layout numbered` from python3.11-doc and postgresql-doc-15, `canon index`, then
# `canon eval dedup`: the share of true clusters whose original is the indexed page, and the
# final clusters' pairwise F1 (docs/dedup.md, "The authority rule").
#
# Usage: bench/dedup/numbered_copies.sh CANON WORK_DIR [SEEDS] [RATIOS]
#   SEEDS default "1 2 3", RATIOS (segment ratio) default "0.05 0.10"
set -euo pipefail
canon=${1:?usage: numbered_copies.sh CANON WORK_DIR [SEEDS] [RATIOS]}
work=${2:?usage: numbered_copies.sh CANON WORK_DIR [SEEDS] [RATIOS]}
seeds=${3:-1 2 3}
ratios=${4:-0.05 0.10}
mkdir -p "$work"
printf '| site | seed | ratio | original indexed | accuracy | pairwise P / R / F1 |\n|---|---|---|---|---|---|\n'
for site in python=/usr/share/doc/python3.11/html postgres=/usr/share/doc/postgresql-doc-15/html; do
  name=${site%%=*}
  dir=${site#*=}
  for seed in $seeds; do
    for ratio in $ratios; do
      out="$work/$name-$seed-$ratio"
      rm -rf "$out" "$out-index"
      "$canon" synth "$dir" "$out" --layout numbered --seed "$seed" --segment-ratio "$ratio" >/dev/null
      "$canon" index "$out" --out "$out-index" --quiet >/dev/null
      "$canon" eval dedup "$out-index" --truth "$out/truth.json" --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
a, p = j["authority"], j["pairwise"]["after_union_find"]
name, seed, ratio = sys.argv[1:4]
print("| %s | %s | %s | %d of %d | %.3f | %.3f / %.3f / %.3f |" % (name, seed, ratio, a["original_indexed"], a["clusters"],
      a["accuracy"], p["precision"], p["recall"], p["f1"]))
' "$name" "$seed" "$ratio"
    done
  done
done
