/// @file moved_pages.cpp
/// @brief Moved pages: one item at another place of the site (the same path under a substituted
/// or inserted directory), the pairs they make and their texts compared without the place.
///
/// SiteNames::moved() decides; moved_pairs() lists the candidates (parallel trees, a directory
/// inserted); moved_shingle_set() and moved_coverages() compare the texts with the place's words
/// masked (docs/dedup.md, "Moved pages").
#include <algorithm>
#include <cassert>
#include <iterator>
#include <optional>
#include <unordered_map>

#include "dedup/detectors/detector_support.h"
#include "dedup/names/page_names.h"
#include "dedup/names/url_path.h"
#include "dedup/sketches/shingles.h"
#include "dedup/sketches/sorted_sets.h"

namespace canon::dedup {

void moved_shingle_set(const JoinedWords& words, const MovedPlace& place, unsigned k, const Boilerplate& boilerplate,
                       std::vector<std::uint64_t>& out) {
  assert(k >= 1);
  thread_local JoinedWords masked_words;
  thread_local std::vector<std::uint64_t> plain;
  thread_local std::vector<std::size_t> kept_at;  // the index in `words` of each word kept
  masked_words.joined.clear();
  masked_words.starts.clear();
  kept_at.clear();
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string_view word = std::string_view(words.joined).substr(words.starts[i], words.end(i) - words.starts[i]);
    const bool masked = std::binary_search(place.words.begin(), place.words.end(), name_word_hash(word));
    if (masked && place.inserted) continue;
    if (!kept_at.empty()) masked_words.joined.push_back('\x1f');
    masked_words.starts.push_back(masked_words.joined.size());
    // A control character no word holds: one placeholder for every masked word.
    if (masked) {
      masked_words.joined.push_back('\x1e');
    } else {
      masked_words.joined.append(word);
    }
    kept_at.push_back(i);
  }
  // The site's boilerplate is judged on the words as written: a shingle by the one of the
  // text as written that starts at its first word.
  shingle_hashes(words, k, plain);
  shingle_hashes(masked_words, k, out);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!boilerplate.contains(plain[std::min(kept_at[i], plain.size() - 1)])) out[kept++] = out[i];
  }
  out.resize(kept);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

double moved_coverage(std::size_t common, std::size_t own) {
  return own == 0 ? 0.0 : static_cast<double>(common) / static_cast<double>(own);
}

std::uint64_t SiteNames::directory_pair_key(std::uint64_t x, std::uint64_t y) {
  if (x > y) std::swap(x, y);
  return x ^ (y * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull);
}

std::uint64_t SiteNames::prefix_hash(const Url& url, std::size_t i) const {
  std::uint64_t hash = 0;
  for (std::size_t j = 0; j <= i; ++j) hash = mix64(hash ^ segments_[url.segments + j].hash);
  return hash;
}

std::optional<std::size_t> SiteNames::inserted_directory(const Url& deeper, const Url& shallower) const {
  const std::size_t depth = shallower.segments_end - shallower.segments;
  assert(deeper.segments_end - deeper.segments == depth + 1);
  const auto same = [&](std::size_t i, std::size_t j) {
    return segments_[deeper.segments + i].hash == segments_[shallower.segments + j].hash;
  };
  std::size_t inserted = 0;
  while (inserted < depth && same(inserted, inserted)) ++inserted;
  if (inserted == 0 || inserted == depth) return std::nullopt;  // the first segment, or the file name
  for (std::size_t j = inserted; j < depth; ++j) {
    if (!same(j + 1, j)) return std::nullopt;
  }
  return inserted;
}

std::optional<SiteNames::PlaceChange> SiteNames::changed_place(const Url& a, const Url& b) const {
  const std::size_t depth = a.segments_end - a.segments, b_depth = b.segments_end - b.segments;
  if (depth + 1 == b_depth) {
    const auto inserted = inserted_directory(b, a);
    return inserted ? std::optional(PlaceChange{kNoDirectory, *inserted}) : std::nullopt;
  }
  if (b_depth + 1 == depth) {
    const auto inserted = inserted_directory(a, b);
    return inserted ? std::optional(PlaceChange{*inserted, kNoDirectory}) : std::nullopt;
  }
  if (depth != b_depth) return std::nullopt;
  std::size_t differing = depth;
  for (std::size_t i = 0; i < depth; ++i) {
    if (segments_[a.segments + i].hash == segments_[b.segments + i].hash) continue;
    if (differing != depth || i + 1 == depth) return std::nullopt;  // a second one, or the file name
    differing = i;
  }
  if (differing == depth) return std::nullopt;
  return PlaceChange{differing, differing};
}

std::uint64_t SiteNames::path_hash_without(const Url& url, std::size_t skip) const {
  std::uint64_t hash = 0;
  for (std::size_t j = 0; j < url.segments_end - url.segments; ++j) {
    if (j != skip) hash = mix64(hash ^ segments_[url.segments + j].hash);
  }
  return hash;
}

bool SiteNames::moved(std::uint32_t a, std::uint32_t b) const {
  assert(has(a) && has(b));
  const Url &x = url_of(a), &y = url_of(b);
  const std::optional<PlaceChange> change = changed_place(x, y);
  if (!change) return false;
  const auto shared = change->substituted()
                          ? statistics_.parallel_paths.find(directory_pair_key(prefix_hash(x, change->a_directory),
                                                                               prefix_hash(y, change->b_directory)))
                          : statistics_.parallel_paths.end();
  // Trees of their own, far more alike than two classes' member pages (`deque/at.html`,
  // `vector/at.html`), whatever the share of the names that carry their words (`arm`, `aarch64`);
  // or smaller trees, or a directory inserted, when the two pages cite one line of the site's
  // own pages first, their source (a platform module that re-exports another's items:
  // riscv32's and riscv64's pages; a module that re-exports its submodule's: arm's and
  // arm::dsp's). A first link to a section, or to a numbered item elsewhere, says less:
  // cppreference's member pages of two classes cite one defect report.
  const bool trees = shared != statistics_.parallel_paths.end() && shared->second.paths >= kMinPlaceTreePaths;
  if (!trees && !(same_definition(a, b) && (url_of(a).cited & PageName::kCitedLine) != 0)) return false;
  const NameRelation r = relation(a, b);
  if (r == NameRelation::kUnknown) return false;
  if (r == NameRelation::kSame) return trees && shared->second.named_by_place();
  // Each name carries its own place: its directory has a word in the page's own name, and every
  // word one name has and the other lacks is a word of its own directory. A substitution of the
  // place, not an added qualifier; the shorter path of an insertion has no place of its own,
  // and its name no word the other's lacks.
  const auto explained = [&](const Name& mine, const Name& other, const Url& mine_url, std::size_t directory) {
    const std::span<const std::uint32_t> own = words(mine), theirs = words(other);
    const std::span<const std::uint32_t> directory_words = place_words(mine_url, directory);
    std::vector<std::uint32_t> place(directory_words.begin(), directory_words.end());
    std::sort(place.begin(), place.end());
    const auto in_place = [&](std::uint32_t w) { return std::binary_search(place.begin(), place.end(), w); };
    const auto in_own = [&](std::uint32_t w) { return std::binary_search(own.begin(), own.end(), w); };
    if (directory != kNoDirectory && std::none_of(place.begin(), place.end(), in_own)) {
      return false;  // a directory the name does not say
    }
    return std::all_of(own.begin(), own.end(), [&](std::uint32_t w) {
      return std::binary_search(theirs.begin(), theirs.end(), w) || in_place(w);
    });
  };
  return explained(name_of(a), name_of(b), x, change->a_directory) &&
         explained(name_of(b), name_of(a), y, change->b_directory);
}

MovedPlace SiteNames::moved_place(std::uint32_t a, std::uint32_t b) const {
  const std::optional<PlaceChange> change = changed_place(url_of(a), url_of(b));
  assert(change);
  MovedPlace place;
  place.inserted = !change->substituted();
  for (const auto& [d, directory] : {std::pair(a, change->a_directory), std::pair(b, change->b_directory)}) {
    const std::span<const std::uint32_t> words = place_words(url_of(d), directory);
    place.words.insert(place.words.end(), words.begin(), words.end());
  }
  std::sort(place.words.begin(), place.words.end());
  place.words.erase(std::unique(place.words.begin(), place.words.end()), place.words.end());
  return place;
}

std::pair<double, double> masked_coverages(const MovedPlace& place, const JoinedWords& a_words,
                                           const JoinedWords& b_words, unsigned k, const Boilerplate& boilerplate) {
  thread_local std::vector<std::uint64_t> x, y;
  moved_shingle_set(a_words, place, k, boilerplate, x);
  moved_shingle_set(b_words, place, k, boilerplate, y);
  const std::size_t common = intersection_size<std::uint64_t>(x, y);
  return {moved_coverage(common, x.size()), moved_coverage(common, y.size())};
}

std::pair<double, double> SiteNames::moved_coverages(std::uint32_t a, std::uint32_t b, const JoinedWords& a_words,
                                                     const JoinedWords& b_words, unsigned k,
                                                     const Boilerplate& boilerplate) const {
  return masked_coverages(moved_place(a, b), a_words, b_words, k, boilerplate);
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> SiteNames::parallel_moved_pairs(std::size_t neighbours) const {
  std::vector<std::tuple<std::uint64_t, std::size_t, std::uint32_t>> by_place;  // (file name, depth, d)
  for (std::uint32_t k = 0; k < urls_.size(); ++k) {
    const std::size_t depth = urls_[k].segments_end - urls_[k].segments;
    if (depth >= 2 && names_[k].words_end > names_[k].words) {
      by_place.emplace_back(segments_[urls_[k].segments_end - 1].hash, depth, document_[k]);
    }
  }
  std::sort(by_place.begin(), by_place.end());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (std::size_t g = 0, end = 0; g < by_place.size(); g = end) {
    while (end < by_place.size() && std::get<0>(by_place[end]) == std::get<0>(by_place[g]) &&
           std::get<1>(by_place[end]) == std::get<1>(by_place[g])) {
      ++end;
    }
    for (std::size_t i = g; i < end; ++i) {
      std::size_t paired = 0;
      for (std::size_t j = i + 1; j < end && paired < neighbours; ++j) {
        const std::uint32_t a = std::get<2>(by_place[i]), b = std::get<2>(by_place[j]);
        if (!moved(a, b)) continue;
        pairs.emplace_back(a, b);  // a < b: sorted by d within the group
        ++paired;
      }
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> SiteNames::nested_moved_pairs() const {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> by_path;  // (path_hash_without(none), d)
  for (std::uint32_t k = 0; k < urls_.size(); ++k) {
    if (urls_[k].segments_end - urls_[k].segments >= 2 && names_[k].words_end > names_[k].words) {
      by_path.emplace_back(path_hash_without(urls_[k], kNoDirectory), document_[k]);
    }
  }
  std::sort(by_path.begin(), by_path.end());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (std::uint32_t k = 0; k < urls_.size(); ++k) {
    const std::size_t depth = urls_[k].segments_end - urls_[k].segments;
    if (depth < 3 || names_[k].words_end == names_[k].words) continue;
    for (std::size_t directory = 1; directory + 1 < depth; ++directory) {
      const std::uint64_t without = path_hash_without(urls_[k], directory);
      auto it = std::lower_bound(by_path.begin(), by_path.end(), std::pair(without, std::uint32_t{0}));
      for (; it != by_path.end() && it->first == without; ++it) {
        if (moved(document_[k], it->second)) pairs.push_back(std::minmax(document_[k], it->second));
      }
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> SiteNames::moved_pairs(std::size_t neighbours) const {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs = parallel_moved_pairs(neighbours);
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> nested = nested_moved_pairs();
  pairs.insert(pairs.end(), nested.begin(), nested.end());  // of other depths: none in common
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace canon::dedup
