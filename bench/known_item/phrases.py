#!/usr/bin/env python3
"""Is a page's body text searchable? A rare five-word phrase from a page's paragraphs should find
that page in the first 10 results: searched as a phrase (in double quotes), it finds the page
exactly when the page's text is in the index, in order; typed as plain words (no quotes), it
also measures ranking. canon and Omega (Xapian's omindex + quest) are asked the same queries in
the same run, both ways; the scores are the share of queries whose page is in the top 10 and
the share whose page is first (top 1).

  phrases.py SITE_DIR CANON_BINARY CANON_INDEX_DIR [--omega OMEGA_DB] [--omega-url /]
             [--omega-op and|or] [--queries N] [--seed S] [--out FILE.tsv] [--summary FILE.json]

  CANON_INDEX_DIR  built by `CANON index SITE_DIR --out CANON_INDEX_DIR`
  --omega          an omindex database of SITE_DIR (bench/known_item/phrases.sh builds one as
                   bench/known_item/run.sh does); without it only canon is run
  --omega-url      the --url omindex was given (default /): result URLs are that prefix + the
                   page's path relative to SITE_DIR
  --omega-op       quest's default operator (default and: Omega's default since 1.3, and what
                   bench/known_item/judge.py uses; quest's own default is or)
  --queries        how many queries (default 100)
  --seed           the seed string of the draw (default "phrases:30")
  --out            also write one row per query: query, page path, canon rank, Omega rank (`-`:
                   not in the top 10), canon's and Omega's first result
  --summary        also write the scores as JSON (phrases.sh reads it)

The draw. The pages with status "indexed" in CANON_INDEX_DIR/pages.jsonl, sorted by path;
Python's random.Random seeded by the seed string picks a page, whose file SITE_DIR/PATH is read.
Its body text is taken as fulltext.py takes it (the content of <main> or role="main" when the page
has one, else <body>; script, style, nav, header, footer, role="navigation" and DocBook's
navheader/navfooter skipped; no other class is skipped), and of it only the paragraphs: the
blocks of text whose nearest enclosing block element is <p>, or <dd> or <li> when the block holds
at least 8 words (inline elements such as <a>, <code>, <em> do not end a block, nor do they add
spaces: `<b>Py</b>thon` is one word, as a reader sees it). A block's text is cut at white space;
a piece is a word when it is one run of letters, digits and `_` (Xapian's word characters) with
only punctuation around it: `(see`, `files,` are words, `os.path`, `it's`, `3.11`, `libstdc++` are not and
end a window; a piece of punctuation only (`-`, `—`) is passed over. A window is 5 consecutive words
of one block, each of at least 2 characters, none only digits, at least 3 of them not common
English stopwords (fulltext.py's list). One window of the page is picked at random; a page without
one, or a phrase already drawn, is drawn again. About 3 candidates are drawn per query wanted.

Rare. A candidate is kept when its five words, lower-cased, occur as consecutive words (runs of
word characters) in the paragraphs of no other indexed page: all indexed pages are read once for
all the candidates. The first N candidates kept, in draw order, are the queries (when fewer are
kept, more candidates are drawn and the pages read again, up to 3 rounds).

Queries are the five words, lower-cased, separated by spaces: once in double quotes (a phrase),
once without (words). canon: `CANON search INDEX WORD...
--json --limit 10`; right when a result's URL without its fragment is the page's URL (or the page
it was collapsed into, as in fulltext.py). Omega: `quest -d OMEGA_DB -o OP -m 10 QUERY`; right
when a result's url= path, without the --omega-url prefix, is the page's path (`dir/` is
`dir/index.html`). Rank: the position of the first right result (1-10).
"""

import argparse
import concurrent.futures
import html
import json
import os
import random
import re
import subprocess
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, HERE)
from fulltext import (INLINE_TAGS, STOPWORDS, WORD, BodyText, Engine,  # noqa: E402
                      read_pages, rank, right_urls)

LIMIT = 10
THREADS = 2
PHRASE = 5          # words in a phrase
MIN_CONTENT = 3     # words of a phrase that are not stopwords
LIST_MIN_WORDS = 8  # a <dd> or <li> block is a paragraph when it holds this many words
CANDIDATES = 3      # candidates drawn per query wanted
ROUNDS = 3

# A piece of text that is one word with punctuation around it; a word followed by "+" or "#" is
# not (Xapian indexes C++, libstdc++ and C# whole).
CLEAN = re.compile(r"\W*(\w+)(?![+#])\W*")


class Paragraphs(BodyText):
    """fulltext.BodyText that remembers, for each block, its nearest enclosing block element, and
    joins the pieces of text of a block without adding spaces (inline tags do not add any)."""

    def handle_data(self, data):
        _, skipped, in_main = self.stack[-1]
        if skipped:
            return
        container = next((t for t, _, _ in reversed(self.stack) if t not in INLINE_TAGS), "#root")
        self.body[-1].append((container, data))
        if in_main:
            self.main[-1].append((container, data))

    def paragraphs(self):
        """The text of each paragraph block, in page order."""
        out = []
        for block in (self.main if self.has_main else self.body):
            if not block:
                continue
            text = "".join(d for _, d in block)
            tag = block[0][0]
            if tag == "p" or (tag in ("dd", "li") and len(WORD.findall(text)) >= LIST_MIN_WORDS):
                out.append(text)
        return out


def page_paragraphs(path):
    with open(path, "rb") as f:
        data = f.read().decode("utf-8", "replace")
    p = Paragraphs()
    p.feed(data)
    p.close()
    return p.paragraphs()


def usable(w):
    return len(w) >= 2 and not w.isdigit()


def windows(paragraphs):
    """Every usable window of PHRASE words of one paragraph, as word tuples in page order."""
    out = []
    for text in paragraphs:
        run = []  # the words since the last piece that is not a clean word
        for piece in text.split():
            m = CLEAN.fullmatch(piece)
            if m:
                run.append(m.group(1))
            elif WORD.search(piece):  # os.path, it's, 3.11: not one word; ends the run
                out += runs_windows(run)
                run = []
            # else: punctuation only, passed over
        out += runs_windows(run)
    return out


def runs_windows(run):
    out = []
    for i in range(len(run) - PHRASE + 1):
        w = run[i:i + PHRASE]
        if all(usable(x) for x in w) and sum(x.lower() not in STOPWORDS for x in w) >= MIN_CONTENT:
            out.append(tuple(x.lower() for x in w))
    return out


def paragraph_words(paragraphs):
    """The lower-cased word-character runs of each paragraph (how other pages are searched)."""
    return [[w.lower() for w in WORD.findall(t)] for t in paragraphs]


def draw_candidates(site_dir, pages, n, rng, cache, seen):
    """Up to N new (phrase tuple, path, url) candidates; CACHE: {path: (paragraphs, windows)}."""
    out = []
    tries = 0
    while len(out) < n and tries < 50 * n + 1000:
        tries += 1
        path, url = rng.choice(pages)
        if path not in cache:
            paras = read_paragraphs(site_dir, path)
            cache[path] = (paras, windows(paras))
        ws = cache[path][1]
        if not ws:
            continue
        phrase = ws[rng.randrange(len(ws))]
        if phrase in seen:
            continue
        seen.add(phrase)
        out.append((phrase, path, url))
    return out


def read_paragraphs(site_dir, path):
    try:
        return page_paragraphs(os.path.join(site_dir, path))
    except OSError as e:
        sys.exit("phrases.py: cannot read page %s: %s" % (path, e))


# The pre-filter of the scan: a page's text with its tags taken out (inline ones without a space,
# the others with one) and its character references decoded. Every paragraph's text is a part of
# it, so a phrase not in it is not in the page's paragraphs; only the pages where it finds a
# candidate are parsed (Paragraphs) to look in their paragraphs.
TAG = re.compile(r"""<(?:script|style)\b.*?</(?:script|style)\s*>|<!--.*?-->|<!\[CDATA\[.*?\]\]>"""
                 r"""|<(?:[!?]|/?(?P<name>[A-Za-z][A-Za-z0-9-]*))(?:"[^"]*"|'[^']*'|[^'">])*>""",
                 re.S | re.I)


def crude_words(site_dir, path):
    try:
        with open(os.path.join(site_dir, path), "rb") as f:
            data = f.read().decode("utf-8", "replace")
    except OSError as e:
        sys.exit("phrases.py: cannot read page %s: %s" % (path, e))
    text = TAG.sub(lambda m: "" if (m.group("name") or "").lower() in INLINE_TAGS else " ", data)
    return WORD.findall(html.unescape(text).lower())


def find(words, by_first, found):
    """Adds to FOUND the phrases of BY_FIRST ({first word: {phrase}}) that WORDS hold."""
    for i in range(len(words) - PHRASE + 1):
        cands = by_first.get(words[i])
        if cands:
            t = tuple(words[i:i + PHRASE])
            if t in cands:
                found.add(t)


def occurrences(site_dir, pages, phrases, cache):
    """{phrase tuple: set of paths whose paragraphs hold it}, over every indexed page."""
    by_first = {}
    for p in phrases:
        by_first.setdefault(p[0], set()).add(p)
    where = {p: set() for p in phrases}
    for path, _ in pages:
        if path in cache:
            paras = cache[path][0]
        else:
            maybe = set()
            find(crude_words(site_dir, path), by_first, maybe)
            if not maybe:
                continue
            paras = read_paragraphs(site_dir, path)
        found = set()
        for words in paragraph_words(paras):
            find(words, by_first, found)
        for t in found:
            where[t].add(path)
    return where


def draw(site_dir, pages, n, seed):
    """N rare (query, path, url) in draw order, and counts for the report."""
    rng = random.Random(seed)
    cache, seen, kept = {}, set(), []
    stats = {"candidates": 0, "common": 0, "rounds": 0}
    for round_ in range(ROUNDS):
        new = draw_candidates(site_dir, pages, CANDIDATES * (n - len(kept)) * 2 ** round_, rng,
                              cache, seen)
        if not new:
            break
        stats["rounds"] += 1
        stats["candidates"] += len(new)
        where = occurrences(site_dir, pages, [p for p, _, _ in new], cache)
        for phrase, path, url in new:
            if path not in where[phrase]:
                sys.exit("phrases.py: internal error: %r not found again in %s" % (" ".join(phrase), path))
            if len(where[phrase]) > 1:
                stats["common"] += 1
            elif len(kept) < n:
                kept.append((" ".join(phrase), path, url))
        if len(kept) >= n:
            break
    return kept, stats


def url_to_path(url, prefix):
    """The site-relative file path of an omindex result URL (PREFIX + relative path)."""
    path = urllib.parse.unquote(urllib.parse.urlsplit(url).path)
    pre = urllib.parse.unquote(urllib.parse.urlsplit(prefix).path)
    if not pre.endswith("/"):
        pre += "/"
    if path.startswith(pre):
        path = path[len(pre):]
    path = path.lstrip("/")
    if path == "" or path.endswith("/"):
        path += "index.html"
    return path


def norm_path(path):
    return path + "index.html" if path == "" or path.endswith("/") else path


class Omega:
    def __init__(self, db, prefix, op):
        self.db, self.prefix, self.op = db, prefix, op

    def search(self, query):
        """Site-relative paths of quest's first LIMIT results; raises on a failed search."""
        cmd = ["quest", "-d", self.db, "-o", self.op, "-m", str(LIMIT), query]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("`%s` failed (exit %d): %s" % (" ".join(cmd), r.returncode, r.stderr.strip()))
        # quest prints "MSet:", then per result a line "DOCID: [WEIGHT]" followed by the document
        # data, one field a line (url=..., sample=..., caption=..., type=...).
        out, in_mset, cur = [], False, None
        for line in r.stdout.splitlines():
            if line == "MSet:":
                in_mset = True
            elif in_mset and re.match(r"\d+: \[", line):
                cur = [None]
                out.append(cur)
            elif cur is not None and cur[0] is None and line.startswith("url="):
                cur[0] = url_to_path(line[4:], self.prefix)
        return [x[0] for x in out if x[0] is not None]


def main():
    ap = argparse.ArgumentParser(
        description="Rare five-word phrases from a page's paragraphs: is the page in the top 10? "
                    "canon and Omega on the same queries.")
    ap.add_argument("site_dir", metavar="SITE_DIR")
    ap.add_argument("canon", metavar="CANON_BINARY")
    ap.add_argument("index", metavar="CANON_INDEX_DIR")
    ap.add_argument("--omega", metavar="OMEGA_DB")
    ap.add_argument("--omega-url", default="/", metavar="PREFIX")
    ap.add_argument("--omega-op", default="and", choices=("and", "or"))
    ap.add_argument("--queries", type=int, default=100, metavar="N")
    ap.add_argument("--seed", default="phrases:30", metavar="S")
    ap.add_argument("--out", metavar="FILE.tsv")
    ap.add_argument("--summary", metavar="FILE.json")
    args = ap.parse_args()
    if not os.path.isdir(args.site_dir):
        sys.exit("phrases.py: site directory %s does not exist" % args.site_dir)
    if args.queries < 1:
        sys.exit("phrases.py: --queries must be at least 1")
    if not (os.path.isfile(args.canon) and os.access(args.canon, os.X_OK)):
        sys.exit("phrases.py: canon binary %s is missing or not executable" % args.canon)
    if not os.path.isfile(os.path.join(args.index, "pages.jsonl")):
        sys.exit("phrases.py: %s is not a canon index (no pages.jsonl)" % args.index)
    if args.omega and not os.path.isdir(args.omega):
        sys.exit("phrases.py: Omega database %s does not exist" % args.omega)

    status = read_pages(args.index)
    pages = sorted((path, url) for path, (st, url, _) in status.items() if st == "indexed")
    if not pages:
        sys.exit("phrases.py: %s has no indexed pages" % args.index)
    started = time.time()
    queries, stats = draw(args.site_dir, pages, args.queries, args.seed)
    drawn_s = time.time() - started
    if not queries:
        sys.exit("phrases.py: no rare phrase in the paragraphs of %d pages of %s" % (
            len(pages), args.site_dir))

    canon = Engine("canon", args.canon, args.index, [])
    engines = [("canon", canon.search)]
    if args.omega:
        omega = Omega(args.omega, args.omega_url, args.omega_op)
        engines.append(("omega", omega.search))
    # One search each first: a failing engine fails here, once.
    for label, search in engines:
        try:
            search(queries[0][0])
        except RuntimeError as err:
            sys.exit("phrases.py: %s: %s" % (label, err))
    modes = {"phrase": lambda q: '"%s"' % q, "words": lambda q: q}
    jobs = [(label, mode, search, q) for mode in modes for label, search in engines for q in queries]
    try:
        with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
            found = list(pool.map(lambda j: j[2](modes[j[1]](j[3][0])), jobs))
    except RuntimeError as err:
        sys.exit("phrases.py: %s" % err)
    ranks, firsts = {}, {}
    for (engine, mode, _, (query, path, url)), results in zip(jobs, found):
        label = "%s %s" % (engine, mode)
        if engine == "canon":
            r = rank(results, right_urls(status, path, url))
        else:
            r = rank(results, {norm_path(path)})
        ranks.setdefault(label, []).append(r)
        firsts.setdefault(label, []).append(results[0] if results else "")
    elapsed = time.time() - started

    n = len(queries)
    labels = ["%s %s" % (label, mode) for mode in modes for label, _ in engines]
    names = {}
    for mode in modes:
        names["canon " + mode] = "canon, %s" % mode
        names["omega " + mode] = "Omega (quest -o %s), %s" % (args.omega_op, mode)
    lines = ["Rare phrases: %d queries of 5 words from the paragraphs of %s (seed %r), drawn from "
             "%d indexed pages of %s" % (n, args.site_dir, args.seed, len(pages), args.index),
             "(%d candidates drawn in %d round(s), %d also in another page's paragraphs; draw %.0f s)"
             % (stats["candidates"], stats["rounds"], stats["common"], drawn_s), "",
             "| engine | queries | in top 10 | top 1 |", "|---|---:|---:|---:|"]
    scores = {}
    for label in labels:
        r = ranks[label]
        top10, top1 = sum(1 for x in r if x) / n, sum(1 for x in r if x == 1) / n
        scores[label] = {"top10": top10, "top1": top1}
        lines.append("| %s | %d | %.3f | %.3f |" % (names[label], n, top10, top1))
    if n < args.queries:
        lines.append("only %d rare phrases found (%d wanted)" % (n, args.queries))
    if args.omega:
        # A page canon collapsed into the source page (a mirror, a print copy) holds the phrase
        # too; Omega indexes it and may rank it first. Counted, not judged right.
        dup_paths = {p for p, (st, _, auth) in status.items() if st == "duplicate"}
        copies = sum(1 for (q, path, url), first, r in zip(queries, firsts["omega words"], ranks["omega words"])
                     if r != 1 and first in dup_paths and status[first][2] == url)
        if copies:
            lines.append("Omega, words: %d queries whose first result is a page canon collapsed into "
                         "the source page" % copies)
    lines.append("(%d searches in %.0f s)" % (len(jobs) + len(engines), elapsed - drawn_s))
    sys.stdout.write("\n".join(lines) + "\n")

    if args.out:
        with open(args.out, "w") as f:
            f.write("query\tpath\t" + "\t".join(l.replace(" ", "_") + "_rank" for l in labels) +
                    "\tcanon_words_first\n")
            for i, (query, path, _) in enumerate(queries):
                row = [query, path] + [str(ranks[l][i] or "-") for l in labels] + [firsts["canon words"][i]]
                f.write("\t".join(row) + "\n")
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump({"site_dir": args.site_dir, "pages": len(pages), "queries": n,
                       "wanted": args.queries, "seed": args.seed, "omega_op": args.omega_op,
                       "scores": scores}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
