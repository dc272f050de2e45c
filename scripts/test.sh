#!/usr/bin/env bash
# README command 2: install dependencies, build and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
# The tools were just installed: a browser or Omega test that cannot find them fails, not skips.
CANON_REQUIRE_TOOLS=1 ctest --test-dir build --output-on-failure -j "$(nproc)"
