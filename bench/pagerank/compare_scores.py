#!/usr/bin/python3
"""@file compare_scores.py
@brief L1 distance between two `id<TAB>score` files (canon rank's output format).

usage: compare_scores.py A B
Prints: compare: nodes=N l1=.. max_abs=.. sum_a=.. sum_b=..
Exits 1 when the files do not rank the same set of ids.
"""
import math
import sys


def read_scores(path):
    scores = {}
    with open(path, encoding="utf-8", newline="\n") as f:
        for line in f:
            name, _, score = line.rstrip("\n").partition("\t")
            scores[name] = float(score)
    return scores


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: compare_scores.py A B")
    a = read_scores(sys.argv[1])
    b = read_scores(sys.argv[2])
    if a.keys() != b.keys():
        print(f"compare: different node sets ({len(a)} vs {len(b)} ids, "
              f"{len(a.keys() - b.keys())} only in A, {len(b.keys() - a.keys())} only in B)")
        sys.exit(1)
    diffs = [abs(score - b[name]) for name, score in a.items()]
    print(f"compare: nodes={len(a)} l1={math.fsum(diffs):.3e} max_abs={max(diffs, default=0.0):.3e} "
          f"sum_a={math.fsum(a.values()):.15f} sum_b={math.fsum(b.values()):.15f}")


if __name__ == "__main__":
    main()
