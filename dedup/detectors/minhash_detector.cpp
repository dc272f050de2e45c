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
  documents_ = n;
  held_first_ = std::min(placement_.first, n);
  held_end_ = std::max(held_first_, std::min(placement_.end, n));
  const std::uint32_t held = held_end_ - held_first_;
  sketches_.assign(std::size_t{held} * width_, 0);
  sketches_.shrink_to_fit();
  sizes_.assign(held, 0);
  sizes_.shrink_to_fit();
  text_hashes_.assign(held, 0);
  text_hashes_.shrink_to_fit();
  repeated_only_.assign(held, 0);
  repeated_only_.shrink_to_fit();
  taken_facts_ = {};
  // The names of the documents this process adds: every document's but in a partitioned run.
  page_names_.reset(held_end_ - held_first_);
  names_ = SiteNames();
  boilerplate_ = Boilerplate();
  measured_ = {};
}

void MinhashDetector::learn_site(std::span<const DedupDocument> sample) {
  if (options_.discount_boilerplate) boilerplate_ = Boilerplate::learn(sample, options_.shingle_size);
}

MinhashDetector::PageFacts MinhashDetector::facts(std::uint32_t d) const {
  if (holds(d)) {
    const std::uint32_t k = d - held_first_;
    return {sizes_[k], text_hashes_[k], repeated_only_[k] != 0};
  }
  const auto it = std::lower_bound(taken_facts_.begin(), taken_facts_.end(), d,
                                   [](const auto& entry, std::uint32_t page) { return entry.first < page; });
  assert(it != taken_facts_.end() && it->first == d);  // take_facts() took it
  return it->second;
}

void MinhashDetector::add(std::uint32_t i, const DedupDocument& doc) {
  assert(holds(i));  // place(): a process adds its own documents only
  const std::uint32_t k = i - held_first_;
  // Scratch reused per thread: no allocation per word or per document once warmed up.
  // The sketch ignores order and repeats, so the shingle hashes are not sorted; the set's size
  // is counted with a small hash table instead.
  thread_local JoinedWords words;
  thread_local std::vector<std::uint64_t> shingles, scratch;
  tokenize_joined(doc.text, words);
  if (words.size() == 0) return;
  text_hashes_[k] = hash_all_words(words) | 1;  // never 0, which means "no words"
  page_names_.set(k, page_name(doc));
  shingle_hashes(words, options_.shingle_size, shingles);
  const bool has_shingles = !shingles.empty();
  boilerplate_.remove_from(shingles);
  sizes_[k] = static_cast<std::uint32_t>(std::min<std::size_t>(
      count_distinct(shingles, scratch), std::numeric_limits<std::uint32_t>::max()));
  if (shingles.empty()) {
    repeated_only_[k] = has_shingles ? 1 : 0;
    return;
  }
  hasher_.sketch32(shingles, std::span(sketches_).subspan(std::size_t{k} * width_, width_));
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
  assert(begin <= end && end <= documents_);
  std::string out;
  codec::put_string(out, kEncodedTag);
  codec::put_varint(out, begin);
  codec::put_varint(out, end);
  return out;
}

Status MinhashDetector::add_encoded(std::string_view bytes) {
  codec::Reader in(bytes);
  const bool tagged = in.string() == kEncodedTag;
  const std::uint64_t begin = in.varint(), end = in.varint();
  if (!tagged || !in.ok() || begin > end || end > documents_ ||
      (begin < end && begin < held_end_ && held_first_ < end)) {
    return Status::corruption("encoded documents not of this minhash detector (another kind, or not another process's "
                              "documents of this run)");
  }
  if (!in.at_end()) return Status::corruption("encoded minhash documents damaged");
  return Status::ok_status();
}

std::vector<MinhashDetector::Pair> MinhashDetector::owned_candidate_pairs(std::span<const bool> skip) {
  const LshBanding banding = choose_banding(options_.num_hashes, options_.threshold);
  std::vector<Pair> candidates = owned_lsh_candidates(sketches_, held_first_, documents_, width_, banding, skip,
                                                      options_.threads, collective());
  if (options_.title_rule) {
    const auto [same_name, moved_pages] = names_.name_pairs(kLshRunNeighbours, page_names_, collective());
    std::vector<std::uint32_t> pages;  // add_forced_pairs() asks whether they take part
    for (const auto forced : {std::span(same_name), std::span(moved_pages)}) {
      for (const auto& [a, b] : forced) pages.insert(pages.end(), {a, b});
    }
    take_facts(pages);
    add_forced_pairs(candidates, same_name, moved_pages);
  }
  return candidates;
}

void MinhashDetector::add_forced_pairs(std::vector<Pair>& candidates, std::span<const Pair> same_name,
                                       std::span<const Pair> moved_pages) const {
  // Pages of one name at mirrored paths need only copy_threshold, below what the banding is
  // tuned to: they are candidates whatever their sketches say.
  // So are moved pages (the same item at a parallel path), measured by containment, which a
  // longer page's Jaccard does not show.
  for (const std::span<const Pair> forced : {same_name, moved_pages}) {
    const auto lsh_end = static_cast<std::ptrdiff_t>(candidates.size());
    // A page left out of LSH as identical to another still has its own copies at mirrored
    // paths (a copy of `en/Main_Page.html`, which is `en/index.html` saved again).
    for (const Pair& p : forced) {  // sorted, as LSH's are
      if (takes_part(p.first) && takes_part(p.second)) candidates.push_back(p);
    }
    std::inplace_merge(candidates.begin(), candidates.begin() + lsh_end, candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  }
}

std::vector<MinhashDetector::PairRule> MinhashDetector::pair_rules(std::span<const Pair> pairs) const {
  std::vector<PairRule> rules(pairs.size());
  parallel_for(pairs.size(), options_.threads, [&](std::size_t p, std::size_t) {
    const auto [a, b] = pairs[p];
    rules[p].required = required(a, b);
    rules[p].moved = moved(a, b);
    if (rules[p].moved) rules[p].place = names_.moved_place(a, b);
  });
  return rules;
}

void MinhashDetector::put_rule(std::string& out, const PairRule& rule) {
  codec::put_fixed(out, std::bit_cast<std::uint64_t>(rule.required), 8);
  out.push_back(static_cast<char>(rule.moved ? 1 + rule.place.inserted : 0));
  codec::put_varint(out, rule.place.words.size());
  for (const std::uint32_t w : rule.place.words) codec::put_fixed(out, w, 4);
}

void MinhashDetector::read_rule(codec::Reader& in, PairRule& rule) {
  rule.required = std::bit_cast<double>(in.fixed(8));
  const std::uint64_t moved = in.fixed(1);  // 0 not moved, 1 substituted, 2 inserted
  rule.moved = moved != 0;
  rule.place.inserted = moved == 2;
  rule.place.words.resize(in.count());
  for (std::uint32_t& w : rule.place.words) w = static_cast<std::uint32_t>(in.fixed(4));
}

void MinhashDetector::known_measures(std::span<const Pair> pairs, std::vector<Pair>& ordered,
                                     std::vector<Measured>& measured, std::vector<bool>& needed) const {
  measured.assign(pairs.size(), {});
  ordered.resize(pairs.size());
  needed.assign(pairs.size(), false);
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    auto [a, b] = pairs[p];
    assert(a < documents_ && b < documents_);
    ordered[p] = {std::min(a, b), std::max(a, b)};
    if (facts(a).text_hash == 0 || facts(b).text_hash == 0) continue;
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
}

std::vector<Comparison> MinhashDetector::comparisons(std::span<const Pair> pairs, std::span<const PairRule> rules,
                                                     std::span<const Measured> measured) const {
  std::vector<Comparison> result(pairs.size());
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const auto [a, b] = pairs[p];
    if (facts(a).text_hash == 0 || facts(b).text_hash == 0) continue;
    // Measured is of (smaller index, larger index): the first page of the pair against the second.
    const double similarity = a <= b ? measured[p].forward : measured[p].backward;
    result[p] = {similarity, a == b || identical(a, b) || similarity >= rules[p].required, a != b && rules[p].moved};
  }
  return result;
}

}  // namespace canon::dedup
