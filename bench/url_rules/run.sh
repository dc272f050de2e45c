#!/usr/bin/env bash
# URL rules measured (docs/url-rules.md, "Measured"), in one run:
#  1. url_rules_bench on each real site given: its pages' URLs with generated URL-pattern
#     duplicates (print prefix, release folders, index.html, session ids in the query and the
#     path, tracking parameters, parameter order, and pairs of them); rules learned from 70 % of
#     the pages, then the whole site normalised, learned rules beside a hand-written normaliser.
#  2. The whole pipeline: `canon index` on sample_site and on a generated site
#     (bench/gen_site, mirror*/ copies), then `canon urls learn` on the index.
#
# Usage: bench/url_rules/run.sh [NAME=SITE_DIR ...]
#   default sites: the Debian documentation packages that are installed (python3.11-doc,
#   postgresql-doc-15, cppreference-doc-en-html, openjdk-17-doc, libstdc++-12-doc)
#   PAGES=10000  size of the generated site; SEED=1; WORK=DIR (default: a temporary directory)
# Needs a Release build with the bench tools: scripts/build.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
canon=build/cli/canon
bench=build/bench/url_rules/url_rules_bench
gen=build/bench/gen_site/gen_site
[ -x "$canon" ] && [ -x "$bench" ] && [ -x "$gen" ] || { echo "run scripts/build.sh first" >&2; exit 1; }
seed=${SEED:-1}
pages=${PAGES:-10000}
if [ -n "${WORK:-}" ]; then work=$WORK; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi

sites=("$@")
if [ ${#sites[@]} -eq 0 ]; then
  for s in python=/usr/share/doc/python3.11/html postgres=/usr/share/doc/postgresql-doc-15/html \
           cppreference=/usr/share/cppreference/doc/html javadoc=/usr/share/doc/openjdk-17-jre-headless/api \
           libstdcxx=/usr/share/doc/gcc-12-base/libstdc++; do
    [ -d "${s#*=}" ] && sites+=("$s")
  done
fi

echo "## Real sites' URLs with generated URL-pattern duplicates (seed $seed)"
echo
echo "| site | normaliser | URLs | rules | reduction | best possible | originals rewritten | copies of unseen pages normalised right |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for s in "${sites[@]}"; do
  "$bench" "${s%%=*}" "${s#*=}" "$seed"
done

echo
echo "## The whole pipeline: canon index, then canon urls learn"
echo
for name in sample_site "generated-$pages"; do
  if [ "$name" = sample_site ]; then
    site=sample_site
  else
    site="$work/site-$pages"
    [ -f "$site/truth.json" ] || "$gen" --pages "$pages" --out "$site" --seed "$seed" >/dev/null
  fi
  rm -rf "$work/index-$name"
  "$canon" index "$site" --out "$work/index-$name" --quiet >/dev/null
  echo "### $name"
  echo
  echo '```'
  /usr/bin/time -f "(learn: %e s wall, %M KiB peak RSS)" "$canon" urls learn "$work/index-$name" 2>&1
  echo '```'
  echo
done

echo "### The generated site indexed again with its rules (--url-rules), and without (both --full)"
echo
cp "$work/index-generated-$pages/url-rules.json" "$work/rules-$pages.json"
for run in without with; do
  extra=()
  [ "$run" = with ] && extra=(--url-rules "$work/rules-$pages.json")
  rm -rf "$work/again-$run"
  /usr/bin/time -f "$run rules: %e s wall, %U s user, %M KiB peak RSS" -o "$work/time-$run" \
    "$canon" index "$work/site-$pages" --out "$work/again-$run" --full "${extra[@]}" > "$work/out-$run"
  echo "    $(cat "$work/time-$run")"
  sed 's/^/    /' "$work/out-$run"
done
echo
