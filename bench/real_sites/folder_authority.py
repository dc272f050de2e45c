#!/usr/bin/env python3
"""How often a folder's copy represents its clusters: of the clusters of two or more pages that
hold a page under FOLDER (a path starting FOLDER/), those whose authoritative page is under it,
with the reasons the winners won (pages.jsonl's authority_reason) and a few clusters where
another folder's copy won.

Usage: bench/real_sites/folder_authority.py INDEX FOLDER [EXAMPLES]
  e.g. on rust-doc: `canon index /usr/share/doc/rust-doc/html --out IDX`, then FOLDER=std.
"""
import collections
import json
import sys


def main():
    index, folder = sys.argv[1], sys.argv[2].strip("/") + "/"
    examples = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    with open(f"{index}/pages.jsonl") as f:
        rows = [json.loads(line) for line in f]
    clusters = collections.defaultdict(list)
    for r in rows:
        if r.get("cluster") is not None and r["status"] in ("indexed", "duplicate"):
            clusters[r["cluster"]].append(r)
    holding = [m for m in clusters.values() if len(m) > 1 and any(r["path"].startswith(folder) for r in m)]
    won, lost = collections.Counter(), collections.Counter()
    others = []
    for members in holding:
        shown = next(r for r in members if r["status"] == "indexed")
        if shown["path"].startswith(folder):
            won[shown["authority_reason"]] += 1
        else:
            lost[shown["authority_reason"]] += 1
            others.append(shown["path"])
    total = sum(won.values())
    print(f"{folder} authoritative in {total} of {len(holding)} clusters that hold a page under it "
          f"({total / max(1, len(holding)):.3f})")
    print(f"  won by: {dict(won.most_common())}")
    print(f"  another folder's copy won by: {dict(lost.most_common())}, e.g. {others[:examples]}")


if __name__ == "__main__":
    main()
