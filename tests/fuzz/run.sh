#!/usr/bin/env bash
# @file run.sh
# @brief Builds the libFuzzer targets (clang-14, ASan + UBSan) in build-fuzz/ and runs each on
# its corpus; stops at the first crash, hang (-timeout) or out-of-memory (-rss_limit_mb).
#
# Usage: tests/fuzz/run.sh [SECONDS] [TARGET...]
#   SECONDS: how long each target runs (default 60); FUZZ_RUNS=N stops a target after N
#   executions instead, when it comes first. TARGETs default to all of them.
# The working corpus of each target is build-fuzz/corpus/TARGET, seeded from
# tests/fuzz/corpus/TARGET (and sample_site's pages for fuzz_html); it grows from run to run.
# A line per target: executions, seconds, executions per second, corpus entries.
# Crashes are left as build-fuzz/crash-* (libFuzzer's artifact files): make each a regression
# test named after it (docs/reliability.md, "Fuzzing").
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz_html fuzz_page_encoding fuzz_warc fuzz_url fuzz_url_rules fuzz_readers fuzz_query fuzz_web)
command -v clang++-14 >/dev/null || { echo "fuzz: needs clang-14 and libfuzzer-14-dev (apt-get install clang-14 libfuzzer-14-dev)" >&2; exit 1; }

# Only the targets (and the libraries they link), not the canon executable.
CXX=clang++-14 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCANON_FUZZ=ON -DCANON_BUILD_TESTS=OFF -DCANON_BUILD_BENCH=OFF >/dev/null
cmake --build build-fuzz --target "${targets[@]}" >/dev/null

status=0
for target in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$target
  mkdir -p "$corpus"
  cp -n tests/fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true
  if [ "$target" = fuzz_html ]; then
    find sample_site -name '*.html' -size -64k -exec cp -n {} "$corpus"/ \;
  fi
  max_len=65536
  [ "$target" = fuzz_url ] && max_len=4096
  [ "$target" = fuzz_page_encoding ] && max_len=8192
  [ "$target" = fuzz_warc ] && max_len=16384
  [ "$target" = fuzz_query ] && max_len=1024
  runs=()
  [ -n "${FUZZ_RUNS:-}" ] && runs=(-runs="$FUZZ_RUNS")
  log=build-fuzz/$target.log
  # detect_leaks=0 under libFuzzer: the targets keep an index open for the whole run on purpose.
  if ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
      build-fuzz/tests/fuzz/"$target" "$corpus" -max_total_time="$seconds" "${runs[@]}" \
      -timeout=20 -rss_limit_mb=3072 -max_len="$max_len" -print_final_stats=1 \
      -artifact_prefix=build-fuzz/ >"$log" 2>&1; then
    result=ok
  else
    result="FAILED (see $log)"
    status=1
  fi
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo 0)
  took=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | tail -1 | grep -o 'in [0-9]*' | grep -o '[0-9]*' || true)
  took=${took:-$seconds}
  entries=$(find "$corpus" -type f | wc -l)
  rate=$(( execs / (took > 0 ? took : 1) ))
  echo "$target: $result, $execs executions in ${took}s ($rate/s), corpus $entries"
done
exit $status
