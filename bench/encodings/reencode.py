#!/usr/bin/env python3
"""A site re-encoded keeps its index (issue 32): the parts of bench/encodings/reencoded_site.sh.

reencode.py copy SITE_DIR OUT_DIR MANIFEST
    copies SITE_DIR to OUT_DIR, every .html/.htm file that is valid UTF-8 re-encoded to
    windows-1252: characters windows-1252 lacks become numeric character references (&#NNNN;),
    the <meta> charset declaration (<meta charset> or http-equiv Content-Type) says
    windows-1252, or <meta charset="windows-1252"> is inserted after <head> when the page has
    none; an <?xml ... encoding="UTF-8"?> declaration says windows-1252 too; a UTF-8 byte order
    mark is dropped (it would outrank the <meta>). Files that are not valid UTF-8, pages that
    declare another charset, and other files are copied unchanged; symbolic links stay links.
    Writes the relative paths of the re-encoded pages to MANIFEST, one a line; prints counts.
reencode.py queries INDEX_DIR SITE_DIR QUERIES_FILE [N]
    writes N (default 40) queries: titles spread over the site, and up to a fifth of them words
    with non-ASCII letters (from titles and headings, else from the pages' text), half of those
    words that windows-1252 lacks (character references in the copy) and a quarter words with a
    letter windows-1252 puts in 0x80-0x9F (Š, œ), when the site has them.
reencode.py compare CANON ORIGINAL_INDEX REENCODED_INDEX MANIFEST QUERIES_FILE ORIG_TIMES REENC_TIMES
    compares the two indexes (pages.jsonl: status, clusters as sets of paths, authoritative
    path, title, heading; graph.tsv; the encoding recorded for the re-encoded pages; the
    results of each query: URLs in order, then titles, snippets and alternates) and prints a
    report; ORIG_TIMES and REENC_TIMES are files of "wall_s rss_kib" lines, one per index run
    (the medians are reported). Exits 1 when anything differs.
"""
import collections
import html
import json
import os
import re
import shutil
import subprocess
import sys

HTML_SUFFIXES = (".html", ".htm")
META_CHARSET = re.compile(r"(<meta\b[^>]*?\bcharset\s*=\s*[\"']?)([^\"'\s;/>]+)", re.I)
XML_ENCODING = re.compile(r"\A(\s*<\?xml\b[^>]*?\bencoding\s*=\s*[\"'])utf-8([\"'])", re.I)
HEAD = re.compile(r"<head\b[^>]*>", re.I)
HTML_TAG = re.compile(r"<html\b[^>]*>", re.I)
TARGET = "windows-1252"


def reencode_page(text):
    """The page's text re-encoded to windows-1252 bytes, and how its declaration was made
    ("replaced" or "inserted"); None when it declares a charset other than UTF-8."""
    if text.startswith("\ufeff"):
        text = text[1:]
    declared = [m.group(2).lower() for m in META_CHARSET.finditer(text)]
    if any(label not in ("utf-8", "utf8") for label in declared):
        return None, "other charset"
    if declared:
        text = META_CHARSET.sub(lambda m: m.group(1) + TARGET, text)
        how = "replaced"
    else:
        tag = HEAD.search(text) or HTML_TAG.search(text)
        at = tag.end() if tag else 0
        text = text[:at] + '<meta charset="%s">' % TARGET + text[at:]
        how = "inserted" if tag else "inserted at the start (no <head>)"
    text = XML_ENCODING.sub(lambda m: m.group(1) + TARGET + m.group(2), text)
    return text.encode("cp1252", errors="xmlcharrefreplace"), how


def copy(site, out, manifest):
    counts = collections.Counter()
    reencoded = []
    if os.path.lexists(out):
        shutil.rmtree(out)
    for root, dirs, files in os.walk(site):
        rel_root = os.path.relpath(root, site)
        os.makedirs(os.path.join(out, rel_root), exist_ok=True)
        for name in sorted(dirs) + sorted(files):
            src = os.path.join(root, name)
            dst = os.path.join(out, rel_root, name)
            rel = os.path.normpath(os.path.join(rel_root, name))
            if os.path.islink(src):
                os.symlink(os.readlink(src), dst)
                counts["symbolic links"] += 1
                continue
            if name in dirs:
                continue  # made when os.walk reaches it
            if not name.lower().endswith(HTML_SUFFIXES):
                shutil.copy2(src, dst)
                counts["other files copied"] += 1
                continue
            data = open(src, "rb").read()
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                shutil.copy2(src, dst)
                counts["pages not UTF-8, copied"] += 1
                continue
            out_bytes, how = reencode_page(text)
            if out_bytes is None:
                shutil.copy2(src, dst)
                counts["pages declaring another charset, copied"] += 1
                continue
            with open(dst, "wb") as f:
                f.write(out_bytes)
            shutil.copystat(src, dst)
            counts["pages re-encoded, declaration " + how] += 1
            try:
                text.encode("cp1252")
            except UnicodeEncodeError:
                counts["pages re-encoded with character references"] += 1
            reencoded.append(rel)
    with open(manifest, "w") as f:
        f.writelines(p + "\n" for p in sorted(reencoded))
    for key in sorted(counts):
        print("  %s: %d" % (key, counts[key]))


def load_pages(index):
    return {r["path"]: r for r in (json.loads(line) for line in open(index + "/pages.jsonl"))}


WORD = re.compile(r"[^\W\d_]+")
TAGS = re.compile(r"<script\b.*?</script>|<style\b.*?</style>|<!--.*?-->|<[^>]*>", re.I | re.S)


def non_ascii_words(texts):
    """Distinct words of 4 or more letters with a non-ASCII letter, in the order met."""
    seen = {}
    for text in texts:
        for word in WORD.findall(text):
            if (len(word) >= 4 and word.isalpha() and any(ord(c) > 127 for c in word)
                    and word.lower() not in seen):
                seen[word.lower()] = word
    return list(seen.values())


def spread(items, n):
    if n >= len(items):
        return list(items)
    if n <= 0:
        return []
    step = len(items) / n
    return [items[int(i * step)] for i in range(min(n, len(items)))]


def queries(index, site, out, n):
    pages = [r for _, r in sorted(load_pages(index).items()) if r["status"] == "indexed"]
    # A site-wide title suffix (" — Python 3.11.2 documentation") says nothing of the page.
    suffixes = collections.Counter(r["title"].rsplit(" — ", 1)[1] for r in pages if " — " in r.get("title", ""))
    common = suffixes.most_common(1)[0][0] if suffixes and suffixes.most_common(1)[0][1] > len(pages) / 2 else None
    titles = []
    for r in pages:
        t = r.get("title", "")
        if common and t.endswith(" — " + common):
            t = t[: -len(" — " + common)]
        t = t.replace('"', " ").strip()
        if t and t not in titles:
            titles.append(t)
    words = non_ascii_words(r.get(k, "") for r in pages for k in ("title", "heading"))
    source = "titles and headings"
    if len(words) < n // 5:
        texts = []
        for r in pages:
            raw = open(os.path.join(site, r["path"]), "rb").read().decode("utf-8", "replace")
            texts.append(html.unescape(TAGS.sub(" ", raw)))
        words += [w for w in non_ascii_words(texts) if w not in words]
        source = "titles, headings and page text"

    def kind(w):
        """0: a letter windows-1252 puts in 0x80-0x9F (Š, œ, Ÿ), where ISO-8859-1 has controls;
        1: a letter windows-1252 lacks (a character reference in the copy); 2: the others."""
        try:
            b = w.encode("cp1252")
        except UnicodeEncodeError:
            return 1
        return 0 if any(0x80 <= c <= 0x9F for c in b) else 2

    k = n // 5
    chosen = spread([w for w in words if kind(w) == 0], k // 4) + spread([w for w in words if kind(w) == 1], k // 2)
    chosen += spread([w for w in words if w not in chosen], k - len(chosen))
    n_words = len(chosen)
    chosen += spread(titles, n - n_words)
    with open(out, "w") as f:
        f.writelines(q + "\n" for q in chosen)
    print("  %d queries: %d titles, %d words with non-ASCII letters (from %s): %s" % (
        len(chosen), len(chosen) - n_words, n_words, source, ", ".join(chosen[:n_words])))


def first(items, n=10):
    items = sorted(items)
    return ", ".join(items[:n]) + (" ... (%d)" % len(items) if len(items) > n else "")


def search(canon, index, query):
    out = subprocess.run([canon, "search", index, query, "--json", "--limit", "20"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["results"]


def compare(canon, orig_index, reenc_index, manifest, queries_file, orig_times, reenc_times):
    a, b = load_pages(orig_index), load_pages(reenc_index)
    reencoded = [line.rstrip("\n") for line in open(manifest)]
    bad = 0

    def line(label, ok, detail=""):
        nonlocal bad
        bad += 0 if ok else 1
        print("  %-38s %s%s" % (label + ":", "equal" if ok else "DIFFERENT", detail))

    only = set(a) ^ set(b)
    print("  pages: %d original, %d re-encoded%s" % (len(a), len(b), ", only in one: " + first(only) if only else ""))
    common = sorted(set(a) & set(b))
    for field in ("status", "title", "heading"):
        differ = [p for p in common if a[p].get(field) != b[p].get(field)]
        line(field + "es" if field == "status" else field + "s", not differ and not only,
             " (%s)" % first(differ) if differ else "")

    def clusters(pages):
        members = collections.defaultdict(set)
        for p, r in pages.items():
            if r["status"] in ("indexed", "duplicate"):
                members[r["cluster"]].add(p)
        return {p: frozenset(m) for m in members.values() for p in m}

    ca, cb = clusters(a), clusters(b)
    differ = [p for p in set(ca) | set(cb) if ca.get(p) != cb.get(p)]
    n_clusters = len(set(ca.values()))
    n_dups = sum(len(m) > 1 for m in set(ca.values()))
    line("clusters (sets of paths)", not differ,
         " (%d clusters, %d of two or more pages)" % (n_clusters, n_dups) if not differ else " (%s)" % first(differ))

    def authoritative(r):
        base = "http://localhost/"
        url = r.get("authoritative", "")
        return url[len(base):] if url.startswith(base) else url

    differ = [p for p in common if authoritative(a[p]) != authoritative(b[p])]
    line("authoritative pages", not differ, " (%s)" % first(differ) if differ else "")

    ga, gb = open(orig_index + "/graph.tsv", "rb").read(), open(reenc_index + "/graph.tsv", "rb").read()
    line("links (graph.tsv)", ga == gb, " (%d edges)" % ga.count(b"\n"))

    recorded = collections.Counter()
    wrong = []
    for p in reencoded:
        r = b.get(p)
        got = (r.get("encoding", "UTF-8"), r.get("encoding_source", "")) if r else ("no page", "")
        recorded[got] += 1
        if got != ("windows-1252", "meta"):
            wrong.append("%s (%s/%s)" % (p, got[0], got[1]))
    right = recorded[("windows-1252", "meta")]
    print("  %-38s %d of %d re-encoded pages%s" % ("recorded windows-1252 / meta:", right, len(reencoded),
          "; others: " + first(wrong) if wrong else ""))
    bad += 1 if wrong else 0
    orig_recorded = collections.Counter((r.get("encoding"), r.get("encoding_source")) for r in a.values() if r.get("encoding"))
    if orig_recorded:
        print("  %-38s %s" % ("original pages not UTF-8:", dict(orig_recorded)))

    qs = [q.rstrip("\n") for q in open(queries_file) if q.strip()]
    same_urls = same_all = found = 0
    differ = []
    for q in qs:
        ra, rb = search(canon, orig_index, q), search(canon, reenc_index, q)
        found += bool(ra)
        if [h["url"] for h in ra] == [h["url"] for h in rb]:
            same_urls += 1
        else:
            differ.append(q)
        keep = ("url", "title", "snippet", "alternates")
        if [{k: h.get(k) for k in keep} for h in ra] == [{k: h.get(k) for k in keep} for h in rb]:
            same_all += 1
        elif q not in differ:
            differ.append(q + " (titles/snippets/alternates)")
    print("  %-38s %d of %d identical (%d with results)%s" % ("queries, result URLs in order:", same_urls, len(qs), found,
          "" if same_urls == len(qs) else " (" + "; ".join(differ[:10]) + ")"))
    print("  %-38s %d of %d identical" % ("queries, with titles/snippets/alternates:", same_all, len(qs)))
    bad += (same_urls != len(qs)) + (same_all != len(qs))
    for label, times in (("index original", orig_times), ("index re-encoded", reenc_times)):
        runs = [line.split() for line in open(times) if line.strip()]
        walls = sorted(float(w) for w, _ in runs)
        rss = sorted(int(r) for _, r in runs)
        print("  %-38s %.2f s wall, %.0f MiB peak RSS (median of %d: %s s; %s MiB)" % (
            label + ":", walls[len(walls) // 2], rss[len(rss) // 2] / 1024, len(runs),
            " ".join("%.2f" % float(w) for w, _ in runs), " ".join("%.0f" % (int(r) / 1024) for _, r in runs)))
    print("  result: %s" % ("the same index" if bad == 0 else "%d comparisons DIFFER" % bad))
    return 1 if bad else 0


def main(argv):
    if len(argv) == 5 and argv[1] == "copy":
        copy(argv[2], argv[3], argv[4])
        return 0
    if len(argv) >= 5 and argv[1] == "queries":
        queries(argv[2], argv[3], argv[4], int(argv[5]) if len(argv) > 5 else 40)
        return 0
    if len(argv) == 9 and argv[1] == "compare":
        return compare(*argv[2:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
