#!/usr/bin/env python3
"""A crawl indexed as a site: the web archives wget writes of a site served on loopback give the
index the site's directory gives (docs/archive-format.md, "Web archives (WARC) as canon reads them").

For sample_site and a site generated from it with copies (`canon synth`), each served by
`python3 -m http.server` on a free loopback port and crawled by `wget --mirror --warc-file`
(a gzip member per record, and --no-warc-compression), checks:
  - every URL the directory's index records as indexed, duplicate or redirect has the same
    status and authoritative page in the crawl's index, and the clusters are the same sets of URLs;
    what the crawl adds is skipped (wget's requests for robots.txt and missing files: HTTP 404) or
    an older capture (a directory and its index.html are one URL);
  - `canon search --json` gives the same URLs in the same order, with the same alternates, for
    a set of queries;
  - a second crawl of the same site (a new archive) re-indexed over the first reads no page
    again: every page unchanged, the index the same; a crawl after one page changed reads that
    page alone again, and its new word is found;
  - an archive cut part-way: the records before the cut are indexed, the cut is reported on
    stderr and in summary.json, the exit status is 0.
Skipped (exit 77) without wget, failed instead when CANON_REQUIRE_TOOLS=1.

Usage: crawl_archive.py CANON_BINARY SAMPLE_SITE_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

QUERIES = ["backup", "encryption key", "restore snapshot", "install", "prune", "\"the repository\"",
           "config*", "larder AND NOT restore"]


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


class Server:
    """python3 -m http.server on 127.0.0.1, on the port the system gives it."""

    def __init__(self, root):
        self.process = subprocess.Popen(
            [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()  # "Serving HTTP on 127.0.0.1 port N (...) ..."
        self.port = int(line.split(" port ")[1].split()[0])
        self.base = "http://127.0.0.1:%d/" % self.port

    def stop(self):
        self.process.terminate()
        self.process.wait()


def crawl(base, work, name, compressed):
    """wget's archive of the site at `base`: WORK/NAME.warc.gz, or NAME.warc uncompressed."""
    command = ["timeout", "120", "wget", "--mirror", "--no-verbose", "--tries=1", "--timeout=5",
               "--no-http-keep-alive", "--warc-file=" + name, "-P", os.path.join(work, name + "-mirror"), base]
    if not compressed:
        command.insert(3, "--no-warc-compression")
    subprocess.run(command, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    archive = os.path.join(work, name + (".warc.gz" if compressed else ".warc"))
    if not os.path.exists(archive):
        fail("wget wrote no archive for " + base)
    return archive


def index(canon, inputs, out, *extra):
    result = subprocess.run([canon, "index", *inputs, "--out", out, "--quiet", *extra], capture_output=True, text=True)
    if result.returncode != 0:
        fail("canon index %s: exit %d: %s" % (inputs, result.returncode, result.stderr))
    return result


def pages(index_dir):
    with open(os.path.join(index_dir, "pages.jsonl")) as f:
        return [json.loads(line) for line in f]


def clusters(lines):
    by_cluster = {}
    for p in lines:
        if p["status"] in ("indexed", "duplicate"):
            by_cluster.setdefault(p["cluster"], set()).add(p["url"])
    return sorted(sorted(members) for members in by_cluster.values())


def results(canon, index_dir, query):
    out = subprocess.run([canon, "search", index_dir, query, "--json", "--limit", "20"], capture_output=True, text=True)
    if out.returncode != 0:
        return ("error", out.stderr.strip())
    found = json.loads(out.stdout)
    return [(r["url"], sorted(a["url"] if isinstance(a, dict) else a for a in r.get("alternates", [])))
            for r in found["results"]]


def compare(canon, site_index, crawl_index, label):
    site_pages = {p["url"]: p for p in pages(site_index) if p["url"]}
    crawl_lines = pages(crawl_index)
    crawl_pages = {}
    for p in crawl_lines:
        if p["status"] != "skipped" or p["url"] not in crawl_pages:
            crawl_pages[p["url"]] = p
    for url, p in site_pages.items():
        if p["status"] == "skipped":
            continue
        c = crawl_pages.get(url)
        if c is None:
            fail("%s: %s (%s in the directory's index) is not in the crawl's" % (label, url, p["status"]))
        if (c["status"], c.get("authoritative")) != (p["status"], p.get("authoritative")):
            fail("%s: %s: crawl %s under %s, directory %s under %s" % (
                label, url, c["status"], c.get("authoritative"), p["status"], p.get("authoritative")))
        if p["status"] != "redirect" and not c.get("record"):
            fail("%s: %s has no record in the crawl's pages.jsonl" % (label, url))
    for p in crawl_lines:
        known = site_pages.get(p["url"])
        if known is not None and (known["status"] != "skipped" or p["status"] == "skipped"):
            continue  # compared above, or skipped by both (a file that is not a page)
        if p["status"] != "skipped" or not (p["reason"].startswith("HTTP 404") or "older capture" in p["reason"]):
            fail("%s: the crawl adds %s (%s: %s)" % (label, p["url"], p["status"], p.get("reason")))
    if clusters(crawl_lines) != clusters(pages(site_index)):
        fail("%s: the clusters differ" % label)
    for query in QUERIES:
        a, b = results(canon, site_index, query), results(canon, crawl_index, query)
        if a != b:
            fail("%s: %r: directory %s, crawl %s" % (label, query, a, b))
        if not a or a[0] == "error":
            fail("%s: %r finds nothing in the directory's index: %s" % (label, query, a))
    print("ok: %s: %d pages, %d clusters, %d queries the same" % (
        label, len(site_pages), len(clusters(crawl_lines)), len(QUERIES)))


def singleton_page(canon, site, work):
    """A page of `site` indexed on its own (a cluster of one): its path."""
    out = os.path.join(work, "singletons.idx")
    index(canon, [site], out)
    for p in sorted(pages(out), key=lambda p: p["path"]):
        if p["status"] == "indexed" and p.get("authority_reason") == "singleton" and p["path"].endswith(".html"):
            return p["path"]
    fail("no page of %s is indexed on its own" % site)


def check_site(canon, site, work, name, edit=False):
    """`edit`: change a page indexed on its own before a last crawl."""
    edited = singleton_page(canon, site, work) if edit else None
    server = Server(site)
    try:
        gz = crawl(server.base, work, name, True)
        plain = crawl(server.base, work, name + "-plain", False)
        again = crawl(server.base, work, name + "-again", True)
        if edited:
            # A paragraph added at the end of the page's main content.
            path = os.path.join(site, edited)
            html = open(path, encoding="utf-8").read()
            for end in ("</main>", "</article>", "</body>"):
                at = html.rfind(end)
                if at >= 0:
                    html = html[:at] + "<p>zebracrossing added</p>" + html[at:]
                    break
            open(path, "w", encoding="utf-8").write(html)
            changed = crawl(server.base, work, name + "-changed", True)
    finally:
        server.stop()
    site_index = os.path.join(work, name + "-site.idx")
    index(canon, [site], site_index, "--base-url", server.base)
    for archive in (gz, plain):
        crawl_index = os.path.join(work, os.path.basename(archive) + ".idx")
        index(canon, [archive], crawl_index)
        summary = json.load(open(os.path.join(crawl_index, "summary.json")))
        if summary["parameters"]["base_url"] != server.base:
            fail("%s: base URL %s, not %s" % (archive, summary["parameters"]["base_url"], server.base))
        compare(canon, site_index, crawl_index, os.path.basename(archive))

    # A new crawl of the same site re-indexed over the first: nothing read again.
    crawl_index = os.path.join(work, os.path.basename(gz) + ".idx")
    before = [(p["url"], p["status"], p.get("authoritative")) for p in pages(crawl_index)]
    index(canon, [again], crawl_index)
    files = json.load(open(os.path.join(crawl_index, "summary.json")))["reindex"]["files"]
    if files["new"] != 0 or files["changed"] != 0 or files["unchanged"] == 0:
        fail("%s: a second crawl re-indexed: %s" % (name, files))
    after = [(p["url"], p["status"], p.get("authoritative")) for p in pages(crawl_index)]
    if sorted(before) != sorted(after):
        fail("%s: the second crawl's index differs" % name)
    print("ok: %s: a second crawl re-indexed: %s" % (name, files))

    if edited:
        # A crawl after one page changed: that page alone read again, and its new word found.
        index(canon, [changed], crawl_index)
        files = json.load(open(os.path.join(crawl_index, "summary.json")))["reindex"]["files"]
        if files["changed"] != 1 or files["new"] != 0:
            fail("%s: a crawl after one page changed re-indexed: %s" % (name, files))
        found = results(canon, crawl_index, "zebracrossing")
        if len(found) != 1 or not found[0][0].endswith(edited.replace("index.html", "")):
            fail("%s: the changed page's new word finds %s" % (name, found))
        print("ok: %s: a crawl after %s changed re-indexed: %s" % (name, edited, files))
    return gz


def check_cut(canon, archive, work):
    data = open(archive, "rb").read()
    cut = os.path.join(work, "cut.warc.gz")
    with open(cut, "wb") as f:
        f.write(data[:len(data) * 6 // 10])
    out = os.path.join(work, "cut.idx")
    result = index(canon, [cut], out)
    if "cut" not in result.stderr and "ends" not in result.stderr:
        fail("the cut is not reported on stderr: %r" % result.stderr)
    summary = json.load(open(os.path.join(out, "summary.json")))
    if not summary["archives"]["problems"]:
        fail("summary.json names no problem for a cut archive")
    indexed = [p for p in pages(out) if p["status"] in ("indexed", "duplicate")]
    if not indexed:
        fail("nothing before the cut was indexed")
    print("ok: a cut archive: %d pages before the cut; %s" % (len(indexed), summary["archives"]["problems"][0]))


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    canon, sample_site = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if shutil.which("wget") is None:
        if os.environ.get("CANON_REQUIRE_TOOLS") == "1":
            fail("wget is not installed")
        print("skipped: wget is not installed")
        sys.exit(77)
    work = tempfile.mkdtemp(prefix="canon-crawl-")
    try:
        archive = check_site(canon, sample_site, work, "sample")
        generated = os.path.join(work, "generated")
        subprocess.run([canon, "synth", sample_site, generated, "--dup-ratio", "0.5", "--seed", "3"], check=True,
                       stdout=subprocess.DEVNULL)
        check_site(canon, generated, work, "generated", edit=True)
        check_cut(canon, archive, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
