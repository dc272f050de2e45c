#!/usr/bin/env bash
# @file remote_shards_real_sites.sh
# @brief Remote shards give one database's results on real sites (docs/serving.md): python3.11-doc
# and cppreference indexed, split in 3 shards (two served by xapian-tcpsrv on loopback), each kind
# of query asked of both (tests/remote_shards.py --real-sites). A few minutes: a bench, not a test.
#
# Usage: bench/serving/remote_shards_real_sites.sh [CANON]   (default build/cli/canon)
# Exits 77 when xapian-tools or the sites are missing, non-zero when a result differs.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec python3 tests/remote_shards.py "${1:-build/cli/canon}" --real-sites
