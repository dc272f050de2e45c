#!/usr/bin/env python3
"""Qualified member queries: a type's name and one of its members as the query ("Option map",
"Vec push", "String valueOf", "vector push_back", "os makedirs", "str split"). A reader who
knows what they want types the owner and the member; the first result should land on the
member's place: its page, and the member's section of it when the member is documented inside a
longer page (rustdoc's method sections, Javadoc's method details, Sphinx's object descriptions).
Per list, 60 queries are written down in bench/known_item/members/LIST.tsv (drawn once by
--draw from the site's HTML with a fixed seed, then kept); the evaluation reads that file. A
site has one list named after it, but rust has two (rust and rust-trait-impls, below).

  members.py LIST CANON_BINARY CANON_INDEX_DIR [--list FILE.tsv] [--out FILE.tsv]
             [--summary FILE.json]
  members.py --draw LIST SITE_DIR [--queries N] [--seed S] [--list FILE.tsv]

  LIST             python, rust, rust-trait-impls, javadoc or cppreference: the draw's rules,
                   and the list's name (rust-trait-impls is drawn from and run against rust-doc)
  CANON_INDEX_DIR  built by `CANON index SITE_DIR --out CANON_INDEX_DIR`
  --list           the query list (default bench/known_item/members/LIST.tsv): a header line,
                   then query, target page (path from the site's root), anchor (`-`: the member
                   is a page of its own; rust's lists: one or more anchors, space-separated, any
                   of which is right), tab-separated; rust-trait-impls adds trait_page and
                   trait_anchor, the trait's page and its anchor of the method, also right
  --out            also write one row per query: list, query, target (PAGE or PAGE#ANCHORS;
                   rust-trait-impls: "PAGE#ANCHORS | TRAIT_PAGE#ANCHOR"), first result's URL, its
                   first "sections" entry's URL (`-`: none), member top 1, page top 1, member in
                   the first result's sections (1/0)
  --summary        also write the scores as JSON (members.sh reads it)
  --draw           draw the list from SITE_DIR and write it to --list
  --queries        how many queries to draw (default 60)
  --seed           the seed string of the draw (default "members")

The draw. Pages are read from SITE_DIR itself (no index is needed), in sorted path order, with
html.parser (two processes). Each site has its own pages, members and query:
  rust          the struct.X.html, enum.X.html and trait.X.html pages anywhere under
                std/collections, std/option, std/result, std/string, std/vec, std/fs, std/io,
                std/path, std/sync, std/thread, std/iter and std/str, plus std/primitive.str.html
                and std/primitive.slice.html (type "str", "slice"). A query "X NAME" means X's own
                method NAME; a method X has from a trait impl is documented on the trait's page
                (X's page repeats its first paragraph and links there), which answers the query
                as well as X's page does. So rust has two lists, drawn from the same members:
                rust, X's own methods, where only X's page is right, and rust-trait-impls, the
                methods of X's trait impls ("Take min", "HashMap eq", "Stderr as_fd"), where X's
                page at the method's anchor and the trait's page at its anchor are both right.
                (Drawn together, 87% of the methods on these pages are trait-impl ones; a trait
                page's answer would have been a miss.)
                The markup (rustdoc 1.63). A type's page has <h2 id> sections "implementations"
                (the inherent impls, impl<T> Vec<T>), "deref-methods-..." (Methods from
                Deref<Target = [T]>), "trait-implementations", "synthetic-implementations" (auto
                traits: no methods) and "blanket-implementations" (From<T> for T, Any, Borrow,
                ...: every type's); each impl is a <section class="impl"> whose <h3
                class="code-header"> is its heading, its methods follow in <section
                id="method.NAME">, and each method heading's <a class="fnname"> links the method
                (its own id, or on a trait impl the trait's method: ../clone/trait.Clone.html
                #tymethod.clone). A trait's page has "required-methods" and "provided-methods"
                with <div id="tymethod.NAME"> and <div id="method.NAME">, then "implementors".
                A method id is method.NAME or tymethod.NAME, NAME an identifier, with a suffix -N
                when the id came earlier on the page (method.eq-3: a fourth PartialEq impl;
                method.len-1: slice's len among Vec's Deref methods).
                rust: the ids in "implementations" of a struct, enum or primitive page and in
                "required-methods" and "provided-methods" of a trait page (not Implementors).
                The ids of one NAME are one member (LocalKey's replace, for Cell and for
                RefCell): query "X NAME", anchors those ids.
                rust-trait-impls: the ids in "trait-implementations". The impl's heading names
                the trait: the <a class="trait"> at depth 0 of the heading's angle brackets before
                its first " for " (impl<T: Clone> Clone for Foo<T>: the second link), and Self:
                the first link after it. An impl for another type is not X's (rustdoc lists impl
                From<RecvError> for TryRecvError on RecvError's page): Self's file name must be
                the page's (a re-export's page links the type's other path). The method's
                fnname link must be method.NAME or tymethod.NAME on the trait page the heading
                names, and that page must have that id (in 1.63 every one does). The ids of one
                NAME from impls of one trait (String's PartialEq<str>, PartialEq<&str>, ... eq)
                are one member: query "X NAME", anchors those ids, trait page and anchor; a
                NAME from two traits (Debug's and Display's fmt, Read's and Write's by_ref) is
                left out (which trait?), and so is a NAME that X also has as its own method
                (str's is_ascii and AsciiExt's): x.NAME() calls the own one, it is the
                query's, and it is in the rust list.
                In neither list: Deref methods (another type's, on its page: Vec's iter is
                slice's), blanket implementations, a trait's Implementors. Redirect pages have
                no method ids and drop out. Pages that document the same type at two paths (a
                re-export: std/collections/struct.HashMap.html and
                std/collections/hash_map/struct.HashMap.html) are one type: pages with the same
                type name and the same set of member anchors (both lists') are kept once, under
                the first path. Ambiguity (below) is decided over both lists' members together.
  javadoc       the pages directly in java.base/java/lang, java/util, java/io, java/nio/file and
                java/time whose file name starts with a capital letter (classes, interfaces,
                enums, records, annotations; not package-summary/tree/use, not the class-use
                directory). Members: the method details of Javadoc 17,
                <section class="detail" id="NAME(PARAMETER TYPES)">, NAME an identifier
                (constructors, id "<init>(...)", fields and enum constants, ids without "(", are
                not members); overloads are one member, anchored at its first detail. Query
                "CLASS NAME" with CLASS the file name without .html, dots as spaces
                (Map.Entry.html: "Map Entry getKey").
  cppreference  the pages in en/cpp/container/*/, en/cpp/string/basic_string/,
                en/cpp/memory/unique_ptr/, en/cpp/memory/shared_ptr/, en/cpp/utility/optional/
                and en/cpp/utility/variant/. A page DIR/NAME.html is a member page when NAME is an
                identifier and one of the comma-separated names of its <h1 id="firstHeading">
                is std::CLASS::NAME or std::CLASS<...>::NAME with CLASS not NAME (a constructor's
                page, std::vector::vector, is not; std::swap(std::vector), std::make_unique,
                operator pages are not). Query "CLASS NAME" (vector_bool/flip.html:
                "vector flip"), anchor "-".
  python        the pages library/*.html. Members: <dt id="ID"> where ID has 2 or 3 dotted parts,
                each an identifier (os.makedirs, os.path.join, str.split, re.Match.group). Query:
                the parts joined by spaces ("os path join"), anchor the id.
A query that two members of the site's pages make (a different page or anchor) is ambiguous and left
out ("IntoIter next": the IntoIter of vec, of hash_map, ...; "vector swap": vector/swap.html and
vector_bool/swap.html); so is a query with a word Xapian's query parser reads as an operator (AND,
OR, NOT, XOR, NEAR, ADJ). A member's owner is its query without the last word (a type, a class, a
module: "Vec", "Map Entry", "os path", "basic_string"). Python's random.Random seeded by the seed
string (the same on every machine and Python 3 version) picks an owner uniformly among the owners
(sorted), then one of its members uniformly (in page order, pages sorted by path); a drawn member is
not drawn again, and an owner whose members are all drawn leaves the draw. The list is written in
draw order. With the default seed on the Debian packages (python3.11-doc, rust-doc 1.63,
openjdk-17-doc, cppreference-doc-en-html) the draw reads, per list: python 317 pages, 7,267
members of 632 owners; rust-doc 349 pages, 243 types (33 re-exports kept once), 406 Deref method
ids left out, and for rust 1,411 members, 32 ambiguous, 1,379 left of 125 owners, for
rust-trait-impls 10,163 method ids (436 of an impl for another type, 8 names shadowed by an own
method, 55 names from two traits), 9,215 members, 2,849 ambiguous, 6,366 left of 188 owners;
javadoc 403 pages, 3,515 members of 296 classes; cppreference 572 pages, 404 member pages, 2
ambiguous, 402 left of 21 classes.

Queries. Each row's query is searched as written with `CANON search INDEX_DIR WORD... --json
--limit 10`. A target page's URL is its "url" in CANON_INDEX_DIR/pages.jsonl; its right pages
are that URL, the page canon collapsed it into when it is a duplicate (fulltext.py's
right_urls), and every page of its cluster; a target page that is not in pages.jsonl, or is
there neither indexed nor a duplicate, has no right page (a query none of whose target pages has
one is a miss, counted). Fragments are compared percent-decoded; an anchor of the form
NAME(...) (Javadoc's) is matched by any fragment starting with "NAME(", any overload of the
method. A row has one target (page and anchors), or two (rust-trait-impls: the type's page and
anchors, the trait's page and anchor); a score counts when it holds for either.

Scores, per list (share of the queries):
  member top 1        the first result lands on the member: its URL without the fragment is a
                      right page of a target and either the member is a page of its own (anchor
                      "-"), or the result's URL fragment is one of the target's anchors, or its
                      first "sections" entry is a right page of the target with one of its
                      anchors as its fragment
  page top 1          the first result's URL without the fragment is a right page of a target
  member in sections  member top 1, or one of the first result's "sections" entries (up to 3)
                      is a right page of a target with one of its anchors as its fragment; for
                      a member that is a page of its own, page top 1
"""

import argparse
import concurrent.futures
import functools
import html.parser
import json
import os
import posixpath
import random
import re
import sys
import time
import urllib.parse
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, HERE)
from fulltext import read_pages, right_urls  # noqa: E402
from headings import fragment_url, search  # noqa: E402

THREADS = 2
QUERIES = 60
SITES = ("python", "rust", "rust-trait-impls", "javadoc", "cppreference")
RUST_SITES = ("rust", "rust-trait-impls")
HEADER = ("query", "page", "anchor")
SECTIONS = 3  # "sections" entries of a result looked at
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
RUST_MODULES = ("collections", "option", "result", "string", "vec", "fs", "io", "path", "sync",
                "thread", "iter", "str")
RUST_PAGE = re.compile(r"^(struct|enum|trait)\.(\w+)\.html$")
RUST_METHOD = re.compile(r"^(?:ty)?method\.([A-Za-z_][A-Za-z0-9_]*)(?:-[0-9]+)?$")  # method.add-42
RUST_OWN = {"struct": ("implementations",), "enum": ("implementations",),
            "primitive": ("implementations",), "trait": ("required-methods", "provided-methods")}
RUST_IMPLS = "trait-implementations"
JAVADOC_PACKAGES = ("lang", "util", "io", "nio/file", "time")
JAVADOC_METHOD = re.compile(r"^([A-Za-z_$][A-Za-z0-9_$]*)\(")
CPPREF_DIRS = ("en/cpp/string/basic_string", "en/cpp/memory/unique_ptr", "en/cpp/memory/shared_ptr",
               "en/cpp/utility/optional", "en/cpp/utility/variant")
CPPREF_MEMBER = re.compile(r"^std::(\w+)(?:<.*>)?::(\w+)$")
OPERATORS = frozenset(("AND", "OR", "NOT", "XOR", "NEAR", "ADJ"))


# ---- the draw ----

def site_pages(site, root):
    """The pages the draw reads, paths from ROOT, sorted."""
    def html_files(d):
        full = os.path.join(root, d)
        if not os.path.isdir(full):
            return []
        return [d + "/" + f for f in os.listdir(full)
                if f.endswith(".html") and os.path.isfile(os.path.join(full, f))]

    out = []
    if site in RUST_SITES:
        for m in RUST_MODULES:
            top = os.path.join(root, "std", m)
            for d, _, files in os.walk(top):
                rel = os.path.relpath(d, root).replace(os.sep, "/")
                out += [rel + "/" + f for f in files if RUST_PAGE.match(f)]
        out += [p for p in ("std/primitive.str.html", "std/primitive.slice.html")
                if os.path.isfile(os.path.join(root, p))]
    elif site == "javadoc":
        for p in JAVADOC_PACKAGES:
            out += [f for f in html_files("java.base/java/" + p)
                    if f.rsplit("/", 1)[1][:1].isupper()]
    elif site == "cppreference":
        base = "en/cpp/container"
        if os.path.isdir(os.path.join(root, base)):
            for d in os.listdir(os.path.join(root, base)):
                if os.path.isdir(os.path.join(root, base, d)):
                    out += html_files(base + "/" + d)
        for d in CPPREF_DIRS:
            out += html_files(d)
    elif site == "python":
        out = html_files("library")
    return sorted(out)


class Tags(html.parser.HTMLParser):
    """The (tag, id, class) of every element with an id, in page order, and the text of
    <h1 id="firstHeading">."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.heading, self.in_heading = [], [], False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        eid = a.get("id")
        if eid:
            self.ids.append((tag, eid, a.get("class") or ""))
            if tag == "h1" and eid == "firstHeading":
                self.in_heading = True

    def handle_endtag(self, tag):
        if tag == "h1":
            self.in_heading = False

    def handle_data(self, data):
        if self.in_heading:
            self.heading.append(data)


class RustPage(html.parser.HTMLParser):
    """A rustdoc page's methods: [section, id, (trait href, Self href), fnname href] in page
    order, with the section the id of the last <h2 id> before it, the hrefs those of the
    enclosing impl's heading (the last <section class="impl">'s <h3 class="code-header">, read by
    implemented_trait; (None, None) for an inherent impl), and the fnname href the method
    heading's <a class="fnname">."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.section, self.trait, self.entries = None, (None, None), []
        self.impl_section, self.h3 = False, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        eid = a.get("id")
        cls = (a.get("class") or "").split()
        if tag == "h2" and eid:
            self.section, self.trait = eid, (None, None)
        elif tag == "section" and "impl" in cls:
            self.impl_section, self.trait = True, (None, None)
        elif tag == "h3" and self.impl_section and "code-header" in cls:
            self.h3 = []
        elif tag == "a" and self.h3 is not None:
            self.h3.append(("trait" if "trait" in cls else "a", a.get("href")))
        elif tag == "a" and "fnname" in cls and self.entries and self.entries[-1][3] is None:
            self.entries[-1][3] = a.get("href") or ""
        if eid and tag in ("section", "div") and eid.startswith(("method.", "tymethod.")):
            self.entries.append([self.section, eid, self.trait, None])

    def handle_endtag(self, tag):
        if tag == "h3" and self.h3 is not None:
            self.trait = implemented_trait(self.h3)
            self.h3, self.impl_section = None, False

    def handle_data(self, data):
        if self.h3 is not None:
            self.h3.append(("text", data))


def implemented_trait(events):
    """(trait href, Self href) of an impl heading (its links and text, in order): the trait
    link at depth 0 of its angle brackets before the first " for " there (impl<T: Clone> Clone
    for Foo<T>: the second link) and the first link after it (Foo); (None, None) for an
    inherent impl (no " for ")."""
    text, links = [], []
    for kind, value in events:
        if kind in ("trait", "a"):
            text.append("\0%d\0" % len(links))
            links.append((kind, value))
        else:
            text.append(value.replace("\xa0", " "))
    s = "".join(text).replace("->", "  ")  # FnMut() -> A
    depth, last, i = 0, None, 0
    while i < len(s):
        c = s[i]
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "\0":
            j = s.index("\0", i + 1)
            kind, href = links[int(s[i + 1:j])]
            if depth == 0 and kind == "trait":
                last = href
            i = j
        elif depth == 0 and s.startswith(" for ", i):
            after = re.search(r"\0(\d+)\0", s[i:])
            return last, links[int(after.group(1))][1] if after else None
        i += 1
    return None, None


@functools.lru_cache(maxsize=None)
def page_ids(root, path):
    """The ids of the page at PATH (a trait's page), or None when it cannot be read."""
    try:
        with open(os.path.join(root, path), "rb") as f:
            data = f.read().decode("utf-8", "replace")
    except OSError:
        return None
    return frozenset(re.findall(r'\sid="([^"]+)"', data))


def link_target(path, href):
    """(path from the site's root, fragment) of HREF on the page at PATH."""
    ref, _, frag = (href or "").partition("#")
    if not ref:
        return path, frag
    if urllib.parse.urlsplit(ref).scheme or ref.startswith("/"):
        return None, frag
    return posixpath.normpath(posixpath.join(posixpath.dirname(path),
                                             urllib.parse.unquote(ref))), frag


def rust_members(root, path, data):
    """[(query, anchors, kind, trait page, trait anchor)] of a rustdoc page, and counts."""
    name = path.rsplit("/", 1)[1][:-len(".html")]
    kind, owner = name.split(".", 1)  # struct.Vec, primitive.str
    p = RustPage()
    p.feed(data)
    p.close()
    stats = Counter()
    own, impls = {}, {}  # NAME: [ids]; NAME: {(trait page, trait anchor): [ids]}
    for section, eid, (trait, self_type), fnname in p.entries:
        m = RUST_METHOD.match(eid)
        if not m:
            continue
        method = m.group(1)
        if section in RUST_OWN.get(kind, ()):
            own.setdefault(method, []).append(eid)
        elif section == RUST_IMPLS:
            stats["trait_impl_ids"] += 1
            self_page = link_target(path, self_type)[0] if self_type else None
            if not self_page or posixpath.basename(self_page) != posixpath.basename(path):
                stats["other_self"] += 1  # impl From<RecvError> for TryRecvError
                continue
            trait_page = link_target(path, trait)[0] if trait else None
            fn_page, fn_anchor = link_target(path, fnname)
            ids = page_ids(root, trait_page) if trait_page else None
            if (not trait_page or fn_page != trait_page
                    or fn_anchor not in ("method." + method, "tymethod." + method)
                    or ids is None or fn_anchor not in ids):
                stats["no_trait_anchor"] += 1  # no trait link, or no such method on its page
                continue
            impls.setdefault(method, {}).setdefault((trait_page, fn_anchor), []).append(eid)
        elif section not in ("blanket-implementations",):
            stats["other_sections"] += 1  # Deref methods, Implementors, foreign impls
    out = [("%s %s" % (owner, method), ids, "rust", "", "") for method, ids in own.items()]
    for method, traits in impls.items():
        if method in own:
            stats["shadowed"] += 1  # the type's own method of that name is the one called
        elif len(traits) > 1:
            stats["two_traits"] += 1  # Debug's and Display's fmt
        else:
            (trait_page, trait_anchor), ids = next(iter(traits.items()))
            out.append(("%s %s" % (owner, method), ids, "rust-trait-impls", trait_page,
                        trait_anchor))
    return out, stats


def page_members(site, root, path):
    """([(query, anchors, kind, trait page, trait anchor)], counts) of the page at PATH, in page
    order (kind: the list the member belongs to, SITE but for rust's trait impls); an OSError
    when it cannot be read."""
    try:
        with open(os.path.join(root, path), "rb") as f:
            data = f.read().decode("utf-8", "replace")
    except OSError as e:
        return e
    if site in RUST_SITES:
        return rust_members(root, path, data)
    p = Tags()
    p.feed(data)
    p.close()
    name = path.rsplit("/", 1)[1][:-len(".html")]
    out = []
    if site == "javadoc":
        owner = name.replace(".", " ")
        seen = set()
        for tag, eid, cls in p.ids:
            m = JAVADOC_METHOD.match(eid)
            if tag == "section" and "detail" in cls.split() and m and m.group(1) not in seen:
                seen.add(m.group(1))
                out.append(("%s %s" % (owner, m.group(1)), eid))
    elif site == "cppreference":
        if IDENT.match(name):
            for item in " ".join("".join(p.heading).split()).split(","):
                m = CPPREF_MEMBER.match(item.strip())
                if m and m.group(2) == name and m.group(1) != name:
                    out.append(("%s %s" % (m.group(1), name), "-"))
                    break
    elif site == "python":
        for tag, eid, _ in p.ids:
            parts = eid.split(".")
            if tag == "dt" and 2 <= len(parts) <= 3 and all(IDENT.match(x) for x in parts):
                out.append((" ".join(parts), eid))
    seen, unique = set(), []
    for q, a in out:  # an id repeated on a page
        if (q, a) not in seen:
            seen.add((q, a))
            unique.append((q, [a], site, "", ""))
    return unique, Counter()


def draw(site, root, n, seed):
    """N (query, page, anchors, trait page, trait anchor) in draw order, and counts."""
    pages = site_pages(site, root)
    if not pages:
        sys.exit("members.py: no %s pages in %s" % (site, root))
    with concurrent.futures.ProcessPoolExecutor(THREADS) as pool:
        found = list(pool.map(functools.partial(page_members, site, root), pages, chunksize=8))
    stats = Counter(pages=len(pages))
    seen_types = set()
    candidates = []  # (query, page, anchors, kind, trait page, trait anchor) in page order
    for path, got in zip(pages, found):
        if isinstance(got, OSError):
            sys.exit("members.py: cannot read page %s: %s" % (path, got))
        members, page_stats = got
        if not members:
            continue
        if site in RUST_SITES:
            key = (members[0][0].split(" ", 1)[0], frozenset(a for m in members for a in m[1]))
            if key in seen_types:
                stats["reexports"] += 1
                continue
            seen_types.add(key)
            stats["types"] += 1
        stats.update(page_stats)
        stats["member_pages"] += 1
        for q, anchors, kind, tp, ta in members:
            stats["members " + kind] += 1
            candidates.append((q, path, anchors, kind, tp, ta))
    stats["members"] = len(candidates)
    targets = Counter(c[0] for c in candidates)  # of every kind: "X NAME" names one member
    owners = {}
    for q, path, anchors, kind, tp, ta in candidates:
        if kind != site:
            continue
        stats["members of the list"] += 1
        if targets[q] > 1:
            stats["ambiguous"] += 1
            continue
        if OPERATORS & set(q.split()):
            stats["operator"] += 1
            continue
        owners.setdefault(q.rsplit(" ", 1)[0], []).append(
            (q, path, " ".join(anchors), tp, ta) if site == "rust-trait-impls"
            else (q, path, " ".join(anchors)))
    stats["owners"] = len(owners)
    stats["candidates"] = sum(len(v) for v in owners.values())
    rng = random.Random(seed)
    names = sorted(owners)
    chosen = []
    while names and len(chosen) < n:
        owner = rng.choice(names)
        members = owners[owner]
        chosen.append(members.pop(rng.randrange(len(members))))
        if not members:
            names.remove(owner)
    return chosen, stats


def header(site):
    return HEADER + (("trait_page", "trait_anchor") if site == "rust-trait-impls" else ())


def write_list(path, site, rows):
    with open(path, "w") as f:
        f.write("\t".join(header(site)) + "\n")
        for row in rows:
            f.write("\t".join(row) + "\n")


def read_list(path, site):
    """[(query, page, [anchors], [(other page, [anchors])])] of the list at PATH."""
    rows = []
    with open(path) as f:
        lines = f.read().splitlines()
    want = list(header(site))
    if not lines or lines[0].split("\t") != want:
        sys.exit("members.py: %s does not start with the header %s" % (path, ", ".join(want)))
    for i, line in enumerate(lines[1:], 2):
        parts = line.split("\t")
        if len(parts) != len(want) or not all(parts):
            sys.exit("members.py: %s:%d: not %s" % (path, i, ", ".join(want)))
        anchors = parts[2].split(" ") if site in RUST_SITES else [parts[2]]
        rows.append((parts[0], parts[1], anchors,
                     [(parts[3], [parts[4]])] if len(parts) == 5 else []))
    return rows


# ---- the queries ----

def read_clusters(index):
    """{url: {urls of its cluster}} of INDEX/pages.jsonl (pages with a "cluster" number)."""
    by_cluster, url_cluster = {}, {}
    with open(os.path.join(index, "pages.jsonl")) as f:
        for line in f:
            if line.strip():
                p = json.loads(line)
                if p.get("cluster") is not None and p.get("url"):
                    by_cluster.setdefault(p["cluster"], set()).add(p["url"])
                    url_cluster[p["url"]] = p["cluster"]
    return {u: by_cluster[c] for u, c in url_cluster.items()}


def anchor_match(fragment, anchor):
    """FRAGMENT (percent-decoded) names ANCHOR; any overload NAME(...) of a NAME(...) anchor."""
    m = JAVADOC_METHOD.match(anchor)
    if m and anchor.endswith(")"):
        return fragment.startswith(m.group(1) + "(")
    return fragment == anchor


def score(results, targets):
    """(member top 1, page top 1, member in sections, first URL, first section URL) for TARGETS,
    [(right URLs, anchors)], any of which is a right answer (anchors ["-"]: a page of its own)."""
    if not results:
        return False, False, False, "-", "-"
    first = results[0]
    sections = [s.get("url") or "" for s in (first.get("sections") or [])][:SECTIONS]
    base, frag = fragment_url(first["url"])
    section = sections[0] if sections else "-"

    def links(url, right, anchors):
        b, f = fragment_url(url)
        return b in right and any(anchor_match(f, a) for a in anchors)

    page = member = in_sections = False
    for right, anchors in targets:
        if base not in right:
            continue
        page = True
        if anchors == ["-"]:
            member = in_sections = True
            continue
        if any(anchor_match(frag, a) for a in anchors) or (
                sections and links(sections[0], right, anchors)):
            member = True
        if any(links(s, right, anchors) for s in sections):
            in_sections = True
    return member, page, member or in_sections, first["url"], section


def evaluate(args):
    if not (os.path.isfile(args.canon) and os.access(args.canon, os.X_OK)):
        sys.exit("members.py: canon binary %s is missing or not executable" % args.canon)
    if not os.path.isfile(os.path.join(args.index, "pages.jsonl")):
        sys.exit("members.py: %s is not a canon index (no pages.jsonl)" % args.index)
    rows = read_list(args.list, args.site)
    if not rows:
        sys.exit("members.py: %s has no queries" % args.list)
    status = read_pages(args.index)
    clusters = read_clusters(args.index)
    started = time.time()
    try:
        search(args.canon, args.index, rows[0][0])  # a failing binary fails here, once
    except RuntimeError as err:
        sys.exit("members.py: %s" % err)

    def run(row):
        try:
            return search(args.canon, args.index, row[0])
        except RuntimeError as err:
            return err

    with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
        answers = list(pool.map(run, rows))
    search_s = time.time() - started

    def right_of(path):
        entry = status.get(path)
        if entry is None or not entry[1] or entry[0] not in ("indexed", "duplicate"):
            missing.append("%s (%s)" % (path, entry[0] if entry else "not in pages.jsonl"))
            return set()
        return right_urls(status, path, entry[1]) | clusters.get(entry[1], set())

    s = Counter()
    out, errors, missing, has_sections, unanswerable = [], [], [], False, 0
    for (q, path, anchors, others), ans in zip(rows, answers):
        places = [(path, anchors)] + others
        target = " | ".join(p if a == ["-"] else p + "#" + " ".join(a) for p, a in places)
        targets = [(right_of(p), a) for p, a in places]
        unanswerable += not any(r for r, _ in targets)
        if isinstance(ans, RuntimeError):
            errors.append(str(ans))
            member = page = in_sections = False
            first, section = "(error)", "-"
        else:
            results = ans["results"]
            if results and results[0].get("sections"):
                has_sections = True
            member, page, in_sections, first, section = score(results, targets)
        s["queries"] += 1
        s["member_top1"] += member
        s["page_top1"] += page
        s["member_in_sections"] += in_sections
        out.append([args.site, q, target, first, section]
                   + [str(int(x)) for x in (member, page, in_sections)])

    n = s["queries"]
    r = dict(queries=n, member_top1=s["member_top1"] / n, page_top1=s["page_top1"] / n,
             member_in_sections=s["member_in_sections"] / n, errors=len(errors),
             missing_targets=unanswerable, missing_pages=len(missing),
             has_sections=has_sections, search_seconds=round(search_s, 1))
    lines = ["Member queries: %d from %s against %s (%d searches %.0f s)" % (
                 n, args.list, args.index, n + 1, search_s), "",
             "| queries | member top 1 | page top 1 | member in first result's sections |",
             "|---:|---:|---:|---:|",
             "| %d | %.3f | %.3f | %.3f |" % (n, r["member_top1"], r["page_top1"],
                                             r["member_in_sections"])]
    for m in missing[:5]:
        lines.append("target page not indexed: %s" % m)
    if missing:
        lines.append("%d target pages not indexed; %d queries with no indexed target page "
                     "(counted as misses)" % (len(missing), unanswerable))
    if not has_sections:
        lines.append("(no first result had a \"sections\" list)")
    for e in errors[:5]:
        lines.append("search error: %s" % e)
    if errors:
        lines.append("%d searches failed (counted as misses)" % len(errors))
    sys.stdout.write("\n".join(lines) + "\n")

    if args.out:
        with open(args.out, "w") as f:
            f.write("list\tquery\ttarget\tfirst_url\tfirst_section_url\tmember_top1\tpage_top1\t"
                    "member_in_sections\n")
            for row in out:
                f.write("\t".join(x.replace("\t", " ") for x in row) + "\n")
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump(dict(r, site=args.site, list=args.list, index=args.index), f, indent=1)
            f.write("\n")


def main():
    ap = argparse.ArgumentParser(
        description="Qualified member queries (a type's name and one of its members, from "
                    "bench/known_item/members/LIST.tsv): does the first result land on the "
                    "member's page and section? --draw writes the list from the site's HTML.")
    ap.add_argument("site", metavar="LIST", choices=SITES)
    ap.add_argument("rest", nargs="+", metavar="ARG",
                    help="CANON_BINARY CANON_INDEX_DIR, or with --draw SITE_DIR (rust-doc for both "
                         "rust lists)")
    ap.add_argument("--draw", action="store_true")
    ap.add_argument("--list", metavar="FILE.tsv")
    ap.add_argument("--out", metavar="FILE.tsv")
    ap.add_argument("--summary", metavar="FILE.json")
    ap.add_argument("--queries", type=int, default=QUERIES, metavar="N")
    ap.add_argument("--seed", default="members", metavar="S")
    args = ap.parse_args()
    if args.list is None:
        args.list = os.path.join(HERE, "members", args.site + ".tsv")

    if args.draw:
        if len(args.rest) != 1:
            ap.error("--draw takes LIST SITE_DIR")
        root = args.rest[0]
        if not os.path.isdir(root):
            sys.exit("members.py: site directory %s does not exist" % root)
        if args.queries < 1:
            sys.exit("members.py: --queries must be at least 1")
        started = time.time()
        chosen, st = draw(args.site, root, args.queries, args.seed)
        if len(chosen) < args.queries:
            sys.exit("members.py: only %d members to draw from (%d wanted)" % (
                len(chosen), args.queries))
        os.makedirs(os.path.dirname(os.path.abspath(args.list)), exist_ok=True)
        write_list(args.list, args.site, chosen)
        print("%s: %d queries (seed %r) written to %s; %d pages read, %d with members, %d "
              "members, %d ambiguous, %d with an operator word, %d candidates of %d owners; %.0f s"
              % (args.site, len(chosen), args.seed, args.list, st["pages"], st["member_pages"],
                 st["members of the list"] if args.site in RUST_SITES else st["members"],
                 st["ambiguous"], st["operator"], st["candidates"], st["owners"],
                 time.time() - started))
        if args.site in RUST_SITES:
            print("rust: %d types (%d re-exports kept once); members: %d own, %d from trait impls "
                  "(%d trait-impl method ids: %d of an impl for another type, %d with no trait "
                  "method to link, %d shadowed by an own method of the name, %d names from two "
                  "traits); %d method ids in other "
                  "sections (Deref methods) left out"
                  % (st["types"], st["reexports"], st["members rust"],
                     st["members rust-trait-impls"], st["trait_impl_ids"], st["other_self"],
                     st["no_trait_anchor"],
                     st["shadowed"], st["two_traits"], st["other_sections"]))
        return

    if len(args.rest) != 2:
        ap.error("give LIST CANON_BINARY CANON_INDEX_DIR (or --draw LIST SITE_DIR)")
    args.canon, args.index = args.rest
    if not os.path.isfile(args.list):
        sys.exit("members.py: no query list %s (draw it with --draw)" % args.list)
    evaluate(args)


if __name__ == "__main__":
    main()
