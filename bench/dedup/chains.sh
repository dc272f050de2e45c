#!/usr/bin/env bash
# The two chain policies side by side (docs/dedup.md, "Chains"): union-find clusters as the
# detector found them (`canon index --keep-chains`) and clusters split until every duplicate is a
# near-duplicate of its authoritative page (`canon index`, the default).
#
# Usage: bench/dedup/chains.sh CANON_BINARY WORK_DIR [SEEDS] [RATIOS] [THRESHOLDS] [SITES]
#   SEEDS       default "1"
#   RATIOS      default "0.05 0.10 0.15 0.20"
#   THRESHOLDS  default "0.3 0.2" (minhash Jaccard; 0.3 is the default)
#   SITES       default "python=/usr/share/doc/python3.11/html postgres=/usr/share/doc/postgresql-doc-15/html"
# EXTRA="--no-title-rule" (environment) adds options to every `canon index` (and to the index
# directory names), e.g. to see chains form when templated siblings may match.
# For each site, seed and ratio: `canon synth`, then minhash with each policy at each threshold,
# scored by `canon eval dedup`; then each real site itself with each policy. Prints Markdown
# tables: pairwise P/R/F1 of the final clusters, authority accuracy, pages split off, and the
# seconds of the dedup and authority stages.
set -euo pipefail
canon=${1:?canon binary}
work=${2:?work directory}
seeds=${3:-"1"}
ratios=${4:-"0.05 0.10 0.15 0.20"}
thresholds=${5:-"0.3 0.2"}
sites=${6:-"python=/usr/share/doc/python3.11/html postgres=/usr/share/doc/postgresql-doc-15/html"}
read -r -a extra <<< "${EXTRA:-}"
tag=$(printf '%s' "${EXTRA:-}" | tr -c 'a-z0-9' '_')
mkdir -p "$work"

# row INDEX TRUTH LABEL...: one table row (TRUTH "-" for a real site: no truth, no scores).
row() {
  python3 - "$canon" "$@" <<'PY'
import json, subprocess, sys
canon, index, truth, *label = sys.argv[1:]
s = json.load(open(index + "/summary.json"))
cells = label[:]
if truth != "-":
    e = json.loads(subprocess.run([canon, "eval", "dedup", index, "--truth", truth, "--json"],
                                  check=True, capture_output=True, text=True).stdout)
    m = e["pairwise"]["after_union_find"]
    cells += [f"{m['precision']:.4f} / {m['recall']:.4f} / {m['f1']:.4f}",
              f"{e['authority']['accuracy']:.4f}"]
cells += [str(s["duplicate_clusters"]), str(s["status_counts"].get("duplicate", 0)),
          str(s.get("split_off", 0)),
          f"{s['seconds']['dedup']:.2f} + {s['seconds']['authority']:.2f}"]
print("| " + " | ".join(cells) + " |", flush=True)
PY
}

# both_policies SOURCE INDEX_PREFIX THRESHOLD TRUTH LABEL...: indexes SOURCE with each policy
# into INDEX_PREFIX-keep / -split and prints each one's row.
both_policies() {
  local source=$1 prefix=$2 threshold=$3 truth=$4 policy
  shift 4
  for policy in keep split; do
    local flag=()
    [[ $policy == keep ]] && flag=(--keep-chains)
    "$canon" index "$source" --out "$prefix-$policy$tag" --threshold "$threshold" "${flag[@]}" "${extra[@]}" --quiet > /dev/null
    row "$prefix-$policy$tag" "$truth" "$@" "$threshold" "$policy"
  done
}

echo "### Generated near-duplicates (canon synth)${EXTRA:+, with $EXTRA}"
echo
echo "| site | seed | ratio | threshold | policy | clusters P / R / F1 | authority | clusters >1 | duplicates | split off | dedup + authority s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for site in $sites; do
  name=${site%%=*}
  for seed in $seeds; do
    for ratio in $ratios; do
      corpus="$work/$name-$ratio-s$seed"
      [[ -f "$corpus/truth.json" ]] || "$canon" synth "${site#*=}" "$corpus" --segment-ratio "$ratio" --seed "$seed" > /dev/null
      for threshold in $thresholds; do
        both_policies "$corpus" "$work/idx-$name-$ratio-s$seed-$threshold" "$threshold" "$corpus/truth.json" \
          "$name" "$seed" "$ratio"
      done
    done
  done
done

echo
echo "### The real sites${EXTRA:+, with $EXTRA}"
echo
echo "| site | threshold | policy | clusters >1 | duplicates | split off | dedup + authority s |"
echo "|---|---|---|---|---|---|---|"
for site in $sites; do
  name=${site%%=*}
  for threshold in $thresholds; do
    both_policies "${site#*=}" "$work/real-$name-$threshold" "$threshold" - "$name"
  done
done
