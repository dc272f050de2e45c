/// @file minhash_clusters.cpp
/// @brief MinhashDetector::find_clusters and compare, for one process or several: each
/// process holds a part of the documents; every candidate stays with the process holding its
/// handling page (LSH, the name rule, the sketch estimate), the pairs to measure go to the owner
/// of their component, and only the measures are shared (docs/partitioned-build.md,
/// "Near-duplicates").
#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>

#include "common/byte_codec.h"
#include "common/collective.h"
#include "common/parallel.h"
#include "dedup/detectors/detector_support.h"
#include "dedup/detectors/minhash_detector.h"
#include "dedup/sketches/components.h"
#include "dedup/sketches/document_holders.h"
#include "dedup/sketches/union_find.h"

namespace canon::dedup {
namespace {

/// The other page of pair (a, b) than its handling page.
std::uint32_t other_page(std::uint32_t a, std::uint32_t b) { return handling_page(a, b) == a ? b : a; }

/// What a component's owner found for one pair, shared with every process.
struct SharedMeasure {
  std::uint32_t a;
  std::uint32_t b;
  double forward;
  double backward;
  std::uint64_t verified;  ///< 1: at least its rule's required similarity
};
static_assert(sizeof(SharedMeasure) == 32);

/// A page's word-sequence hash, sent to the hash's owner (owned_identical_pairs).
struct HashedPage {
  std::uint64_t text_hash;
  std::uint64_t page;  ///< a document number (64 bits: no padding in the bytes sent)
};
static_assert(sizeof(HashedPage) == 16);

/// Appends `record`'s bytes to `out`.
template <typename Record>
void put_record(std::string& out, const Record& record) {
  out.append(reinterpret_cast<const char*>(&record), sizeof record);
}

/// The records of `bytes` (put_record's), appended to `out`.
template <typename Record>
void read_records(std::string_view bytes, std::vector<Record>& out) {
  const std::size_t held = out.size(), more = bytes.size() / sizeof(Record);
  if (more == 0) return;  // (memcpy wants a non-null pointer even for no bytes)
  out.resize(held + more);
  std::memcpy(out.data() + held, bytes.data(), more * sizeof(Record));
}

}  // namespace

void MinhashDetector::take_facts(std::span<const std::uint32_t> pages) {
  assert(holders_.has_value());
  const Collective& processes = collective();
  std::vector<std::uint32_t> wanted;
  for (const std::uint32_t d : pages) {
    if (holds(d)) continue;
    const auto it = std::lower_bound(taken_facts_.begin(), taken_facts_.end(), d,
                                     [](const auto& entry, std::uint32_t page) { return entry.first < page; });
    if (it == taken_facts_.end() || it->first != d) wanted.push_back(d);
  }
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  std::vector<std::string> asks(processes.size());
  for (const std::uint32_t d : wanted) codec::put_fixed(asks[holders_->of(d)], d, 4);
  const std::vector<std::string> asked = processes.all_to_all_bytes(asks);
  std::vector<std::string> answers(processes.size());
  for (std::size_t p = 0; p < asked.size(); ++p) {
    for (codec::Reader in(asked[p]); in.ok() && !in.at_end();) {
      const auto d = static_cast<std::uint32_t>(in.fixed(4));
      const PageFacts f = facts(d);
      codec::put_fixed(answers[p], d, 4);
      codec::put_varint(answers[p], f.size);
      codec::put_fixed(answers[p], f.text_hash, 8);
      answers[p].push_back(f.repeated_only ? 1 : 0);
    }
  }
  for (const std::string& answer : processes.all_to_all_bytes(answers)) {
    for (codec::Reader in(answer); in.ok() && !in.at_end();) {
      auto& [d, f] = taken_facts_.emplace_back();
      d = static_cast<std::uint32_t>(in.fixed(4));
      f.size = static_cast<std::uint32_t>(in.varint());
      f.text_hash = in.fixed(8);
      f.repeated_only = in.fixed(1) != 0;
    }
  }
  std::sort(taken_facts_.begin(), taken_facts_.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
}

std::vector<SimilarPair> MinhashDetector::owned_identical_pairs(std::span<bool> skip) const {
  const Collective& processes = collective();
  const unsigned count = processes.size();
  std::vector<std::string> to_owners(count);
  for (std::uint32_t d = held_first_; d < held_end_; ++d) {
    const PageFacts f = facts(d);
    skip[d - held_first_] = f.size == 0;
    if (f.text_hash != 0) put_record(to_owners[f.text_hash % count], HashedPage{f.text_hash, d});
  }
  std::vector<HashedPage> by_text;
  for (const std::string& message : processes.all_to_all_bytes(to_owners)) read_records(message, by_text);
  to_owners.assign(count, {});
  std::sort(by_text.begin(), by_text.end(),
            [](const HashedPage& x, const HashedPage& y) { return std::tie(x.text_hash, x.page) < std::tie(y.text_hash, y.page); });
  // Each group's later pages are paired with its first and left out of LSH, told to their holders.
  std::vector<SimilarPair> pairs;
  std::vector<std::string> later(count);
  for (std::size_t g = 0, end = 0; g < by_text.size(); g = end) {
    while (end < by_text.size() && by_text[end].text_hash == by_text[g].text_hash) ++end;
    for (std::size_t m = g + 1; m < end; ++m) {
      const auto first = static_cast<std::uint32_t>(by_text[g].page), page = static_cast<std::uint32_t>(by_text[m].page);
      pairs.push_back({first, page, 1.0});
      codec::put_fixed(later[holders_->of(page)], page, 4);
    }
  }
  for (const std::string& message : processes.all_to_all_bytes(later)) {
    for (codec::Reader in(message); in.ok() && !in.at_end();) skip[in.fixed(4) - held_first_] = true;
  }
  return pairs;
}

std::vector<MinhashDetector::PairRule> MinhashDetector::pair_rules_here(std::span<const Pair> pairs) {
  std::vector<std::uint32_t> pages;  // take_names() leaves out those held here
  pages.reserve(2 * pairs.size());
  for (const auto& [a, b] : pairs) pages.insert(pages.end(), {a, b});
  names_.take_names(pages, page_names_, collective());
  pages = {};
  std::vector<PairRule> rules = pair_rules(pairs);
  names_.forget_taken();
  return rules;
}

std::vector<bool> MinhashDetector::owned_worth_measuring(std::span<const Pair> owned, std::span<const PairRule> rules) {
  // The other pages' facts, then the sketches of those whose pairs the sketches bound.
  {
    std::vector<std::uint32_t> others;
    others.reserve(owned.size());
    for (const auto& [a, b] : owned) others.push_back(other_page(a, b));
    take_facts(others);
  }
  const auto unbounded_at = [&](std::size_t c) {
    return rules[c].moved || takes_whole(owned[c].first, owned[c].second);
  };
  const DocumentHolders& holders = *holders_;
  const Collective& processes = collective();
  std::vector<std::string> asks(processes.size());
  {
    std::vector<std::uint32_t> wanted;
    for (std::size_t c = 0; c < owned.size(); ++c) {
      if (!unbounded_at(c)) wanted.push_back(other_page(owned[c].first, owned[c].second));
    }
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    for (const std::uint32_t d : wanted) codec::put_fixed(asks[holders.of(d)], d, 4);
  }
  const std::vector<std::string> asked = processes.all_to_all_bytes(asks);
  std::vector<std::string> answers(processes.size());
  for (std::size_t p = 0; p < asked.size(); ++p) {
    for (codec::Reader in(asked[p]); in.ok() && !in.at_end();) {
      const auto d = static_cast<std::uint32_t>(in.fixed(4));
      codec::put_fixed(answers[p], d, 4);
      for (const std::uint32_t value : sketch_of(d)) codec::put_fixed(answers[p], value, 4);
    }
  }
  const ReceivedSketches received(processes.all_to_all_bytes(answers), width_);
  const auto sketch = [&](std::uint32_t d) { return holds(d) ? sketch_of(d) : received.of(d); };
  std::vector<char> worth(owned.size(), 1);
  parallel_for(owned.size(), options_.threads, [&](std::size_t c, std::size_t) {
    const auto [a, b] = owned[c];
    if (!unbounded_at(c)) worth[c] = worth_measuring(a, b, rules[c].required, sketch(a), sketch(b)) ? 1 : 0;
  });
  return {worth.begin(), worth.end()};
}

std::string MinhashDetector::measure_owned_components(std::span<const Pair> needed, std::span<const PairRule> rules,
                                                      const DocumentLoader& load) {
  // The component of each pair (labels kept by the pages' holders); each pair, with its rule, to
  // the holder of its component's smallest page, which measures the components it gets whole.
  // Alone, every component is this process's.
  const Collective& processes = collective();
  std::vector<Pair> pairs;
  std::vector<PairRule> routed_rules;
  if (processes.size() == 1) {
    pairs.assign(needed.begin(), needed.end());
    routed_rules.assign(rules.begin(), rules.end());
  } else {
    const DocumentHolders& holders = *holders_;
    const auto holder_of = [&](std::uint32_t d) { return holders.of(d); };
    const std::vector<std::uint32_t> labels = pair_component_labels(needed, holder_of, processes);
    std::vector<std::string> to_each(processes.size());
    for (std::size_t p = 0; p < needed.size(); ++p) {
      std::string& out = to_each[holders.of(labels[p])];
      codec::put_fixed(out, needed[p].first, 4);
      codec::put_fixed(out, needed[p].second, 4);
      put_rule(out, rules[p]);
    }
    for (const std::string& message : processes.all_to_all_bytes(to_each)) {
      for (codec::Reader in(message); in.ok() && !in.at_end();) {
        const auto a = static_cast<std::uint32_t>(in.fixed(4));
        pairs.emplace_back(a, static_cast<std::uint32_t>(in.fixed(4)));
        read_rule(in, routed_rules.emplace_back());
      }
    }
  }
  std::vector<Measured> measured(pairs.size());
  measure_here(pairs, std::vector<bool>(pairs.size(), true), routed_rules, load, measured);
  std::string shared;
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    put_record(shared, SharedMeasure{pairs[p].first, pairs[p].second, measured[p].forward, measured[p].backward,
                                     measured[p].larger() >= routed_rules[p].required ? 1u : 0u});
  }
  return shared;
}

void MinhashDetector::measure_here(std::span<const Pair> pairs, const std::vector<bool>& needed,
                                   std::span<const PairRule> rules, const DocumentLoader& load,
                                   std::vector<Measured>& out) {
  std::vector<std::uint32_t> members;
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    if (needed[p]) members.insert(members.end(), {pairs[p].first, pairs[p].second});
  }
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  load.locate(members);
  take_facts(members);
  // The connected components of the needed pairs, over their pages' places in `members`.
  const auto member = [&](std::uint32_t d) {
    return static_cast<std::uint32_t>(std::lower_bound(members.begin(), members.end(), d) - members.begin());
  };
  UnionFind sets(static_cast<std::uint32_t>(members.size()));
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    if (needed[p]) sets.unite(member(pairs[p].first), member(pairs[p].second));
  }
  std::vector<std::pair<std::uint32_t, std::size_t>> by_root;  // (component root, pair index)
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    if (needed[p]) by_root.emplace_back(sets.find(member(pairs[p].first)), p);
  }
  std::sort(by_root.begin(), by_root.end());
  std::vector<std::vector<std::size_t>> components;
  for (std::size_t i = 0; i < by_root.size(); ++i) {
    if (i == 0 || by_root[i].first != by_root[i - 1].first) components.emplace_back();
    components.back().push_back(by_root[i].second);
  }
  // Largest first, so that one big component does not start last.
  std::stable_sort(components.begin(), components.end(), [](const auto& x, const auto& y) { return x.size() > y.size(); });
  parallel_for(components.size(), options_.threads, [&](std::size_t c, std::size_t) {
    measure_component(pairs, components[c], rules, load, out);
  });
}

std::vector<Comparison> MinhashDetector::compare(std::span<const Pair> pairs, const DocumentLoader& load) {
  {
    std::vector<std::uint32_t> pages;
    pages.reserve(2 * pairs.size());
    for (const auto& [a, b] : pairs) pages.insert(pages.end(), {a, b});
    take_facts(pages);
  }
  std::vector<Pair> ordered;
  std::vector<Measured> measured;
  std::vector<bool> needed;
  known_measures(pairs, ordered, measured, needed);
  const std::vector<PairRule> rules = pair_rules_here(ordered);
  measure_here(ordered, needed, rules, load, measured);
  std::vector<Comparison> result = comparisons(pairs, rules, measured);
  forget_facts();
  return result;
}

Clusters MinhashDetector::find_clusters(const DocumentLoader& load) {
  const std::uint32_t n = documents_;
  // The site's names: this process's own, with the site's statistics (the names of its
  // documents stay encoded, for the pairs that need them elsewhere).
  names_ = SiteNames::of_part(page_names_, held_first_, collective());
  if (collective().size() == 1) page_names_ = {};  // alone, no process will ask for a name
  holders_.emplace(held_first_, held_end_, collective());
  // Pages with the same word sequence, by their hashes' owners; LSH over the rest (skip: one
  // byte a page this process holds).
  const std::uint32_t held = held_end_ - held_first_;
  const auto skip = std::make_unique<bool[]>(held);
  const std::vector<SimilarPair> identical = owned_identical_pairs(std::span(skip.get(), held));
  const std::vector<Pair> owned = owned_candidate_pairs(std::span<const bool>(skip.get(), held));
  const std::vector<PairRule> rules = pair_rules_here(owned);
  const std::vector<bool> worth = owned_worth_measuring(owned, rules);
  std::vector<Pair> needed;
  std::vector<PairRule> needed_rules;
  for (std::size_t c = 0; c < owned.size(); ++c) {
    if (!worth[c]) continue;
    needed.push_back(owned[c]);
    needed_rules.push_back(rules[c]);
  }
  std::string mine;
  codec::put_fixed(mine, owned.size(), 8);
  codec::put_fixed(mine, identical.size(), 8);
  for (const SimilarPair& p : identical) put_record(mine, SharedMeasure{p.a, p.b, 1.0, 1.0, 1});
  mine += measure_owned_components(needed, needed_rules, load);
  forget_facts();
  // Every process's identical pairs and measures: the verified pairs and what compare() looks up.
  std::size_t examined = 0;
  std::vector<SimilarPair> pairs;
  std::vector<SharedMeasure> all;
  for (const std::string& theirs : collective().all_gather_bytes(mine)) {
    codec::Reader in(theirs);
    examined += in.fixed(8);
    // The sender's identical pairs first, then its measures.
    const std::size_t first = all.size(), identical_end = first + in.fixed(8);
    read_records(in.rest(), all);
    for (std::size_t r = first; r < identical_end && r < all.size(); ++r) pairs.push_back({all[r].a, all[r].b, 1.0});
    all.erase(all.begin() + static_cast<std::ptrdiff_t>(first),
              all.begin() + static_cast<std::ptrdiff_t>(std::min(identical_end, all.size())));
  }
  std::sort(all.begin(), all.end(), [](const SharedMeasure& x, const SharedMeasure& y) {
    return std::tie(x.a, x.b) < std::tie(y.a, y.b);
  });
  measured_.clear();
  for (const SharedMeasure& m : all) {
    const Measured measured{m.forward, m.backward};
    if (m.verified != 0) pairs.push_back({m.a, m.b, measured.larger()});
    measured_.emplace_back(pair_key(m.a, m.b), measured);
  }
  for (SimilarPair& p : pairs) {
    if (p.a > p.b) std::swap(p.a, p.b);
  }
  return clusters_from_pairs(n, std::move(pairs), examined);
}

}  // namespace canon::dedup
