#!/usr/bin/env bash
# @file cli_help.sh
# @brief `canon COMMAND --help` for every command: each option shows a value name (N, FILE, DIR,
# tsv|nutch ...), never the parser's types (INT, UINT, FLOAT, TEXT, ENUM, "value in {...}"); and
# a short flag means one option in every command that has it.
#
# Usage: cli_help.sh CANON_BINARY
set -uo pipefail
canon=${1:?canon binary}
commands=(index search serve shard synth rank "eval dedup" "eval diversity" "eval findability"
          "urls learn" "urls normalize" "urls export")
failures=0
declare -A long_of  # short flag -> "--long (command)"
for command in "${commands[@]}"; do
  # shellcheck disable=SC2086
  help=$("$canon" $command --help) || { echo "FAIL: canon $command --help exits $?"; failures=$((failures + 1)); }
  types=$(grep -E '\b(INT|UINT|FLOAT|TEXT|ENUM|BOOLEAN)\b|value in|\{(true|false)\}' <<<"$help")
  if [ -n "$types" ]; then
    echo "FAIL: canon $command --help shows the parser's types:"
    echo "$types"
    failures=$((failures + 1))
  fi
  # "  -j,--threads N ..." lines: the short flag and its long name.
  while read -r short long; do
    if [ -n "${long_of[$short]:-}" ] && [ "${long_of[$short]%% *}" != "$long" ]; then
      echo "FAIL: $short is $long in canon $command but ${long_of[$short]}"
      failures=$((failures + 1))
    fi
    long_of[$short]="$long (canon $command)"
  done < <(sed -nE 's/^  (-[a-zA-Z]),(--[a-z-]+).*/\1 \2/p' <<<"$help")
done
[ $failures -eq 0 ] || { echo "cli_help: $failures failure(s)"; exit 1; }
echo "cli_help: ok (${#commands[@]} commands; short flags: ${!long_of[*]})"
