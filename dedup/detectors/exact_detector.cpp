/// @file exact_detector.cpp
/// @brief order_by_frequency, ppjoin (prefix + length + positional filtering) and
/// ExactDetector.
///
/// PPJoin is written by hand: no Debian package provides a set-similarity join, and the
/// algorithm is short once the records are integer ranks (Xiao, Wang, Lin, Yu: "Efficient
/// similarity joins for near duplicate detection", WWW 2008, algorithm PPJoin).
#include "dedup/detectors/exact_detector.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "dedup/sketches/sorted_sets.h"
#include "dedup/sketches/tokenizer.h"

namespace canon::dedup {

namespace {

/// ceil(x), but a value within kFilterSlack above an integer rounds down to it: the filters
/// below may then ask for one element less than they could, never for one more.
std::size_t ceil_down(double x) {
  const double c = std::ceil(x - kFilterSlack);
  return c <= 0.0 ? 0 : static_cast<std::size_t>(c);
}

/// The overlap a partner of size `b` needs for `measure` >= t with a record of size a >= b.
std::size_t required_overlap(SetMeasure measure, double t, std::size_t a, std::size_t b) {
  switch (measure) {
    case SetMeasure::Jaccard:  // c / (a + b - c) >= t  <=>  c >= t / (1 + t) * (a + b)
      return ceil_down(t / (1.0 + t) * static_cast<double>(a + b));
    case SetMeasure::MaxContainment:  // c / max(a, b) >= t
      return ceil_down(t * static_cast<double>(std::max(a, b)));
  }
  return 0;
}

/// Per-worker scratch of the probe: overlap so far per earlier record (in processing order),
/// kPruned once the positional bound has ruled it out, and which entries were touched.
struct ProbeScratch {
  static constexpr std::int32_t kPruned = -1;
  std::vector<std::int32_t> overlap;
  std::vector<std::uint32_t> touched;
};

}  // namespace

std::vector<TokenRecord> order_by_frequency(std::span<const std::vector<std::uint64_t>> sets) {
  std::vector<TokenRecord> records = frequency_ranks(sets);
  for (TokenRecord& r : records) std::sort(r.begin(), r.end());
  return records;
}

double set_similarity(SetMeasure measure, std::size_t common, std::size_t a, std::size_t b) {
  // Same operations as jaccard() in shingles.cpp, so both give the same double.
  const std::size_t all = measure == SetMeasure::Jaccard ? a + b - common : std::max(a, b);
  return all == 0 ? 0.0 : static_cast<double>(common) / static_cast<double>(all);
}

std::size_t intersection_size(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) {
  return intersection_size<std::uint32_t>(a, b);
}

namespace {

/// Tokens of a record of `size` tokens that any partner no larger must share one of: a partner
/// y of x (|y| <= |x|) needs >= t|x| common tokens for either measure, so two qualifying records
/// share a token among the first |x| - ceil(t|x|) + 1 of x.
std::size_t prefix_length(std::size_t size, double t) {
  return size + 1 - std::clamp<std::size_t>(ceil_down(t * static_cast<double>(size)), 1, size);
}

/// ppjoin's index: the non-empty records in processing order (by size, then index; a record is
/// only compared with records before it, which are no larger) and the inverted index of their
/// prefixes.
struct PrefixIndex {
  /// Record index at each processing position.
  std::vector<std::uint32_t> order;
  /// Record size at each processing position (non-decreasing).
  std::vector<std::size_t> size_at;
  /// Token -> (processing position, position in record), in increasing processing position.
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> postings;
};

PrefixIndex build_prefix_index(std::span<const TokenRecord> records, double t) {
  PrefixIndex index;
  for (std::uint32_t i = 0; i < records.size(); ++i) {
    if (!records[i].empty()) index.order.push_back(i);
  }
  std::stable_sort(index.order.begin(), index.order.end(), [&](std::uint32_t x, std::uint32_t y) {
    return records[x].size() < records[y].size();
  });
  const std::size_t m = index.order.size();
  index.size_at.resize(m);
  for (std::size_t q = 0; q < m; ++q) index.size_at[q] = records[index.order[q]].size();
  std::uint32_t max_token = 0;
  for (const TokenRecord& r : records) {
    if (!r.empty()) max_token = std::max(max_token, r.back());
  }
  index.postings.resize(m == 0 ? 0 : std::size_t{max_token} + 1);
  for (std::uint32_t q = 0; q < m; ++q) {
    const TokenRecord& x = records[index.order[q]];
    for (std::uint32_t i = 0; i < prefix_length(x.size(), t); ++i) index.postings[x[i]].emplace_back(q, i);
  }
  return index;
}

/// Compares the record at processing position q with the records before it that survive the
/// length, prefix and positional filters; appends the pairs at or above `t` to `found` and
/// returns how many candidates it measured. `s` is this worker's scratch, left clean.
std::size_t probe_record(const PrefixIndex& index, std::span<const TokenRecord> records, std::uint32_t q,
                         SetMeasure measure, double t, ProbeScratch& s, std::vector<SimilarPair>& found) {
  if (s.overlap.empty()) s.overlap.assign(index.order.size(), 0);
  const TokenRecord& x = records[index.order[q]];
  const std::size_t sx = x.size();
  // Length filter: partners before q are no larger; they must hold >= t|x| tokens.
  const std::size_t min_size = ceil_down(t * static_cast<double>(sx));
  const auto first_q = static_cast<std::uint32_t>(
      std::lower_bound(index.size_at.begin(), index.size_at.begin() + q, min_size) - index.size_at.begin());
  const std::size_t prefix = prefix_length(sx, t);
  for (std::size_t i = 0; i < prefix; ++i) {
    const auto& list = index.postings[x[i]];
    auto it = std::lower_bound(list.begin(), list.end(), std::pair<std::uint32_t, std::uint32_t>{first_q, 0});
    for (; it != list.end() && it->first < q; ++it) {
      const auto [y, j] = *it;
      std::int32_t& overlap = s.overlap[y];
      if (overlap == ProbeScratch::kPruned) continue;
      if (overlap == 0) s.touched.push_back(y);
      // Positional filter: every common token still to come lies after i in x and after j in
      // y, so the overlap can grow by at most min(|x| - i, |y| - j) including this one.
      const std::size_t bound = static_cast<std::size_t>(overlap) + std::min(sx - i, index.size_at[y] - j);
      if (bound >= required_overlap(measure, t, sx, index.size_at[y])) {
        ++overlap;
      } else {
        overlap = ProbeScratch::kPruned;
      }
    }
  }
  std::size_t candidates = 0;
  for (const std::uint32_t y : s.touched) {
    if (s.overlap[y] > 0) {
      ++candidates;
      const TokenRecord& other = records[index.order[y]];
      const double similarity = set_similarity(measure, intersection_size(x, other), sx, other.size());
      if (similarity >= t) {
        const std::uint32_t a = std::min(index.order[q], index.order[y]);
        const std::uint32_t b = std::max(index.order[q], index.order[y]);
        found.push_back({a, b, similarity});
      }
    }
    s.overlap[y] = 0;
  }
  s.touched.clear();
  return candidates;
}

}  // namespace

JoinResult ppjoin(std::span<const TokenRecord> records, SetMeasure measure, double threshold,
                  unsigned threads) {
  assert(threshold > 0.0 && threshold <= 1.0);
  const PrefixIndex index = build_prefix_index(records, threshold);
  const std::size_t m = index.order.size();
  std::vector<std::vector<SimilarPair>> found(m);
  std::vector<std::size_t> candidates(m, 0);
  std::vector<ProbeScratch> scratch(worker_count(m, threads));
  parallel_for(m, threads, [&](std::size_t q, std::size_t worker) {
    candidates[q] = probe_record(index, records, static_cast<std::uint32_t>(q), measure, threshold,
                                 scratch[worker], found[q]);
  });
  JoinResult result;
  for (std::size_t q = 0; q < m; ++q) {
    result.candidates += candidates[q];
    result.pairs.insert(result.pairs.end(), found[q].begin(), found[q].end());
  }
  std::sort(result.pairs.begin(), result.pairs.end(), in_document_order);
  return result;
}

ExactDetector::ExactDetector(const DedupOptions& options) : options_(options) {
  assert(options.shingle_size >= 1);
  assert(options.threshold > 0.0 && options.threshold <= 1.0);
}

void ExactDetector::reset(std::uint32_t n) {
  shingles_.assign(n, {});
  shingles_.shrink_to_fit();
  text_hashes_.assign(n, 0);
  page_names_.reset(n);
  names_ = SiteNames();
  boilerplate_ = Boilerplate();
}

void ExactDetector::learn_site(std::span<const DedupDocument> sample) {
  if (options_.discount_boilerplate) boilerplate_ = Boilerplate::learn(sample, options_.shingle_size);
}

void ExactDetector::add(std::uint32_t i, const DedupDocument& doc) {
  assert(i < shingles_.size());
  JoinedWords words;
  tokenize_joined(doc.text, words);
  if (words.size() == 0) return;
  text_hashes_[i] = hash_all_words(words) | 1;
  page_names_.set(i, page_name(doc));
  shingle_set(words, options_.shingle_size, shingles_[i]);
  boilerplate_.remove_from(shingles_[i]);
}

double ExactDetector::similarity(std::uint32_t a, std::uint32_t b) const {
  if (text_hashes_[a] == 0 || text_hashes_[b] == 0) return 0.0;
  if (a == b || text_hashes_[a] == text_hashes_[b]) return 1.0;
  return jaccard(shingles_[a], shingles_[b]);
}

bool ExactDetector::accept(std::uint32_t a, std::uint32_t b, double jaccard) const {
  if (text_hashes_[a] != 0 && text_hashes_[a] == text_hashes_[b]) return true;
  return jaccard >= names_.required(options_, a, b);
}

std::vector<std::pair<double, double>> ExactDetector::moved_coverages(
    std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs, const DocumentLoader& load) const {
  std::vector<std::uint32_t> docs;
  for (const auto& [a, b] : pairs) docs.insert(docs.end(), {a, b});
  std::sort(docs.begin(), docs.end());
  docs.erase(std::unique(docs.begin(), docs.end()), docs.end());
  load.locate(docs);  // a collective call (compare(): each process its own pairs), made whatever the pairs
  std::vector<JoinedWords> texts(docs.size());
  for (std::size_t i = 0; i < docs.size(); ++i) {
    load(docs[i], [&](const DedupDocument& doc) { tokenize_joined(doc.text, texts[i]); });
  }
  const auto text_of = [&](std::uint32_t d) -> const JoinedWords& {
    return texts[static_cast<std::size_t>(std::lower_bound(docs.begin(), docs.end(), d) - docs.begin())];
  };
  std::vector<std::pair<double, double>> out;
  for (const auto& [a, b] : pairs) {
    if (text_hashes_[a] == 0 || text_hashes_[b] == 0) {
      out.emplace_back(0.0, 0.0);
    } else if (a == b || text_hashes_[a] == text_hashes_[b]) {
      out.emplace_back(1.0, 1.0);
    } else {
      out.push_back(names_.moved_coverages(a, b, text_of(a), text_of(b), options_.shingle_size, boilerplate_));
    }
  }
  return out;
}

Clusters ExactDetector::find_clusters(const DocumentLoader& load) {
  const auto n = static_cast<std::uint32_t>(shingles_.size());
  names_ = SiteNames(page_names_);
  page_names_ = {};
  const std::vector<TokenRecord> records = order_by_frequency(shingles_);
  JoinResult join = ppjoin(records, SetMeasure::Jaccard, options_.threshold, options_.threads);
  // Moved pages are measured apart (masked containment): those the join found, and the others
  // whatever their Jaccard, as minhash takes them.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> moved_candidates;
  std::erase_if(join.pairs, [&](const SimilarPair& p) {
    if (moved(p.a, p.b)) {
      moved_candidates.emplace_back(p.a, p.b);
      return true;
    }
    return !accept(p.a, p.b, p.similarity);
  });
  if (options_.title_rule) {
    for (const auto& [a, b] : names_.moved_pairs()) {
      if (!shingles_[a].empty() && !shingles_[b].empty()) moved_candidates.emplace_back(a, b);
    }
    std::sort(moved_candidates.begin(), moved_candidates.end());
    moved_candidates.erase(std::unique(moved_candidates.begin(), moved_candidates.end()), moved_candidates.end());
    const std::vector<std::pair<double, double>> coverage = moved_coverages(moved_candidates, load);
    for (std::size_t p = 0; p < moved_candidates.size(); ++p) {
      const auto [a, b] = moved_candidates[p];
      const double larger = std::max(coverage[p].first, coverage[p].second);
      if (larger >= names_.required(options_, a, b)) join.pairs.push_back({a, b, larger});
    }
  }
  // Pages of one name at mirrored paths need only copy_threshold, which may be below the
  // join's threshold: those the join could not see are measured one by one.
  if (options_.title_rule) {
    for (const auto& [a, b] : names_.same_name_pairs()) {
      if (shingles_[a].empty() || shingles_[b].empty()) continue;
      const double s = jaccard(shingles_[a], shingles_[b]);
      if (s < options_.threshold && accept(a, b, s)) join.pairs.push_back({a, b, s});
    }
  }
  // Identical word sequences are similar even when nothing of them is the page's own (a page
  // all boilerplate): every pair of such a group the join could not see.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> by_text;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (text_hashes_[i] != 0 && shingles_[i].empty()) by_text.emplace_back(text_hashes_[i], i);
  }
  std::sort(by_text.begin(), by_text.end());
  for (std::size_t g = 0, end = 0; g < by_text.size(); g = end) {
    while (end < by_text.size() && by_text[end].first == by_text[g].first) ++end;
    for (std::size_t x = g; x < end; ++x) {
      for (std::size_t y = x + 1; y < end; ++y) join.pairs.push_back({by_text[x].second, by_text[y].second, 1.0});
    }
  }
  return clusters_from_pairs(n, std::move(join.pairs), join.candidates);
}

std::vector<Comparison> ExactDetector::compare(
    std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs, const DocumentLoader& load) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> moved_pairs;
  for (const auto& [a, b] : pairs) {
    if (a != b && text_hashes_[a] != 0 && text_hashes_[b] != 0 && moved(a, b)) moved_pairs.emplace_back(a, b);
  }
  const std::vector<std::pair<double, double>> moved_scores = moved_coverages(moved_pairs, load);
  std::size_t next_moved = 0;
  std::vector<Comparison> result;
  for (const auto& [a, b] : pairs) {
    assert(a < shingles_.size() && b < shingles_.size());
    if (text_hashes_[a] == 0 || text_hashes_[b] == 0) {
      result.push_back({});
      continue;
    }
    if (a != b && moved(a, b)) {
      const double s = moved_scores[next_moved++].first;  // the first page in the second
      result.push_back({s, text_hashes_[a] == text_hashes_[b] || s >= names_.required(options_, a, b), true});
      continue;
    }
    const double s = similarity(a, b);
    result.push_back({s, a == b || accept(a, b, s)});
  }
  return result;
}

std::size_t ExactDetector::state_bytes_per_document() const {
  return average_state_bytes(shingles_, [](const ShingleSet& s) {
    return s.capacity() * sizeof(std::uint64_t);
  });
}

}  // namespace canon::dedup
