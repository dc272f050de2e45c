#!/usr/bin/env bash
# @file mpi_index.sh
# @brief `mpirun -np 3 canon index` (issue 29, docs/partitioned-build.md) on sample_site and on a
# generated site of 1,500 pages: pages.jsonl, graph.tsv and pairs.tsv byte for byte those of the
# one-process build, and the same search results (URLs, order, titles, snippets, alternates) for
# 20 queries over the three processes' shards; with --merge, one database that searches as the
# one-process index to the last bit of each weight; 1 and 3 processes in chunks of 3 files
# under a limit of 256 (soft) / 1,024 (hard) open files; a re-index by 3 processes after edits. Then a
# process that cannot write, and one
# killed (kill -9) after its parse: the run ends with a non-zero exit, no process hangs,
# and the previous index is byte for byte as it was.
#
# Usage: mpi_index.sh CANON_BINARY GEN_SITE_BINARY SAMPLE_SITE MPIEXEC
set -uo pipefail
canon=${1:?canon binary}
gen_site=${2:?gen_site binary}
sample=${3:?sample_site directory}
mpiexec=${4:?mpiexec}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
mpi() { timeout 300 "$mpiexec" --oversubscribe --allow-run-as-root "$@"; }
# Compares saved searches: each argument a pair of files (one process, three processes); the
# results as a reader sees them must be the same, and not empty. One interpreter for all the queries of a site.
same_results() {
  python3 - "$@" <<'PY'
import json, sys
keep = ("rank", "url", "title", "matched_url", "alternates", "place", "snippet", "pagerank")
def seen(path):
    return [{k: hit[k] for k in keep} for hit in json.load(open(path))["results"]]
# A title searched finds something: an empty list on both sides would compare equal.
differing = [a for a, b in zip(sys.argv[1::2], sys.argv[2::2]) if not seen(a) or seen(a) != seen(b)]
for a in differing:
    print(open(a + ".query").read().strip())
sys.exit(1 if differing else 0)
PY
}
digest() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum); }

"$gen_site" --pages 1500 --out "$work/generated" --dup-fraction 0.2 --seed 7 > /dev/null || fail "gen_site"
for site in "$sample" "$work/generated"; do
  name=$(basename "$site")
  "$canon" index "$site" --out "$work/$name-one" --quiet > /dev/null || fail "$name: one process"
  mpi -np 3 "$canon" index "$site" --out "$work/$name-three" --quiet > /dev/null || fail "$name: mpirun -np 3"
  for file in pages.jsonl graph.tsv pairs.tsv; do
    cmp -s "$work/$name-one/$file" "$work/$name-three/$file" || fail "$name: $file differs with 3 processes"
  done
  # 20 queries: titles spread over the site.
  python3 - "$work/$name-one/pages.jsonl" > "$work/$name.queries" <<'PY'
import json, sys
titles = [t for t in (json.loads(line).get("title", "") for line in open(sys.argv[1])) if t.strip()]
for t in titles[::max(1, len(titles) // 20)][:20]:
    print(t.replace('"', " "))
PY
  # The results as a reader sees them; the weights left out (over shards Xapian sums the
  # statistics in another order: the last bit of a weight may differ), and the count of matches,
  # which canon counts exactly over shards and estimates in one database (docs/serving.md).
  pairs=()
  i=0
  while IFS= read -r query; do
    i=$((i + 1))
    printf '%s\n' "$query" > "$work/$name.q$i.one.query"
    "$canon" search "$work/$name-one" "$query" --json --limit 20 > "$work/$name.q$i.one" || fail "$name: search '$query'"
    "$canon" search "$work/$name-three" "$query" --json --limit 20 > "$work/$name.q$i.three" || fail "$name: search '$query' over shards"
    pairs+=("$work/$name.q$i.one" "$work/$name.q$i.three")
  done < "$work/$name.queries"
  [ $i -ge 10 ] || fail "$name: only $i queries"
  differing=$(same_results "${pairs[@]}") || fail "$name: searches differ with 3 processes: $differing"
  echo "$name: 3 processes give the one-process index"
done

# --merge: one database, the same documents under the same ids as the one-process build's.
name=generated
mpi -np 3 "$canon" index "$work/generated" --out "$work/$name-merged" --merge --quiet > /dev/null || fail "--merge"
[ ! -e "$work/$name-merged/xapian/XAPIANDB" ] && [ ! -e "$work/$name-merged/shard-1" ] || fail "--merge left shards"
for file in pages.jsonl graph.tsv pairs.tsv; do
  cmp -s "$work/$name-one/$file" "$work/$name-merged/$file" || fail "--merge: $file differs"
done
# One database as one process writes it: the whole JSON of each search the same, weights too.
while IFS= read -r query; do
  [ "$("$canon" search "$work/$name-one" "$query" --json --limit 20)" == \
    "$("$canon" search "$work/$name-merged" "$query" --json --limit 20)" ] || fail "--merge: search '$query' differs"
done < "$work/$name.queries"
echo "$name: --merge gives one database that searches as the one-process index"

# Many chunks under a low limit of open files: in chunks of 3 files the generated site's store
# has ~600 segments, each held open, and a database per chunk merged would hold ~4 files each.
# With a hard limit of 1,024 and a soft one of 256, one process and 3 processes build the
# one-process index: canon raises its soft limit to the hard one, and writes its documents into
# at most 64 databases, whatever the chunks.
for processes in 1 3; do
  out="$work/$name-limited-$processes"
  (
    ulimit -Sn 256 && ulimit -Hn 1024 || exit 9
    if [ $processes -eq 1 ]; then
      "$canon" index "$work/generated" --out "$out" --chunk-files 3 --quiet
    else
      mpi -np $processes "$canon" index "$work/generated" --out "$out" --chunk-files 3 --quiet
    fi
  ) > "$work/limited.err" 2>&1 || fail "$processes process(es), 256 / 1,024 open files: $(head -c 300 "$work/limited.err")"
  for file in pages.jsonl graph.tsv pairs.tsv; do
    cmp -s "$work/$name-one/$file" "$out/$file" || fail "$processes process(es) in chunks of 3 files: $file differs"
  done
done
echo "$name: in chunks of 3 files under 256 / 1,024 open files, 1 and 3 processes give the one-process index"

# A re-index by 3 processes after edits re-reads only what changed and gives the one-process
# build of the edited site.
site="$work/generated"
first=$(find "$site" -name '*.html' | sort | head -n 1)
sed -i 's|<body>|<body><p>an edit that adds words</p>|' "$first"
rm -f "$(find "$site" -name '*.html' | sort | sed -n 2p)"
mpi -np 3 "$canon" index "$site" --out "$work/generated-three" > "$work/reindex.out" || fail "re-index with 3 processes"
grep -q "Re-indexed: 0 new, 1 changed, 1 deleted" "$work/reindex.out" || fail "re-index: $(grep Re-indexed "$work/reindex.out")"
"$canon" index "$site" --out "$work/generated-fresh" --quiet > /dev/null || fail "one process, edited site"
for file in pages.jsonl graph.tsv pairs.tsv; do
  cmp -s "$work/generated-fresh/$file" "$work/generated-three/$file" || fail "re-index: $file differs"
done
echo "generated: 3 processes re-index after edits as one process builds the edited site"

# A process killed after its parse ends the run; the previous index is kept as it was.
before=$(digest "$work/$(basename "$sample")-one")
mpi -np 3 bash -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then export CANON_FAULT_KILL_AT=parse; fi; exec "$@"' _ \
  "$canon" index "$sample" --out "$work/$(basename "$sample")-one" --quiet > /dev/null 2>&1
status=$?
[ $status -ne 0 ] || fail "a killed process: exit 0"
[ $status -ne 124 ] || fail "a killed process: the run hung"
[ "$(digest "$work/$(basename "$sample")-one")" == "$before" ] || fail "a killed process: the previous index changed"
echo "process 1 killed after its parse: exit $status, previous index kept"

# A process that cannot write (its index write fails, as on a full disk) ends the run with a
# message naming it; the previous index is kept as it was.
mpi -np 3 bash -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then export CANON_FAULT_FAIL_AT=write-index; fi; exec "$@"' _ \
  "$canon" index "$sample" --out "$work/$(basename "$sample")-one" --quiet > /dev/null 2> "$work/failed.err"
status=$?
[ $status -ne 0 ] && [ $status -ne 124 ] || fail "a process that cannot write: exit $status"
# Named by itself or by another process: the process that fails calls MPI_Abort, and Open MPI
# may kill the others, and drop what a process wrote last, before all of it is shown.
grep -Eq "process 1 of 3: cannot write at write-index|process 1 could not [a-z ]+: cannot write at write-index" \
  "$work/failed.err" || fail "a process that cannot write: not named ($(tr '\n' ' ' < "$work/failed.err"))"
[ "$(digest "$work/$(basename "$sample")-one")" == "$before" ] || fail "a process that cannot write: the previous index changed"
echo "process 1 cannot write: exit $status, named, previous index kept"

[ $failures -eq 0 ] && echo "mpi_index: ok" && exit 0
echo "mpi_index: $failures failure(s)"
exit 1
