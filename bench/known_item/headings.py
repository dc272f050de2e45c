#!/usr/bin/env python3
"""Heading queries: a section's heading as the query. On a documentation site a reader often
types the title of the section they remember ("Storage Parameters", "The Stack and the Heap");
the first result should be that section's page, and ideally a link to the section itself. Per
site, 80 headings of two or more words whose text is unique on the site are drawn at random;
each is searched as typed and again with one typo.

  headings.py SITE_DIR CANON_BINARY CANON_INDEX_DIR [--queries N] [--seed S]
              [--out FILE.tsv] [--summary FILE.json]

  CANON_INDEX_DIR  built by `CANON index SITE_DIR --out CANON_INDEX_DIR`
  --queries        how many headings (default 80)
  --seed           the seed string of the draw (default "headings")
  --out            also write one row per query: set, query, heading, page URL, anchor, first
                   result's URL, page hit, section hit (1/0), rank of the page in the top 10
                   (`-`: not in it), corrected_query (`-`: null)
  --summary        also write the scores as JSON (headings.sh reads it)

Headings. Every page with status "indexed" in CANON_INDEX_DIR/pages.jsonl is read once
(SITE_DIR/PATH, two processes) with html.parser, skipping what fulltext.py's BodyText skips
(script, style, nav, header, footer, role="navigation", DocBook's navheader/navfooter), and only
the content of <main> or role="main" is taken when the page has one, else <body>. Its headings
are the h1-h6 elements there. A heading's text is its text content with white space collapsed,
without its permalink: the text of an element of class headerlink (Sphinx), anchor (rustdoc),
editsection (MediaWiki) or notable-traits (rustdoc's tooltip), or of a link to "#..." whose
whole text is "#", "¶", "§" or "🔗", is left out, and a trailing "¶" or "§" is stripped. Its
anchor, the first of:
  1. the heading's own id;
  2. the first id (or name) of an <a> or <span> inside the heading (MediaWiki's
     <span class="mw-headline" id=...>; not rustdoc's <button id="copy-path">);
  3. the id of the nearest enclosing element that has one (Sphinx's <section>, DocBook's sect
     div, rustdoc's method <section>), when the heading is the first heading inside it (an
     element with an earlier heading inside it is not where this section starts: cppreference's
     #mw-content-text is no heading's anchor);
  4. the id (or <a name>) of an element right before the heading: opened since the last text
     outside headings and the last heading (<span id=...></span><h2>, <a name=...></a><h2>);
None when it has none.

The draw. Words are runs of letters, digits and `_` (as Xapian cuts them). A candidate is a
heading of at least 2 words whose text, case-folded, is the text of no other heading of any
indexed page (nor of another heading of the same page). The candidates with an anchor, in page
order (pages sorted by path), are sampled with Python's random.Random seeded by the seed string
(the same on every machine and Python 3 version); candidates without an anchor are counted.

Queries. The heading text in lower case (which also keeps Xapian's query parser from reading
AND, OR, NOT as operators), with the characters its parser reads as syntax taken out: double
quotes, parentheses and `*` become spaces, a leading `+` or `-` of a word is dropped, the colon
of `title:`, `site:`, `path:` (canon's field prefixes) at the start of a piece of the text
(not `std::filesystem::path::string`) becomes a space, and pieces without a word
character (`—`, `->`) are dropped. Two sets:
  heading  the query as above;
  typo     the same with one edit in one word: among the words that are only letters, at least 5
           of them, and not stopwords (fulltext.py's list), one is picked at random (seed
           S + ":typo"), and one edit picked at random among: change a letter, drop a letter,
           add a letter, swap two adjacent (different) letters; letters put in are a-z, and the
           edit never gives the same word back. Headings without such a word are left out of
           this set (counted).
Each is searched with `CANON search INDEX_DIR WORD... --json --limit 10` (did-you-mean
correction on, the default).

Scores, per set:
  page top 1      the first result's URL without its fragment is the heading's page (or the page
                  canon collapsed it into, as fulltext.py's right_urls)
  section top 1   the first result links the section: its URL is PAGE#ANCHOR, or its "sections"
                  list (a planned JSON field) has a first entry whose "url" is PAGE#ANCHOR
                  (fragment and anchor compared percent-decoded)
  either top 1    page top 1 or section top 1
  page top 10     the page is among the first 10 results
  snippets        over every result of every query of the set, the share whose snippet holds one
                  of the query's words (as searched: the typo's word in the typo set) that are
                  not stopwords. A snippet word w (lower-cased run of word characters) matches
                  a query word q when w == q or their common prefix is at least
                  max(4, min(len(w), len(q)) - 2) characters long ("file" and "files",
                  "parameter" and "parameters", "sort" and "sorting"; not "run" and "running").
  corrected       the share of queries whose JSON has a non-null "corrected_query" (the query
                  canon searched instead); on the heading set, corrections of a correctly typed
                  heading.
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
import urllib.parse
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, HERE)
from fulltext import (INLINE_TAGS, SKIP_CLASSES, SKIP_TAGS, STOPWORDS, VOID_TAGS,  # noqa: E402
                      WORD, read_pages, right_urls)

LIMIT = 10
THREADS = 2
MIN_WORDS = 2        # words of a heading
TYPO_MIN_LETTERS = 5
HEADING_TAGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
# Elements inside a heading whose text is not the heading's: permalinks and tooltips.
HIDDEN_CLASSES = frozenset(("headerlink", "anchor", "editsection", "notable-traits"))
INNER_ID_TAGS = frozenset(("a", "span"))  # not rustdoc's <button id="copy-path"> in an <h1>
PERMALINK_TEXT = frozenset(("#", "¶", "§", "🔗"))
FIELD_PREFIX = re.compile(r"^(title|site|path):")  # at a piece's start: not path::string
LETTERS = "abcdefghijklmnopqrstuvwxyz"


class Elem:
    __slots__ = ("tag", "skipped", "in_main", "id", "seen_heading", "hidden", "mark")

    def __init__(self, tag, skipped, in_main, id_, hidden):
        self.tag, self.skipped, self.in_main, self.id = tag, skipped, in_main, id_
        self.seen_heading = False  # a heading has started inside this element
        self.hidden = hidden       # text not part of a heading's (permalink, tooltip)
        self.mark = None           # for a link to "#...": where its text starts in the heading


class Heading:
    __slots__ = ("level", "depth", "own", "inner", "enclosing", "before", "parts", "in_main")

    def __init__(self, level, depth, own, enclosing, before, in_main):
        self.level, self.depth, self.own, self.enclosing, self.before = level, depth, own, enclosing, before
        self.inner, self.parts, self.in_main = None, [], in_main

    def text(self):
        t = " ".join("".join(self.parts).split())
        return t.rstrip("¶§ \t")

    def anchor(self):
        return self.own or self.inner or self.enclosing or self.before


class Headings(html.parser.HTMLParser):
    """The headings of one page (text, anchor), those inside its main element when it has one;
    skips what fulltext.BodyText skips."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = [Elem("#root", False, False, None, False)]
        self.body, self.main = [], []
        self.has_main = False
        self.heading = None
        self.before = []  # ids opened since the last text outside headings and the last heading

    def _id(self, tag, a):
        return a.get("id") or (a.get("name") if tag == "a" else None) or None

    def handle_starttag(self, tag, attrs):
        h = self.heading
        if h is not None and tag not in INLINE_TAGS:
            h.parts.append(" ")
        if tag in VOID_TAGS:
            return
        a = dict(attrs)
        parent = self.stack[-1]
        role = (a.get("role") or "").lower()
        classes = set((a.get("class") or "").split())
        skipped = (parent.skipped or tag in SKIP_TAGS or role == "navigation" or
                   bool(classes & SKIP_CLASSES))
        in_main = parent.in_main
        if not skipped and (tag == "main" or role == "main"):
            in_main = self.has_main = True
        eid = self._id(tag, a)
        if tag in HEADING_TAGS:
            if h is not None:  # a heading inside a heading: the outer one ends here
                self._end_heading()
            enclosing = None
            for e in reversed(self.stack):
                if e.id:
                    if not e.seen_heading:
                        enclosing = e.id
                    break
            for e in self.stack:
                e.seen_heading = True
            if not skipped:
                self.heading = Heading(int(tag[1]), len(self.stack), eid, enclosing,
                                       self.before[-1] if self.before else None, in_main)
            self.before = []
            e = Elem(tag, skipped, in_main, eid, False)
            e.seen_heading = True
            self.stack.append(e)
            return
        e = Elem(tag, skipped, in_main, eid, parent.hidden or bool(classes & HIDDEN_CLASSES))
        if h is not None:
            if eid and h.inner is None and tag in INNER_ID_TAGS:
                h.inner = eid
            if tag == "a" and (a.get("href") or "").startswith("#"):
                e.mark = len(h.parts)
        elif eid and not skipped:
            self.before.append(eid)
        self.stack.append(e)

    def handle_startendtag(self, tag, attrs):
        h = self.heading
        if h is not None and tag not in INLINE_TAGS:
            h.parts.append(" ")
        eid = self._id(tag, dict(attrs))
        if eid:
            if h is not None:
                if h.inner is None and tag in INNER_ID_TAGS:
                    h.inner = eid
            elif not self.stack[-1].skipped:
                self.before.append(eid)

    def handle_endtag(self, tag):
        h = self.heading
        if h is not None and tag not in INLINE_TAGS:
            h.parts.append(" ")
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                if h is not None:
                    if i <= h.depth:
                        self._end_heading()
                    else:
                        e = self.stack[i]
                        if e.mark is not None and "".join(h.parts[e.mark:]).strip() in PERMALINK_TEXT:
                            del h.parts[e.mark:]
                del self.stack[i:]
                break

    def handle_data(self, data):
        top = self.stack[-1]
        if top.skipped:
            return
        h = self.heading
        if h is not None:
            if not top.hidden:
                h.parts.append(data)
        elif self.before and not data.isspace():
            self.before = []

    def _end_heading(self):
        h, self.heading = self.heading, None
        item = (h.text(), h.anchor(), h.level)
        self.body.append(item)
        if h.in_main:
            self.main.append(item)

    def close(self):
        super().close()
        if self.heading is not None:
            self._end_heading()

    def headings(self):
        """[(text, anchor or None, level 1-6)] in page order."""
        return [x for x in (self.main if self.has_main else self.body) if x[0]]


def page_headings(path):
    try:
        with open(path, "rb") as f:
            data = f.read().decode("utf-8", "replace")
    except OSError as e:
        return e
    p = Headings()
    p.feed(data)
    p.close()
    return p.headings()


def scan(site_dir, pages):
    """[[(text, anchor, level)] per page], every page read once, by THREADS processes."""
    paths = [os.path.join(site_dir, path) for path, _ in pages]
    with concurrent.futures.ProcessPoolExecutor(THREADS) as pool:
        out = list(pool.map(page_headings, paths, chunksize=32))
    for (path, _), r in zip(pages, out):
        if isinstance(r, OSError):
            sys.exit("headings.py: cannot read page %s: %s" % (path, r))
    return out


def draw(site_dir, pages, n, seed):
    """N (heading text, path, url, anchor, level) and counts for the report."""
    found = scan(site_dir, pages)
    count = Counter(h[0].casefold() for hs in found for h in hs)
    with_anchor, stats = [], Counter()
    for (path, url), hs in zip(pages, found):
        for text, anchor, level in hs:
            stats["headings"] += 1
            if len(WORD.findall(text)) < MIN_WORDS:
                continue
            stats["multiword"] += 1
            if count[text.casefold()] > 1:
                continue
            stats["candidates"] += 1
            if anchor is None:
                stats["no_anchor"] += 1
            else:
                with_anchor.append((text, path, url, anchor, level))
    rng = random.Random(seed)
    chosen = rng.sample(with_anchor, min(n, len(with_anchor)))
    return chosen, stats


def to_query(text):
    """The heading as typed: lower case, without the query parser's syntax characters."""
    out = []
    for w in re.sub(r'["()*]', " ", text.lower()).split():
        w = FIELD_PREFIX.sub(r"\1 ", w.lstrip("+-")).strip()
        if WORD.search(w):
            out.append(w)
    return " ".join(out)


def edit(word, rng):
    """WORD with one random edit (never WORD itself)."""
    while True:
        kind = rng.choice(("change", "drop", "add", "swap"))
        if kind == "change":
            i = rng.randrange(len(word))
            c = rng.choice([x for x in LETTERS if x != word[i]])
            new = word[:i] + c + word[i + 1:]
        elif kind == "drop":
            i = rng.randrange(len(word))
            new = word[:i] + word[i + 1:]
        elif kind == "add":
            i = rng.randrange(len(word) + 1)
            new = word[:i] + rng.choice(LETTERS) + word[i:]
        else:
            pos = [i for i in range(len(word) - 1) if word[i] != word[i + 1]]
            if not pos:
                continue
            i = rng.choice(pos)
            new = word[:i] + word[i + 1] + word[i] + word[i + 2:]
        if new != word:
            return new


def typo(query, rng):
    """QUERY with one typo, or None when it has no word to put one in."""
    ms = [m for m in WORD.finditer(query)
          if m.group().isalpha() and len(m.group()) >= TYPO_MIN_LETTERS
          and m.group() not in STOPWORDS]
    if not ms:
        return None
    m = rng.choice(ms)
    return query[:m.start()] + edit(m.group(), rng) + query[m.end():]


def search(canon, index, query):
    """canon's JSON answer; raises RuntimeError on a failed search."""
    cmd = [canon, "search", index] + query.split() + ["--json", "--limit", str(LIMIT)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("`%s` failed (exit %d): %s" % (" ".join(cmd), r.returncode, r.stderr.strip()))
    try:
        out = json.loads(r.stdout)
        out["results"]
    except (ValueError, KeyError) as e:
        raise RuntimeError("`%s` printed no JSON results (%s)" % (" ".join(cmd), e))
    return out


def fragment_url(url):
    """(URL without fragment, percent-decoded fragment)."""
    base, _, frag = url.partition("#")
    return base, urllib.parse.unquote(frag)


def words_match(w, q):
    if w == q:
        return True
    k = max(4, min(len(w), len(q)) - 2)
    return len(w) >= k and len(q) >= k and w[:k] == q[:k]


def snippet_holds(snippet, qwords):
    sw = set(WORD.findall((snippet or "").lower()))
    return any(words_match(w, q) for w in sw for q in qwords)


def main():
    ap = argparse.ArgumentParser(
        description="Heading queries: a section's heading (unique on the site, 2+ words) as the "
                    "query, as typed and with one typo; is the section's page (or the section) "
                    "the first result?")
    ap.add_argument("site_dir", metavar="SITE_DIR")
    ap.add_argument("canon", metavar="CANON_BINARY")
    ap.add_argument("index", metavar="CANON_INDEX_DIR")
    ap.add_argument("--queries", type=int, default=80, metavar="N")
    ap.add_argument("--seed", default="headings", metavar="S")
    ap.add_argument("--out", metavar="FILE.tsv")
    ap.add_argument("--summary", metavar="FILE.json")
    args = ap.parse_args()
    if not os.path.isdir(args.site_dir):
        sys.exit("headings.py: site directory %s does not exist" % args.site_dir)
    if args.queries < 1:
        sys.exit("headings.py: --queries must be at least 1")
    if not (os.path.isfile(args.canon) and os.access(args.canon, os.X_OK)):
        sys.exit("headings.py: canon binary %s is missing or not executable" % args.canon)
    if not os.path.isfile(os.path.join(args.index, "pages.jsonl")):
        sys.exit("headings.py: %s is not a canon index (no pages.jsonl)" % args.index)

    status = read_pages(args.index)
    pages = sorted((path, url) for path, (st, url, _) in status.items() if st == "indexed")
    if not pages:
        sys.exit("headings.py: %s has no indexed pages" % args.index)
    started = time.time()
    drawn, stats = draw(args.site_dir, pages, args.queries, args.seed)
    drawn_s = time.time() - started
    if not drawn:
        sys.exit("headings.py: no unique heading of %d+ words with an anchor in %d pages of %s" % (
            MIN_WORDS, len(pages), args.site_dir))

    trng = random.Random(args.seed + ":typo")
    sets = {"heading": [], "typo": []}
    no_typo = 0
    for text, path, url, anchor, _ in drawn:
        q = to_query(text)
        sets["heading"].append((q, text, path, url, anchor))
        t = typo(q, trng)
        if t is None:
            no_typo += 1
        else:
            sets["typo"].append((t, text, path, url, anchor))
    try:
        search(args.canon, args.index, sets["heading"][0][0])  # a failing binary fails here, once
    except RuntimeError as err:
        sys.exit("headings.py: %s" % err)

    def run(job):
        try:
            return search(args.canon, args.index, job[1][0])
        except RuntimeError as err:
            return err

    jobs = [(name, q) for name in sets for q in sets[name]]
    with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
        answers = list(pool.map(run, jobs))
    search_s = time.time() - started - drawn_s

    rows, scores, errors, has_sections = [], {}, [], False
    for name in sets:
        scores[name] = dict(queries=0, page_top1=0, section_top1=0, either_top1=0, page_top10=0,
                            results=0, snippets=0, corrected=0, errors=0)
    for (name, (q, text, path, url, anchor)), ans in zip(jobs, answers):
        s = scores[name]
        s["queries"] += 1
        if isinstance(ans, RuntimeError):
            s["errors"] += 1
            errors.append(str(ans))
            rows.append([name, q, text, url, anchor, "(error)", "0", "0", "-", "-"])
            continue
        results = ans["results"]
        right = right_urls(status, path, url)
        page_rank = next((i + 1 for i, r in enumerate(results) if fragment_url(r["url"])[0] in right), None)
        first = results[0] if results else None
        page_hit = page_rank == 1
        section_hit = False
        if first is not None:
            links = [first["url"]]
            if first.get("sections"):
                has_sections = True
                links.append(first["sections"][0].get("url") or "")
            for link in links:
                base, frag = fragment_url(link)
                if base in right and frag == urllib.parse.unquote(anchor):
                    section_hit = True
        qwords = [w for w in WORD.findall(q) if w not in STOPWORDS]
        s["page_top1"] += page_hit
        s["section_top1"] += section_hit
        s["either_top1"] += page_hit or section_hit
        s["page_top10"] += page_rank is not None
        s["results"] += len(results)
        s["snippets"] += sum(1 for r in results if snippet_holds(r.get("snippet"), qwords))
        corrected = ans.get("corrected_query")
        s["corrected"] += corrected is not None
        rows.append([name, q, text, url, anchor, first["url"] if first else "", str(int(page_hit)),
                     str(int(section_hit)), str(page_rank or "-"),
                     corrected if corrected is not None else "-"])

    levels = Counter("h%d" % x[4] for x in drawn)
    lines = ["Heading queries: %d headings of %d+ words unique on %s (seed %r), drawn from %d "
             "indexed pages of %s" % (len(drawn), MIN_WORDS, args.site_dir, args.seed, len(pages),
                                      args.index),
             "(%d headings, %d of %d+ words, %d unique: %d with an anchor, %d without; drawn: %s; "
             "%d without a word for a typo; draw %.0f s, %d searches %.0f s)" % (
                 stats["headings"], stats["multiword"], MIN_WORDS, stats["candidates"],
                 stats["candidates"] - stats["no_anchor"], stats["no_anchor"],
                 " ".join("%s %d" % kv for kv in sorted(levels.items())), no_typo, drawn_s,
                 len(jobs) + 1, search_s), "",
             "| set | queries | page top 1 | section top 1 | page or section top 1 | page top 10 "
             "| snippets holding a query word | corrected |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    summary_sets = {}
    for name, s in scores.items():
        n = s["queries"] or 1
        r = dict(queries=s["queries"], page_top1=s["page_top1"] / n,
                 section_top1=s["section_top1"] / n, either_top1=s["either_top1"] / n,
                 page_top10=s["page_top10"] / n,
                 snippets=s["snippets"] / s["results"] if s["results"] else 0.0,
                 results=s["results"], corrected=s["corrected"] / n, errors=s["errors"])
        summary_sets[name] = r
        lines.append("| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f (%d results) | %.3f |" % (
            name, r["queries"], r["page_top1"], r["section_top1"], r["either_top1"],
            r["page_top10"], r["snippets"], r["results"], r["corrected"]))
    if len(drawn) < args.queries:
        lines.append("only %d headings with an anchor (%d wanted)" % (len(drawn), args.queries))
    if not has_sections:
        lines.append("(no result had a \"sections\" list: section hits are result URLs with the "
                     "heading's fragment only)")
    for e in errors[:5]:
        lines.append("search error: %s" % e)
    if errors:
        lines.append("%d searches failed (counted as misses)" % len(errors))
    sys.stdout.write("\n".join(lines) + "\n")

    if args.out:
        with open(args.out, "w") as f:
            f.write("set\tquery\theading\tpage\tanchor\tfirst_url\tpage_hit\tsection_hit\t"
                    "page_rank\tcorrected_query\n")
            for row in rows:
                f.write("\t".join(x.replace("\t", " ") for x in row) + "\n")
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump({"site_dir": args.site_dir, "pages": len(pages), "seed": args.seed,
                       "wanted": args.queries, "drawn": len(drawn), "headings": stats["headings"],
                       "multiword": stats["multiword"], "candidates": stats["candidates"],
                       "candidates_without_anchor": stats["no_anchor"], "no_typo_word": no_typo,
                       "drawn_levels": dict(sorted(levels.items())), "has_sections": has_sections, "sets": summary_sets,
                       "draw_seconds": round(drawn_s, 1), "search_seconds": round(search_s, 1)},
                      f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
