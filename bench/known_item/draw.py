#!/usr/bin/env python3
"""Draw the known-item sets: N items per site (default 120), seeded, written to
bench/known_item/items/SITE.tsv as `query<TAB>page` (the item's page; any page naming the item
counts when judging, sites.py). The sets are kept in the repository: run this only to redraw
them (after a site's package changed), and say so with the new measurement.

  bench/known_item/draw.py [--seed 30] [--n 120] [--out DIR] [SITE[=DIR] ...]
  bench/known_item/draw.py --check [SITE[=DIR] ...]   check the qualified sets instead

The draw: every page of the site is read, the item pages kept (sites.py, SITE_item), their
names collected; N distinct names are sampled with Python's random.Random seeded by the string
"known-item:SITE:SEED" (the same on every machine and Python 3 version); a name with several item
pages (Javadoc's two `List`s) is listed with the first page by path.

--check reads qualified/SITE.tsv (`query<TAB>pages`, pages separated by spaces, each with an
optional #fragment) and reports expected pages that are not on disk or that do not contain the
query's last word, and queries listed twice.
"""

import argparse
import collections
import os
import random
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sites  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_sites(args):
    out = []
    for a in args or sites.SITES:
        name, _, d = a.partition("=")
        if name not in sites.RULES:
            sys.exit("unknown site %r (known: %s)" % (name, ", ".join(sites.RULES)))
        out.append((name, d or sites.SITES[name]))
    return out


def draw(site, site_dir, seed, n, out_dir):
    items = collections.defaultdict(list)  # name -> [(query, page)]
    pages = sites.site_pages(site_dir)
    for path in pages:
        page = sites.read_page(site_dir, path)
        for name, query in sites.item_names(site, page).items():
            items[name].append((query, path))
    names = sorted(items)
    rng = random.Random("known-item:%s:%d" % (site, seed))
    chosen = rng.sample(names, min(n, len(names)))
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, site + ".tsv"), "w") as f:
        f.write("query\tpage\n")
        for name in chosen:
            query, path = items[name][0]
            f.write("%s\t%s\n" % (query, path))
    print("%s: %d pages, %d item pages, %d distinct names; drew %d" % (
        site, len(pages), sum(len(v) for v in items.values()), len(names), len(chosen)))


def check(site, site_dir):
    path = os.path.join(HERE, "qualified", site + ".tsv")
    bad, seen, rows = 0, set(), 0
    with open(path) as f:
        next(f)
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            rows += 1
            query, expected = line.split("\t")
            if query in seen:
                print("%s: %r listed twice" % (site, query))
                bad += 1
            seen.add(query)
            word = query.split()[-1].lower()
            for e in expected.split():
                p = e.split("#")[0]
                try:
                    with open(os.path.join(site_dir, p), "rb") as g:
                        text = g.read().decode("utf-8", "replace").lower()
                except OSError:
                    print("%s: %r: %s is not on disk" % (site, query, p))
                    bad += 1
                    continue
                if word not in text:
                    print("%s: %r: %s does not contain %r" % (site, query, p, word))
                    bad += 1
    print("%s: %d qualified queries, %d problems" % (site, rows, bad))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("--n", type=int, default=120)
    ap.add_argument("--out", default=os.path.join(HERE, "items"))
    ap.add_argument("--check", action="store_true")
    ap.add_argument("sites", nargs="*")
    a = ap.parse_args()
    if a.check:
        sys.exit(1 if sum(check(s, d) for s, d in parse_sites(a.sites)) else 0)
    for s, d in parse_sites(a.sites):
        draw(s, d, a.seed, a.n, a.out)


if __name__ == "__main__":
    main()
