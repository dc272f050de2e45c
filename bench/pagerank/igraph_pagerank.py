#!/usr/bin/python3
"""@file igraph_pagerank.py
@brief The reference side of bench/pagerank/run.sh: igraph's PRPACK PageRank of an edge list.

usage: igraph_pagerank.py EDGES SCORES_OUT [--damping D]

Loads EDGES (`source<TAB>target` lines, the input of `canon rank`) with Graph.Read_Ncol, removes
self-loops and merges parallel edges (canon's definition of the link graph: docs/ranking.md),
runs g.pagerank(implementation="prpack"), and writes `id<TAB>score` lines (repr: round-trips)
to SCORES_OUT. Prints one line to stdout:
  igraph: load_s=.. simplify_s=.. pagerank_s=.. nodes=N edges=M
PRPACK treats dangling nodes as canon does (their mass is spread uniformly over all nodes).
Needs Debian's python3-igraph (run with /usr/bin/python3).
"""
import argparse
import time

import igraph


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("edges")
    parser.add_argument("scores_out")
    parser.add_argument("--damping", type=float, default=0.85)
    args = parser.parse_args()

    start = time.perf_counter()
    # Read_Ncol: whitespace-separated names; canon's benchmark ids contain no spaces.
    g = igraph.Graph.Read_Ncol(args.edges, names=True, weights=False, directed=True)
    load_s = time.perf_counter() - start

    start = time.perf_counter()
    g.simplify(multiple=True, loops=True)
    simplify_s = time.perf_counter() - start

    start = time.perf_counter()
    scores = g.pagerank(directed=True, damping=args.damping, implementation="prpack")
    pagerank_s = time.perf_counter() - start

    with open(args.scores_out, "w", encoding="utf-8") as out:
        for name, score in zip(g.vs["name"], scores):
            out.write(f"{name}\t{score!r}\n")
    print(f"igraph: load_s={load_s:.3f} simplify_s={simplify_s:.3f} pagerank_s={pagerank_s:.3f} "
          f"nodes={g.vcount()} edges={g.ecount()}")


if __name__ == "__main__":
    main()
