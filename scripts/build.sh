#!/usr/bin/env bash
# Configures and builds canon (Release) in build/, or in $CANON_BUILD_DIR with extra CMake
# arguments passed through: scripts/build.sh -DCANON_SANITIZE=ON
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${CANON_BUILD_DIR:-build}"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${CANON_BUILD_TYPE:-Release}" "$@" >/dev/null
cmake --build "$build_dir"
