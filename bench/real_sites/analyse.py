"""Figures of one `canon index` run on a real site (bench/real_sites/run.sh).

analyse.py INDEX NAME SAMPLE_TSV CANON_WALL OMINDEX_WALL CANON_RSS OMINDEX_RSS SAMPLE SEED
    prints one Markdown table row and writes SAMPLE random duplicate -> indexed pairs to
    SAMPLE_TSV (columns: verdict (empty, to fill in), similarity, duplicate path, duplicate
    title, indexed path, indexed title, authority reason).
analyse.py --largest INDEX NAME
    prints the largest cluster's size and up to five of its members.
"""
import collections
import json
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import same_item_pairs  # noqa: E402


def load(index):
    rows = [json.loads(line) for line in open(index + "/pages.jsonl")]
    summary = json.load(open(index + "/summary.json"))
    clusters = collections.defaultdict(list)
    for r in rows:
        if r["status"] in ("indexed", "duplicate"):
            clusters[r["cluster"]].append(r)
    return rows, summary, clusters


VERSION = re.compile(r"^v?\d+(\.\d+)*$")
ALIAS = {"stable": 4, "current": 3, "latest": 2}


def release(path):
    """The release a path names (as dedup/authority/authority.cpp reads it): (kind, numbers) or None."""
    for segment in path.split("/")[:-1]:
        if segment in ALIAS:
            return (ALIAS[segment], ())
        if VERSION.match(segment):
            return (1, tuple(int(n) for n in segment.lstrip("vV").split(".")))
    return None


def known_pairs(name, rows):
    """Pairs of pages known to be one document, and how many share a cluster: "-" for sites
    without such a list (numba's releases are releases.py's line)."""
    if name != "rust":
        return "-"
    pairs = same_item_pairs.rust_pairs(rows)
    joined = sum(1 for a, b in pairs if same_item_pairs.together(a, b))
    return f"{joined}/{len(pairs)} ({joined / max(len(pairs), 1):.1%})"


def row(args):
    index, name, sample_file, c_wall, o_wall, c_rss, o_rss, sample, seed = args
    rows, summary, clusters = load(index)
    by_url = {r["url"]: r for r in rows}
    status = collections.Counter(r["status"] for r in rows)
    multi = [m for m in clusters.values() if len(m) > 1]
    largest = max((len(m) for m in multi), default=1)
    # Clusters whose members name at least two releases: is the authoritative page the newest?
    release_clusters = newest = 0
    for members in multi:
        named = [(release(r["path"]), r) for r in members if release(r["path"])]
        if len({rel for rel, _ in named}) < 2:
            continue
        release_clusters += 1
        best = max(rel for rel, _ in named)
        indexed = next(r for r in members if r["status"] == "indexed")
        newest += 1 if release(indexed["path"]) == best else 0
    dups = sorted((r for r in rows if r["status"] == "duplicate"), key=lambda r: r["path"])
    picked = random.Random(int(seed)).sample(dups, min(int(sample), len(dups)))
    with open(sample_file, "w") as out:
        out.write("verdict\tsimilarity\tduplicate\tduplicate title\tindexed\tindexed title\tauthority\treason\n")
        for r in sorted(picked, key=lambda r: r["path"]):
            rep = by_url[r["authoritative"]]
            out.write(f"\t{r.get('similarity', 0):.3f}\t{r['path']}\t{r.get('title', '')}\t{rep['path']}\t"
                      f"{rep.get('title', '')}\t{r.get('authority_reason', '')}\t\n")
    dedup = summary["seconds"].get("dedup", 0.0)
    rel = f"{newest}/{release_clusters} ({newest / release_clusters:.0%})" if release_clusters else "-"
    print(f"| {name} | {len(rows)} | {status['duplicate']} | {len(multi)} | {largest} | {dedup:.2f} "
          f"({dedup / float(c_wall):.0%}) | {c_wall} | {o_wall} | {float(c_wall) / float(o_wall):.2f} | "
          f"{c_rss} | {o_rss} | {float(c_rss) / float(o_rss):.2f} | {rel} | {known_pairs(name, rows)} |")


def largest(index, name):
    _, _, clusters = load(index)
    multi = sorted((m for m in clusters.values() if len(m) > 1), key=len, reverse=True)
    if not multi:
        print(f"{name}: no clusters")
        return
    m = multi[0]
    print(f"{name}: {len(m)} pages: " + "; ".join(f"{r['path']} ({r.get('title', '')[:50]})" for r in m[:5]))


if __name__ == "__main__":
    if sys.argv[1] == "--largest":
        largest(*sys.argv[2:4])
    else:
        row(sys.argv[1:])
