/// @file authority.h
/// @brief Choosing the page that represents (is indexed for) each near-duplicate cluster.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace canon::dedup {

/// What authority is decided on, per document.
struct AuthorityCandidate {
  std::string_view url;
  double pagerank = 0.0;
  /// Index of the document that this page's rel=canonical names, when that is a document of
  /// the run (any cluster); nullopt otherwise.
  std::optional<std::uint32_t> canonical;
  /// Redirect pages of the site whose final target is this page.
  std::uint32_t redirects_in = 0;
  /// What the page defines (defined_terms() of dedup/authority/page_entries.h): a page whose
  /// cluster's authoritative page lacks one of these is not that page's duplicate
  /// (choose_authoritative_pages, ChainPolicy::kSplit).
  std::vector<std::string> defined = {};
  /// What the page lists (listed_entries() of dedup/authority/page_entries.h): the same rule as
  /// `defined`, for the entries of its main content's links; a page that lists everything a
  /// member lists and more is the fuller page (choose_authoritative_pages).
  std::vector<std::uint32_t> listed = {};
  /// What the page calls itself: its main heading, else its title ("" when it has neither).
  std::string_view name = {};
  /// The fewest links a reader follows from the site's entry pages to this page
  /// (ranking/click_depth.h); the largest value when none leads to it.
  std::uint32_t click_depth = std::numeric_limits<std::uint32_t>::max();
};

/// The AuthorityCandidate of each document of a run (of a process's share of the clusters, in a
/// partitioned build: indexer/stages/cluster_assignment.h). Only views them: the vector or span it was
/// made from must outlive it.
class AuthorityCandidateTable {
public:
  AuthorityCandidateTable() = default;
  /// `every[d]` is document d's.
  AuthorityCandidateTable(std::span<const AuthorityCandidate> every) : every_(every) {}
  AuthorityCandidateTable(const std::vector<AuthorityCandidate>& every)
      : AuthorityCandidateTable(std::span<const AuthorityCandidate>(every)) {}
  /// The number of documents of the run.
  std::size_t size() const { return every_.size(); }
  /// Document d's candidate. REQUIRES: d < size().
  const AuthorityCandidate& operator[](std::uint32_t d) const {
    assert(d < every_.size());
    return every_[d];
  }

private:
  std::span<const AuthorityCandidate> every_;
};

/// A release named in a URL's path: the first directory segment that is a version ("1.2",
/// "v0.50.1", "2023") or an alias of the current release ("stable", "current", "latest").
struct Release {
  /// 0: no release in the path; 1: a version; 2-4: latest, current, stable (the higher wins).
  int kind = 0;
  /// The version's numbers, for kind 1 ("0.50.1" → 0, 50, 1).
  std::vector<std::uint64_t> numbers;
};

/// The release one path segment names ("0.50.1", "v2", "stable"), kind 0 when it names none.
/// Pure.
Release release_in_segment(std::string_view segment);

/// The release in `url`'s path (its directory segments, not the file name). Pure.
Release release_of(std::string_view url);

/// Whether release a is newer than b: an alias beats every version (stable over current over
/// latest); versions compare number by number (0.10 > 0.9; 1.2 > 1.2.0 is false, and 1.2.1 >
/// 1.2).
bool newer_release(const Release& a, const Release& b);

/// Why a cluster's authoritative page won.
enum class AuthorityReason {
  Singleton,  ///< the cluster has one member
  PageRank,   ///< strictly highest PageRank in the cluster
  Canonical,  ///< named by rel=canonical of another member of the same cluster
  Release,    ///< the newest release (or the current-release alias) among the members' paths
  Fuller,     ///< it covers a member that does not cover it as well (the same item at a parallel
              ///< path that lists more: std's page of a trait and core's)
  OwnName,    ///< its file name comes first in what the page calls itself (`find.html` for
              ///< "std::find, std::find_if, std::find_if_not", not its alias `find_if_not.html`)
  Redirect,   ///< the target of the most redirect pages of the site
  Original,   ///< the page whose path other members repeat below a prefix (`docs/a.html`, not
              ///< `mirror/docs/a.html`)
  Tie,        ///< equal highest PageRank; shorter URL, then lexicographically smaller, won
  Place,      ///< its folder is the one the site leads readers to, of a pair of folders holding
              ///< copies of many documents (std/ over core/: dedup/authority/places.h)
};

/// The last AuthorityReason (a reason read back from bytes is at most this).
inline constexpr AuthorityReason kLastAuthorityReason = AuthorityReason::Place;

class PlacePreferences;

/// "singleton", "pagerank", "canonical", "release", "fuller", "own_name", "redirect", "original",
/// "tie", "place".
std::string_view to_string(AuthorityReason reason);

/// How a member is covered by a fuller one (choose_authorities' `covered_by_fuller`): another
/// member lists everything it lists and more; or neither lists more, and the other's text holds
/// its text and more (a weaker sign: a line of a signature, a link rendered as text).
inline constexpr char kCoveredByListing = 1;
inline constexpr char kCoveredByText = 2;

/// A cluster's authoritative page and the reason it won.
struct Authority {
  std::uint32_t authoritative;
  AuthorityReason reason;
};

/// For each document, the authoritative page of its cluster. Rules, in order, each choosing among
/// the members the rule before left (docs/dedup.md, "The authority rule"):
/// 1. when `honour_canonical`, a member named by rel=canonical of another member of the same
///    cluster wins (several named: the most-named), unless pages outside the cluster name it
///    more often than pages inside it do (a site-wide canonical, every page to the home page);
/// 2. the members no other member is fuller than by listing (`covered_by_fuller`, when given,
///    kCoveredByListing: another member lists everything it lists and more,
///    choose_authoritative_pages), when that leaves fewer;
/// 3. when `places` is given, the members whose folder no other member's is preferred over (a
///    pair of folders holding copies of many documents, the one the site's entry pages reach
///    in fewer clicks: dedup/authority/places.h), so that every cluster of the pair chooses alike;
/// 4. the members no other member is fuller than by text (kCoveredByText: a signature's extra
///    word is no reason to leave the place the site leads readers to);
/// 5. the members whose own file name comes first in what the page calls itself (its main
///    heading, else its title: `find.html` for "std::find, std::find_if, std::find_if_not"),
///    when the members have other file names (page_stem()) and that leaves fewer: a page saved
///    under several names is its own under the first;
///    (rules 2 to 5 narrow the members without deciding alone: the rules after them still
///    choose among those left, and their reason is given when they narrow further);
/// 6. the members that the most redirect pages lead to, when any does (a redirect names the
///    page an old address of its own folder became, not which folder a reader wants);
/// 7. when some members' paths are another member's path below a prefix (`mirror/docs/a.html`
///    and `copies/2/docs/a.html` repeat `docs/a.html`), the members that repeat no other's: a
///    mirror, printable, archived or numbered copy links to, and is read as, the page it copies;
/// 8. when the members' paths name at least two different releases (release_of), the members
///    of the newest release (an alias of the current release beats every version);
/// 9. the highest PageRank (equal within a relative 1e-12 counts as a tie);
/// 10. ties: the shorter URL, then the lexicographically smaller one.
/// REQUIRES: cluster_of.size() == candidates.size(); cluster ids index documents;
/// covered_by_fuller empty or of the same size.
std::vector<Authority> choose_authorities(std::span<const std::uint32_t> cluster_of,
                                          const AuthorityCandidateTable& candidates,
                                          bool honour_canonical, std::span<const char> covered_by_fuller = {},
                                          const PlacePreferences* places = nullptr);

}  // namespace canon::dedup
