/// @file boilerplate.cpp
/// @brief site_sample, page_stem and the Boilerplate shingle set.
#include "dedup/sketches/boilerplate.h"

#include <algorithm>
#include <bit>

#include <xxhash.h>

#include "dedup/detectors/detector_support.h"
#include "dedup/sketches/shingles.h"
#include "dedup/sketches/tokenizer.h"
#include "dedup/names/url_path.h"

namespace canon::dedup {

std::vector<std::uint32_t> site_sample(std::uint32_t n) {
  const std::uint32_t size = std::min<std::uint32_t>(n, std::clamp<std::uint32_t>(n / 10, 300, 1000));
  std::vector<std::uint32_t> sample;
  sample.reserve(size);
  for (std::uint32_t j = 0; j < size; ++j) {
    sample.push_back(static_cast<std::uint32_t>(std::uint64_t{j} * n / size));
  }
  return sample;
}

std::string_view page_stem(std::string_view url) {
  const std::size_t fragment = url.find('#');
  if (fragment != std::string_view::npos) url = url.substr(0, fragment);
  const std::size_t query_at = url.find('?');
  const std::string_view query = query_at == std::string_view::npos ? std::string_view{} : url.substr(query_at);
  std::string_view path = after_host(url.substr(0, query_at == std::string_view::npos ? url.size() : query_at));
  for (int step = 0; step < 2; ++step) {
    while (!path.empty() && path.back() == '/') path.remove_suffix(1);
    const std::size_t slash = path.rfind('/');
    std::string_view segment = slash == std::string_view::npos ? path : path.substr(slash + 1);
    if (const std::size_t dot = segment.rfind('.'); dot != std::string_view::npos && dot > 0) {
      segment = segment.substr(0, dot);
    }
    if (!segment.empty() && segment != "index") {
      // The query distinguishes pages served by one script (page.php?id=1, ?id=2).
      if (query.empty()) return segment;
      return std::string_view(segment.data(), static_cast<std::size_t>(query.data() + query.size() - segment.data()));
    }
    path = slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash);
  }
  return query;
}

Boilerplate::Boilerplate(std::span<const std::uint64_t> shingles) {
  count_ = shingles.size();
  const std::size_t slots = std::bit_ceil(std::max<std::size_t>(16, 2 * shingles.size()));
  table_.assign(slots, 0);
  for (const std::uint64_t s : shingles) {
    if (s == 0) {
      has_zero_ = true;
      continue;
    }
    std::size_t slot = mix64(s) & (slots - 1);
    while (table_[slot] != 0 && table_[slot] != s) slot = (slot + 1) & (slots - 1);
    table_[slot] = s;
  }
}

bool Boilerplate::contains(std::uint64_t shingle) const {
  if (table_.empty()) return false;
  if (shingle == 0) return has_zero_;
  const std::size_t mask = table_.size() - 1;
  for (std::size_t slot = mix64(shingle) & mask;; slot = (slot + 1) & mask) {
    if (table_[slot] == shingle) return true;
    if (table_[slot] == 0) return false;
  }
}

void Boilerplate::remove_from(std::vector<std::uint64_t>& shingles) const {
  if (count_ == 0) return;
  std::erase_if(shingles, [&](std::uint64_t s) { return contains(s); });
}

Boilerplate Boilerplate::learn(std::span<const DedupDocument> sample, unsigned k) {
  // (shingle, stem) for every distinct shingle of every sampled page; sorted and made unique,
  // a shingle's run length is the number of distinct stems it was found under.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> seen;
  std::vector<std::uint64_t> stems;
  JoinedWords words;
  ShingleSet shingles;
  for (const DedupDocument& doc : sample) {
    const std::string_view stem = page_stem(doc.url);
    const std::uint64_t stem_hash = XXH3_64bits(stem.data(), stem.size());
    stems.push_back(stem_hash);
    tokenize_joined(doc.text, words);
    shingle_set(words, k, shingles);
    for (const std::uint64_t s : shingles) seen.emplace_back(s, stem_hash);
  }
  std::sort(stems.begin(), stems.end());
  const auto distinct_stems = static_cast<std::size_t>(std::unique(stems.begin(), stems.end()) - stems.begin());
  const std::size_t cutoff = std::max(kMinStems, (distinct_stems * 2 + 99) / 100);
  std::sort(seen.begin(), seen.end());
  seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
  std::vector<std::uint64_t> common;
  for (std::size_t begin = 0, end = 0; begin < seen.size(); begin = end) {
    while (end < seen.size() && seen[end].first == seen[begin].first) ++end;
    if (end - begin >= cutoff) common.push_back(seen[begin].first);
  }
  return Boilerplate(common);
}

}  // namespace canon::dedup
