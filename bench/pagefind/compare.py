#!/usr/bin/env python3
"""canon's Pagefind bundle against plain Pagefind on the same site, in one run
(docs/pagefind.md, "Against plain Pagefind"). bench/pagefind/run.sh builds both bundles and
calls this.

  compare.py WORK_DIR NAME SITE_DIR [SITE_NAME_FOR_ITEMS]

WORK_DIR/NAME holds `index/` (canon index), `canon/` (canon export pagefind), `plain/` (the
pagefind CLI on SITE_DIR) and `times.json` (run.sh's seconds). Queries, written to
WORK_DIR/NAME/queries.json: the names (main heading, else title) of 40 pages that have copies (the authoritative page of
canon's clusters of two or more, spread evenly over them in URL order), then the known-item
queries of bench/known_item/items/SITE.tsv when the site has them. Both bundles answer them in
headless Chromium (runner.html, served by python3 -m http.server); per bundle the table gives:
the share of the top-10 results of the title queries that are a copy of an earlier result in the
same list (copies: one canon cluster, pages.jsonl), known-item top 1 (bench/known_item's judge),
build seconds, bundle bytes, and the bytes a browser fetches for a first query. Prints one
Markdown row per bundle and writes WORK_DIR/NAME/results.json.
"""

import functools
import http.server
import json
import os
import shutil
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, "..", "known_item"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "browser"))
from judge import Judge, read_tsv  # noqa: E402
from search_page_test import wait_for, with_chromium  # noqa: E402

TITLE_QUERIES = 40


def page_key(url):
    """A result's page as a site-relative file path (`library/os.html`; a directory's index)."""
    path = url.split("://", 1)[-1].split("/", 1)[-1] if "://" in url else url.lstrip("/")
    path = path.split("#", 1)[0]
    return path + "index.html" if path == "" or path.endswith("/") else path


def load_clusters(index_dir):
    """{file path: cluster} and the (path, name) of each cluster of two or more's authoritative page:
    its main heading, else its title (a title carries the site's name: "- Rust")."""
    rows = [json.loads(line) for line in open(os.path.join(index_dir, "pages.jsonl"))]
    cluster = {r["path"]: r.get("cluster") for r in rows if r.get("cluster") is not None}
    sizes = {}
    for c in cluster.values():
        sizes[c] = sizes.get(c, 0) + 1
    heads = sorted((r["path"], r.get("heading") or r.get("title", "")) for r in rows
                   if r.get("status") == "indexed" and sizes.get(r.get("cluster"), 0) >= 2
                   and (r.get("heading") or r.get("title")))
    return cluster, heads


def title_queries(heads):
    step = max(len(heads) / TITLE_QUERIES, 1)
    return [heads[int(i * step)][1] for i in range(min(TITLE_QUERIES, len(heads)))]


def run_queries(serve_dir, bundles):
    """{bundle: {"results": [[url...]...], "first_query_bytes": n}} from runner.html in Chromium:
    first a fresh page asking the first query alone, whose bytes under /BUNDLE/ the server
    counts (Pagefind fetches from a worker, out of the page's resource timing), then every query."""
    served = {"bytes": 0, "prefix": None}
    lock = threading.Lock()

    class Counting(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def send_header(self, keyword, value):
            if keyword.lower() == "content-length" and served["prefix"] and self.path.startswith(served["prefix"]):
                with lock:
                    served["bytes"] += int(value)
            super().send_header(keyword, value)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Counting, directory=serve_dir))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d/runner.html?bundle=" % server.server_address[1]
    answers = {}

    def ask(driver, url, what):
        driver.go(url)
        wait_for(lambda: driver.script("return window.benchDone !== undefined"), what, 900)
        return driver.script("return window.benchDone")

    def run(driver):
        for bundle in bundles:
            served.update(bytes=0, prefix="/" + bundle + "/")
            ask(driver, base + bundle + "&first=1", bundle + " to answer its first query")
            first = served["bytes"]
            served["prefix"] = None
            answers[bundle] = ask(driver, base + bundle, bundle + " to answer")
            answers[bundle]["first_query_bytes"] = first

    try:
        if with_chromium("pagefind bench", run) != 0:
            sys.exit(1)
    finally:
        server.shutdown()
    return answers


def copy_share(result_lists, cluster):
    copies = total = 0
    for urls in result_lists:
        seen = set()
        for url in urls:
            c = cluster.get(page_key(url))
            total += 1
            if c is not None and c in seen:
                copies += 1
            seen.add(c)
    return copies, total


def dir_bytes(path):
    return sum(os.path.getsize(os.path.join(root, f)) for root, _, files in os.walk(path) for f in files)


def main():
    work, name, site_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    items_site = sys.argv[4] if len(sys.argv) > 4 else name
    here = os.path.join(work, name)
    cluster, heads = load_clusters(os.path.join(here, "index"))
    titles = title_queries(heads)
    items_file = os.path.join(HERE, "..", "known_item", "items", items_site + ".tsv")
    items = [row[0] for row in read_tsv(items_file)] if os.path.exists(items_file) else []
    queries = titles + items
    serve = os.path.join(here, "serve")
    shutil.rmtree(serve, ignore_errors=True)
    os.makedirs(serve)
    for bundle in ("canon", "plain"):
        os.symlink(os.path.join(here, bundle), os.path.join(serve, bundle))
    shutil.copy(os.path.join(HERE, "runner.html"), serve)
    json.dump(queries, open(os.path.join(serve, "queries.json"), "w"))
    answers = run_queries(serve, ("canon", "plain"))
    times = json.load(open(os.path.join(here, "times.json")))
    judge = Judge(items_site, site_dir)
    out = {}
    for bundle in ("canon", "plain"):
        lists = answers[bundle]["results"]
        copies, total = copy_share(lists[:len(titles)], cluster)
        ranks = [judge.item_rank([(page_key(u), "") for u in urls], q)
                 for q, urls in zip(items, lists[len(titles):])]
        out[bundle] = {
            "title_queries": len(titles), "copies": copies, "results": total,
            "known_items": len(items), "known_top1": sum(1 for r in ranks if r == 1),
            "seconds": times[bundle], "bundle_bytes": dir_bytes(os.path.join(here, bundle)),
            "first_query_bytes": answers[bundle]["first_query_bytes"],
        }
        o = out[bundle]
        top1 = "%.3f (%d)" % (o["known_top1"] / len(items), len(items)) if items else "-"
        print("| %s | %s | %d of %d (%.3f) | %s | %.1f | %.1f | %.0f |" % (
            name, "canon export pagefind" if bundle == "canon" else "pagefind", copies, total,
            copies / max(total, 1), top1, o["seconds"], o["bundle_bytes"] / 2**20, o["first_query_bytes"] / 1024))
    json.dump(out, open(os.path.join(here, "results.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
