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
  held_first_ = std::min(hold_first_, n);
  held_end_ = std::max(held_first_, std::min(hold_end_, n));
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
  assert(holds(i));  // hold_documents(): a process adds its own documents only
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
  assert(begin <= end && end <= documents_ && page_names_.size() == held_end_ - held_first_);
  // State held by parts stays with its part: the receiver keeps none of it.
  std::string out;
  codec::put_string(out, kEncodedTag);
  codec::put_varint(out, by_parts_ ? 0 : width_);
  codec::put_varint(out, begin);
  codec::put_varint(out, end);
  if (by_parts_) return out;
  for (std::uint32_t d = begin; d < end; ++d) {
    const PageFacts f = facts(d);
    codec::put_varint(out, f.size);
    codec::put_fixed(out, f.text_hash, 8);
    out.push_back(f.repeated_only ? 1 : 0);
    if (f.size > 0) {
      for (const std::uint32_t value : sketch_of(d)) codec::put_fixed(out, value, 4);
    }
    page_names_.append_encoded(d, out);
  }
  return out;
}

Status MinhashDetector::add_encoded(std::string_view bytes) {
  codec::Reader in(bytes);
  const bool tagged = in.string() == kEncodedTag;
  const std::uint64_t width = in.varint();
  const std::uint64_t begin = in.varint(), end = in.varint();
  // The documents come with their state unless it is held by parts; then the documents named
  // are another process's, which keeps their state: there is nothing to take.
  const bool ours = tagged && (by_parts_ ? width == 0 : width == width_);
  if (!ours || !in.ok() || begin > end || end > documents_ || page_names_.size() != held_end_ - held_first_ ||
      (width == 0 && begin < end && begin < held_end_ && held_first_ < end)) {
    return Status::corruption("encoded documents not of this minhash detector (another kind, sketch size or run)");
  }
  if (width == 0) {
    if (!in.at_end()) return Status::corruption("encoded minhash documents damaged");
    return Status::ok_status();
  }
  assert(holds_all());  // not by parts
  // Read whole before anything is taken: bytes that do not check out change nothing.
  const std::size_t count = end - begin;
  std::vector<std::uint32_t> sizes(count), sketches(count * width_, 0);
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
    if (sizes[k] > 0) {
      for (std::size_t h = 0; h < width_; ++h) sketches[k * width_ + h] = static_cast<std::uint32_t>(in.fixed(4));
    }
    const std::string_view rest = in.rest();
    decode_page_name(in, checked);
    names[k] = rest.substr(0, rest.size() - in.rest().size());
  }
  if (!in.ok() || !in.at_end()) return Status::corruption("encoded minhash documents cut short or damaged");
  std::copy(sizes.begin(), sizes.end(), sizes_.begin() + static_cast<std::ptrdiff_t>(begin));
  std::copy(text_hashes.begin(), text_hashes.end(), text_hashes_.begin() + static_cast<std::ptrdiff_t>(begin));
  std::copy(repeated_only.begin(), repeated_only.end(), repeated_only_.begin() + static_cast<std::ptrdiff_t>(begin));
  std::copy(sketches.begin(), sketches.end(), sketches_.begin() + static_cast<std::ptrdiff_t>(begin * width_));
  for (std::size_t k = 0; k < count; ++k) page_names_.set_encoded(begin + k, names[k]);
  return Status::ok_status();
}

std::vector<SimilarPair> MinhashDetector::identical_pairs(std::span<bool> skip) const {
  assert(holds_all());
  const std::uint32_t n = documents_;
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
  assert(!names_by_parts());
  std::vector<Pair> candidates = processes_ == nullptr
                                     ? lsh_candidates(sketches_, width_, banding, skip, options_.threads)
                                     : lsh_candidates(sketches_, width_, banding, skip, options_.threads, *processes_);
  if (options_.title_rule) {
    add_forced_pairs(candidates, names_.same_name_pairs(kLshRunNeighbours), names_.moved_pairs(kLshRunNeighbours));
  }
  return candidates;
}

std::vector<MinhashDetector::Pair> MinhashDetector::owned_candidate_pairs(std::span<const bool> skip) {
  const LshBanding banding = choose_banding(options_.num_hashes, options_.threshold);
  std::vector<Pair> candidates = owned_lsh_candidates(sketches_, held_first_, documents_, width_, banding, skip,
                                                      options_.threads, *processes_);
  if (options_.title_rule) {
    const auto [same_name, moved_pages] = names_.name_pairs(kLshRunNeighbours, page_names_, *processes_);
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

Clusters MinhashDetector::find_clusters(const DocumentLoader& load) {
  const std::uint32_t n = documents_;
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
  if (names_by_parts()) return find_clusters_by_parts(load);
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

std::vector<Comparison> MinhashDetector::compare(std::span<const Pair> pairs, const DocumentLoader& load) {
  // Names held by parts: every process judges all the pairs as its own.
  if (names_by_parts()) return compare_own(pairs, load);
  std::vector<Pair> ordered;
  std::vector<Measured> measured;
  std::vector<bool> needed;
  known_measures(pairs, ordered, measured, needed);
  const std::vector<PairRule> rules = pair_rules(ordered);
  measure_exactly(ordered, needed, rules, load, measured);
  return comparisons(pairs, rules, measured);
}

}  // namespace canon::dedup
