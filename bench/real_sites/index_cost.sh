#!/usr/bin/env bash
# What a change costs a build: two canon binaries index the same real sites one after the other;
# per site and binary the wall and CPU seconds, the peak RSS, the Xapian database's size and its
# spelling table's (the "did you mean" words, docs/design.md). One run each, base then new.
#
# Usage: bench/real_sites/index_cost.sh BASE_CANON NEW_CANON WORK_DIR [NAME=SITE_DIR ...]
#   default sites: python3.11-doc, postgresql-doc-15, cppreference and rust-doc (installed).
set -euo pipefail
base=${1:?base canon binary}
new=${2:?new canon binary}
work=${3:?work directory}
shift 3
sites=("$@")
[ ${#sites[@]} -gt 0 ] || sites=(python=/usr/share/doc/python3.11/html postgres=/usr/share/doc/postgresql-doc-15/html
                                 cppreference=/usr/share/cppreference/doc/html rust=/usr/share/doc/rust-doc/html)
[ -x /usr/bin/time ] || { apt-get update -q >/dev/null; apt-get install -y -q time >/dev/null; }
mkdir -p "$work"
for s in "${sites[@]}"; do
  name=${s%%=*}
  dir=${s#*=}
  for build in base new; do
    binary=$base
    [ $build = new ] && binary=$new
    rm -rf "$work/$name-$build"
    /usr/bin/time -f "%e %U %S %M" -o "$work/$name-$build.time" "$binary" index "$dir" --out "$work/$name-$build" \
      --quiet >/dev/null
    read -r wall user sys rss < "$work/$name-$build.time"
    database=$(du -sk "$work/$name-$build/xapian" | cut -f1)
    spelling=$(du -sk "$work/$name-$build/xapian/spelling.glass" 2>/dev/null | cut -f1 || echo 0)
    echo "$name $build: wall $wall s, CPU $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') s," \
         "peak RSS $((rss / 1024)) MiB, database $((database / 1024)) MiB, spelling table ${spelling:-0} KiB"
  done
done
