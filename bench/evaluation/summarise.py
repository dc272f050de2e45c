#!/usr/bin/env python3
"""Tables and the F1 plot of docs/evaluation.md ("Reproduction") from bench/evaluation/run.sh's
results: WORK/results/dedup/CORPUS-rRATIO-sSEED-DETECTOR.json (`canon eval dedup --json` plus
the run's parameters) and WORK/results/diversity/CORPUS.json (`canon eval diversity --json`).
Python 3 standard library only; the SVG is written by hand."""
import argparse
import json
import math
import os
import statistics
import sys

CORPUS_NAMES = {"python": "Python 3.11 docs", "postgres": "PostgreSQL 15 docs"}
CORPUS_SOURCES = {"python": "python3.11-doc", "postgres": "postgresql-doc-15"}
MODE_NAMES = {"none": "no collapsing", "query": "query-time collapse", "index": "index-time collapse"}
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f"]
BEGIN = "<!-- BEGIN bench/evaluation/run.sh: generated, do not edit by hand -->"
END = "<!-- END bench/evaluation/run.sh -->"


def load_dedup(results, corpora, seeds, ratios, detectors):
    """{(corpus, ratio, detector): [result per seed]} for the requested grid; missing units are
    reported and left out."""
    grid, missing = {}, []
    for corpus in corpora:
        for ratio in ratios:
            for detector in detectors:
                runs = []
                for seed in seeds:
                    path = os.path.join(results, "dedup", f"{corpus}-r{ratio}-s{seed}-{detector}.json")
                    if os.path.exists(path):
                        with open(path) as f:
                            runs.append(json.load(f))
                    else:
                        missing.append(path)
                grid[(corpus, ratio, detector)] = runs
    return grid, missing


def values(runs, stage, field):
    out = []
    for r in runs:
        block = r["pairwise"].get(stage)
        if block is not None:
            out.append(block[field])
    return out


def cell(xs, digits=3):
    """mean ± sample standard deviation (just the mean for one value, '–' for none)."""
    if not xs:
        return "–"
    mean = statistics.fmean(xs)
    if len(xs) == 1:
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} ± {statistics.stdev(xs):.{digits}f}"


def dedup_tables(grid, corpora, seeds, ratios, detectors):
    lines = []
    n = len(seeds)
    spread = f"mean ± sample standard deviation over {n} seeds ({', '.join(seeds)})" if n > 1 else \
        f"seed {seeds[0]}"
    for corpus in corpora:
        for stage, title in (("after_union_find", "after union-find"),
                             ("before_union_find", "before union-find (verified pairs)")):
            lines.append(f"**{CORPUS_NAMES.get(corpus, corpus)}: pairwise F1 {title}** ({spread})")
            lines.append("")
            lines.append("| segment ratio | " + " | ".join(detectors) + " |")
            lines.append("|---|" + "---|" * len(detectors))
            for ratio in ratios:
                row = [cell(values(grid[(corpus, ratio, d)], stage, "f1")) for d in detectors]
                lines.append(f"| {ratio} | " + " | ".join(row) + " |")
            lines.append("")
    lines.append(f"**The published table's layout, every detector** ({spread}; P, R, F1 of the "
                 "verified pairs, then of the clusters after union-find; index s: mean wall "
                 "seconds of `canon index`, on a shared 2-core machine)")
    lines.append("")
    lines.append("| ratio | corpus | detector | P | R | F1 (no union-find) | P | R | F1 (union-find) | index s |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|")
    for ratio in ratios:
        for corpus in corpora:
            for d in detectors:
                runs = grid[(corpus, ratio, d)]
                row = [cell(values(runs, s, f)) for s in ("before_union_find", "after_union_find")
                       for f in ("precision", "recall", "f1")]
                secs = [r["run"]["index_seconds"] for r in runs]
                seconds = f"{statistics.fmean(secs):.0f}" if secs else "–"
                lines.append(f"| {ratio} | {corpus} | {d} | " + " | ".join(row) + f" | {seconds} |")
    lines.append("")
    return lines


def diversity_table(results, corpora):
    lines = []
    found = []
    for corpus in corpora:
        path = os.path.join(results, "diversity", f"{corpus}.json")
        if os.path.exists(path):
            with open(path) as f:
                found.append((corpus, json.load(f)))
    if not found:
        return lines, []
    k = found[0][1]["k"]
    lines.append(f"| corpus | mode | documents | index MB | Dup@{k} | Distinct@{k} | cluster recall@{k} | α-nDCG@{k} |")
    lines.append("|---|---|---|---|---|---|---|---|")
    for corpus, d in found:
        for m in d["modes"]:
            lines.append(f"| {corpus} | {MODE_NAMES[m['mode']]} | {m['documents']} | "
                         f"{m['index_bytes'] / 1e6:.1f} | {m['dup_at_k']:.3f} | {m['distinct_at_k']:.2f} | "
                         f"{m['cluster_recall_at_k']:.3f} | {m['alpha_ndcg_at_k']:.3f} |")
    lines.append("")
    notes = []
    for corpus, d in found:
        notes.append(f"{corpus}: {d['queries']} queries, {d['scored_queries']} with matches, "
                     f"{d['mean_relevant_clusters']:.1f} relevant clusters per query on average; "
                     f"first queries: " + ", ".join(f"`{q}`" for q in d["query_list"][:8]))
    return lines, notes


def svg_plot(grid, corpora, seeds, ratios, detectors):
    """Two panels (one per corpus): F1 against segment ratio, one colour per detector; solid =
    after union-find, dashed = verified pairs before it; bars = ± one standard deviation."""
    pw, ph = 330, 230            # plot area of a panel
    ml, mr, mt, mb = 46, 14, 28, 40
    legend_h = 40
    width = len(corpora) * (ml + pw + mr)
    height = mt + ph + mb + legend_h
    xs = [float(r) for r in ratios]
    x_lo, x_hi = 0.0, max(0.2, max(xs))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    for p, corpus in enumerate(corpora):
        ox = p * (ml + pw + mr) + ml
        X = lambda x: ox + (x - x_lo) / (x_hi - x_lo) * pw
        Y = lambda y: mt + (1 - y) * ph
        out.append(f'<text x="{ox + pw / 2:.1f}" y="{mt - 10}" text-anchor="middle" font-size="13">'
                   f'{CORPUS_NAMES.get(corpus, corpus)}</text>')
        for i in range(6):
            y = i / 5
            out.append(f'<line x1="{ox}" y1="{Y(y):.1f}" x2="{ox + pw}" y2="{Y(y):.1f}" stroke="#ddd"/>')
            out.append(f'<text x="{ox - 5}" y="{Y(y) + 4:.1f}" text-anchor="end">{y:.1f}</text>')
        for x in [0.0, 0.05, 0.10, 0.15, 0.20]:
            out.append(f'<line x1="{X(x):.1f}" y1="{mt + ph}" x2="{X(x):.1f}" y2="{mt + ph + 4}" stroke="#333"/>')
            out.append(f'<text x="{X(x):.1f}" y="{mt + ph + 16}" text-anchor="middle">{x:.2f}</text>')
        out.append(f'<rect x="{ox}" y="{mt}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>')
        out.append(f'<text x="{ox + pw / 2:.1f}" y="{mt + ph + 32}" text-anchor="middle">segment ratio</text>')
        if p == 0:
            out.append(f'<text transform="translate({ox - 34},{mt + ph / 2:.1f}) rotate(-90)" '
                       f'text-anchor="middle">pairwise F1</text>')
        for d_i, d in enumerate(detectors):
            colour = COLOURS[d_i % len(COLOURS)]
            for stage, dash in (("after_union_find", ""), ("before_union_find", ' stroke-dasharray="4 3"')):
                pts = []
                for r in ratios:
                    f1 = values(grid[(corpus, r, d)], stage, "f1")
                    if not f1:
                        continue
                    mean = statistics.fmean(f1)
                    sd = statistics.stdev(f1) if len(f1) > 1 else 0.0
                    pts.append((X(float(r)), Y(mean), sd))
                if not pts:
                    continue
                path = " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in pts)
                out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.6"{dash}/>')
                for x, y, sd in pts:
                    if stage == "after_union_find":
                        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{colour}"/>')
                    if sd > 0.005 and stage == "after_union_find":
                        h = sd * ph
                        out.append(f'<line x1="{x:.1f}" y1="{y - h:.1f}" x2="{x:.1f}" y2="{y + h:.1f}" '
                                   f'stroke="{colour}"/>')
    ly = mt + ph + mb + 14
    lx = ml
    for d_i, d in enumerate(detectors):
        colour = COLOURS[d_i % len(COLOURS)]
        out.append(f'<line x1="{lx}" y1="{ly - 4}" x2="{lx + 18}" y2="{ly - 4}" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{lx + 22}" y="{ly}">{d}</text>')
        lx += 30 + 7 * len(d) + 12
    out.append(f'<text x="{ml}" y="{ly + 18}" fill="#555">solid: clusters after union-find; dashed: '
               f'verified pairs before it; bars: ± 1 standard deviation over seeds</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--results", required=True)
    ap.add_argument("--corpora", required=True)
    ap.add_argument("--seeds", required=True)
    ap.add_argument("--ratios", required=True)
    ap.add_argument("--detectors", required=True)
    ap.add_argument("--svg", required=True)
    ap.add_argument("--tables", required=True)
    ap.add_argument("--docs", default="")
    ap.add_argument("--svg-link", default="f1-vs-ratio.svg")
    ap.add_argument("--command", default="bench/evaluation/run.sh --update-docs")
    a = ap.parse_args()
    corpora, seeds, ratios, detectors = (a.corpora.split(), a.seeds.split(), a.ratios.split(),
                                         a.detectors.split())
    grid, missing = load_dedup(a.results, corpora, seeds, ratios, detectors)
    for m in missing:
        print(f"missing result: {m}", file=sys.stderr)

    lines = [BEGIN, "", f"Generated by `{a.command}` (canon synth defaults: dup ratio 0.3, up "
             "to 3 copies, segments of 1–3 WordNet nouns; `canon index` defaults for each "
             "detector). Sources: " + ", ".join(f"{CORPUS_NAMES.get(c, c)} (`{CORPUS_SOURCES.get(c, c)}`)"
                                                for c in corpora) + ".", ""]
    if missing:
        lines += [f"*{len(missing)} of {len(missing) + sum(len(v) for v in grid.values())} runs "
                  "are missing: the run was incomplete.*", ""]
    lines += [f"![F1 against segment ratio per detector]({a.svg_link})", ""]
    lines += dedup_tables(grid, corpora, seeds, ratios, detectors)
    div_lines, notes = diversity_table(a.results, corpora)
    if div_lines:
        lines += ["**Diversity** (`canon eval diversity --truth`, true clusters as subtopics; the "
                  "site at segment ratio 0.05, first seed, indexed with `--no-collapse` and minhash)", ""]
        lines += div_lines
        lines += [f"- {n}" for n in notes] + [""]
    lines.append(END)
    text = "\n".join(lines) + "\n"
    with open(a.tables, "w") as f:
        f.write(text)
    with open(a.svg, "w") as f:
        f.write(svg_plot(grid, corpora, seeds, ratios, detectors))
    if a.docs:
        with open(a.docs) as f:
            doc = f.read()
        if BEGIN not in doc or END not in doc:
            sys.exit(f"{a.docs} has no {BEGIN} ... {END} markers")
        head, rest = doc.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        with open(a.docs, "w") as f:
            f.write(head + text.rstrip("\n") + tail)


if __name__ == "__main__":
    main()
