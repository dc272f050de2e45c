#!/usr/bin/env bash
# Does the memory of `canon index` grow with the largest candidate group? (issue 14, point 7)
#
# Usage: bench/dedup/group_memory.sh CANON_BINARY WORK_DIR [SIZES] [WORDS]
#   SIZES  default "250 500 1000 2000": releases of the one page in the group
#   WORDS  default 3000: words per page
# For each size N, two generated sites of N + 200 pages each, indexed with `canon index`:
#   group:   one page in N releases (N/1.0/page.html ...), each release 10 % of its words
#            changed from one common text, so every pair is a near-duplicate candidate (one
#            candidate group of N pages), beside 200 unrelated pages;
#   groups:  the same N pages as N/100 pages in 100 releases each (groups of 100);
#   control: the same number of pages and words, all unrelated (no candidates).
# Prints one Markdown row per size: peak RSS (MiB) of each, the group's and the groups' excess
# over the control, candidates examined and dedup seconds of the one group.
set -euo pipefail
canon=${1:?canon binary}
work=${2:?work directory}
sizes=${3:-"250 500 1000 2000"}
words=${4:-3000}
mkdir -p "$work"

generate() {  # KIND N DIR
  python3 - "$@" "$words" <<'PY'
import os, random, sys
kind, n, out, words = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
rng = random.Random(7)
vocabulary = ["w%05d" % i for i in range(50000)]
def text():
    return [rng.choice(vocabulary) for _ in range(words)]
def write(path, title, body):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("<!DOCTYPE html><html><head><title>%s</title></head><body><h1>%s</h1><p>%s</p>"
                "</body></html>\n" % (title, title, " ".join(body)))
size = {"group": n, "groups": 100, "control": 1}[kind]
for g in range(n // size):
    common = text()
    for r in range(size):
        path = os.path.join(out, "%d.0" % (r + 1), "page%d.html" % g)
        if kind == "control":
            write(path, "Page %d" % g, common)
            continue
        body = list(common)
        for i in rng.sample(range(words), words // 10):
            body[i] = rng.choice(vocabulary)
        write(path, "Page %d" % g, body)
for p in range(200):
    write(os.path.join(out, "other", "p%d.html" % p), "Other %d" % p, text())
PY
}

run() {  # SITE OUT: prints "RSS_MIB CANDIDATES DEDUP_SECONDS"
  rm -rf "$2"
  /usr/bin/time -f "%M" -o "$2.rss" "$canon" index "$1" --out "$2" --quiet > /dev/null
  python3 - "$2" <<'PY'
import json, sys
out = sys.argv[1]
rss = int(open(out + ".rss").read().split()[-1]) / 1024
s = json.load(open(out + "/summary.json"))
print("%.0f %s %.2f" % (rss, s.get("candidates_examined", "-"), s["seconds"]["dedup"]))
PY
}

echo "| releases in the group | pages | control RSS MiB | one group: − control MiB | groups of 100: − control MiB | candidates examined (one group) | dedup s (one group) |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
  for kind in group groups control; do
    [ -d "$work/$kind-$n" ] || generate "$kind" "$n" "$work/$kind-$n"
  done
  read -r control_rss _ _ < <(run "$work/control-$n" "$work/control-$n.index")
  read -r group_rss candidates dedup < <(run "$work/group-$n" "$work/group-$n.index")
  read -r groups_rss _ _ < <(run "$work/groups-$n" "$work/groups-$n.index")
  echo "| $n | $((n + 200)) | $control_rss | $((group_rss - control_rss)) | $((groups_rss - control_rss)) | $candidates | $dedup |"
done
