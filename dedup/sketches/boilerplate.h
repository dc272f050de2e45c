/// @file boilerplate.h
/// @brief Site-wide repeated text: the shingles a site's generator writes into the main text of
/// many different pages ("Uses of Class", "This is the complete list of members for", "Run
/// this code"), learnt from a sample of the site and left out when pages are compared
/// (docs/dedup.md, "Site-wide repeated text").
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "dedup/detectors/detector.h"

namespace canon::dedup {

/// Which documents of a site of n documents make its sample: min(n, clamp(n / 10, 300, 1000))
/// of them, evenly spaced over 0..n-1, in ascending order. The same for every run over n.
std::vector<std::uint32_t> site_sample(std::uint32_t n);

/// What a page is called for counting how widely a shingle spreads: the last segment of its
/// URL's path without its extension (after the last '.'), or the segment before it when that is empty or "index";
/// the query stays. Copies of a page (mirrors, releases, printable versions) keep it, so text
/// they share counts once; different pages have different stems.
std::string_view page_stem(std::string_view url);

/// A set of shingle hashes the site repeats across many different pages.
class Boilerplate {
public:
  /// Nothing is boilerplate.
  Boilerplate() = default;

  /// From a sample of the site's pages (site_sample()): the k-word shingles of their `text`
  /// found on pages of at least max(kMinStems, 2 % of the sample's distinct stems) distinct
  /// page_stem()s. Counting stems, not pages, keeps text that many copies of one page share
  /// (thirty releases of one page) from looking site-wide. REQUIRES: k >= 1.
  static Boilerplate learn(std::span<const DedupDocument> sample, unsigned k);

  /// A shingle must be on pages of at least this many stems to be boilerplate.
  static constexpr std::size_t kMinStems = 5;

  /// How many shingles are boilerplate.
  std::size_t size() const { return count_; }
  bool contains(std::uint64_t shingle) const;
  /// Erases the boilerplate shingles from `shingles`, keeping the others in their order.
  void remove_from(std::vector<std::uint64_t>& shingles) const;

private:
  explicit Boilerplate(std::span<const std::uint64_t> shingles);
  std::vector<std::uint64_t> table_;  // open addressing, size a power of two; 0 marks empty
  bool has_zero_ = false;             // the shingle hash 0 (cannot be stored in the table)
  std::size_t count_ = 0;
};

}  // namespace canon::dedup
