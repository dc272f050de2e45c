/// @file multik_detector.cpp
/// @brief multik_profile, multik_dissimilarity and MultikDetector.
///
/// Written by hand: no Debian package provides multiple-pattern near-duplicate detection; the
/// candidate join is mwo_detector.cpp's weighted prefix filtering.
#include "dedup/detectors/multik_detector.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <utility>

#include "dedup/sketches/tokenizer.h"

namespace canon::dedup {

namespace {

using Pair = std::pair<std::uint32_t, std::uint32_t>;

/// ½ Σ |w - w'| over the union of two weight vectors sorted by term.
double half_l1_distance(std::span<const WeightedTerm> a, std::span<const WeightedTerm> b) {
  double sum = 0.0;
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].term < b[j].term)) {
      sum += a[i++].weight;
    } else if (i == a.size() || b[j].term < a[i].term) {
      sum += b[j++].weight;
    } else {
      sum += std::abs(a[i++].weight - b[j++].weight);
    }
  }
  return sum / 2.0;
}

/// Pairs (a < b) of `docs` whose 1-gram groups share a term, sorted and unique.
std::vector<Pair> shared_word_pairs(std::span<const MultikProfile> profiles,
                                    std::span<const std::uint32_t> docs) {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed;  // (word, document)
  for (const std::uint32_t d : docs) {
    for (const WeightedTerm& w : profiles[d].groups[0]) keyed.emplace_back(w.term, d);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<Pair> pairs;
  for (std::size_t begin = 0, end = 0; begin < keyed.size(); begin = end) {
    while (end < keyed.size() && keyed[end].first == keyed[begin].first) ++end;
    for (std::size_t i = begin; i < end; ++i) {
      for (std::size_t j = i + 1; j < end; ++j) {
        pairs.emplace_back(keyed[i].second, keyed[j].second);
      }
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

}  // namespace

MultikProfile multik_profile(std::span<const std::string> tokens) {
  MultikProfile profile;
  for (unsigned k = 1; k <= kMultikMaxGram; ++k) {
    std::vector<WeightedTerm>& group = profile.groups[k - 1];
    double total = 0.0;
    for (const TermCount& c : ngram_counts(tokens, k)) {
      const double weight = 1.0 + std::log10(static_cast<double>(c.count));
      group.push_back({c.term, weight});
      total += weight;
    }
    for (WeightedTerm& w : group) w.weight /= total;
  }
  return profile;
}

double multik_dissimilarity(const MultikProfile& a, const MultikProfile& b) {
  double weighted = 0.0, weights = 0.0;
  for (unsigned k = 1; k <= kMultikMaxGram; ++k) {
    const auto& ga = a.groups[k - 1];
    const auto& gb = b.groups[k - 1];
    if (ga.empty() && gb.empty()) continue;
    const double factor = k / static_cast<double>(kMultikMaxGram);
    // One empty group shares nothing: D_k = 1 (the formula would give ½ against zeros).
    weighted += factor * (ga.empty() || gb.empty() ? 1.0 : half_l1_distance(ga, gb));
    weights += factor;
  }
  return weights == 0.0 ? 1.0 : std::min(1.0, weighted / weights);
}

MultikDetector::MultikDetector(const DedupOptions& options)
    : max_dissimilarity_(options.multik_max_dissimilarity), threads_(options.threads) {
  assert(max_dissimilarity_ >= 0.0 && max_dissimilarity_ < 1.0);
}

void MultikDetector::reset(std::uint32_t n) {
  profiles_.assign(n, {});
  profiles_.shrink_to_fit();
}

void MultikDetector::add(std::uint32_t i, const DedupDocument& doc) {
  assert(i < profiles_.size());
  profiles_[i] = multik_profile(tokenize(doc.text));
}

std::size_t MultikDetector::state_bytes_per_document() const {
  return average_state_bytes(profiles_, [](const MultikProfile& p) {
    std::size_t bytes = 0;
    for (const auto& group : p.groups) bytes += group.capacity() * sizeof(WeightedTerm);
    return bytes;
  });
}

Clusters MultikDetector::find_clusters(const DocumentLoader&) {
  const auto n = static_cast<std::uint32_t>(profiles_.size());

  // Candidates. d <= δ implies (4/4)·D_4 <= δ·Σ(k/4) = 2.5·δ when all four groups exist, so
  // the 4-gram groups overlap by Σ min(w, w') = 1 - D_4 >= 1 - 2.5·δ.
  const double overlap_needed = 1.0 - 2.5 * max_dissimilarity_ - kFilterSlack;
  std::vector<Pair> candidates;
  std::size_t examined = 0;
  if (overlap_needed >= 1e-6) {
    // Documents of 4+ words: the weighted join on 4-grams. One of 1-3 words has d >= 0.4 with
    // any longer one (its group 4 is empty, the other's is not: D_4 = 1), so it can only match
    // another short document, which must share a word with it (else every D_k = 1).
    std::vector<std::vector<WeightedTerm>> four_grams(n);
    std::vector<std::uint32_t> short_docs;
    for (std::uint32_t d = 0; d < n; ++d) {
      four_grams[d] = profiles_[d].groups[kMultikMaxGram - 1];
      if (four_grams[d].empty() && !profiles_[d].groups[0].empty()) short_docs.push_back(d);
    }
    const JoinResult join = weighted_overlap_join(order_weighted_by_frequency(four_grams),
                                                  overlap_needed, threads_);
    examined += join.candidates;
    for (const SimilarPair& p : join.pairs) candidates.emplace_back(p.a, p.b);
    const std::vector<Pair> short_pairs = shared_word_pairs(profiles_, short_docs);
    examined += short_pairs.size();
    candidates.insert(candidates.end(), short_pairs.begin(), short_pairs.end());
  } else {
    // Too loose for the 4-gram bound: every two documents sharing a word.
    std::vector<std::uint32_t> all(n);
    for (std::uint32_t d = 0; d < n; ++d) all[d] = d;
    candidates = shared_word_pairs(profiles_, all);
    examined = candidates.size();
  }

  std::vector<double> dissimilarity(candidates.size());
  parallel_for(candidates.size(), threads_, [&](std::size_t c, std::size_t) {
    dissimilarity[c] =
        multik_dissimilarity(profiles_[candidates[c].first], profiles_[candidates[c].second]);
  });
  std::vector<SimilarPair> pairs;
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    if (dissimilarity[c] <= max_dissimilarity_) {
      pairs.push_back({candidates[c].first, candidates[c].second, 1.0 - dissimilarity[c]});
    }
  }
  return clusters_from_pairs(n, std::move(pairs), examined);
}

std::vector<Comparison> MultikDetector::compare(
    std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs, const DocumentLoader&) {
  std::vector<Comparison> result;
  for (const auto& [a, b] : pairs) {
    assert(a < profiles_.size() && b < profiles_.size());
    if (profiles_[a].groups[0].empty() || profiles_[b].groups[0].empty()) {
      result.push_back({});
      continue;
    }
    const double dissimilarity = multik_dissimilarity(profiles_[std::min(a, b)], profiles_[std::max(a, b)]);
    result.push_back({1.0 - dissimilarity, dissimilarity <= max_dissimilarity_});
  }
  return result;
}

}  // namespace canon::dedup
