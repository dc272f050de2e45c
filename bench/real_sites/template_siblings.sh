#!/usr/bin/env bash
# Precision with labels on pages of one generator template (issue 14, point 3): `canon synth`
# corpora whose originals are template siblings that differ in a few words of their own, made
# from Debian's documentation packages, scored by bench/dedup/quality.sh.
#
# Usage: bench/real_sites/template_siblings.sh [WORK_DIR] [RATIOS] [SEEDS]
#   cppreference-random: every page under en/cpp/numeric/random/ (272: the distributions and
#                        engines and their member pages, `…/param.html`, `…/min.html`, …)
#   javadoc-class-use:   java.base's java/util/class-use/ and java/lang/class-use/ (251
#                        "Uses of Class X" pages)
#   doxygen-member-lists: libstdc++-12-doc's 936 pages titled "libstdc++: Member List"
#   rust-intrinsics:     rust-doc's x86 intrinsic pages, core/arch/x86/fn.*.html, every 8th in
#                        name order (569 short pages of one template: a signature, a line of
#                        text, the "Available on" line)
# RATIOS default "0.05 0.10"; SEEDS default "1". CORPORA="rust-intrinsics=WORK_DIR/src-rust-intrinsics"
# runs only the corpora named (NAME=DIR, as quality.sh's SITES). Needs a Release build (scripts/build.sh),
# or CANON=BINARY.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${1:-/tmp/canon-template-siblings}
ratios=${2:-"0.05 0.10"}
seeds=${3:-"1"}
canon=${CANON:-build/cli/canon}
[ -x "$canon" ] || { echo "run scripts/build.sh first" >&2; exit 1; }
need=()
for p in cppreference-doc-en-html openjdk-17-doc libstdc++-12-doc wordnet-base; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null
fi
mkdir -p "$work"

# copy_pages SRC_ROOT DEST FILE...: the files, at their paths below SRC_ROOT, and an index.html
# linking to each, as the site's own class and package pages do: the originals keep in-links,
# as on the whole site (synth links a copy from its original only).
copy_pages() {
  local root=$1 dest=$2; shift 2
  rm -rf "$dest"; mkdir -p "$dest"
  (cd "$root" && cp --parents "$@" "$dest/")
  { echo "<!DOCTYPE html><html><head><title>Index of the pages</title></head><body><main><h1>Index</h1><ul>"
    for f in "$@"; do echo "<li><a href=\"$f\">$f</a></li>"; done
    echo "</ul></main></body></html>"; } > "$dest/index.html"
}
cpp=/usr/share/cppreference/doc/html
mapfile -t pages < <(cd "$cpp" && find en/cpp/numeric/random -name '*.html' | sort)
copy_pages "$cpp" "$work/src-cppreference-random" "${pages[@]}"
api=/usr/share/doc/openjdk-17-jre-headless/api
mapfile -t pages < <(cd "$api" && ls java.base/java/util/class-use/*.html java.base/java/lang/class-use/*.html)
copy_pages "$api" "$work/src-javadoc-class-use" "${pages[@]}"
lib=/usr/share/doc/gcc-12-base/libstdc++
mapfile -t pages < <(cd "$lib" && grep -l "<title>libstdc++: Member List</title>" user/*.html)
copy_pages "$lib" "$work/src-doxygen-member-lists" "${pages[@]}"
rust=/usr/share/doc/rust-doc/html
mapfile -t pages < <(cd "$rust" && ls core/arch/x86/fn.*.html | sort | awk 'NR % 8 == 1')
copy_pages "$rust" "$work/src-rust-intrinsics" "${pages[@]}"

bench/dedup/quality.sh "$canon" "$work" "$seeds" "$ratios" minhash "${CORPORA:-cppreference-random=$work/src-cppreference-random \
javadoc-class-use=$work/src-javadoc-class-use doxygen-member-lists=$work/src-doxygen-member-lists \
rust-intrinsics=$work/src-rust-intrinsics}"
