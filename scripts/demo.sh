#!/usr/bin/env bash
# README command 1: install dependencies, build, index sample_site/ and run a query whose
# result shows a collapsed alternate.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build/cli/canon index sample_site --out out/sample-index
echo
echo '$ canon search out/sample-index installing'
build/cli/canon search out/sample-index installing --limit 3
