/// @file places.h
/// @brief One choice per pair of places: when a site holds copies of many documents in two
/// folders (rust-doc's std/ and core/, a platform's folder and its sibling's), which folder's
/// copy a reader is led to, learnt from the site as a whole and applied to every cluster alike
/// (choose_authorities), instead of page by page on tiny PageRank differences.
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dedup/authority/authority.h"

namespace canon::dedup {

/// Two folders holding copies of one document at the same path below them: `std` and `core`
/// for std/str/fn.from_utf8.html and core/str/fn.from_utf8.html. `first` < `second`.
struct PlacePair {
  std::string first, second;
  auto operator<=>(const PlacePair&) const = default;
};

/// The places of two copies: the folders of their paths before the trailing segments they share
/// (at least the file name; a folder's own page, `std/` and `core/`, shares its empty one).
/// nullopt when they share no trailing segment, when a place is empty (one path is the other's
/// below a prefix: a mirror, which the original rule decides), when the places are the same or
/// one holds the other, or when either names a release (release_in_segment: the release rule
/// decides). The query and fragment are left out. Pure.
std::optional<PlacePair> places_of(std::string_view url_a, std::string_view url_b);

/// What the clusters holding a copy at each place of a pair say about them.
struct PlaceVotes {
  /// Clusters with a copy at each place.
  std::uint64_t shared = 0;
  /// Of them, those whose copy at `first` (at `second`) is fewer clicks from the site's entry
  /// pages (AuthorityCandidate::click_depth) than the copy at the other place.
  std::uint64_t first_closer = 0, second_closer = 0;
};

/// The votes of a site's clusters, by pair of places.
using PlaceTally = std::map<PlacePair, PlaceVotes>;

/// Clusters with more members than this are tallied and narrowed by place on their first
/// members only (by index): a document copied into many places is a template, not a pair of
/// parallel trees, and its pairs of members grow with the square of their number.
inline constexpr std::size_t kMaxPlaceMembers = 64;

/// Adds the votes of the clusters of `cluster_of` (document i's cluster, named by a member) to
/// `tally`; only documents with `member[i]` set (all when `member` is empty) count. Each cluster
/// votes once per pair of places: for the place whose closest copy is fewer clicks away.
/// REQUIRES: cluster_of.size() == candidates.size(); `member` empty or of that size.
void tally_places(std::span<const std::uint32_t> cluster_of, const AuthorityCandidateTable& candidates,
                  std::span<const char> member, PlaceTally& tally);

/// `tally` as bytes, for the processes of a partitioned build to add up.
std::string encode_place_tally(const PlaceTally& tally);
/// Adds the tally `bytes` encode to `tally`; false when they do not decode.
bool add_encoded_place_tally(std::string_view bytes, PlaceTally& tally);

/// A pair of places whose copies the site leads readers to at one of them.
struct PlacePreference {
  std::string preferred, other;
  PlaceVotes votes;
};

/// A pair counts when it shares at least kMinSharedDocuments clusters, at least half of them
/// have a closer copy, and at least kPreferredShare of those and kMinSharedDocuments are at the
/// same place: a few stray links decide nothing.
inline constexpr std::uint64_t kMinSharedDocuments = 4;
inline constexpr double kPreferredShare = 0.75;

/// The preferences a site's tally shows, and the rule that applies them to two copies.
class PlacePreferences {
public:
  /// None: no copy is preferred by its place.
  PlacePreferences() = default;
  /// The pairs of `tally` that count (kMinSharedDocuments, kPreferredShare).
  explicit PlacePreferences(const PlaceTally& tally);
  /// Whether the copy at `url` is preferred over the copy at `other` by their places.
  bool prefers(std::string_view url, std::string_view other) const;
  /// The preferences, by pair of places.
  const std::vector<PlacePreference>& learnt() const { return learnt_; }
  bool empty() const { return learnt_.empty(); }

private:
  std::vector<PlacePreference> learnt_;
  /// By pair: whether its `first` is the preferred place.
  std::map<PlacePair, bool> first_preferred_;
};

/// Keeps the members of `pool` whose place no other member's is preferred over
/// (PlacePreferences::prefers), unless that would keep none; true when it left fewer. Pools of
/// more than kMaxPlaceMembers are left as they are.
bool keep_preferred_places(std::vector<std::uint32_t>& pool, const AuthorityCandidateTable& candidates,
                           const PlacePreferences& preferences);

}  // namespace canon::dedup
