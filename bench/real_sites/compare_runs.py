#!/usr/bin/env python3
"""What a change did to a site's statuses and clusters: two `canon index` outputs of one site
(BEFORE, AFTER; each an index directory with pages.jsonl) compared page by page.

Prints the status counts of each, the pages whose status changed, the pages whose cluster
changed (members joined or left), and the clusters whose authoritative page changed (before ->
after, with the new reason), grouped by the pair of first folders of the two pages, with up to
EXAMPLES (default 3) examples of each group, so that every change can be listed and judged.

Usage: bench/real_sites/compare_runs.py BEFORE_INDEX AFTER_INDEX [EXAMPLES]
"""
import collections
import json
import sys


def load(index):
    with open(f"{index}/pages.jsonl") as f:
        return {row["url"]: row for row in map(json.loads, f)}


def members_by_url(rows):
    """Each page's cluster as the frozenset of its members' URLs (None outside clusters)."""
    clusters = collections.defaultdict(set)
    for row in rows.values():
        if row.get("cluster") is not None:
            clusters[row["cluster"]].add(row["url"])
    return {url: frozenset(clusters[row["cluster"]]) if row.get("cluster") is not None else None
            for url, row in rows.items()}


def top_folder(url):
    path = url.split("://", 1)[-1].split("/", 1)[-1]
    return path.split("/", 1)[0] if "/" in path else "(root)"


def main():
    before, after = load(sys.argv[1]), load(sys.argv[2])
    examples = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    counts = lambda rows: dict(sorted(collections.Counter(r["status"] for r in rows.values()).items()))
    print("statuses before:", counts(before))
    print("statuses after: ", counts(after))
    only = set(before) ^ set(after)
    if only:
        print(f"pages in one run only: {len(only)}, e.g. {sorted(only)[:examples]}")
    common = sorted(set(before) & set(after))
    status_changes = collections.Counter((before[u]["status"], after[u]["status"]) for u in common
                                         if before[u]["status"] != after[u]["status"])
    print("status changes:", dict(status_changes) or "none")
    clusters_before, clusters_after = members_by_url(before), members_by_url(after)
    moved = [u for u in common if clusters_before[u] != clusters_after[u]]
    print(f"pages whose cluster changed: {len(moved)}")
    for u in moved[:examples]:
        print(f"  {u}: {len(clusters_before[u] or ())} members -> {len(clusters_after[u] or ())}")
    # Authority: each cluster of the run after, by its authoritative page, against the page its
    # members had before.
    changed = collections.defaultdict(list)
    seen = set()
    for u in common:
        a, b = after[u].get("authoritative"), before[u].get("authoritative")
        if a is None or b is None or a == b or (b, a) in seen or clusters_after[u] is None:
            continue
        seen.add((b, a))
        changed[(top_folder(b), top_folder(a))].append((b, a, after.get(a, {}).get("authority_reason")))
    total = sum(len(v) for v in changed.values())
    print(f"clusters whose authoritative page changed: {total}")
    for (old, new), rows in sorted(changed.items(), key=lambda kv: -len(kv[1])):
        reasons = collections.Counter(r for _, _, r in rows)
        print(f"  {old} -> {new}: {len(rows)} ({dict(reasons)})")
        for b, a, _ in rows[:examples]:
            print(f"    {b} -> {a}")


if __name__ == "__main__":
    main()
