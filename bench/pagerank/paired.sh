#!/usr/bin/env bash
# @file paired.sh
# @brief A/B timing of two `canon rank` variants on a noisy VM: interleaved pairs of one-thread
# runs on the same edge list, the hypervisor's steal time recorded around every run, and the
# ratio of each pair. Prints a Markdown table and a summary over the pairs in which neither run
# lost more than --max-steal ticks (1/100 s each) to steal.
#
# usage: bench/pagerank/paired.sh GRAPH CANON_A CANON_B [--pairs N] [--max-steal T]
#                                 [--args-a "..."] [--args-b "..."]
#
#   GRAPH      an edge list (e.g. from bench/pagerank/run.sh's work directory)
#   CANON_A/B  two canon binaries (they may be the same, with different --args-a/--args-b)
#   --pairs    number of A, B pairs (default 10)
#   --max-steal  steal ticks above which a pair is left out of the summary (default 100)
#   --args-a/--args-b  extra `canon rank` arguments for each side (e.g. --args-b --double-only
#              on a build of branch pagerank-float-start)
set -euo pipefail
[[ $# -ge 3 ]] || { sed -n '2,16p' "$0"; exit 2; }
graph="$1"; a="$2"; b="$3"; shift 3
pairs=10; max_steal=100; args_a=""; args_b=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --pairs) pairs="$2"; shift 2 ;;
    --max-steal) max_steal="$2"; shift 2 ;;
    --args-a) args_a="$2"; shift 2 ;;
    --args-b) args_b="$2"; shift 2 ;;
    *) echo "paired.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ -s "$graph" ]] || { echo "paired.sh: no edge list at $graph" >&2; exit 1; }
for bin in "$a" "$b"; do [[ -x "$bin" ]] || { echo "paired.sh: $bin is not executable" >&2; exit 1; }; done

steal_ticks() { awk '/^cpu / { print $9; exit }' /proc/stat; }
# one BIN ARGS: prints "NS_PER_EDGE_ITERATION STEAL_TICKS" for one run.
one() {
  local before ns
  before=$(steal_ticks)
  # shellcheck disable=SC2086  # ARGS is a list of words
  ns=$("$1" rank "$graph" --threads 1 --timings -q $2 2>&1 >/dev/null |
       grep -o 'ns_per_edge_iteration=[^ ]*' | cut -d= -f2)
  echo "$ns $(( $(steal_ticks) - before ))"
}

echo "| pair | A ns/edge/iter | A steal | B ns/edge/iter | B steal | B / A |"
echo "|---:|---:|---:|---:|---:|---:|"
results=()
for ((i = 1; i <= pairs; ++i)); do
  read -r ns_a steal_a < <(one "$a" "$args_a")
  read -r ns_b steal_b < <(one "$b" "$args_b")
  ratio=$(awk -v x="$ns_a" -v y="$ns_b" 'BEGIN { printf "%.3f", y / x }')
  echo "| $i | $ns_a | $steal_a | $ns_b | $steal_b | $ratio |"
  results+=("$ns_a $steal_a $ns_b $steal_b $ratio")
done
# Summary over the pairs under the steal limit, sorted by ratio (for the median).
printf '%s\n' "${results[@]}" | awk -v max="$max_steal" '$2 <= max && $4 <= max' | sort -n -k5,5 |
  awk -v max="$max_steal" '
    { n++; a += $1; b += $3; r[n] = $5 }
    END {
      if (n == 0) { print "\nno pair under the steal limit"; exit }
      median = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
      printf "\n%d pairs with steal <= %d ticks: mean A %.3f, mean B %.3f ns/edge/iter; B / A from %.3f to %.3f, median %.3f\n",
             n, max, a / n, b / n, r[1], r[n], median
    }'
