#!/usr/bin/env bash
# Two releases of a Doxygen-made reference side by side, files numbered anew in each (issue 55,
# point 4): Doxygen with SHORT_NAMES=YES names its pages a00123.html in the order it meets them,
# so one document has another file name in the next release wherever a page was added before it.
# Builds each release's HTML from the project's sources, puts them in WORK_DIR/site/TAG/,
# indexes the site with canon and measures the pairs of one title across the two releases
# (renumbered_releases.py): how many share a cluster, and how many of those have the newer
# release's page authoritative; lists the pairs left apart and a sample of those put together.
#
# Usage: bench/real_sites/renumbered_releases.sh GIT_DIR OLD_TAG NEW_TAG WORK_DIR [CANON_BINARY]
#   GIT_DIR: a git repository (a bare one works); INPUTS="include docs" the project's directories
#   Doxygen reads (*.h, *.dox, *.md), PROJECT=name its name in the titles. CANON_BINARY defaults
#   to build/cli/canon. Needs doxygen (Debian's `doxygen`).
#   Measured (docs/dedup-names.md, "0.3 for one name in another release"): GLFW 3.3.10 and 3.4
#   (https://github.com/glfw/glfw) and JsonCpp 1.9.4 and 1.9.5
#   (https://github.com/open-source-parsers/jsoncpp):
#     PROJECT=GLFW bench/real_sites/renumbered_releases.sh GLFW_GIT_DIR 3.3.10 3.4 /tmp/glfw
#     PROJECT=JsonCpp INPUTS="include doc" bench/real_sites/renumbered_releases.sh JSONCPP_GIT_DIR 1.9.4 1.9.5 /tmp/jsoncpp
set -euo pipefail
cd "$(dirname "$0")/../.."
git_dir=${1:?usage: renumbered_releases.sh GIT_DIR OLD_TAG NEW_TAG WORK_DIR [CANON_BINARY]}
old=${2:?old release tag}
new=${3:?new release tag}
work=${4:?work directory}
canon=${5:-build/cli/canon}
inputs=${INPUTS:-include docs}
project=${PROJECT:-$(basename "$(realpath "$git_dir")" .git)}
command -v doxygen >/dev/null || { echo "renumbered_releases: doxygen is not installed (apt-get install doxygen)" >&2; exit 1; }
rm -rf "$work/site" "$work/index"
mkdir -p "$work/site"
for tag in "$old" "$new"; do
  src="$work/src-$tag"
  rm -rf "$src" "$work/doxygen-$tag"
  mkdir -p "$src"
  git -C "$git_dir" archive "$tag" | tar -x -C "$src"
  dirs=""
  for d in $inputs; do [ -d "$src/$d" ] && dirs="$dirs $src/$d"; done
  # Titles name files without the release's source directory, as one project's releases do.
  cat > "$work/Doxyfile-$tag" <<DOXYFILE
PROJECT_NAME = $project
INPUT = $dirs
FILE_PATTERNS = *.h *.hpp *.dox *.md
RECURSIVE = YES
EXCLUDE_PATTERNS = */CONTRIBUTING.md */SUPPORT.md
STRIP_FROM_PATH = $src
SHORT_NAMES = YES
EXTRACT_ALL = YES
GENERATE_HTML = YES
GENERATE_LATEX = NO
OUTPUT_DIRECTORY = $work/doxygen-$tag
HTML_OUTPUT = html
QUIET = YES
WARNINGS = NO
DOXYFILE
  doxygen "$work/Doxyfile-$tag" >/dev/null 2>&1
  cp -r "$work/doxygen-$tag/html" "$work/site/$tag"
done
"$canon" index "$work/site" --out "$work/index" --quiet
python3 bench/real_sites/renumbered_releases.py "$work/index" "$old" "$new"
