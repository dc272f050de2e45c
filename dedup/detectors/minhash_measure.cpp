/// @file minhash_measure.cpp
/// @brief MinhashDetector's verification: whether a candidate is worth measuring (its sketches'
/// estimate), and the exact measures of a connected component of candidates.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <tuple>

#include "common/byte_codec.h"
#include "common/collective.h"
#include "dedup/detectors/detector_support.h"
#include "dedup/detectors/minhash_detector.h"
#include "dedup/sketches/document_holders.h"
#include "dedup/sketches/sorted_sets.h"
#include "dedup/sketches/union_find.h"

namespace canon::dedup {
namespace {

/// How many worst-case standard deviations (0.5/sqrt(n), what n independent positions give at
/// J = 0.5) a candidate's estimate may fall short of the threshold before it is dropped without
/// loading. One-permutation sketches are within a few percent of that variance (measured in
/// test_minhash), so a qualifying pair is dropped with P < 1e-4.
constexpr double kEstimateSlackSigmas = 4.0;

}  // namespace

bool MinhashDetector::worth_measuring(std::uint32_t a, std::uint32_t b, double required,
                                      std::span<const std::uint32_t> sketch_a,
                                      std::span<const std::uint32_t> sketch_b) const {
  const double slack = kEstimateSlackSigmas * 0.5 / std::sqrt(static_cast<double>(width_));
  const double high = std::min(1.0, estimate_jaccard(sketch_a, sketch_b) + slack);
  // The overlap that Jaccard `high` would mean, at most the smaller set.
  const std::uint32_t size_a = facts(a).size, size_b = facts(b).size;
  const double sum = static_cast<double>(size_a) + static_cast<double>(size_b);
  const double common = std::min<double>(high * sum / (1.0 + high), std::min(size_a, size_b));
  const auto common_high = static_cast<std::size_t>(std::ceil(common));
  return measure(common_high, size_a, size_b) >= required;
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
/// shingles (a member counts its own shingle count size_of(d), at least 1; a member larger
/// than the budget is a block of its own).
std::vector<std::size_t> member_blocks(std::span<const std::uint32_t> members,
                                       const std::function<std::uint32_t(std::uint32_t)>& size_of, std::size_t budget) {
  std::vector<std::size_t> block_of(members.size());
  std::size_t blocks = 0;
  for (std::size_t m = 0, held = 0; m < members.size(); ++m) {
    const std::size_t size = std::max<std::size_t>(size_of(members[m]), 1);
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

void MinhashDetector::measure_component(std::span<const Pair> pairs, std::span<const std::size_t> component,
                                        std::span<const PairRule> rules,
                                        const DocumentLoader& load, std::vector<Measured>& out) const {
  const std::vector<std::uint32_t> members = component_members(pairs, component);
  // Blocks of members, each with at most half the budget of shingles: a component larger than
  // the budget (thousands of releases of one page) is measured block against block, so what a
  // worker holds does not grow with the component; its documents are then loaded once per
  // block they are measured against, instead of once.
  const std::vector<std::size_t> block_of = member_blocks(
      members, [&](std::uint32_t d) { return facts(d).size; }, options_.measure_budget_shingles / 2);
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
    std::vector<char>& in = rules[p].moved ? in_moved : takes_whole(a, b) ? in_whole : in_plain;
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
    const bool whole = takes_whole(a, b);
    const ShingleSet &x = (whole ? all_shingles : shingles)[member_index(a)],
                     &y = (whole ? all_shingles : shingles)[member_index(b)];
    const double jaccard = x.empty() || y.empty() ? 0.0 : measure(intersection_size<std::uint64_t>(x, y), x.size(), y.size());
    out[p] = {jaccard, jaccard};
  }
}

}  // namespace canon::dedup
