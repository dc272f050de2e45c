#!/usr/bin/env bash
# Near-duplicate quality of every detector on corpora generated from real documentation sites.
#
# Usage: bench/dedup/quality.sh CANON_BINARY WORK_DIR [SEEDS] [RATIOS] [DETECTORS] [SITES]
#   SEEDS      default "1 2"
#   RATIOS     default "0.05 0.10 0.15"
#   DETECTORS  default "minhash exact simhash mwo multik keyword"
#   SITES      default "python=/usr/share/doc/python3.11/html postgres=/usr/share/doc/postgresql-doc-15/html"
# For each site, seed and ratio: `canon synth` (copies with a 1-3-word segment inserted after
# each word with probability RATIO), `canon index --detector NAME`, `canon eval dedup --json`.
# INDEX_ARGS (environment): more `canon index` options for every run, e.g. "--threshold 0.2".
# Prints one Markdown table row per run: pairwise precision/recall/F1 before union-find (the
# detector's verified pairs) and after (final clusters), and the dedup seconds.
set -euo pipefail
canon=${1:?canon binary}
work=${2:?work directory}
seeds=${3:-"1 2"}
ratios=${4:-"0.05 0.10 0.15"}
detectors=${5:-"minhash exact simhash mwo multik keyword"}
sites=${6:-"python=/usr/share/doc/python3.11/html postgres=/usr/share/doc/postgresql-doc-15/html"}
mkdir -p "$work"

echo "| site | seed | ratio | detector | pairs P / R / F1 | clusters P / R / F1 | dedup s |"
echo "|---|---|---|---|---|---|---|"
for site in $sites; do
  name=${site%%=*}
  source=${site#*=}
  for seed in $seeds; do
    for ratio in $ratios; do
      corpus="$work/$name-$ratio-s$seed"
      [[ -f "$corpus/truth.json" ]] || "$canon" synth "$source" "$corpus" --segment-ratio "$ratio" --seed "$seed" > /dev/null
      for detector in $detectors; do
        index="$work/idx-$name-$ratio-s$seed-$detector"
        "$canon" index "$corpus" --out "$index" --detector "$detector" --quiet ${INDEX_ARGS:-} > /dev/null
        python3 - "$index" "$corpus/truth.json" "$name" "$seed" "$ratio" "$detector" "$canon" <<'PY'
import json, subprocess, sys
index, truth, name, seed, ratio, detector, canon = sys.argv[1:]
e = json.loads(subprocess.run([canon, "eval", "dedup", index, "--truth", truth, "--json"],
                              check=True, capture_output=True, text=True).stdout)
s = json.load(open(index + "/summary.json"))
def prf(m): return f"{m['precision']:.3f} / {m['recall']:.3f} / {m['f1']:.3f}"
p = e["pairwise"]
print(f"| {name} | {seed} | {ratio} | {detector} | {prf(p['before_union_find'])} | "
      f"{prf(p['after_union_find'])} | {s['seconds']['dedup']:.1f} |", flush=True)
PY
      done
    done
  done
done
