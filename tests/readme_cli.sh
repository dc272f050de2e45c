#!/usr/bin/env bash
# @file readme_cli.sh
# @brief The README's CLI reference against `canon --help`: every option of every subcommand's
# --help is in the README's CLI block under that subcommand, and the block names no option that
# subcommand lacks.
#
# Usage: readme_cli.sh CANON_BINARY README
set -euo pipefail
canon=${1:?canon binary}
readme=${2:?README.md}
python3 - "$canon" "$readme" <<'PY'
import re, subprocess, sys
canon, readme = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
block = re.search(r"## CLI\n+```\n(.*?)```", text, re.S).group(1)
# The block's entries: a line starting "canon SUB" opens SUB's options until the next such line.
entries, current = {}, None
for line in block.splitlines():
    m = re.match(r"canon ((?:eval |urls |export )?[a-z]+)", line)
    if m:
        current = m.group(1)
        entries.setdefault(current, "")
    if current:
        entries[current] += line + "\n"
failures = 0
for sub in ["index", "search", "shard", "serve", "synth", "rank", "eval dedup", "eval diversity", "eval findability",
            "urls learn", "urls normalize", "urls export", "export pagefind"]:
    help_text = subprocess.run([canon, *sub.split(), "--help"], capture_output=True, text=True).stdout
    options = {o for o in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", help_text.split("Options:")[1] if "Options:" in help_text else help_text)} - {"--help"}
    documented = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", entries.get(sub, "")))
    if sub not in entries:
        print(f"README: no entry for canon {sub}"); failures += 1; continue
    for o in sorted(options - documented):
        print(f"README: canon {sub} {o} is not documented"); failures += 1
    for o in sorted(documented - options):
        print(f"README: canon {sub} {o} is documented but `canon {sub} --help` has no such option"); failures += 1
print("readme_cli: %s" % ("ok" if failures == 0 else "%d problem(s)" % failures))
sys.exit(1 if failures else 0)
PY
