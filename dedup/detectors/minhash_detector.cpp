/// @file minhash_detector.cpp
/// @brief MinhashDetector: compact sketches per document, LSH candidates, verification of the
/// candidates by component from reloaded documents.
#include "dedup/detectors/minhash_detector.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <tuple>

#include "common/collective.h"
#include "dedup/detectors/detector_support.h"
#include "dedup/sketches/sorted_sets.h"
#include "dedup/sketches/tokenizer.h"
#include "dedup/sketches/union_find.h"

namespace canon::dedup {

namespace {

/// How many worst-case standard deviations (0.5/sqrt(n), what n independent positions give at
/// J = 0.5) a candidate's estimate may fall short of the threshold before it is dropped without
/// loading. One-permutation sketches are within a few percent of that variance (measured in
/// test_minhash), so a qualifying pair is dropped with P < 1e-4.
constexpr double kEstimateSlackSigmas = 4.0;

/// The key of pair (a, b), a < b, in MinhashDetector::measured_.
std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) { return std::uint64_t{a} << 32 | b; }

/// Which process holds each document's sketch in a partitioned run: every process's [first, end),
/// told to all.
class SketchHolders {
public:
  /// Collective: every process gives the range it holds.
  SketchHolders(std::uint32_t first, std::uint32_t end, const Collective& processes) : count_(processes.size()) {
    std::string mine;
    codec::put_varint(mine, first);
    codec::put_varint(mine, end);
    const std::vector<std::string> told = processes.all_gather_bytes(mine);
    for (unsigned p = 0; p < count_; ++p) {
      codec::Reader in(told[p]);
      const auto held_first = static_cast<std::uint32_t>(in.varint());
      const auto held_end = static_cast<std::uint32_t>(in.varint());
      if (held_first < held_end) by_first_.emplace_back(held_first, held_end, p);
    }
    std::sort(by_first_.begin(), by_first_.end());
  }
  /// The process holding d's sketch; the number of processes when none does.
  unsigned of(std::uint32_t d) const {
    auto it = std::upper_bound(by_first_.begin(), by_first_.end(), d,
                               [](std::uint32_t key, const auto& range) { return key < std::get<0>(range); });
    if (it == by_first_.begin() || d >= std::get<1>(*--it)) return count_;
    return std::get<2>(*it);
  }

private:
  unsigned count_;
  std::vector<std::tuple<std::uint32_t, std::uint32_t, unsigned>> by_first_;  ///< the non-empty ranges, sorted
};

/// Sketches received from the processes holding them, by document.
class ReceivedSketches {
public:
  /// Reads all_to_all_bytes' messages of (document, `width` values) records.
  ReceivedSketches(const std::vector<std::string>& messages, std::size_t width) {
    for (const std::string& message : messages) {
      codec::Reader in(message);
      while (!in.at_end() && in.ok()) {
        auto& [d, sketch] = received_.emplace_back(static_cast<std::uint32_t>(in.fixed(4)), std::vector<std::uint32_t>(width));
        for (std::uint32_t& value : sketch) value = static_cast<std::uint32_t>(in.fixed(4));
      }
    }
    std::sort(received_.begin(), received_.end());
  }
  /// d's sketch. REQUIRES: it was received.
  std::span<const std::uint32_t> of(std::uint32_t d) const {
    const auto it = std::lower_bound(received_.begin(), received_.end(), d,
                                     [](const auto& r, std::uint32_t key) { return r.first < key; });
    assert(it != received_.end() && it->first == d);
    return it->second;
  }

private:
  std::vector<std::pair<std::uint32_t, std::vector<std::uint32_t>>> received_;  ///< sorted by document
};


/// The sketches this process holds that other processes judge candidates with (SketchHolders:
/// the holder of a candidate's first document judges it; `unbounded_at` says which candidates
/// need no judging), as messages for all_to_all_bytes: each sent once, to each judge.
std::vector<std::string> sketches_for_judges(std::span<const std::pair<std::uint32_t, std::uint32_t>> candidates, const SketchHolders& holders,
                                             const std::function<bool(std::size_t)>& unbounded_at,
                                             const std::function<std::span<const std::uint32_t>(std::uint32_t)>& sketch_of,
                                             const Collective& processes) {
  const unsigned count = processes.size();
  std::vector<std::vector<std::uint32_t>> wanted(count);
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const auto& p = candidates[c];
    if (unbounded_at(c) || holders.of(p.second) != processes.rank()) continue;
    const unsigned judge = holders.of(p.first);
    if (judge != processes.rank() && judge < count) wanted[judge].push_back(p.second);
  }
  std::vector<std::string> to_each(count);
  for (unsigned p = 0; p < count; ++p) {
    std::sort(wanted[p].begin(), wanted[p].end());
    wanted[p].erase(std::unique(wanted[p].begin(), wanted[p].end()), wanted[p].end());
    for (const std::uint32_t d : wanted[p]) {
      codec::put_fixed(to_each[p], d, 4);
      for (const std::uint32_t value : sketch_of(d)) codec::put_fixed(to_each[p], value, 4);
    }
  }
  return to_each;
}

}  // namespace

MinhashDetector::MinhashDetector(const DedupOptions& options)
    : options_(options), hasher_(options.num_hashes, options.seed), width_(options.num_hashes) {
  assert(options.shingle_size >= 1 && options.num_hashes >= 1);
}

double MinhashDetector::measure(std::size_t common, std::size_t a, std::size_t b) {
  // The same operations as jaccard(), so both give the same double.
  const std::size_t all = a + b - common;
  return all == 0 ? 0.0 : static_cast<double>(common) / static_cast<double>(all);
}

void MinhashDetector::reset(std::uint32_t n) {
  // Fresh zeroed arrays: a document never added keeps size 0 and is a singleton.
  held_first_ = std::min(hold_first_, n);
  held_end_ = std::max(held_first_, std::min(hold_end_, n));
  sketches_.assign(std::size_t{held_end_ - held_first_} * width_, 0);
  sketches_.shrink_to_fit();
  sizes_.assign(n, 0);
  sizes_.shrink_to_fit();
  text_hashes_.assign(n, 0);
  text_hashes_.shrink_to_fit();
  repeated_only_.assign(n, 0);
  repeated_only_.shrink_to_fit();
  // The names of the documents this process adds: every document's but in a partitioned run.
  page_names_.reset(held_end_ - held_first_);
  names_ = SiteNames();
  boilerplate_ = Boilerplate();
  measured_ = {};
}

void MinhashDetector::learn_site(std::span<const DedupDocument> sample) {
  if (options_.discount_boilerplate) boilerplate_ = Boilerplate::learn(sample, options_.shingle_size);
}

void MinhashDetector::add(std::uint32_t i, const DedupDocument& doc) {
  assert(i < sizes_.size());
  // Scratch reused per thread: no allocation per word or per document once warmed up.
  // The sketch ignores order and repeats, so the shingle hashes are not sorted; the set's size
  // is counted with a small hash table instead.
  thread_local JoinedWords words;
  thread_local std::vector<std::uint64_t> shingles, scratch;
  tokenize_joined(doc.text, words);
  if (words.size() == 0) return;
  text_hashes_[i] = hash_all_words(words) | 1;  // never 0, which means "no words"
  assert(holds(i));  // hold_documents(): a process adds its own documents only
  page_names_.set(i - held_first_, page_name(doc));
  shingle_hashes(words, options_.shingle_size, shingles);
  const bool has_shingles = !shingles.empty();
  boilerplate_.remove_from(shingles);
  sizes_[i] = static_cast<std::uint32_t>(std::min<std::size_t>(
      count_distinct(shingles, scratch), std::numeric_limits<std::uint32_t>::max()));
  if (shingles.empty()) {
    repeated_only_[i] = has_shingles ? 1 : 0;
    return;
  }
  assert(holds(i));  // hold_documents(): a process adds its own documents only
  hasher_.sketch32(shingles, std::span(sketches_).subspan(std::size_t{i - held_first_} * width_, width_));
}

std::size_t MinhashDetector::state_bytes_per_document() const {
  return width_ * sizeof(std::uint32_t) + sizeof(std::uint32_t) + sizeof(std::uint64_t) +
         (page_names_.size() == 0 ? 0 : page_names_.held_bytes() / page_names_.size());
}

namespace {
/// What encoded minhash state starts with: a detector of another kind refuses it.
constexpr std::string_view kEncodedTag = "canon minhash documents";
}  // namespace

std::optional<std::string> MinhashDetector::encode_added(std::uint32_t begin, std::uint32_t end) const {
  assert(begin <= end && end <= sizes_.size() && page_names_.size() == held_end_ - held_first_);
  // Sketches and names held by parts stay with their part: the receiver keeps none of them.
  const bool with_sketches = holds_all();
  std::string out;
  codec::put_string(out, kEncodedTag);
  codec::put_varint(out, with_sketches ? width_ : 0);
  codec::put_varint(out, begin);
  codec::put_varint(out, end);
  for (std::uint32_t d = begin; d < end; ++d) {
    codec::put_varint(out, sizes_[d]);
    codec::put_fixed(out, text_hashes_[d], 8);
    out.push_back(static_cast<char>(repeated_only_[d]));
    if (with_sketches && sizes_[d] > 0) {
      for (const std::uint32_t value : sketch_of(d)) codec::put_fixed(out, value, 4);
    }
    if (with_sketches) page_names_.append_encoded(d, out);
  }
  return out;
}

Status MinhashDetector::add_encoded(std::string_view bytes) {
  codec::Reader in(bytes);
  const bool tagged = in.string() == kEncodedTag;
  const std::uint64_t width = in.varint();
  const std::uint64_t begin = in.varint(), end = in.varint();
  // Sketches come with the documents unless they are held by parts; then the documents taken
  // are another process's, whose sketches it keeps.
  const bool ours = tagged && (holds_all() ? width == width_ : width == 0);
  if (!ours || !in.ok() || begin > end || end > sizes_.size() || page_names_.size() != held_end_ - held_first_ ||
      (width == 0 && begin < end && begin < held_end_ && held_first_ < end)) {
    return Status::corruption("encoded documents not of this minhash detector (another kind, sketch size or run)");
  }
  // Read whole before anything is taken: bytes that do not check out change nothing.
  const std::size_t count = end - begin;
  std::vector<std::uint32_t> sizes(count), sketches(width == 0 ? 0 : count * width_, 0);
  std::vector<std::uint64_t> text_hashes(count);
  std::vector<char> repeated_only(count, 0);
  std::vector<std::string_view> names(count);  // views of `bytes`
  PageName checked;  // each name decoded into it to be checked, then kept encoded
  for (std::size_t k = 0; k < count && in.ok(); ++k) {
    const std::uint64_t size = in.varint();
    if (size > std::numeric_limits<std::uint32_t>::max()) in.mark_bad();
    sizes[k] = static_cast<std::uint32_t>(size);
    text_hashes[k] = in.fixed(8);
    const std::uint64_t repeated = in.fixed(1);
    if (repeated > 1 || (repeated == 1 && sizes[k] > 0)) in.mark_bad();
    repeated_only[k] = static_cast<char>(repeated);
    if (width != 0 && sizes[k] > 0) {
      for (std::size_t h = 0; h < width_; ++h) sketches[k * width_ + h] = static_cast<std::uint32_t>(in.fixed(4));
    }
    if (width == 0) continue;  // names held by parts: not sent
    const std::string_view rest = in.rest();
    decode_page_name(in, checked);
    names[k] = rest.substr(0, rest.size() - in.rest().size());
  }
  if (!in.ok() || !in.at_end()) return Status::corruption("encoded minhash documents cut short or damaged");
  std::copy(sizes.begin(), sizes.end(), sizes_.begin() + static_cast<std::ptrdiff_t>(begin));
  std::copy(text_hashes.begin(), text_hashes.end(), text_hashes_.begin() + static_cast<std::ptrdiff_t>(begin));
  std::copy(repeated_only.begin(), repeated_only.end(), repeated_only_.begin() + static_cast<std::ptrdiff_t>(begin));
  if (width != 0) {
    std::copy(sketches.begin(), sketches.end(), sketches_.begin() + static_cast<std::ptrdiff_t>(begin * width_));
    for (std::size_t k = 0; k < count; ++k) page_names_.set_encoded(begin + k, names[k]);
  }
  return Status::ok_status();
}

std::vector<SimilarPair> MinhashDetector::identical_pairs(std::span<bool> skip) const {
  const auto n = static_cast<std::uint32_t>(sizes_.size());
  std::vector<SimilarPair> pairs;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> by_text;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (text_hashes_[i] != 0) by_text.emplace_back(text_hashes_[i], i);
  }
  std::sort(by_text.begin(), by_text.end());
  for (std::uint32_t i = 0; i < n; ++i) skip[i] = sizes_[i] == 0;
  for (std::size_t g = 0, end = 0; g < by_text.size(); g = end) {
    while (end < by_text.size() && by_text[end].first == by_text[g].first) ++end;
    for (std::size_t m = g + 1; m < end; ++m) {
      pairs.push_back({by_text[g].second, by_text[m].second, 1.0});
      skip[by_text[m].second] = true;
    }
  }
  return pairs;
}

std::vector<MinhashDetector::Pair> MinhashDetector::candidate_pairs(std::span<const bool> skip) const {
  const LshBanding banding = choose_banding(options_.num_hashes, options_.threshold);
  std::vector<Pair> candidates =
      processes_ == nullptr ? lsh_candidates(sketches_, width_, banding, skip, options_.threads)
      : holds_all()         ? lsh_candidates(sketches_, width_, banding, skip, options_.threads, *processes_)
                            : lsh_candidates(sketches_, held_first_, sizes_.size(), width_, banding, skip,
                                             options_.threads, *processes_);
  // Pages of one name at mirrored paths need only copy_threshold, below what the banding is
  // tuned to: they are candidates whatever their sketches say.
  // So are moved pages (the same item at a parallel path), measured by containment, which a
  // longer page's Jaccard does not show.
  if (options_.title_rule) {
    const auto [same_name, moved_pages] =
        names_by_parts() ? names_.name_pairs(kLshRunNeighbours, page_names_, *processes_)
                         : std::pair(names_.same_name_pairs(kLshRunNeighbours), names_.moved_pairs(kLshRunNeighbours));
    for (const auto* forced : {&same_name, &moved_pages}) {
      const auto lsh_end = static_cast<std::ptrdiff_t>(candidates.size());
      // A page left out of LSH as identical to another still has its own copies at mirrored
      // paths (a copy of `en/Main_Page.html`, which is `en/index.html` saved again).
      for (const Pair& p : *forced) {  // sorted, as LSH's are
        if (takes_part(p.first) && takes_part(p.second)) candidates.push_back(p);
      }
      std::inplace_merge(candidates.begin(), candidates.begin() + lsh_end, candidates.end());
      candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    }
  }
  return candidates;
}

std::vector<MinhashDetector::PairRule> MinhashDetector::pair_rules(std::span<const Pair> pairs) {
  std::vector<PairRule> rules(pairs.size());
  const auto judge = [&](std::size_t p) {
    const auto [a, b] = pairs[p];
    rules[p].required = required(a, b);
    rules[p].moved = moved(a, b);
    if (rules[p].moved) rules[p].place = names_.moved_place(a, b);
  };
  if (!names_by_parts()) {
    parallel_for(pairs.size(), options_.threads, [&](std::size_t p, std::size_t) { judge(p); });
    return rules;
  }
  // The pairs whose first page this process holds: judged here, the second page's name taken
  // from its holder; then every process's rules, in pair order.
  std::vector<std::size_t> judged;
  std::vector<std::uint32_t> seconds;
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    if (!holds(pairs[p].first)) continue;
    judged.push_back(p);
    seconds.push_back(pairs[p].second);
  }
  names_.take_names(seconds, page_names_, *processes_);
  seconds = {};
  parallel_for(judged.size(), options_.threads, [&](std::size_t k, std::size_t) { judge(judged[k]); });
  names_.forget_taken();
  std::string mine;
  for (const std::size_t p : judged) {
    codec::put_varint(mine, p);
    codec::put_fixed(mine, std::bit_cast<std::uint64_t>(rules[p].required), 8);
    mine.push_back(static_cast<char>(rules[p].moved ? 1 + rules[p].place.inserted : 0));
    codec::put_varint(mine, rules[p].place.words.size());
    for (const std::uint32_t w : rules[p].place.words) codec::put_fixed(mine, w, 4);
  }
  for (const std::string& theirs : processes_->all_gather_bytes(mine)) {
    codec::Reader in(theirs);
    while (in.ok() && !in.at_end()) {
      const std::uint64_t p = in.varint();
      if (p >= rules.size()) break;
      PairRule& rule = rules[p];
      rule.required = std::bit_cast<double>(in.fixed(8));
      const std::uint64_t moved = in.fixed(1);  // 0 not moved, 1 substituted, 2 inserted
      rule.moved = moved != 0;
      rule.place.inserted = moved == 2;
      rule.place.words.resize(in.count());
      for (std::uint32_t& w : rule.place.words) w = static_cast<std::uint32_t>(in.fixed(4));
    }
    assert(in.ok() && in.at_end());
  }
  return rules;
}

Clusters MinhashDetector::find_clusters(const DocumentLoader& load) {
  const auto n = static_cast<std::uint32_t>(sizes_.size());
  // The site's names: whole, or this process's own with the site's statistics (the names of
  // its documents stay encoded, for the pairs that need them elsewhere).
  if (names_by_parts()) {
    names_ = SiteNames::of_part(page_names_, held_first_, *processes_);
  } else {
    names_ = SiteNames(page_names_);
    page_names_ = {};
  }
  // Pages with the same word sequence are merged at once, each with the first of its group;
  // only that first page takes part in LSH (a thousand identical pages would otherwise be half
  // a million candidate pairs). Pages without own shingles take no part either.
  const auto skip = std::make_unique<bool[]>(n);
  std::vector<SimilarPair> pairs = identical_pairs(std::span(skip.get(), n));
  const std::vector<Pair> candidates = candidate_pairs(std::span<const bool>(skip.get(), n));

  // LSH only proposes. A candidate whose similarity could reach what its names require only if
  // its estimate were several standard deviations too low is dropped unread. The rest are
  // measured exactly from reloaded documents.
  const std::vector<PairRule> rules = pair_rules(candidates);
  const std::vector<bool> needed = worth_measuring(candidates, rules);
  std::vector<Measured> measured(candidates.size());
  measure_exactly(candidates, needed, rules, load, measured);

  measured_.clear();
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const auto [a, b] = candidates[c];
    if (needed[c] && measured[c].larger() >= rules[c].required) pairs.push_back({a, b, measured[c].larger()});
    if (needed[c]) measured_.emplace_back(pair_key(a, b), measured[c]);
  }
  std::sort(measured_.begin(), measured_.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  for (SimilarPair& p : pairs) {
    if (p.a > p.b) std::swap(p.a, p.b);
  }
  return clusters_from_pairs(n, std::move(pairs), candidates.size());
}

bool MinhashDetector::worth_measuring(std::uint32_t a, std::uint32_t b, double required,
                                      std::span<const std::uint32_t> sketch_a,
                                      std::span<const std::uint32_t> sketch_b) const {
  const double slack = kEstimateSlackSigmas * 0.5 / std::sqrt(static_cast<double>(width_));
  const double high = std::min(1.0, estimate_jaccard(sketch_a, sketch_b) + slack);
  // The overlap that Jaccard `high` would mean, at most the smaller set.
  const double sum = static_cast<double>(sizes_[a]) + static_cast<double>(sizes_[b]);
  const double common = std::min<double>(high * sum / (1.0 + high), std::min(sizes_[a], sizes_[b]));
  const auto common_high = static_cast<std::size_t>(std::ceil(common));
  return measure(common_high, sizes_[a], sizes_[b]) >= required;
}

std::vector<bool> MinhashDetector::worth_measuring(std::span<const Pair> candidates,
                                                   std::span<const PairRule> rules) const {
  // Masked containment, or all shingles: no bound from the sketches of the own shingles.
  const auto unbounded_at = [&](std::size_t c) {
    return rules[c].moved || repeated_only_[candidates[c].first] || repeated_only_[candidates[c].second];
  };
  std::vector<char> worth(candidates.size(), 0);
  if (holds_all()) {
    parallel_for(candidates.size(), options_.threads, [&](std::size_t c, std::size_t) {
      const auto [a, b] = candidates[c];
      worth[c] = unbounded_at(c) || worth_measuring(a, b, rules[c].required, sketch_of(a), sketch_of(b));
    });
    return {worth.begin(), worth.end()};
  }
  // Sketches held by parts: the process holding a candidate's first sketch judges it.
  const Collective& processes = *processes_;
  const unsigned count = processes.size();
  const SketchHolders holders(held_first_, held_end_, processes);
  const std::vector<std::string> to_each = sketches_for_judges(
      candidates, holders, unbounded_at, [&](std::uint32_t d) { return sketch_of(d); }, processes);
  const ReceivedSketches received(processes.all_to_all_bytes(to_each), width_);
  const auto sketch = [&](std::uint32_t d) { return holds(d) ? sketch_of(d) : received.of(d); };
  // This process's verdicts, in candidate order; then every process's, in the same order.
  std::vector<std::size_t> judged;
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    if (!unbounded_at(c) && holders.of(candidates[c].first) == processes.rank()) judged.push_back(c);
  }
  std::string verdicts(judged.size(), '\0');
  parallel_for(judged.size(), options_.threads, [&](std::size_t k, std::size_t) {
    const auto [a, b] = candidates[judged[k]];
    verdicts[k] = worth_measuring(a, b, rules[judged[k]].required, sketch(a), sketch(b)) ? 1 : 0;
  });
  const std::vector<std::string> all = processes.all_gather_bytes(verdicts);
  std::vector<std::size_t> next(count, 0);
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    if (unbounded_at(c)) {
      worth[c] = 1;
      continue;
    }
    const unsigned judge = holders.of(candidates[c].first);
    worth[c] = judge < count && next[judge] < all[judge].size() && all[judge][next[judge]++] != 0;
  }
  return {worth.begin(), worth.end()};
}

std::vector<Comparison> MinhashDetector::compare(std::span<const Pair> pairs,
                                                 const DocumentLoader& load) {
  std::vector<Measured> measured(pairs.size());
  std::vector<Pair> ordered(pairs.size());
  std::vector<bool> needed(pairs.size(), false);
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    auto [a, b] = pairs[p];
    assert(a < sizes_.size() && b < sizes_.size());
    ordered[p] = {std::min(a, b), std::max(a, b)};
    if (text_hashes_[a] == 0 || text_hashes_[b] == 0) continue;
    if (a == b || identical(a, b)) {
      measured[p] = {1.0, 1.0};
      continue;
    }
    if (!takes_part(a) || !takes_part(b)) continue;
    const std::uint64_t key = pair_key(ordered[p].first, ordered[p].second);
    const auto it = std::lower_bound(measured_.begin(), measured_.end(), key,
                                     [](const auto& x, std::uint64_t k) { return x.first < k; });
    if (it != measured_.end() && it->first == key) {
      measured[p] = it->second;
    } else {
      needed[p] = true;
    }
  }
  const std::vector<PairRule> rules = pair_rules(ordered);
  measure_exactly(ordered, needed, rules, load, measured);
  std::vector<double> similarity(pairs.size());
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    // Measured is of (smaller index, larger index): the first page of the pair against the second.
    similarity[p] = pairs[p].first <= pairs[p].second ? measured[p].forward : measured[p].backward;
  }
  std::vector<Comparison> result(pairs.size());
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const auto [a, b] = pairs[p];
    if (text_hashes_[a] == 0 || text_hashes_[b] == 0) continue;
    result[p] = {similarity[p], a == b || identical(a, b) || similarity[p] >= rules[p].required, a != b && rules[p].moved};
  }
  return result;
}

namespace {

/// The documents of the pairs `component` of `pairs`, sorted, once each.
std::vector<std::uint32_t> component_members(std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs,
                                             std::span<const std::size_t> component) {
  std::vector<std::uint32_t> members;
  for (const std::size_t p : component) {
    members.push_back(pairs[p].first);
    members.push_back(pairs[p].second);
  }
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  return members;
}

/// The block of each of `members`: consecutive members, each block holding at most `budget`
/// shingles (a member counts its own shingle count in `sizes`, at least 1; a member larger
/// than the budget is a block of its own).
std::vector<std::size_t> member_blocks(std::span<const std::uint32_t> members, std::span<const std::uint32_t> sizes,
                                       std::size_t budget) {
  std::vector<std::size_t> block_of(members.size());
  std::size_t blocks = 0;
  for (std::size_t m = 0, held = 0; m < members.size(); ++m) {
    const std::size_t size = std::max<std::size_t>(sizes[members[m]], 1);
    if (m == 0 || held + size > budget) {
      ++blocks;
      held = 0;
    }
    held += size;
    block_of[m] = blocks - 1;
  }
  return block_of;
}

}  // namespace

void MinhashDetector::measure_exactly(std::span<const Pair> pairs, const std::vector<bool>& needed,
                                      std::span<const PairRule> rules,
                                      const DocumentLoader& load, std::vector<Measured>& out) const {
  // Connected components of the needed pairs: each document is loaded once, by the worker that
  // owns its component, and its shingle set lives only while that component is measured.
  const auto n = static_cast<std::uint32_t>(sizes_.size());
  UnionFind sets(n);
  std::vector<std::pair<std::uint32_t, std::size_t>> by_root;  // (component root, pair index)
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    if (needed[p]) sets.unite(pairs[p].first, pairs[p].second);
  }
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    if (needed[p]) by_root.emplace_back(sets.find(pairs[p].first), p);
  }
  std::sort(by_root.begin(), by_root.end());
  std::vector<std::pair<std::size_t, std::size_t>> components;  // [begin, end) in by_root
  for (std::size_t begin = 0, end = 0; begin < by_root.size(); begin = end) {
    while (end < by_root.size() && by_root[end].first == by_root[begin].first) ++end;
    components.emplace_back(begin, end);
  }
  // Largest first, so that one big component does not start last.
  std::stable_sort(components.begin(), components.end(), [](const auto& x, const auto& y) {
    return x.second - x.first > y.second - y.first;
  });
  // In a partitioned build each process measures its share of the components (the same split
  // on every process: each component, largest first, to the process with the fewest pairs so
  // far), and every process then receives every measure.
  const unsigned processes = processes_ != nullptr ? processes_->size() : 1;
  const unsigned rank = processes_ != nullptr ? processes_->rank() : 0;
  std::vector<std::size_t> mine, load_of(processes, 0);
  for (std::size_t c = 0; c < components.size(); ++c) {
    const auto least = static_cast<unsigned>(std::min_element(load_of.begin(), load_of.end()) - load_of.begin());
    load_of[least] += components[c].second - components[c].first;
    if (least == rank) mine.push_back(c);
  }
  // The documents this process loads, located first (where another process holds them).
  {
    std::vector<std::size_t> my_pairs;
    for (const std::size_t c : mine) {
      for (std::size_t i = components[c].first; i < components[c].second; ++i) my_pairs.push_back(by_root[i].second);
    }
    load.locate(component_members(pairs, my_pairs));
  }
  parallel_for(mine.size(), options_.threads, [&](std::size_t m, std::size_t) {
    const auto [begin, end] = components[mine[m]];
    std::vector<std::size_t> component;
    for (std::size_t i = begin; i < end; ++i) component.push_back(by_root[i].second);
    measure_component(pairs, component, rules, load, out);
  });
  if (processes > 1) share_measures(by_root, components, mine, out);
}

void MinhashDetector::share_measures(std::span<const std::pair<std::uint32_t, std::size_t>> by_root,
                                     std::span<const std::pair<std::size_t, std::size_t>> components,
                                     std::span<const std::size_t> mine, std::vector<Measured>& out) const {
  struct Sent {
    std::uint64_t pair;
    double forward;
    double backward;
  };
  std::string bytes;
  for (const std::size_t c : mine) {
    for (std::size_t i = components[c].first; i < components[c].second; ++i) {
      const std::size_t p = by_root[i].second;
      const Sent sent{p, out[p].forward, out[p].backward};
      bytes.append(reinterpret_cast<const char*>(&sent), sizeof sent);
    }
  }
  for (const std::string& theirs : processes_->all_gather_bytes(bytes)) {
    for (std::size_t at = 0; at + sizeof(Sent) <= theirs.size(); at += sizeof(Sent)) {
      Sent sent{};
      std::memcpy(&sent, theirs.data() + at, sizeof sent);
      out[sent.pair] = {sent.forward, sent.backward};
    }
  }
}

void MinhashDetector::measure_component(std::span<const Pair> pairs, std::span<const std::size_t> component,
                                        std::span<const PairRule> rules,
                                        const DocumentLoader& load, std::vector<Measured>& out) const {
  const std::vector<std::uint32_t> members = component_members(pairs, component);
  // Blocks of members, each with at most half the budget of shingles: a component larger than
  // the budget (thousands of releases of one page) is measured block against block, so what a
  // worker holds does not grow with the component; its documents are then loaded once per
  // block they are measured against, instead of once.
  const std::vector<std::size_t> block_of = member_blocks(members, sizes_, options_.measure_budget_shingles / 2);
  const auto member_index = [&](std::uint32_t d) {
    return static_cast<std::size_t>(std::lower_bound(members.begin(), members.end(), d) - members.begin());
  };
  // The component's pairs by (block of a, block of b), a < b so block of a <= block of b.
  std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> by_blocks;  // (block a, block b, pair)
  for (const std::size_t p : component) {
    by_blocks.emplace_back(block_of[member_index(pairs[p].first)], block_of[member_index(pairs[p].second)], p);
  }
  std::sort(by_blocks.begin(), by_blocks.end());
  // Per member: its own shingles, and for members of moved pairs its words (masked per pair).
  // Members of pairs with a page all of whose text the site repeats: all their shingles too.
  std::vector<ShingleSet> shingles(members.size()), all_shingles(members.size());
  std::vector<JoinedWords> texts(members.size());
  std::vector<char> in_moved(members.size(), 0), in_plain(members.size(), 0), in_whole(members.size(), 0);
  for (const std::size_t p : component) {
    const auto [a, b] = pairs[p];
    std::vector<char>& in = rules[p].moved ? in_moved : repeated_only_[a] || repeated_only_[b] ? in_whole : in_plain;
    for (const std::uint32_t d : {a, b}) in[member_index(d)] = 1;
  }
  const auto load_block = [&](std::size_t block) {
    const auto first = std::lower_bound(block_of.begin(), block_of.end(), block) - block_of.begin();
    for (auto m = static_cast<std::size_t>(first); m < members.size() && block_of[m] == block; ++m) {
      load(members[m], [&](const DedupDocument& doc) {
        // The words once: kept for the moved pairs (masked per pair), or in a scratch buffer.
        thread_local JoinedWords scratch;
        JoinedWords& words = in_moved[m] ? texts[m] : scratch;
        tokenize_joined(doc.text, words);
        if (in_plain[m]) {
          shingle_set(words, options_.shingle_size, shingles[m]);
          boilerplate_.remove_from(shingles[m]);  // the set stays sorted
        }
        if (in_whole[m]) shingle_set(words, options_.shingle_size, all_shingles[m]);
      });
    }
  };
  const auto drop_block = [&](std::size_t block) {
    for (std::size_t m = 0; m < members.size(); ++m) {
      if (block_of[m] == block) {
        ShingleSet().swap(shingles[m]);
        ShingleSet().swap(all_shingles[m]);
        texts[m] = JoinedWords();
      }
    }
  };
  std::vector<std::size_t> loaded;  // the blocks held now: at most two
  for (const auto& [block_a, block_b, p] : by_blocks) {
    // Copies: clang before 16 cannot capture structured bindings.
    const auto wanted = [a = block_a, b = block_b](std::size_t block) { return block == a || block == b; };
    for (const std::size_t block : loaded) {
      if (!wanted(block)) drop_block(block);
    }
    std::erase_if(loaded, [&](std::size_t block) { return !wanted(block); });
    for (const std::size_t block : {block_a, block_b}) {
      if (std::find(loaded.begin(), loaded.end(), block) == loaded.end()) {
        load_block(block);
        loaded.push_back(block);
      }
    }
    const auto [a, b] = pairs[p];
    if (rules[p].moved) {
      const auto [forward, backward] = masked_coverages(rules[p].place, texts[member_index(a)],
                                                        texts[member_index(b)], options_.shingle_size, boilerplate_);
      out[p] = {forward, backward};
      continue;
    }
    const bool whole = repeated_only_[a] || repeated_only_[b];
    const ShingleSet &x = (whole ? all_shingles : shingles)[member_index(a)],
                     &y = (whole ? all_shingles : shingles)[member_index(b)];
    const double jaccard = x.empty() || y.empty() ? 0.0 : measure(intersection_size<std::uint64_t>(x, y), x.size(), y.size());
    out[p] = {jaccard, jaccard};
  }
}

}  // namespace canon::dedup
