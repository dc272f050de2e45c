#!/usr/bin/env bash
# URL rules on a small site (docs/url-rules.md, "Exceptions"): a site of about 300 pages made
# from a real one, then `canon index` and `canon urls learn` on it, printing what was learned.
#
# The site: PAGES (150) pages of SRC_DIR (default: the Python 3.11 documentation), chosen
# evenly spaced in path order among its pages below the top folder (not in _static-like
# folders; the top-level pages, the home page among them, are left out), copied as they are. Half of them (every other one) are copied again into
# two of three folders, print/, mirror/ and archive/v14/ (the i-th copied page skips folder
# i mod 3: 50 copies per folder for 150 pages), keeping their path below the folder. Each folder
# also has a listing page, FOLDER/index.html, linking to the folder's copies by their titles: a
# page in its own right, with no original (the site has no home page at "/", which is the URL
# the folder's rule makes of its listing page's).
# With ROOT_PAGE=1 the site keeps SRC_DIR's home page (index.html) too: the listing pages' URLs
# then become the home page's under the rules.
#
# Usage: bench/url_rules/small_site.sh [SRC_DIR]
#   CANON=path of the canon binary (default build/cli/canon); WORK=DIR (default: a temporary
#   directory); PAGES=150; ROOT_PAGE=0|1; LEARN_ARGS="..." added to `canon urls learn`
#   (e.g. --show-rejected).
set -euo pipefail
cd "$(dirname "$0")/../.."
canon=${CANON:-build/cli/canon}
[ -x "$canon" ] || { echo "no canon binary at $canon (scripts/build.sh, or set CANON)" >&2; exit 1; }
src=${1:-/usr/share/doc/python3.11/html}
[ -d "$src" ] || { echo "no source site at $src (apt-get install python3.11-doc, or give SRC_DIR)" >&2; exit 1; }
pages=${PAGES:-150}
root_page=${ROOT_PAGE:-0}
if [ -n "${WORK:-}" ]; then work=$WORK; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
site="$work/small-site"
index="$work/small-index"
rm -rf "$site" "$index"

python3 - "$src" "$site" "$pages" "$root_page" <<'EOF'
import html, os, re, shutil, sys

src, site, pages, root_page = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
candidates = sorted(
    os.path.relpath(os.path.join(d, f), src)
    for d, _, files in os.walk(src)
    for f in files
    if f.endswith(".html") and d != src and not os.path.relpath(d, src).startswith("_"))
if len(candidates) < pages:
    sys.exit(f"{src} has {len(candidates)} pages below its top folder, fewer than {pages}")
chosen = [candidates[i * len(candidates) // pages] for i in range(pages)]
if root_page:
    chosen.append("index.html")

def copy(rel, dest):
    os.makedirs(os.path.dirname(os.path.join(site, dest)), exist_ok=True)
    shutil.copyfile(os.path.join(src, rel), os.path.join(site, dest))

def title_of(rel):
    with open(os.path.join(src, rel), encoding="utf-8", errors="replace") as f:
        m = re.search(r"<title>(.*?)</title>", f.read(), re.S | re.I)
    return html.unescape(m.group(1)).strip() if m else rel

folders = {"print": "Printable versions", "mirror": "Mirror of the documentation",
           "archive/v14": "Archived documentation, version 14"}
listed = {f: [] for f in folders}
for rel in chosen:
    copy(rel, rel)
copied = [rel for i, rel in enumerate(chosen[:pages]) if i % 2 == 0]
for i, rel in enumerate(copied):
    for k, folder in enumerate(folders):
        if i % 3 != k:
            copy(rel, f"{folder}/{rel}")
            listed[folder].append(rel)
for folder, heading in folders.items():
    items = "\n".join(f'<li><a href="{html.escape(rel)}">{html.escape(title_of(rel))}</a></li>'
                      for rel in listed[folder])
    with open(os.path.join(site, folder, "index.html"), "w", encoding="utf-8") as f:
        f.write(f"<!DOCTYPE html>\n<html><head><title>{heading}</title></head><body>\n<h1>{heading}</h1>\n"
                f"<p>The {len(listed[folder])} pages of this folder, {heading.lower()}:</p>\n<ul>\n{items}\n</ul>\n"
                "</body></html>\n")
total = len(chosen) + sum(len(v) for v in listed.values()) + len(folders)
print(f"Site {site}: {total} pages: {len(chosen)} originals, {len(copied)} of them copied, "
      + ", ".join(f"{len(v)} copies in {k}/" for k, v in listed.items())
      + f", {len(folders)} listing pages" + ("; the home page kept" if root_page else ""))
EOF

"$canon" index "$site" --out "$index" --quiet
# shellcheck disable=SC2086
"$canon" urls learn "$index" ${LEARN_ARGS:-}
