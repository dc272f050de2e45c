/// @file mwo_detector.cpp
/// @brief Field-weighted term vectors, weighted_overlap_join and MwoDetector.
///
/// The weighted join is written by hand: it is PPJoin's prefix and positional filtering
/// (exact_detector.cpp) carried over to weights, and no Debian package provides either.
#include "dedup/detectors/mwo_detector.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include <xxhash.h>

#include "dedup/detectors/keyword_detector.h"
#include "dedup/names/url_path.h"

namespace canon::dedup {

namespace {

// Field weights of the TDW (term-document weight) matrix of Das, Mathew and Vijayaraghavan.
constexpr double kUrlWeight = 2.0;
constexpr double kTitleWeight = 2.0;
constexpr double kHeadingWeight = 2.0;
constexpr double kSameSiteAnchorWeight = 1.0;
constexpr double kOtherSiteAnchorWeight = 0.5;
constexpr double kMetaKeywordsWeight = 3.0;
constexpr double kMetaDescriptionWeight = 3.0;
constexpr double kMainTextWeight = 1.0;

/// Per-worker scratch of the probe: overlap so far per earlier record, its state, and which
/// entries were touched.
struct ProbeScratch {
  enum State : std::uint8_t { kUntouched, kActive, kPruned };
  std::vector<double> overlap;
  std::vector<State> state;
  std::vector<std::uint32_t> touched;
};

}  // namespace

std::vector<WeightedRecord> order_weighted_by_frequency(
    std::span<const std::vector<WeightedTerm>> vectors) {
  std::vector<std::vector<std::uint64_t>> terms(vectors.size());
  for (std::size_t i = 0; i < vectors.size(); ++i) {
    for (const WeightedTerm& t : vectors[i]) terms[i].push_back(t.term);
  }
  const std::vector<std::vector<std::uint32_t>> ranks = frequency_ranks(terms);
  std::vector<WeightedRecord> records(vectors.size());
  std::vector<std::pair<std::uint32_t, double>> entries;
  for (std::size_t i = 0; i < vectors.size(); ++i) {
    entries.clear();
    for (std::size_t j = 0; j < vectors[i].size(); ++j) {
      entries.emplace_back(ranks[i][j], vectors[i][j].weight);
    }
    std::sort(entries.begin(), entries.end());
    for (const auto& [id, weight] : entries) {
      records[i].ids.push_back(id);
      records[i].weights.push_back(weight);
    }
  }
  return records;
}

double weighted_overlap(const WeightedRecord& a, const WeightedRecord& b) {
  double sum = 0.0;
  for (std::size_t i = 0, j = 0; i < a.ids.size() && j < b.ids.size();) {
    if (a.ids[i] < b.ids[j]) {
      ++i;
    } else if (b.ids[j] < a.ids[i]) {
      ++j;
    } else {
      sum += std::min(a.weights[i], b.weights[j]);
      ++i, ++j;
    }
  }
  return sum;
}

JoinResult weighted_overlap_join(std::span<const WeightedRecord> records, double threshold,
                                 unsigned threads) {
  assert(threshold >= 1e-6 && threshold <= 1.0);
  const double t = threshold;
  const std::uint32_t n = static_cast<std::uint32_t>(records.size());
  // suffix[r][i]: weight of record r from position i on; prefix[r]: its prefix length, the
  // first i whose suffix is below t (by more than the slack, so rounding only lengthens it).
  std::vector<std::vector<double>> suffix(n);
  std::vector<std::uint32_t> prefix(n, 0);
  std::uint32_t max_id = 0;
  for (std::uint32_t r = 0; r < n; ++r) {
    const WeightedRecord& x = records[r];
    assert(x.ids.size() == x.weights.size());
    if (x.ids.empty()) continue;
    max_id = std::max(max_id, x.ids.back());
    suffix[r].assign(x.ids.size() + 1, 0.0);
    for (std::size_t i = x.ids.size(); i-- > 0;) suffix[r][i] = suffix[r][i + 1] + x.weights[i];
    while (prefix[r] < x.ids.size() && suffix[r][prefix[r]] >= t - kFilterSlack) ++prefix[r];
  }
  // The inverted index of all prefixes: id -> (record, position), by increasing record.
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> postings(
      std::size_t{max_id} + 1);
  for (std::uint32_t r = 0; r < n; ++r) {
    for (std::uint32_t i = 0; i < prefix[r]; ++i) postings[records[r].ids[i]].emplace_back(r, i);
  }

  std::vector<std::vector<SimilarPair>> found(n);
  std::vector<std::size_t> candidates(n, 0);
  std::vector<ProbeScratch> scratch(worker_count(n, threads));
  parallel_for(n, threads, [&](std::size_t xi, std::size_t worker) {
    ProbeScratch& s = scratch[worker];
    if (s.state.empty()) {
      s.overlap.assign(n, 0.0);
      s.state.assign(n, ProbeScratch::kUntouched);
    }
    const WeightedRecord& x = records[xi];
    for (std::uint32_t i = 0; i < prefix[xi]; ++i) {
      for (const auto& [y, j] : postings[x.ids[i]]) {
        if (y >= xi) break;  // each pair once: the later record probes the earlier one
        if (s.state[y] == ProbeScratch::kPruned) continue;
        if (s.state[y] == ProbeScratch::kUntouched) {
          s.state[y] = ProbeScratch::kActive;
          s.touched.push_back(y);
        }
        // Common terms still to come lie from i on in x and from j on in y.
        const double bound = s.overlap[y] + std::min(suffix[xi][i], suffix[y][j]);
        if (bound >= t - kFilterSlack) {
          s.overlap[y] += std::min(x.weights[i], records[y].weights[j]);
        } else {
          s.state[y] = ProbeScratch::kPruned;
        }
      }
    }
    for (const std::uint32_t y : s.touched) {
      if (s.state[y] == ProbeScratch::kActive) {
        ++candidates[xi];
        const double overlap = weighted_overlap(records[y], x);
        if (overlap >= t) found[xi].push_back({y, static_cast<std::uint32_t>(xi), overlap});
      }
      s.state[y] = ProbeScratch::kUntouched;
      s.overlap[y] = 0.0;
    }
    s.touched.clear();
  });

  JoinResult result;
  for (std::uint32_t r = 0; r < n; ++r) {
    result.candidates += candidates[r];
    result.pairs.insert(result.pairs.end(), found[r].begin(), found[r].end());
  }
  std::sort(result.pairs.begin(), result.pairs.end(),
            in_document_order);
  return result;
}

std::vector<WeightedTerm> mwo_term_vector(const DedupDocument& doc) {
  std::vector<WeightedTerm> terms;
  const auto add = [&](std::string_view text, double weight) {
    for (const std::string& term : keyword_terms(text)) {
      terms.push_back({XXH3_64bits(term.data(), term.size()), weight});
    }
  };
  add(after_host(doc.url), kUrlWeight);
  add(doc.title, kTitleWeight);
  for (const std::string& heading : doc.headings) add(heading, kHeadingWeight);
  for (const std::string_view anchor : doc.same_site_anchors) add(anchor, kSameSiteAnchorWeight);
  for (const std::string_view anchor : doc.other_site_anchors) add(anchor, kOtherSiteAnchorWeight);
  add(doc.meta_keywords, kMetaKeywordsWeight);
  add(doc.meta_description, kMetaDescriptionWeight);
  add(doc.text, kMainTextWeight);
  // Sum the weights per term (multiples of 0.5: the sums are exact, whatever their order),
  // then divide by the total.
  std::sort(terms.begin(), terms.end(), [](const WeightedTerm& a, const WeightedTerm& b) {
    return a.term < b.term;
  });
  std::vector<WeightedTerm> merged;
  double total = 0.0;
  for (const WeightedTerm& t : terms) {
    total += t.weight;
    if (!merged.empty() && merged.back().term == t.term) {
      merged.back().weight += t.weight;
    } else {
      merged.push_back(t);
    }
  }
  for (WeightedTerm& t : merged) t.weight /= total;
  return merged;
}

MwoDetector::MwoDetector(const DedupOptions& options)
    : threshold_(options.threshold_explicit ? options.threshold : options.mwo_threshold),
      threads_(options.threads) {
  assert(threshold_ >= 1e-6 && threshold_ <= 1.0);
}

void MwoDetector::reset(std::uint32_t n) {
  vectors_.assign(n, {});
  vectors_.shrink_to_fit();
  records_.clear();
}

void MwoDetector::add(std::uint32_t i, const DedupDocument& doc) {
  assert(i < vectors_.size());
  vectors_[i] = mwo_term_vector(doc);
}

Clusters MwoDetector::find_clusters(const DocumentLoader&) {
  const auto n = static_cast<std::uint32_t>(vectors_.size());
  records_ = order_weighted_by_frequency(vectors_);
  JoinResult join = weighted_overlap_join(records_, threshold_, threads_);
  return clusters_from_pairs(n, std::move(join.pairs), join.candidates);
}

std::vector<Comparison> MwoDetector::compare(
    std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs, const DocumentLoader&) {
  // The join's records, so that the values equal the pairs' bit for bit (same summation order:
  // the join also passes the smaller index first).
  if (records_.size() != vectors_.size()) records_ = order_weighted_by_frequency(vectors_);
  std::vector<Comparison> result;
  for (const auto& [a, b] : pairs) {
    assert(a < records_.size() && b < records_.size());
    if (vectors_[a].empty() || vectors_[b].empty()) {
      result.push_back({});
      continue;
    }
    const double overlap = weighted_overlap(records_[std::min(a, b)], records_[std::max(a, b)]);
    result.push_back({overlap, overlap >= threshold_});
  }
  return result;
}

std::size_t MwoDetector::state_bytes_per_document() const {
  return average_state_bytes(vectors_, [](const std::vector<WeightedTerm>& v) {
    return v.capacity() * sizeof(WeightedTerm);
  });
}

}  // namespace canon::dedup
