#!/usr/bin/env python3
"""Full-text queries: two- to four-word phrases drawn from page bodies, run as plain AND queries
(no quotes, as they are typed) against one or more canon builds or settings in the same run. A
query is right when the page its words came from is in canon's first 10 results; the scores are
the share of queries in the top 10, top 1 and MRR@10 (docs/known-item.md). On a noisy machine
what matters is how builds compare with each other on the same queries, so several are run
together and each is compared with the first.

  fulltext.py SITE_DIR LABEL=CANON:INDEX_DIR[:EXTRA_ARGS] [LABEL=...]
              [--queries N] [--seed S] [--out FILE.tsv]

  LABEL       a name for the column (base, new, noanchor, ...)
  CANON       the canon binary
  INDEX_DIR   built by `CANON index SITE_DIR --out INDEX_DIR`
  EXTRA_ARGS  more `canon search` arguments, separated by commas: `--anchor-weight,0`
  --queries   how many queries (default 200)
  --seed      the seed string of the draw (default "fulltext:30")
  --out       also write one row per query: query, source URL, rank per label (`-`: not in the
              top 10)

The draw, from the first LABEL's INDEX_DIR/pages.jsonl: the pages with status "indexed", sorted
by path; Python's random.Random seeded by the seed string (the same on every machine and Python
3 version) picks a page, whose file SITE_DIR/PATH is read; its body text is taken (the content
of <main> or of an element with role="main" when the page has one, else <body>; script, style,
nav, header, footer, role="navigation" elements and DocBook's navheader/navfooter are skipped),
cut into blocks (paragraphs, list items, table cells, headings: a phrase does not cross
a block's edge) and into words as Xapian cuts them (runs of letters, digits and `_`), and one
window of 2, 3 or 4 consecutive words is picked at random among those whose words all have at
least 2 characters and which hold at least one word that is not a common English stopword. A
page with no such window, or a phrase already drawn, is drawn again. The query is the window's
words in lower case (as typed; lower case also keeps Xapian's query parser from reading `AND`,
`OR`, `NOT` as operators).

Every LABEL runs the same queries: `CANON search INDEX_DIR WORD... --json --limit 10
[EXTRA_ARGS]`. A result is right when its URL, without its fragment, is the source page's URL
in the first index's pages.jsonl, or, when LABEL's index made the source page a duplicate, the
URL of the page it was collapsed into; rank is the position of the first right result (1-10).
"""

import argparse
import concurrent.futures
import html.parser
import json
import os
import random
import re
import subprocess
import sys
import time

LIMIT = 10
THREADS = 2

# Common English stopwords (Snowball's English list, the forms without apostrophes).
STOPWORDS = frozenset("""
a about above after again against all am an and any are as at be because been before being
below between both but by can cannot could did do does doing down during each few for from
further had has have having he her here hers herself him himself his how i if in into is it its
itself let me more most my myself no nor not of off on once only or other ought our ours
ourselves out over own same she should so some such than that the their theirs them themselves
then there these they this those through to too under until up very was we were what when where
which while who whom why will with would you your yours yourself yourselves
""".split())

WORD = re.compile(r"\w+")

# Elements whose text is not the page's body text.
SKIP_TAGS = frozenset(("script", "style", "nav", "header", "footer", "head", "title", "template",
                       "noscript", "svg"))
SKIP_CLASSES = frozenset(("navheader", "navfooter"))  # DocBook's navigation bars
# Elements that do not end a block of text: the words on either side may form one phrase.
INLINE_TAGS = frozenset(("a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "dfn",
                         "em", "font", "i", "kbd", "mark", "q", "s", "samp", "small", "span",
                         "strong", "sub", "sup", "time", "tt", "u", "var", "wbr"))
VOID_TAGS = frozenset(("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                       "param", "source", "track", "wbr"))


class BodyText(html.parser.HTMLParser):
    """The blocks of body text of one page: those inside its main element when it has one."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        # Open elements: (tag, skipped, in main).
        self.stack = [("#root", False, False)]
        self.body, self.main = [[]], [[]]
        self.has_main = False

    def _break(self):
        for blocks in (self.body, self.main):
            if blocks[-1]:
                blocks.append([])

    def handle_starttag(self, tag, attrs):
        if tag not in INLINE_TAGS:
            self._break()
        if tag in VOID_TAGS:
            return
        a = dict(attrs)
        _, skipped, in_main = self.stack[-1]
        role = (a.get("role") or "").lower()
        classes = set((a.get("class") or "").split())
        skipped = skipped or tag in SKIP_TAGS or role == "navigation" or bool(classes & SKIP_CLASSES)
        if not skipped and (tag == "main" or role == "main"):
            in_main = self.has_main = True
        self.stack.append((tag, skipped, in_main))

    def handle_startendtag(self, tag, attrs):
        if tag not in INLINE_TAGS:
            self._break()

    def handle_endtag(self, tag):
        if tag not in INLINE_TAGS:
            self._break()
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        _, skipped, in_main = self.stack[-1]
        if skipped:
            return
        self.body[-1].append(data)
        if in_main:
            self.main[-1].append(data)

    def blocks(self):
        """Word lists, one per block of text."""
        blocks = self.main if self.has_main else self.body
        return [w for w in (WORD.findall(" ".join(b)) for b in blocks) if w]


def page_blocks(path):
    with open(path, "rb") as f:
        data = f.read().decode("utf-8", "replace")
    p = BodyText()
    p.feed(data)
    p.close()
    return p.blocks()


def windows(blocks):
    """Every usable window of 2 to 4 consecutive words of one block, in page order."""
    out = []
    for words in blocks:
        ok = [len(w) >= 2 for w in words]
        content = [w.lower() not in STOPWORDS for w in words]
        for i in range(len(words)):
            for n in (2, 3, 4):
                if i + n <= len(words) and all(ok[i:i + n]) and any(content[i:i + n]):
                    out.append(words[i:i + n])
    return out


def draw(site_dir, pages, n, seed):
    """N (query, page) pairs; pages: [(path, url)] sorted by path."""
    rng = random.Random(seed)
    cache, seen, out = {}, set(), []
    tries = 0
    while len(out) < n:
        tries += 1
        if tries > 50 * n + 1000:
            sys.exit("fulltext.py: could not draw %d queries from %d pages (got %d)" % (
                n, len(pages), len(out)))
        path, url = rng.choice(pages)
        if path not in cache:
            try:
                cache[path] = windows(page_blocks(os.path.join(site_dir, path)))
            except OSError as e:
                sys.exit("fulltext.py: cannot read page %s: %s" % (path, e))
        ws = cache[path]
        if not ws:
            continue
        query = " ".join(ws[rng.randrange(len(ws))]).lower()
        if query in seen:
            continue
        seen.add(query)
        out.append((query, path, url))
    return out


class Engine:
    def __init__(self, label, canon, index, extra):
        self.label, self.canon, self.index, self.extra = label, canon, index, extra

    def command(self, query):
        return ([self.canon, "search", self.index] + query.split() +
                ["--json", "--limit", str(LIMIT)] + self.extra)

    def search(self, query):
        """Result URLs without fragments; exits on a failed search."""
        cmd = self.command(query)
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("%s: `%s` failed (exit %d): %s" % (
                self.label, " ".join(cmd), r.returncode, r.stderr.strip()))
        try:
            results = json.loads(r.stdout)["results"]
        except (ValueError, KeyError) as e:
            raise RuntimeError("%s: `%s` printed no JSON results (%s)" % (self.label, " ".join(cmd), e))
        return [x["url"].split("#")[0] for x in results]


def parse_engine(arg):
    label, eq, rest = arg.partition("=")
    parts = rest.split(":", 2)
    if not eq or not label or len(parts) < 2 or not parts[0] or not parts[1]:
        sys.exit("fulltext.py: %r is not LABEL=CANON_BINARY:INDEX_DIR[:EXTRA_ARGS]" % arg)
    canon, index = parts[0], parts[1]
    extra = [x for x in parts[2].split(",") if x] if len(parts) > 2 else []
    if not (os.path.isfile(canon) and os.access(canon, os.X_OK)):
        sys.exit("fulltext.py: %s: canon binary %s is missing or not executable" % (label, canon))
    if not os.path.isfile(os.path.join(index, "pages.jsonl")):
        sys.exit("fulltext.py: %s: %s is not a canon index (no pages.jsonl)" % (label, index))
    return Engine(label, canon, index, extra)


def read_pages(index):
    """{path: (status, url, authoritative URL or None)} of INDEX/pages.jsonl."""
    out = {}
    with open(os.path.join(index, "pages.jsonl")) as f:
        for line in f:
            if line.strip():
                p = json.loads(line)
                out[p["path"]] = (p.get("status"), p.get("url"), p.get("authoritative"))
    return out


def right_urls(status, path, url):
    """The URLs that answer a query drawn from the page at PATH (URL) in an index whose pages.jsonl
    is STATUS: the page itself, or the page it was collapsed into when that index made it a
    duplicate (a result shows a cluster under its authoritative page)."""
    entry = status.get(path)
    if entry and entry[0] == "duplicate" and entry[2]:
        return {url, entry[2]}
    return {url}


def rank(urls, right):
    for i, u in enumerate(urls):
        if u in right:
            return i + 1
    return None


def main():
    ap = argparse.ArgumentParser(
        description="Full-text queries (2-4 words from a page's body; right: that page in the "
                    "top 10) with several canon builds or settings.")
    ap.add_argument("site_dir", metavar="SITE_DIR")
    ap.add_argument("engines", metavar="LABEL=CANON_BINARY:INDEX_DIR[:EXTRA_ARGS]", nargs="+")
    ap.add_argument("--queries", type=int, default=200, metavar="N")
    ap.add_argument("--seed", default="fulltext:30", metavar="S")
    ap.add_argument("--out", metavar="FILE.tsv")
    args = ap.parse_args()
    if not os.path.isdir(args.site_dir):
        sys.exit("fulltext.py: site directory %s does not exist" % args.site_dir)
    if args.queries < 1:
        sys.exit("fulltext.py: --queries must be at least 1")
    engines = [parse_engine(a) for a in args.engines]
    labels = [e.label for e in engines]
    if len(set(labels)) != len(labels):
        sys.exit("fulltext.py: labels must differ: %s" % " ".join(labels))

    first = read_pages(engines[0].index)
    pages = sorted((path, url) for path, (status, url, _) in first.items() if status == "indexed")
    if not pages:
        sys.exit("fulltext.py: %s has no indexed pages" % engines[0].index)
    started = time.time()
    queries = draw(args.site_dir, pages, args.queries, args.seed)

    # One search each first: a build that does not take the arguments fails here, once.
    for e in engines:
        try:
            e.search(queries[0][0])
        except RuntimeError as err:
            sys.exit("fulltext.py: %s" % err)

    jobs = [(e, q) for e in engines for q in queries]
    try:
        with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
            found = list(pool.map(lambda j: j[0].search(j[1][0]), jobs))
    except RuntimeError as err:
        sys.exit("fulltext.py: %s" % err)
    statuses = {e.label: read_pages(e.index) for e in engines}
    ranks = {}
    for (e, (query, path, url)), urls in zip(jobs, found):
        ranks.setdefault(e.label, []).append(rank(urls, right_urls(statuses[e.label], path, url)))
    elapsed = time.time() - started

    n = len(queries)
    lines = ["Full-text queries: %d phrases of 2-4 words from the pages of %s (seed %r), "
             "drawn from %d indexed pages of %s" % (n, args.site_dir, args.seed, len(pages),
                                                    engines[0].index), "",
             "| label | queries | in top 10 | top 1 | MRR@10 |",
             "|---|---:|---:|---:|---:|"]
    for e in engines:
        r = ranks[e.label]
        lines.append("| %s | %d | %.3f | %.3f | %.3f |" % (
            e.label, n, sum(1 for x in r if x) / n, sum(1 for x in r if x == 1) / n,
            sum(1.0 / x for x in r if x) / n))
    if len(engines) > 1:
        base = engines[0].label
        lines += ["", "| label | vs | moved up | moved down | same rank |", "|---|---|---:|---:|---:|"]
        for e in engines[1:]:
            up = down = 0
            for a, b in zip(ranks[base], ranks[e.label]):
                a, b = a or LIMIT + 1, b or LIMIT + 1
                up += b < a
                down += b > a
            lines.append("| %s | %s | %d | %d | %d |" % (e.label, base, up, down, n - up - down))
    notes = []
    for e in engines[1:]:
        status = statuses[e.label]
        collapsed = sum(1 for _, path, url in queries if status.get(path, (None,))[0] == "duplicate")
        missing = sum(1 for _, path, url in queries
                      if status.get(path, (None, None, None))[:2] not in (("indexed", url), ("duplicate", url)))
        if collapsed:
            notes.append("%s: %d source pages are duplicates in %s (their authoritative page is "
                         "right too)" % (e.label, collapsed, e.index))
        if missing:
            notes.append("%s: %d source pages not indexed under the same URL in %s" % (
                e.label, missing, e.index))
    lines += [""] + notes + ["(%d searches in %.0f s)" % (len(jobs) + len(engines), elapsed)]
    sys.stdout.write("\n".join(lines) + "\n")

    if args.out:
        with open(args.out, "w") as f:
            f.write("\t".join(["query", "source_url"] + ["rank_" + x for x in labels]) + "\n")
            for i, (query, _, url) in enumerate(queries):
                f.write("\t".join([query, url] + [str(ranks[x][i] or "-") for x in labels]) + "\n")


if __name__ == "__main__":
    main()
