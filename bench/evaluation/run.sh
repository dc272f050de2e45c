#!/usr/bin/env bash
# The tables of docs/evaluation.md ("Reproduction"), from scratch: the published near-duplicate
# experiment rerun with canon — `canon synth` sites made from two real corpora at several
# segment ratios and seeds, indexed with every detector, scored by `canon eval dedup` (pairwise
# P/R/F1 before and after union-find, mean ± sample standard deviation over the seeds) — an SVG
# plot of F1 against the segment ratio per detector, and the `canon eval diversity` table of
# each corpus. This script is the only source of those tables: rerun it after changing a
# detector.
#
# Usage: bench/evaluation/run.sh [options]
#   --quick             1 seed, ratios 0.05 0.10 0.15 (a first look; about a quarter of the work)
#   --seeds "1 2 3"     synth seeds (default 1 2 3)
#   --ratios "..."      segment ratios (default 0.05 0.06 0.07 0.10 0.15 0.20)
#   --detectors "..."   default minhash simhash mwo multik keyword exact
#   --corpora "..."     python and/or postgres (default both)
#   --jobs N            units run in parallel (default 2)
#   --work DIR          cache of sites and results (default out/evaluation); reused by later
#                       runs, so an interrupted run resumes where it stopped
#   --update-docs       write the tables into docs/evaluation.md (between the BEGIN/END
#                       markers) and the plot to bench/evaluation/f1-vs-ratio.svg; otherwise
#                       both go to WORK/ only
#   --fresh-results     recompute every score (keeps the synth sites): after a detector change
# Environment: CANON (default build/cli/canon: scripts/build.sh or any Release build).
# Corpora (Debian packages): python = python3.11-doc, postgres = postgresql-doc-15.
#
# Every unit (a synth site; a detector on a site; the diversity run of a corpus) writes its
# result to a temporary name and renames it into place, under a per-unit flock, so parallel
# runs on one WORK do each unit once and an interrupted unit is simply redone.
set -euo pipefail
shopt -s inherit_errexit
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/bench/evaluation"

seeds="1 2 3"
ratios="0.05 0.06 0.07 0.10 0.15 0.20"
detectors="minhash simhash mwo multik keyword exact"
corpora="python postgres"
jobs=2
work="$root/out/evaluation"
update_docs=0
fresh=0
unit=()
# The diversity table: one site per corpus (this ratio, the first seed), minhash, 100 queries
# drawn with this seed from titles and headings, k = 10.
div_ratio=0.05
div_queries=100
div_query_seed=1

while [ $# -gt 0 ]; do
  case "$1" in
    --quick) seeds="1"; ratios="0.05 0.10 0.15" ;;
    --seeds) seeds=$2; shift ;;
    --ratios) ratios=$2; shift ;;
    --detectors) detectors=$2; shift ;;
    --corpora) corpora=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --work) work=$2; shift ;;
    --update-docs) update_docs=1 ;;
    --fresh-results) fresh=1 ;;
    --unit) shift; unit=("$@"); break ;;  # internal: run one unit (see below)
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

canon=${CANON:-$root/build/cli/canon}
[ -x "$canon" ] || { echo "no canon binary at $canon: run scripts/build.sh or set CANON" >&2; exit 1; }
work=$(mkdir -p "$work" && cd "$work" && pwd)
mkdir -p "$work/sites" "$work/results/dedup" "$work/results/diversity" "$work/locks" "$work/tmp"

source_of() {
  case "$1" in
    python) echo /usr/share/doc/python3.11/html ;;
    postgres) echo /usr/share/doc/postgresql-doc-15/html ;;
    *) echo "unknown corpus $1" >&2; exit 2 ;;
  esac
}

# site CORPUS RATIO SEED: makes (once) and prints the synth site's directory.
site() {
  local corpus=$1 ratio=$2 seed=$3
  local dir="$work/sites/$corpus-r$ratio-s$seed"
  (
    flock 9
    if [ ! -f "$dir/truth.json" ]; then
      local src; src=$(source_of "$corpus")
      [ -d "$src" ] || { echo "corpus $corpus: $src is missing (install its Debian package)" >&2; exit 1; }
      "$canon" synth "$src" "$dir" --segment-ratio "$ratio" --seed "$seed" >/dev/null
    fi
  ) 9>"$work/locks/site-$corpus-r$ratio-s$seed.lock"
  echo "$dir"
}

# One unit of work; its result file is its completion marker.
run_unit() {
  case "$1" in
    dedup)  # dedup CORPUS RATIO SEED DETECTOR
      local corpus=$2 ratio=$3 seed=$4 detector=$5
      local key="$corpus-r$ratio-s$seed-$detector"
      local out="$work/results/dedup/$key.json"
      (
        flock 9
        [ -f "$out" ] && exit 0
        local dir; dir=$(site "$corpus" "$ratio" "$seed")
        local index="$work/tmp/index-$key"
        rm -rf "$index"
        local start=$SECONDS
        "$canon" index "$dir" --out "$index" --detector "$detector" --quiet >/dev/null
        local seconds=$((SECONDS - start))
        "$canon" eval dedup "$index" --truth "$dir/truth.json" --json > "$out.tmp"
        python3 - "$out.tmp" "$index/summary.json" "$corpus" "$ratio" "$seed" "$detector" "$seconds" <<'PY'
import json, sys
path, summary, corpus, ratio, seed, detector, seconds = sys.argv[1:]
result = json.load(open(path))
s = json.load(open(summary))
result["run"] = {"corpus": corpus, "segment_ratio": float(ratio), "seed": int(seed),
                 "detector": detector, "index_seconds": int(seconds),
                 "dedup_seconds": s["seconds"].get("dedup")}
json.dump(result, open(path, "w"), indent=1)
PY
        mv "$out.tmp" "$out"
        rm -rf "$index"
        echo "done: dedup $key" >&2
      ) 9>"$work/locks/dedup-$key.lock"
      ;;
    diversity)  # diversity CORPUS
      local corpus=$2 seed=${seeds%% *}
      local out="$work/results/diversity/$corpus.json"
      (
        flock 9
        [ -f "$out" ] && exit 0
        local dir; dir=$(site "$corpus" "$div_ratio" "$seed")
        local index="$work/tmp/index-$corpus-diversity"
        rm -rf "$index"
        "$canon" index "$dir" --out "$index" --no-collapse --quiet >/dev/null
        "$canon" eval diversity "$index" --truth "$dir/truth.json" --sample "$div_queries" \
          --seed "$div_query_seed" --work-dir "$work/tmp" --json > "$out.tmp"
        mv "$out.tmp" "$out"
        rm -rf "$index"
        echo "done: diversity $corpus" >&2
      ) 9>"$work/locks/diversity-$corpus.lock"
      ;;
    *) echo "unknown unit $1" >&2; exit 2 ;;
  esac
}

if [ ${#unit[@]} -gt 0 ]; then
  run_unit "${unit[@]}"
  exit 0
fi

if [ "$fresh" = 1 ]; then rm -f "$work"/results/dedup/*.json "$work"/results/diversity/*.json; fi

# The units, site by site (so parallel jobs share a site rather than each making one), seed by
# seed (so a stopped run has complete tables for its first seeds: --seeds "1" summarises them).
# Piped straight into xargs: no list file that a concurrent run on the same WORK could rewrite.
units() {
  for corpus in $corpora; do echo "diversity $corpus"; done
  for seed in $seeds; do
    for corpus in $corpora; do
      for ratio in $ratios; do
        for detector in $detectors; do echo "dedup $corpus $ratio $seed $detector"; done
      done
    done
  done
}
echo "$(units | wc -l) units, $jobs at a time, in $work" >&2
export CANON="$canon"
failed=0
units | xargs -P "$jobs" -L 1 "$0" --work "$work" --seeds "$seeds" --unit || failed=1

# Tables and plot from the results of this run's parameters.
if [ "$update_docs" = 1 ]; then
  svg="$here/f1-vs-ratio.svg"
  docs="$root/docs/evaluation.md"
else
  svg="$work/f1-vs-ratio.svg"
  docs=""
fi
python3 "$here/summarise.py" --results "$work/results" --corpora "$corpora" --seeds "$seeds" \
  --ratios "$ratios" --detectors "$detectors" --svg "$svg" --tables "$work/tables.md" \
  --docs "$docs" --svg-link "../bench/evaluation/f1-vs-ratio.svg" \
  --command "bench/evaluation/run.sh$([ "$seeds $ratios" = "1 2 3 0.05 0.06 0.07 0.10 0.15 0.20" ] || echo " --seeds \"$seeds\" --ratios \"$ratios\"") --update-docs"
echo "tables: $work/tables.md; plot: $svg${docs:+; docs/evaluation.md updated}" >&2
if [ "$failed" = 1 ]; then
  echo "some units failed (see above): their results are missing from the tables; rerun to retry them" >&2
  exit 1
fi
