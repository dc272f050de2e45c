#!/usr/bin/env bash
# @file omega_compat.sh
# @brief Xapian's own tools read a canon database as one of theirs: Omega's CGI (run from the
# command line), quest, xapian-delve and xapian-metadata on an index of sample_site, in both
# collapse modes (docs/index-format.md). Skipped (exit 77) when a tool is missing, failed
# when CANON_REQUIRE_TOOLS=1: scripts/install-deps.sh installs xapian-omega and xapian-tools.
#
# Usage: omega_compat.sh CANON_BINARY SAMPLE_SITE_DIR
set -euo pipefail
canon="$1"
site="$2"
omega=/usr/lib/cgi-bin/omega/omega
templates=/usr/share/xapian-omega/templates

for tool in "$omega" quest xapian-delve xapian-metadata; do
  if ! command -v "$tool" >/dev/null; then
    echo "omega_compat: no $tool: run scripts/install-deps.sh (xapian-omega, xapian-tools)" >&2
    [ "${CANON_REQUIRE_TOOLS:-0}" = 1 ] && exit 1
    exit 77  # ctest: skipped
  fi
done
[ -f "$templates/query" ] || { echo "omega_compat: no Omega templates in $templates" >&2; exit 1; }  # Omega is there: broken

work="$(mktemp -d "${TMPDIR:-/tmp}/canon-omega.XXXXXX")"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
# check WHAT COMMAND...: passes when COMMAND succeeds.
check() {
  local what="$1"
  shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}
# expect_contains TEXT NEEDLE WHAT / expect_missing TEXT NEEDLE WHAT
expect_contains() {
  if grep -qF -- "$2" <<<"$1"; then pass "$3"; else
    fail "$3: no '$2' in:"
    sed -n 1,40p <<<"$1" >&2
  fi
}
expect_missing() {
  if ! grep -qF -- "$2" <<<"$1"; then pass "$3"; else
    fail "$3: '$2' should not be in:"
    sed -n 1,40p <<<"$1" >&2
  fi
}

"$canon" index "$site" --out "$work/index" --quiet >/dev/null
"$canon" index "$site" --out "$work/query" --quiet --no-collapse >/dev/null

# Omega finds databases by name under database_dir: one name per canon index's xapian/.
mkdir -p "$work/omega-data" "$work/omega-log"
ln -s "$work/index/xapian" "$work/omega-data/sample"
ln -s "$work/query/xapian" "$work/omega-data/sampleq"
cat >"$work/omega.conf" <<EOF
database_dir $work/omega-data
template_dir $templates
log_dir $work/omega-log
cdb_dir $work/omega-cdb
EOF
export OMEGA_CONFIG_FILE="$work/omega.conf"
# Outside a web server Omega takes its CGI parameters as NAME=VALUE arguments.
run_omega() { "$omega" "$@"; }
urls_of() { { grep -o '^url="[^"]*"' || true; } | sed 's/^url="//; s/"$//'; }

echo "# Omega's default query template (HTML)"
html="$(run_omega DB=sample P=completions)"
expect_contains "$html" \
  '<a href="http://localhost/docs/install.html">Installing Larder — Larder</a>' \
  "the install guide is a result, with Omega's url and caption fields"
expect_missing "$html" 'mirror/docs/install.html' "its mirror is not a result of its own"
expect_missing "$html" 'print/install.html' "its printable copy is not a result of its own"
expect_contains "$html" 'Size: <b>' "the template shows the size field"
expect_contains "$html" 'Modified:<br>' "the template shows the modtime field"
expect_contains "$html" 'Install Larder from a prebuilt archive' "the snippet of the sample field"

echo "# Omega's xml template: query syntax, boolean filters, date ranges on slot 0"
first="$(run_omega DB=sample 'P=shell completions' FMT=xml | urls_of | sed -n 1p)"
check "'shell completions' ranks the install guide first ($first)" \
  [ "$first" = "http://localhost/docs/install.html" ]
title_hits="$(run_omega DB=sample 'P=title:installing' FMT=xml | urls_of)"
check "title: is Omega's S prefix ($title_hits)" \
  [ "$title_hits" = "http://localhost/docs/install.html" ]
filtered="$(run_omega DB=sample P=backup B=P/docs/tutorials FMT=xml | urls_of)"
if [ -n "$filtered" ] && ! grep -qv '^http://localhost/docs/tutorials/' <<<"$filtered"; then
  pass "B=P/docs/tutorials keeps only pages under /docs/tutorials/"
else
  fail "B=P/docs/tutorials gave: $filtered"
fi
hosts="$(run_omega DB=sample P=backup B=Hexample.org FMT=xml | urls_of)"
check "B=Hexample.org filters everything out" [ -z "$hosts" ]
recent="$(run_omega DB=sample P=completions START.0=1990 END.0=2105 FMT=xml | urls_of | wc -l)"
old="$(run_omega DB=sample P=completions START.0=1980 END.0=1989 FMT=xml | urls_of | wc -l)"
check "START.0/END.0 filter on the last-modified slot ($recent recent, $old old)" \
  [ "$recent" -gt 0 -a "$old" -eq 0 ]

echo "# A --no-collapse index: Omega's COLLAPSE=11 shows each cluster once"
all="$(run_omega DB=sampleq P=completions FMT=xml | urls_of)"
collapsed="$(run_omega DB=sampleq P=completions COLLAPSE=11 FMT=xml | urls_of)"
cluster='^http://localhost/(docs/install|mirror/docs/install|print/install)\.html$'
check "without COLLAPSE all three copies match" [ "$(grep -cE "$cluster" <<<"$all")" -eq 3 ]
check "with COLLAPSE=11 the cluster shows once" [ "$(grep -cE "$cluster" <<<"$collapsed")" -eq 1 ]

echo "# quest"
quest_out="$(quest -d "$work/index/xapian" 'shell completions')"
first="$(grep -m1 '^url=' <<<"$quest_out" || true)"
check "quest ranks the install guide first ($first)" \
  [ "$first" = "url=http://localhost/docs/install.html" ]
expect_missing "$quest_out" 'url=http://localhost/mirror/' "quest shows no mirror"

echo "# xapian-delve and xapian-metadata"
postings="$(xapian-delve -t Uhttp://localhost/docs/install.html "$work/index/xapian")"
docid="$(sed -n 's/.*): *\([0-9][0-9]*\) *$/\1/p' <<<"$postings")"
if [ -n "$docid" ]; then
  pass "the U term names exactly one document ($docid)"
  record="$(xapian-delve -r "$docid" -d "$work/index/xapian")"
  expect_contains "$record" "url=http://localhost/docs/install.html" "delve shows its url field"
  expect_contains "$record" "caption=Installing Larder — Larder" "delve shows its caption field"
  page="$site/docs/install.html"
  expect_contains "$record" "size=$(stat -c %s "$page")" "delve shows its size field"
  expect_contains "$record" "modtime=$(stat -c %Y "$page")" "delve shows its modtime field"
  terms="$(tr ' ' '\n' <<<"$record")"
  for term in Hlocalhost P/docs Ttext/html Sinstalling; do
    check "delve lists the $term term" grep -qxF -- "$term" <<<"$terms"
  done
else
  fail "no single document for Uhttp://localhost/docs/install.html: $postings"
fi
expect_contains "$(xapian-delve -r1 -d "$work/index/xapian")" "url=http://localhost/" \
  "delve -r1 -d shows a record"
check "metadata: canon_collapse=index" \
  [ "$(xapian-metadata get "$work/index/xapian" canon_collapse)" = index ]
check "metadata: canon_collapse=query" \
  [ "$(xapian-metadata get "$work/query/xapian" canon_collapse)" = query ]

if [ "$failures" -gt 0 ]; then
  echo "omega_compat: $failures check(s) failed" >&2
  exit 1
fi
echo "omega_compat: all checks passed"
