"""Recall on pages known to be one item under several paths, from a canon index's pages.jsonl.

same_item_pairs.py INDEX_DIR [--site rust] [--entries SITE_DIR] [--definitions SITE_DIR] [--same-line SITE_DIR]
    rust (rust-doc): pairs of content pages at the same path under std/, core/ and alloc/ (a
    re-export documents the item again), by kind of item; pairs of one intrinsic under
    core/arch/x86 and x86_64, and under arm and aarch64 (and std/arch's); and what became of the
    module pages one of which lists more than the other (each should be indexed, or the fuller
    one should be the authoritative page).
Prints the share of pairs whose pages share a cluster. With --entries, also what each page of
a same-item pair lists that the other lacks, read from the HTML as canon reads it roughly (the
links of rustdoc's main content: each linked page's file name and each place in the page itself;
places in other pages left out): how many pairs have a page missing at most a share of its
entries from the other, and the module pages' figures (docs/dedup-names.md, "What moved pages list"). With
--definitions, the same-item pairs split by where each page says its item is defined (its first
link into the site's src/ tree, the line range's first line): one definition, or two (arm and
aarch64 intrinsics that stdarch defines twice, stable on one, nightly on the other). With
--same-line, every pair of pages of one file name whose first source link names one line, at
any paths (re-exports, per-platform and per-OS copies, a submodule's items re-exported).
"""
import collections
import itertools
import json
import re
import sys


def load(index_dir):
    return [json.loads(line) for line in open(index_dir + "/pages.jsonl")]


def together(a, b):
    return a.get("cluster") is not None and a.get("cluster") == b.get("cluster")


def pairs_by(rows, pattern, key):
    groups = collections.defaultdict(list)
    for r in rows:
        m = re.match(pattern, r["path"])
        if m and r["status"] in ("indexed", "duplicate"):
            groups[key(m)].append(r)
    return [(a, b) for members in groups.values() for a, b in itertools.combinations(members, 2)]


def report(name, pairs, kind=None):
    joined = sum(1 for a, b in pairs if together(a, b))
    line = f"{name}: {joined} of {len(pairs)} pairs in one cluster ({joined / max(len(pairs), 1):.3f})"
    if kind:
        by = collections.Counter(kind(a) for a, b in pairs)
        by_joined = collections.Counter(kind(a) for a, b in pairs if together(a, b))
        line += "; " + ", ".join(f"{k} {by_joined[k]}/{by[k]}" for k in sorted(by))
    print(line)


def rust_pairs(rows):
    """Every pair of rust-doc pages known to be one item: std/core/alloc at the same path, one
    intrinsic under x86 and x86_64, under arm and aarch64."""
    same_intrinsic = lambda m: (m.group(1), m.group(3))
    return (pairs_by(rows, r"(std|core|alloc)/(.*)$", lambda m: m.group(2)) +
            pairs_by(rows, r"(core|std)/arch/(x86|x86_64)/(.*)$", same_intrinsic) +
            pairs_by(rows, r"(core|std)/arch/(arm|aarch64)/(.*)$", same_intrinsic))


def rust(rows):
    item_kind = lambda r: r["path"].rsplit("/", 1)[-1].split(".")[0]
    report("std/core/alloc same item", pairs_by(rows, r"(std|core|alloc)/(.*)$", lambda m: m.group(2)), item_kind)
    same_intrinsic = lambda m: (m.group(1), m.group(3))
    report("x86/x86_64 intrinsics", pairs_by(rows, r"(core|std)/arch/(x86|x86_64)/(.*)$", same_intrinsic))
    report("arm/aarch64 intrinsics", pairs_by(rows, r"(core|std)/arch/(arm|aarch64)/(.*)$", same_intrinsic))
    by_path = {r["path"]: r for r in rows}
    for fuller, other in [("core/arch/x86_64/index.html", "core/arch/x86/index.html"),
                          ("std/arch/index.html", "core/arch/index.html"),
                          ("std/task/index.html", "core/task/index.html")]:
        f, o = by_path[fuller], by_path[other]
        verdict = "right" if f["status"] == "indexed" else "WRONG: hidden under " + f.get("authoritative", "")
        print(f"{fuller} (lists more than {other}): {f['status']}, {f.get('authority_reason')}: {verdict}")


def entries(site_dir, path):
    text = open(site_dir + "/" + path, encoding="utf-8", errors="replace").read()
    main = text.find('<section id="main-content"')
    out = set()
    for href in re.findall(r'<a [^>]*href="([^"]*)"', text[max(main, 0):]):
        if "#" in href:
            page, fragment = href.split("#", 1)
            if not page:
                out.add("#" + fragment)
            continue
        out.add(href.split("?")[0].rstrip("/").rsplit("/", 1)[-1])
    return out


def definition(site_dir, path):
    text = open(site_dir + "/" + path, encoding="utf-8", errors="replace").read()
    m = re.search(r'href="[^"]*?src/([^"#]*)(?:#(\d+))?', text)
    return m and (m.group(1), m.group(2))


def rust_definitions(rows, site_dir):
    for name, pattern, key in [("std/core/alloc same item", r"(std|core|alloc)/(.*)$", lambda m: m.group(2)),
                               ("arm/aarch64 intrinsics", r"(core|std)/arch/(arm|aarch64)/(.*)$",
                                lambda m: (m.group(1), m.group(3)))]:
        split = collections.defaultdict(list)
        for a, b in pairs_by(rows, pattern, key):
            same = definition(site_dir, a["path"]) == definition(site_dir, b["path"])
            split["one definition" if same else "two definitions"].append((a, b))
        for kind in sorted(split):
            report(f"{name}, {kind}", split[kind])


def rust_same_line(rows, site_dir):
    """Every pair of std/core/alloc content pages of one file name whose first source link names
    one line: the same definition wherever rustdoc put it (a re-export at the same path, a
    platform module repeating another's items, a module re-exporting its submodule's). Reported
    with and without the pairs of x86/x86_64 and arm/aarch64 at the same path (counted above)."""
    groups = collections.defaultdict(list)
    for r in rows:
        if r["status"] in ("indexed", "duplicate") and re.match(r"(std|core|alloc)/", r["path"]):
            d = definition(site_dir, r["path"])
            if d and d[1] is not None:
                groups[(r["path"].rsplit("/", 1)[-1], d)].append(r)
    pairs = [(a, b) for g in groups.values() for a, b in itertools.combinations(g, 2)]
    report("std/core/alloc, one file name and one source line", pairs)
    family = lambda p: re.sub(r"^(core|std)/arch/(x86_64|x86|aarch64|arm)/", r"\1/arch/FAMILY/", p)
    report("... without x86/x86_64 and arm/aarch64 at the same path",
           [(a, b) for a, b in pairs if family(a["path"]) != family(b["path"]) or a["path"] == b["path"]])
    apart = [(a["path"], b["path"]) for a, b in pairs if not together(a, b)]
    for a, b in apart[:20]:
        print(f"  apart: {a} {b}")


def rust_entries(rows, site_dir):
    pairs = pairs_by(rows, r"(std|core|alloc)/(.*)$", lambda m: m.group(2))
    lacks = []
    for a, b in pairs:
        ea, eb = entries(site_dir, a["path"]), entries(site_dir, b["path"])
        if ea and eb:
            lacks.append((len(ea - eb), len(ea), len(eb - ea), len(eb)))
    n = len(lacks)
    for share in (0.02, 0.1):
        one = sum(1 for ma, na, mb, nb in lacks if ma <= share * na or mb <= share * nb)
        print(f"pairs with a page missing at most {share:.0%} of its entries from the other: {one} of {n} ({one / n:.3f})")
    one = sum(1 for ma, na, mb, nb in lacks if (ma < 8 and ma <= 0.1 * na) or (mb < 8 and mb <= 0.1 * nb))
    print(f"... fewer than 8 and at most 10 %: {one} of {n} ({one / n:.3f})")
    for x, y in [("std/task/index.html", "core/task/index.html"), ("std/arch/index.html", "core/arch/index.html"),
                 ("core/arch/x86_64/index.html", "core/arch/x86/index.html")]:
        ex, ey = entries(site_dir, x), entries(site_dir, y)
        print(f"{x}: {len(ex - ey)} of its {len(ex)} entries missing from {y}; {y}: {len(ey - ex)} of {len(ey)} missing from it")


if __name__ == "__main__":
    rows = load(sys.argv[1])
    site = sys.argv[sys.argv.index("--site") + 1] if "--site" in sys.argv else "rust"
    {"rust": rust}[site](rows)
    if "--definitions" in sys.argv:
        rust_definitions(rows, sys.argv[sys.argv.index("--definitions") + 1])
    if "--same-line" in sys.argv:
        rust_same_line(rows, sys.argv[sys.argv.index("--same-line") + 1])
    if "--entries" in sys.argv:
        rust_entries(rows, sys.argv[sys.argv.index("--entries") + 1])
