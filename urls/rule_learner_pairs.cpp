/// @file rule_learner_pairs.cpp
/// @brief Stage 1 of learning URL rules: pairwise rules from the duplicates of each cluster.
///
/// Each duplicate's location is aligned with its indexed page's (the matching blocks of their
/// tokens, as difflib finds them), and the query parameters it has and its page lacks are
/// noted, as is a pair whose only difference is the order of its parameters. Clusters are
/// held out from learning here, by a hash of their indexed URL.
#include "urls/rule_learner_stages.h"

#include <algorithm>
#include <optional>
#include <set>

#include <xxhash.h>

namespace canon::urls::detail {
namespace {

/// Whether a cluster is held out from learning: by a hash of its indexed URL, stable across
/// runs, cluster numberings and input orders.
bool is_held_out(const std::string& indexed_url, double fraction) {
  const std::uint64_t h = XXH3_64bits(indexed_url.data(), indexed_url.size());
  return static_cast<double>(h % 1'000'000) < fraction * 1'000'000.0;
}

/// A run of tokens common to both locations: source start, target start, length.
struct Block {
  std::size_t s, t, n;
};

/// The matching blocks of S[s0, s1) and T[t0, t1): the longest common run (the earliest of
/// equal length), then recursively the blocks left and right of it (as Ratcliff/Obershelp, and
/// Python's difflib, align sequences).
void matching_blocks(const Tokens& S, std::size_t s0, std::size_t s1, const Tokens& T, std::size_t t0,
                     std::size_t t1, std::vector<Block>& out) {
  if (s0 >= s1 || t0 >= t1) return;
  Block best{0, 0, 0};
  std::vector<std::size_t> previous(t1 - t0 + 1, 0), current(t1 - t0 + 1, 0);
  for (std::size_t i = s0; i < s1; ++i) {
    for (std::size_t j = t0; j < t1; ++j) {
      const std::size_t n = S[i] == T[j] ? previous[j - t0] + 1 : 0;
      current[j - t0 + 1] = n;
      if (n > best.n) best = {i + 1 - n, j + 1 - n, n};
    }
    std::swap(previous, current);
  }
  if (best.n == 0) return;
  matching_blocks(S, s0, best.s, T, t0, best.t, out);
  out.push_back(best);
  matching_blocks(S, best.s + best.n, s1, T, best.t + best.n, t1, out);
}

/// At most \1..\9 in an RE2 rewrite.
constexpr std::size_t kMaxKeeps = 9;

std::optional<PathEdit> align(const UrlParts& from, const UrlParts& to, Tokenization how) {
  const Tokens S = tokenize_location(from.origin, from.path, how);
  const Tokens T = tokenize_location(to.origin, to.path, how);
  std::vector<Block> blocks;
  matching_blocks(S, 0, S.size(), T, 0, T.size(), blocks);
  if (blocks.empty() || blocks.size() > kMaxKeeps) return std::nullopt;
  PathEdit edit;
  std::size_t s = 0, t = 0;
  for (const Block& b : blocks) {
    edit.drops.emplace_back(S.begin() + s, S.begin() + b.s);
    edit.inserts.emplace_back(T.begin() + t, T.begin() + b.t);
    edit.keeps.emplace_back(S.begin() + b.s, S.begin() + b.s + b.n);
    s = b.s + b.n;
    t = b.t + b.n;
  }
  edit.drops.emplace_back(S.begin() + s, S.end());
  edit.inserts.emplace_back(T.begin() + t, T.end());
  return edit;
}

/// Whether `to`'s parameters are `from`'s (less those named in `dropped`) sorted by name, and
/// were not in that order already.
bool sorts_params(const UrlParts& from, const UrlParts& to, const std::set<std::string>& dropped) {
  std::vector<QueryParam> kept;
  for (const QueryParam& p : from.params) {
    if (!dropped.contains(p.name)) kept.push_back(p);
  }
  if (kept == to.params || kept.size() < 2) return false;
  std::stable_sort(kept.begin(), kept.end(), [](const QueryParam& a, const QueryParam& b) { return a.name < b.name; });
  return kept == to.params;
}

}  // namespace

PairwiseRules pairwise_rules(Site& site, double held_out_fraction, LearnReport& report) {
  PairwiseRules out;
  std::set<std::uint64_t> duplicate_clusters;
  for (std::size_t i = 0; i < site.url.size(); ++i) {
    auto target = site.indexed_of_cluster.find(site.cluster[i]);
    if (site.indexed[i] || target == site.indexed_of_cluster.end()) continue;
    const std::uint64_t cluster = site.cluster[i];
    if (duplicate_clusters.insert(cluster).second && is_held_out(site.url[target->second], held_out_fraction)) {
      site.held_out.insert(cluster);
    }
    if (site.held_out.contains(cluster)) continue;
    ++report.pairs;
    const UrlParts& from = site.parts[i];
    const UrlParts& to = site.parts[target->second];
    if (from.location() != to.location()) {
      // Both cuts of words: whole words generalise an id ("8F3A9C21" as hex), deep tokens a
      // name with a number ("mirror0" as "mirror" + digits). Validation picks what holds.
      for (Tokenization how : {Tokenization::kWords, Tokenization::kDeep}) {
        if (auto edit = align(from, to, how)) {
          edit->how = how;
          edit->cluster = cluster;
          edit->source = i;
          out.edits.push_back(std::move(*edit));
        }
      }
    }
    std::set<std::string> dropped;
    DroppedParams pair_drops{{}, cluster};
    for (const QueryParam& p : from.params) {
      const bool kept = std::any_of(to.params.begin(), to.params.end(), [&](const QueryParam& q) { return q.name == p.name; });
      if (!kept && dropped.insert(p.name).second) pair_drops.params.push_back(p);
    }
    if (!pair_drops.params.empty()) {
      std::sort(pair_drops.params.begin(), pair_drops.params.end(),
                [](const QueryParam& a, const QueryParam& b) { return a.name < b.name; });
      std::string names;
      for (const QueryParam& p : pair_drops.params) names += p.name + '&';
      out.dropped_params[names].push_back(std::move(pair_drops));
    }
    if (sorts_params(from, to, dropped)) out.sorting_clusters.push_back(cluster);
  }
  report.duplicate_clusters = duplicate_clusters.size();
  report.held_out_clusters = site.held_out.size();
  report.learning_clusters = report.duplicate_clusters - report.held_out_clusters;
  return out;
}

}  // namespace canon::urls::detail
