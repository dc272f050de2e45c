#!/usr/bin/env python3
"""Run the known-item queries with canon and with Omega's quest on indexes already built, judge
the first 10 results of each, print the table and write WORK_DIR/results.md and WORK_DIR/SITE.tsv
(docs/known-item.md). bench/known_item/run.sh builds the indexes and calls this.

  judge.py WORK_DIR CANON SITE=DIR ...

Indexes: WORK_DIR/canon-SITE (canon index) and WORK_DIR/omega-SITE (omindex --url /). Queries:
items/SITE.tsv (an item's bare name; right: a page naming it, sites.py) and qualified/SITE.tsv
(right: one of the listed pages, fragments ignored). canon is run as `canon search INDEX QUERY
--json --limit 10`, Omega as `quest -d INDEX -o and -m 10 QUERY` (quest's default query parser
and stemming are Omega's; `-o and` is Omega's default operator since 1.3).
"""

import collections
import json
import os
import subprocess
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, HERE)
import sites  # noqa: E402

LIMIT = 10


def url_path(url):
    """The site-relative file path of a result URL (http://localhost/a/b.html, /a/b.html)."""
    p = urllib.parse.unquote(urllib.parse.urlsplit(url).path).lstrip("/")
    if p == "" or p.endswith("/"):
        p += "index.html"
    return p


def canon_search(canon, index, query):
    """[(path, title)] of canon's first LIMIT results; None when the search failed."""
    extra = os.environ.get("CANON_SEARCH_ARGS", "").split()
    r = subprocess.run([canon, "search", index, query, "--json", "--limit", str(LIMIT)] + extra,
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write("canon search %r failed: %s" % (query, r.stderr))
        return None
    return [(url_path(x["url"]), x.get("title", "")) for x in json.loads(r.stdout)["results"]]


def omega_search(index, query):
    """[(path, caption)] of quest's first LIMIT results; None when the search failed."""
    r = subprocess.run(["quest", "-d", index, "-o", "and", "-m", str(LIMIT), query],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write("quest %r failed: %s" % (query, r.stderr))
        return None
    out, cur = [], None
    in_mset = False
    for line in r.stdout.splitlines():
        if line == "MSet:":
            in_mset = True
        elif in_mset and line[:1].isdigit() and ": [" in line:
            cur = [None, ""]
            out.append(cur)
        elif cur is not None and line.startswith("url=") and cur[0] is None:
            cur[0] = url_path(line[4:])
        elif cur is not None and line.startswith("caption="):
            cur[1] = line[8:]
    return [tuple(x) for x in out if x[0] is not None]


def read_tsv(path):
    with open(path) as f:
        next(f)
        return [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]


class Judge:
    def __init__(self, site, site_dir):
        self.site, self.site_dir, self.cache = site, site_dir, {}

    def page(self, path):
        if path not in self.cache:
            self.cache[path] = sites.read_page(self.site_dir, path)
        return self.cache[path]

    def item_rank(self, results, query):
        for i, (path, _) in enumerate(results or []):
            if query in sites.names(self.site, self.page(path)):
                return i + 1
        return None

    @staticmethod
    def qualified_rank(results, expected):
        for i, (path, _) in enumerate(results or []):
            if path in expected:
                return i + 1
        return None

    def kind(self, results):
        if not results:
            return "no result"
        return sites.kind(self.site, self.page(results[0][0]))


def score(ranks):
    n = len(ranks)
    top1 = sum(1 for r in ranks if r == 1) / n if n else 0.0
    mrr = sum(1.0 / r for r in ranks if r) / n if n else 0.0
    return top1, mrr


def main():
    work, canon = sys.argv[1], sys.argv[2]
    site_dirs = [a.partition("=")[::2] for a in sys.argv[3:]]
    rows = {"items": [], "qualified": []}
    misses = {}
    started = time.time()
    for site, site_dir in site_dirs:
        judge = Judge(site, site_dir)
        c_index, o_index = os.path.join(work, "canon-" + site), os.path.join(work, "omega-" + site)
        sets = [("items", read_tsv(os.path.join(HERE, "items", site + ".tsv"))),
                ("qualified", read_tsv(os.path.join(HERE, "qualified", site + ".tsv")))]
        misses[site] = {(s, e): collections.Counter() for s in ("items", "qualified") for e in ("canon", "omega")}
        with open(os.path.join(work, site + ".tsv"), "w") as out:
            out.write("set\tquery\texpected\tcanon_rank\tomega_rank\tcanon_first\tcanon_first_title\t"
                      "omega_first\n")
            for set_name, queries in sets:
                c_ranks, o_ranks = [], []
                for query, expected in queries:
                    c_res = canon_search(canon, c_index, query)
                    o_res = omega_search(o_index, query)
                    if set_name == "items":
                        c_rank, o_rank = judge.item_rank(c_res, query), judge.item_rank(o_res, query)
                        shown = "a page naming %s (%s)" % (query, expected)
                    else:
                        pages = {e.split("#")[0] for e in expected.split()}
                        c_rank = judge.qualified_rank(c_res, pages)
                        o_rank = judge.qualified_rank(o_res, pages)
                        shown = expected
                    c_ranks.append(c_rank)
                    o_ranks.append(o_rank)
                    if c_rank != 1:
                        misses[site][set_name, "canon"][judge.kind(c_res)] += 1
                    if o_rank != 1:
                        misses[site][set_name, "omega"][judge.kind(o_res)] += 1
                    c_first = c_res[0] if c_res else ("", "")
                    o_first = o_res[0][0] if o_res else ""
                    fields = [set_name, query, shown, str(c_rank or "-"), str(o_rank or "-"),
                              c_first[0], c_first[1], o_first]
                    out.write("\t".join(" ".join(f.split()) for f in fields) + "\n")
                rows[set_name].append((site, len(queries)) + score(c_ranks) + score(o_ranks))
    elapsed = time.time() - started

    lines = []
    for set_name, head in (("items", "Known items (bare name)"),
                           ("qualified", "Qualified queries (member of a class, function in a module)")):
        r = rows[set_name]
        lines += ["### " + head, "",
                  "| site | %s | canon top 1 | canon MRR@10 | Omega top 1 | Omega MRR@10 |" % (
                      "items" if set_name == "items" else "queries"),
                  "|---|---:|---:|---:|---:|---:|"]
        for site, n, ct, cm, ot, om in r:
            lines.append("| %s | %d | %.3f | %.3f | %.3f | %.3f |" % (site, n, ct, cm, ot, om))
        if len(r) > 1:
            n = sum(x[1] for x in r)
            mean = [sum(x[i] * x[1] for x in r) / n for i in range(2, 6)]
            lines.append("| all | %d | %.3f | %.3f | %.3f | %.3f |" % ((n,) + tuple(mean)))
        lines.append("")
    for set_name, head in (("items", "known items"), ("qualified", "qualified queries")):
        lines += ["### What is first instead of a right page (%s): the 3 most common kinds" % head, ""]
        for site, _ in site_dirs:
            for engine in ("canon", "omega"):
                c = misses[site][set_name, engine]
                top = ", ".join("%s %d" % kv for kv in c.most_common(3)) or "-"
                lines.append("- %s, %s (%d not first): %s" % (site, engine, sum(c.values()), top))
        lines.append("")
    lines += ["(queries run in %.0f s)" % elapsed]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    with open(os.path.join(work, "results.md"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
