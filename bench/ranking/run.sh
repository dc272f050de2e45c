#!/usr/bin/env bash
# Ranking quality of `canon search` for several static weights (docs/ranking.md, "Static score
# in search"): indexes Debian's python3.11-doc, runs every query of queries.tsv, and prints the
# mean reciprocal rank (MRR, over the top 10) and success@1 per static score and weight.
#
#   bench/ranking/run.sh                     # build/cli/canon, weights 0 0.5 1 2 4 8 16
#   CANON=build-q/cli/canon WEIGHTS="0 2" bench/ranking/run.sh
#   VERBOSE=1 bench/ranking/run.sh           # also the rank of every query
#   SITE=DIR BASE_URL=URL QUERIES=FILE bench/ranking/run.sh   # another site and query set
#   TITLE_WEIGHTS="0 0.5 1 2" bench/ranking/run.sh   # title weights (canon search --title-weight),
#                                            # each with every static weight; default: canon's
#
# Needs python3 (to read `canon search --json`) and the python3.11-doc package.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
canon="${CANON:-$root/build/cli/canon}"
site="${SITE:-/usr/share/doc/python3.11/html}"
work="${WORK:-${TMPDIR:-/tmp}/canon-bench-ranking}"
weights="${WEIGHTS:-0 0.5 1 2 4 8 16}"
scores="${SCORES:-log pagerank}"
base_url="${BASE_URL:-https://docs.python.org/3.11/}"
queries="${QUERIES:-$here/queries.tsv}"

[ -x "$canon" ] || { echo "run.sh: no canon binary at $canon (build, or set CANON)" >&2; exit 1; }
[ -d "$site" ] || { echo "run.sh: $site is missing: apt-get install python3.11-doc" >&2; exit 1; }
command -v python3 >/dev/null || { echo "run.sh: needs python3" >&2; exit 1; }

mkdir -p "$work"
"$canon" index "$site" --out "$work/index" --base-url "$base_url" --quiet >&2

export CANON="$canon" INDEX="$work/index" WEIGHTS="$weights" SCORES="$scores" QUERIES="$queries"
export TITLE_WEIGHTS="${TITLE_WEIGHTS:-}"
export BASE_URL="$base_url"
python3 - <<'PY'
import json, os, subprocess

base = os.environ["BASE_URL"]
queries = []
with open(os.environ["QUERIES"], encoding="utf-8") as f:
    for line in f:
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        query, *answers = line.split("\t")
        queries.append((query, {base + a for a in answers}))

def rank_of(score, weight, title, query, answers):
    title_option = ["--title-weight", title] if title else []
    out = subprocess.run([os.environ["CANON"], "search", os.environ["INDEX"], query, "--json",
                          "--limit", "10", "--static-weight", weight, "--static-score", score]
                         + title_option, check=True, capture_output=True, text=True).stdout
    for hit in json.loads(out)["results"]:
        if hit["url"].split("#")[0] in answers:
            return hit["rank"]
    return None

print(f"{len(queries)} queries\n")
print("| title weight | static score | W | MRR@10 | success@1 | found in top 10 |")
print("|---|---|---|---|---|---|")
for title in os.environ["TITLE_WEIGHTS"].split() or [""]:
  for score in os.environ["SCORES"].split():
    for weight in os.environ["WEIGHTS"].split():
        if weight in ("0", "0.0") and score != os.environ["SCORES"].split()[0]:
            continue  # W = 0 is BM25 alone whatever the static score
        ranks = [rank_of(score, weight, title, q, a) for q, a in queries]
        mrr = sum(1.0 / r for r in ranks if r) / len(ranks)
        at1 = sum(1 for r in ranks if r == 1) / len(ranks)
        found = sum(1 for r in ranks if r)
        label = "(none)" if weight in ("0", "0.0") else score
        print(f"| {title or 'default'} | {label} | {weight} | {mrr:.3f} | {at1:.3f} | {found}/{len(ranks)} |")
        if os.environ.get("VERBOSE"):
            for (q, _), r in zip(queries, ranks):
                print(f"    {q!r}: {r}")
PY
