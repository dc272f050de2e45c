"""Recall and body overlap on a site with releases side by side (bench/real_sites/run.sh).

releases.py INDEX SITE_DIR
    For every page path that two consecutive releases both have (releases: the first directory
    of a path when it is a version, in version order), the 3-word-shingle Jaccard of the two
    pages' bodies; prints how many pairs reach 0.9 and how many of those `canon index` put in one
    cluster. Then, for every duplicate, the share of its body's shingles that its authoritative page's
    body has; prints how many share less than half.

A body is the text of the page's main landmark (the element with role="main") when it has one,
else its <body> text; either without script, style, nav, header, footer and aside elements, and
without elements whose class or id has a word naming a sidebar, navigation bar, header, footer,
breadcrumbs or related links: the page less its template, measured independently of canon's
own extractor.
"""
import html.parser
import json
import os
import re
import sys

VERSION = re.compile(r"^v?\d+(\.\d+)*$")
SKIP_TAGS = {"script", "style", "nav", "header", "footer", "aside", "noscript", "template"}
# One class or id word (split at spaces) that names template furniture. Matched per word, so
# "wy-body-for-nav" on <body> or "wy-nav-content" around the text are not skipped.
SKIP_WORD = re.compile(r"^(nav|navigation|header|footer|related|sphinxsidebar\w*|sidebar\w*|navbar\w*|breadcrumbs?)$", re.I)
SKIP_ROLE = {"navigation", "banner", "contentinfo", "complementary", "search"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Body(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (tag, skipping, main)
        self.in_body = False
        self.words = []       # words of the whole body
        self.main_words = []  # words inside role="main"
        self.saw_main = False

    def skipping(self):
        return bool(self.stack) and self.stack[-1][1]

    def in_main(self):
        return bool(self.stack) and self.stack[-1][2]

    def handle_starttag(self, tag, attrs):
        if tag == "body":
            self.in_body = True
        if tag in VOID:
            return
        attrs = dict(attrs)
        words = ((attrs.get("class") or "") + " " + (attrs.get("id") or "")).split()
        role = (attrs.get("role") or "").lower()
        skip = self.skipping() or tag in SKIP_TAGS or role in SKIP_ROLE or \
            (tag not in ("html", "body") and any(SKIP_WORD.match(w) for w in words))
        main = self.in_main() or role == "main"
        self.saw_main = self.saw_main or role == "main"
        self.stack.append((tag, skip, main))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if self.in_body and not self.skipping():
            words = re.findall(r"\w+", data.lower())
            self.words.extend(words)
            if self.in_main():
                self.main_words.extend(words)


def shingles(path, cache={}):
    if path not in cache:
        parser = Body()
        try:
            parser.feed(open(path, encoding="utf-8", errors="replace").read())
        except Exception:
            pass
        w = parser.main_words if parser.saw_main else parser.words
        cache[path] = {" ".join(w[i:i + 3]) for i in range(max(len(w) - 2, 1))} if w else set()
    return cache[path]


def jaccard(a, b):
    return len(a & b) / len(a | b) if a or b else 0.0


def version_key(v):
    return tuple(int(n) for n in v.lstrip("vV").split("."))


def main(index, site):
    rows = [json.loads(line) for line in open(index + "/pages.jsonl")]
    by_path = {r["path"]: r for r in rows}
    by_url = {r["url"]: r for r in rows}
    releases = {}
    for r in rows:
        first, _, rest = r["path"].partition("/")
        if rest and VERSION.match(first) and r["status"] in ("indexed", "duplicate"):
            releases.setdefault(first, set()).add(rest)
    order = sorted(releases, key=version_key)
    if len(order) < 2:
        print("no releases side by side")
        return
    pairs = together = 0
    for older, newer in zip(order, order[1:]):
        for rest in sorted(releases[older] & releases[newer]):
            a, b = by_path[older + "/" + rest], by_path[newer + "/" + rest]
            if jaccard(shingles(os.path.join(site, a["path"])), shingles(os.path.join(site, b["path"]))) < 0.9:
                continue
            pairs += 1
            together += 1 if a["cluster"] == b["cluster"] else 0
    dups = [r for r in rows if r["status"] == "duplicate"]
    low = 0
    for r in dups:
        own = shingles(os.path.join(site, r["path"]))
        rep = shingles(os.path.join(site, by_url[r["authoritative"]]["path"]))
        if own and len(own & rep) / len(own) < 0.5:
            low += 1
    rate = f"{together / pairs:.3f}" if pairs else "-"
    print(f"consecutive releases with body Jaccard >= 0.9: {pairs} pairs, {together} in one cluster ({rate}); "
          f"duplicates sharing less than half of their body with their authoritative page: {low} of {len(dups)}"
          f" ({low / len(dups) if dups else 0:.4f})")


if __name__ == "__main__":
    main(*sys.argv[1:3])
