/// @file places.cpp
/// @brief Pairs of places, the votes of their copies' click depths, and the preference rule.
#include "dedup/authority/places.h"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <utility>

#include "common/byte_codec.h"
#include "dedup/names/url_path.h"

namespace canon::dedup {

namespace {

/// `url`'s path without its leading '/', query and fragment.
std::string_view relative_path(std::string_view url) {
  std::string_view path = path_of(url);
  if (!path.empty() && path.front() == '/') path.remove_prefix(1);
  return path;
}

/// Whether a folder of `place` ("a/b/c") names a release.
bool names_release(std::string_view place) {
  while (!place.empty()) {
    const std::size_t slash = place.find('/');
    if (release_in_segment(place.substr(0, slash)).kind != 0) return true;
    place = slash == std::string_view::npos ? std::string_view{} : place.substr(slash + 1);
  }
  return false;
}

/// Whether `inner` is `outer` or a folder below it.
bool within(std::string_view inner, std::string_view outer) {
  return inner.starts_with(outer) && (inner.size() == outer.size() || inner[outer.size()] == '/');
}

/// The place of `url` in `pair`: 0 for first, 1 for second. REQUIRES: pair == places_of(url, x).
int side_of(std::string_view url, const PlacePair& pair) {
  return within(relative_path(url), pair.first) ? 0 : 1;
}

}  // namespace

std::optional<PlacePair> places_of(std::string_view url_a, std::string_view url_b) {
  std::string_view a = relative_path(url_a), b = relative_path(url_b);
  // Drop the trailing segments both share, while each keeps a folder before them.
  bool shared_any = false;
  for (;;) {
    const std::size_t slash_a = a.rfind('/'), slash_b = b.rfind('/');
    if (slash_a == std::string_view::npos || slash_b == std::string_view::npos) break;
    if (a.substr(slash_a + 1) != b.substr(slash_b + 1)) break;
    shared_any = true;
    a = a.substr(0, slash_a);
    b = b.substr(0, slash_b);
  }
  // `a` and `b` are the places when the segment before them differs; when it is the same, the
  // one of them left without a '/' is its whole path, the other's below a prefix (or the same).
  const std::string_view last_a = a.substr(a.rfind('/') + 1), last_b = b.substr(b.rfind('/') + 1);
  if (!shared_any || last_a == last_b || within(a, b) || within(b, a)) return std::nullopt;
  if (names_release(a) || names_release(b)) return std::nullopt;
  return PlacePair{std::string(std::min(a, b)), std::string(std::max(a, b))};
}

void tally_places(std::span<const std::uint32_t> cluster_of, const AuthorityCandidateTable& candidates,
                  std::span<const char> member, PlaceTally& tally) {
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> clusters;
  for (std::uint32_t d = 0; d < cluster_of.size(); ++d) {
    if (member.empty() || member[d] != 0) clusters[cluster_of[d]].push_back(d);
  }
  constexpr std::uint32_t kFar = std::numeric_limits<std::uint32_t>::max();
  std::map<PlacePair, std::pair<std::uint32_t, std::uint32_t>> closest;  // per pair: at first, at second
  for (auto& [name, members] : clusters) {
    if (members.size() < 2) continue;
    std::sort(members.begin(), members.end());
    if (members.size() > kMaxPlaceMembers) members.resize(kMaxPlaceMembers);
    closest.clear();
    for (std::size_t i = 0; i < members.size(); ++i) {
      for (std::size_t j = i + 1; j < members.size(); ++j) {
        const AuthorityCandidate &x = candidates[members[i]], &y = candidates[members[j]];
        std::optional<PlacePair> pair = places_of(x.url, y.url);
        if (!pair) continue;
        const bool x_first = side_of(x.url, *pair) == 0;
        auto [at, added] = closest.try_emplace(std::move(*pair), kFar, kFar);
        std::uint32_t& first = at->second.first;
        std::uint32_t& second = at->second.second;
        first = std::min(first, x_first ? x.click_depth : y.click_depth);
        second = std::min(second, x_first ? y.click_depth : x.click_depth);
      }
    }
    for (const auto& [pair, depths] : closest) {
      PlaceVotes& votes = tally[pair];
      ++votes.shared;
      if (depths.first < depths.second) ++votes.first_closer;
      if (depths.second < depths.first) ++votes.second_closer;
    }
  }
}

std::string encode_place_tally(const PlaceTally& tally) {
  std::string out;
  for (const auto& [pair, votes] : tally) {
    codec::put_string(out, pair.first);
    codec::put_string(out, pair.second);
    codec::put_varint(out, votes.shared);
    codec::put_varint(out, votes.first_closer);
    codec::put_varint(out, votes.second_closer);
  }
  return out;
}

bool add_encoded_place_tally(std::string_view bytes, PlaceTally& tally) {
  codec::Reader in(bytes);
  while (in.ok() && !in.at_end()) {
    PlacePair pair;
    pair.first = in.string();
    pair.second = in.string();
    const std::uint64_t shared = in.varint(), first_closer = in.varint(), second_closer = in.varint();
    if (!in.ok() || pair.first >= pair.second || first_closer + second_closer > shared) return false;
    PlaceVotes& votes = tally[std::move(pair)];
    votes.shared += shared;
    votes.first_closer += first_closer;
    votes.second_closer += second_closer;
  }
  return in.ok();
}

PlacePreferences::PlacePreferences(const PlaceTally& tally) {
  for (const auto& [pair, votes] : tally) {
    const std::uint64_t decided = votes.first_closer + votes.second_closer;
    const std::uint64_t most = std::max(votes.first_closer, votes.second_closer);
    if (votes.shared < kMinSharedDocuments || 2 * decided < votes.shared || most < kMinSharedDocuments ||
        static_cast<double>(most) < kPreferredShare * static_cast<double>(decided)) {
      continue;
    }
    const bool first = votes.first_closer > votes.second_closer;
    first_preferred_.emplace(pair, first);
    learnt_.push_back({first ? pair.first : pair.second, first ? pair.second : pair.first, votes});
  }
}

bool PlacePreferences::prefers(std::string_view url, std::string_view other) const {
  if (first_preferred_.empty()) return false;
  const std::optional<PlacePair> pair = places_of(url, other);
  if (!pair) return false;
  const auto at = first_preferred_.find(*pair);
  if (at == first_preferred_.end()) return false;
  return (side_of(url, *pair) == 0) == at->second;
}

bool keep_preferred_places(std::vector<std::uint32_t>& pool, const AuthorityCandidateTable& candidates,
                           const PlacePreferences& preferences) {
  if (preferences.empty() || pool.size() < 2 || pool.size() > kMaxPlaceMembers) return false;
  std::vector<std::uint32_t> kept;
  for (const std::uint32_t m : pool) {
    const bool beaten = std::any_of(pool.begin(), pool.end(), [&](std::uint32_t n) {
      return n != m && preferences.prefers(candidates[n].url, candidates[m].url);
    });
    if (!beaten) kept.push_back(m);
  }
  if (kept.empty() || kept.size() == pool.size()) return false;
  pool = std::move(kept);
  return true;
}

}  // namespace canon::dedup
