#!/usr/bin/env bash
# @file run.sh
# @brief PageRank benchmark: `canon rank` (1 and 2 threads) against igraph's PRPACK, on the same
# generated power-law edge lists, in one run. Prints a Markdown table (docs/benchmarks-search.md, "PageRank").
#
# usage: bench/pagerank/run.sh [--sizes 1M/10M,5M/50M] [--seed S] [--work DIR] [--build DIR]
#
#   --sizes  comma-separated NODES/EDGES pairs for gen_powerlaw_graph (k, M, G suffixes)
#   --seed   generator seed (default 1); graphs are cached in the work directory by size and seed
#   --work   where graphs and score files go (default ${TMPDIR:-/tmp}/canon-bench-pagerank)
#   --build  CMake build directory (default build-bench; configured Release, bench on)
#
# For each graph: canon's load (parse + intern ids), build (LinkGraph) and PageRank times and
# iterations from `canon rank --timings`, ns per edge per iteration, peak RSS from
# /usr/bin/time -v; igraph's Read_Ncol, simplify (drop self-loops, merge parallel edges, as
# canon does) and pagerank(implementation="prpack") times and peak RSS; the L1 distance between
# canon's and PRPACK's score vectors (2 threads: whether the output is identical to 1 thread's).
# Installs python3-igraph and time with apt-get when missing (as root, or through sudo).
set -euo pipefail
cd "$(dirname "$0")/../.."

sizes="1M/10M,5M/50M"
seed=1
work="${TMPDIR:-/tmp}/canon-bench-pagerank"
build="build-bench"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --sizes) sizes="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }
need_install=()
/usr/bin/python3 -c 'import igraph' 2>/dev/null || need_install+=(python3-igraph)
[[ -x /usr/bin/time ]] || need_install+=(time)
if [[ ${#need_install[@]} -gt 0 ]]; then
  echo "run.sh: installing ${need_install[*]}" >&2
  as_root apt-get update -qq >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_install[@]}" >&2
fi

echo "run.sh: building canon and gen_powerlaw_graph in $build" >&2
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCANON_BUILD_BENCH=ON >/dev/null
cmake --build "$build" --target canon gen_powerlaw_graph >/dev/null
canon="$build/cli/canon"
gen="$build/bench/pagerank/gen_powerlaw_graph"
mkdir -p "$work"

# value KEY FILE: the value of KEY=VALUE in FILE.
value() { grep -o "$1=[^ ]*" "$2" | head -1 | cut -d= -f2; }
# peak_mb FILE: peak RSS in MB from /usr/bin/time -v output.
peak_mb() { awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$1"; }

rows=()
for size in ${sizes//,/ }; do
  nodes="${size%/*}"
  edges="${size#*/}"
  graph="$work/powerlaw-$nodes-$edges-seed$seed.tsv"
  if [[ ! -s "$graph" ]]; then
    echo "run.sh: generating $graph" >&2
    start=$(date +%s%N)
    "$gen" --nodes "$nodes" --edges "$edges" --seed "$seed" --out "$graph.tmp"
    mv "$graph.tmp" "$graph"
    echo "run.sh: generated in $(( ($(date +%s%N) - start) / 1000000 )) ms" >&2
  fi

  echo "run.sh: igraph PRPACK on $size" >&2
  /usr/bin/time -v -o "$work/time-igraph.txt" \
    /usr/bin/python3 bench/pagerank/igraph_pagerank.py "$graph" "$work/igraph.tsv" > "$work/igraph.out"
  t="$work/igraph.out"
  igraph_row="| $size | igraph PRPACK | $(value nodes "$t") | $(value edges "$t") | $(value load_s "$t") | $(value simplify_s "$t") | $(value pagerank_s "$t") | | | $(peak_mb "$work/time-igraph.txt") | |"

  for threads in 1 2; do
    echo "run.sh: canon rank on $size, --threads $threads" >&2
    /usr/bin/time -v -o "$work/time-canon-$threads.txt" \
      "$canon" rank "$graph" --threads "$threads" --timings -q \
      > "$work/canon-$threads.tsv" 2> "$work/canon-$threads.err"
    if [[ $threads -gt 1 ]] && cmp -s "$work/canon-1.tsv" "$work/canon-$threads.tsv"; then
      l1="same output as 1 thread"
    else
      /usr/bin/python3 bench/pagerank/compare_scores.py "$work/canon-$threads.tsv" "$work/igraph.tsv" > "$work/compare.out"
      l1="$(value l1 "$work/compare.out") (max $(value max_abs "$work/compare.out"))"
    fi
    t="$work/canon-$threads.err"
    label="1 thread"
    if [[ $threads -gt 1 ]]; then label="$threads threads"; fi
    rows+=("| $size | canon rank, $label | $(value nodes "$t") | $(value edges "$t") | $(value load_s "$t") | $(value build_s "$t") | $(value pagerank_s "$t") ($(value pagerank_setup_s "$t")) | $(value iterations "$t") | $(value ns_per_edge_iteration "$t") | $(peak_mb "$work/time-canon-$threads.txt") | $l1 |")
  done
  rows+=("$igraph_row")
done

echo "| graph (nodes/edges) | run | nodes | edges kept | load s | build s | PageRank s (setup) | iterations | ns/edge/iter | peak RSS MB | L1 vs PRPACK |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${rows[@]}"
echo
echo "Wall-clock seconds. canon: load = parse + intern ids, build = LinkGraph, PageRank ="
echo "compute_pagerank (setup = renumbering and allocation), ns/edge/iter = iteration time /"
echo "(edges kept * iterations), tolerance 1e-10. igraph: load = Read_Ncol, build = simplify(),"
echo "PageRank = pagerank(implementation=\"prpack\"). Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)."
