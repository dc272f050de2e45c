"""Pairs of one document across two releases side by side (bench/real_sites/renumbered_releases.sh).

renumbered_releases.py INDEX OLD NEW
    A pair: the page of a title in release OLD (the first directory of its path) and the page
    of that title in NEW, for each title that one page of each release has. Prints how many
    pairs share a cluster (all, and those whose file names differ: renumbered), in how many of
    those the cluster's authoritative page is in NEW, the pairs left apart, the clusters that hold pages of
    more than one title, and up to 20 renumbered pairs put together (seeded), to read.
"""
import collections
import json
import random
import sys


def release_and_file(url):
    path = url.split("://", 1)[1].split("/", 1)[1]
    release, _, rest = path.partition("/")
    return release, rest


def main(index, old, new):
    pages = [json.loads(line) for line in open(index + "/pages.jsonl")]
    by_title = collections.defaultdict(lambda: collections.defaultdict(list))
    for page in pages:
        release, _ = release_and_file(page["url"])
        by_title[page.get("title", "")][release].append(page)
    pairs = [(r[old][0], r[new][0]) for r in by_title.values() if len(r.get(old, [])) == 1 and len(r.get(new, [])) == 1]
    together = [(a, b) for a, b in pairs if a["cluster"] == b["cluster"]]
    renumbered = [(a, b) for a, b in pairs if release_and_file(a["url"])[1] != release_and_file(b["url"])[1]]
    renumbered_together = [(a, b) for a, b in renumbered if a["cluster"] == b["cluster"]]
    newer = sum(1 for a, b in together if release_and_file(b["authoritative"])[0] == new)
    share = lambda n, d: f"{n} of {d} ({n / d:.3f})" if d else "0 of 0"
    print(f"pages: {len(pages)}; statuses: {dict(collections.Counter(p['status'] for p in pages))}")
    print(f"pairs of one title in {old} and {new}: {len(pairs)}; in one cluster: {share(len(together), len(pairs))}")
    print(f"renumbered pairs (other file names): {len(renumbered)}; in one cluster: "
          f"{share(len(renumbered_together), len(renumbered))}")
    print(f"authoritative page in {new}: {share(newer, len(together))} of the pairs in one cluster")
    for a, b in pairs:
        if a["cluster"] != b["cluster"]:
            print(f"  apart: {a['title']!r} {release_and_file(a['url'])[1]} {release_and_file(b['url'])[1]}")
    titles = collections.defaultdict(set)
    for page in pages:
        titles[page["cluster"]].add(page.get("title", ""))
    mixed = [sorted(t) for t in titles.values() if len(t) > 1]
    print(f"clusters holding more than one title: {len(mixed)}")
    for t in mixed:
        print("  " + " | ".join(t[:4]) + (f" | … ({len(t)} titles)" if len(t) > 4 else ""))
    random.seed(55)
    sample = random.sample(renumbered_together, min(20, len(renumbered_together)))
    print(f"renumbered pairs put together, a sample of {len(sample)} to read:")
    for a, b in sample:
        print(f"  {a['title']!r}: {old}/{release_and_file(a['url'])[1]} -> {new}/{release_and_file(b['url'])[1]}"
              f" (similarity {b.get('similarity', a.get('similarity'))})")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
