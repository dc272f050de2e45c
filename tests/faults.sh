#!/usr/bin/env bash
# @file faults.sh
# @brief Faults during `canon index` (issue 16, docs/reliability.md "Faults"):
#  1. kill -9 at each stage (after the parse, the dedup, the Xapian merge, the records, just
#     before the swap, and just after it): the previous index stays byte for byte as it was (or,
#     killed after the swap, the new one is complete) and searchable; the next run succeeds and
#     leaves no build directory behind.
#  2. a full disk (a 3 MiB tmpfs) and a read-only file system (tmpfs remounted read-only): a
#     clear error naming INDEX_DIR (not its hidden build directory), a non-zero exit, the
#     previous index kept, nothing half-written left.
# The kills use canon's test hook CANON_FAULT_KILL_AT (common/fault_injection.h). Part 2 needs
# root to mount tmpfs; without it part 2 is skipped (exit 77 when CANON_REQUIRE_TOOLS is unset).
#
# Usage: faults.sh CANON_BINARY SAMPLE_SITE
set -uo pipefail
canon=${1:?canon binary}
sample=${2:?sample_site directory}
work=$(mktemp -d)
mounted=()
cleanup() {
  for m in "${mounted[@]}"; do umount "$m" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# A digest of every file below a directory (names and bytes).
digest() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum); }
# A query that finds something in an index of sample_site.
# (Output captured first: `grep -q` stops reading early, and under pipefail canon's SIGPIPE
# would count as a failure.)
searchable() { local out; out=$("$canon" search "$1" installation --json 2>/dev/null) && [[ $out == *'"url"'* ]]; }
# Whether a search of index $1 for $2 finds the page $3.
finds() { local out; out=$("$canon" search "$1" "$2" --json 2>/dev/null) && [[ $out == *"$3"* ]]; }
# Build directories left beside an index.
leftovers() { find "$(dirname "$1")" -maxdepth 1 -name ".$(basename "$1").building-*" | wc -l; }

# --- 1. kill -9 at each stage ---------------------------------------------------------------
cp -r "$sample" "$work/site"
out="$work/index"
"$canon" index "$work/site" --out "$out" --quiet >/dev/null || fail "the first index failed"
before=$(digest "$out")
echo "<html><head><title>Grebe</title></head><body><main><p>A new page about the great crested grebe.</p></main></body></html>" \
  > "$work/site/grebe.html"
for stage in parse dedup xapian records swap replaced; do
  { (CANON_FAULT_KILL_AT=$stage exec "$canon" index "$work/site" --out "$out" --quiet >/dev/null 2>&1); } 2>/dev/null
  status=$?
  [ $status -eq 137 ] || fail "$stage: expected death by SIGKILL (137), got $status"
  if [ $stage = replaced ]; then
    # Killed after the swap: the new index is whole and in place.
    finds "$out" grebe grebe.html || fail "$stage: the new index is not in place"
  else
    [ "$(digest "$out")" = "$before" ] || fail "$stage: the previous index changed"
  fi
  searchable "$out" || fail "$stage: the index is not searchable after the kill"
  [ "$(leftovers "$out")" -ge 1 ] || fail "$stage: the dead run left no build directory to clean (the hook did not fire?)"
  # The next run cleans up after the dead one.
  "$canon" index "$work/site" --out "$out" --quiet >/dev/null 2>&1 || fail "$stage: the next run failed"
  [ "$(leftovers "$out")" -eq 0 ] || fail "$stage: the next run left a build directory behind"
  finds "$out" grebe grebe.html || fail "$stage: the next run did not index the new page"
  # Back to the first index for the next stage.
  rm "$work/site/grebe.html"
  "$canon" index "$work/site" --out "$out" --quiet >/dev/null 2>&1
  before=$(digest "$out")
  echo "<html><head><title>Grebe</title></head><body><main><p>A new page about the great crested grebe.</p></main></body></html>" \
    > "$work/site/grebe.html"
  echo "kill -9 at $stage: ok"
done

# --- 2. a full disk, a read-only file system --------------------------------------------------
disk="$work/disk"
mkdir -p "$disk"
if ! mount -t tmpfs -o size=3m tmpfs "$disk" 2>/dev/null; then
  echo "faults: cannot mount tmpfs (not root?): full-disk and read-only cases skipped" >&2
  [ $failures -eq 0 ] || exit 1
  [ "${CANON_REQUIRE_TOOLS:-0}" = 1 ] && { echo "FAIL: CANON_REQUIRE_TOOLS=1 and no tmpfs" >&2; exit 1; }
  exit 77
fi
mounted+=("$disk")
small="$work/small"
mkdir -p "$small"
cp "$sample"/*.html "$small"/
"$canon" index "$small" --out "$disk/index" --quiet >/dev/null || fail "full disk: the small index does not fit in 3 MiB"
before=$(digest "$disk/index")
# A site whose index cannot fit: 400 pages of distinct words.
big="$work/big"
mkdir -p "$big"
python3 - "$big" <<'PY'
import random, sys
random.seed(7)
for p in range(400):
    words = " ".join("w%d" % random.randrange(10**6) for _ in range(800))
    open(f"{sys.argv[1]}/p{p}.html", "w").write(f"<html><head><title>Page {p}</title></head><body><main><p>{words}</p></main></body></html>")
PY
message=$("$canon" index "$big" --out "$disk/index" --quiet 2>&1 >/dev/null)
status=$?
[ $status -eq 4 ] || fail "full disk: expected exit 4 (an I/O error, README \"Exit status\"), got $status"
echo "$message" | grep -qi "no space\|cannot" || fail "full disk: no clear message: $message"
# The message names INDEX_DIR, not the hidden directory the index is built in.
[[ $message == *"$disk/index"* && $message != *.building-* ]] || fail "full disk: the message names a build directory: $message"
[ "$(digest "$disk/index")" = "$before" ] || fail "full disk: the previous index changed"
searchable "$disk/index" || fail "full disk: the previous index is not searchable"
[ "$(leftovers "$disk/index")" -eq 0 ] || fail "full disk: a half-written build directory was left"
echo "full disk: ok ($message)"

mount -o remount,ro "$disk" || fail "read-only: cannot remount"
message=$("$canon" index "$small" --out "$disk/index" --quiet 2>&1 >/dev/null)
status=$?
[ $status -eq 4 ] || fail "read-only: expected exit 4 (an I/O error), got $status"
echo "$message" | grep -qi "read-only\|cannot" || fail "read-only: no clear message: $message"
[[ $message == *"$disk/index"* && $message != *.building-* ]] || fail "read-only: the message names a build directory: $message"
[ "$(digest "$disk/index")" = "$before" ] || fail "read-only: the previous index changed"
searchable "$disk/index" || fail "read-only: the previous index is not searchable"
echo "read-only file system: ok ($message)"

[ $failures -eq 0 ] || { echo "faults: $failures failure(s)" >&2; exit 1; }
echo "faults: all ok"
