/// @file authority.cpp
/// @brief choose_authorities(): canonical, the fuller page, the page's own name, redirects, the
/// original of copies, the newest release, then PageRank, then shorter/smaller URL.
#include "dedup/authority/authority.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dedup/sketches/boilerplate.h"
#include "dedup/authority/places.h"
#include "dedup/sketches/tokenizer.h"
#include "dedup/names/url_path.h"

namespace canon::dedup {

std::string_view to_string(AuthorityReason reason) {
  switch (reason) {
    case AuthorityReason::Singleton: return "singleton";
    case AuthorityReason::PageRank: return "pagerank";
    case AuthorityReason::Canonical: return "canonical";
    case AuthorityReason::Release: return "release";
    case AuthorityReason::Fuller: return "fuller";
    case AuthorityReason::OwnName: return "own_name";
    case AuthorityReason::Redirect: return "redirect";
    case AuthorityReason::Original: return "original";
    case AuthorityReason::Tie: return "tie";
    case AuthorityReason::Place: return "place";
  }
  return "unknown";
}

Release release_in_segment(std::string_view segment) {
  if (segment == "stable") return {4, {}};
  if (segment == "current") return {3, {}};
  if (segment == "latest") return {2, {}};
  std::string_view version = segment;
  if (!version.empty() && (version.front() == 'v' || version.front() == 'V')) version.remove_prefix(1);
  if (version.empty() || version.front() < '0' || version.front() > '9') return {};
  Release release{1, {}};
  std::uint64_t number = 0;
  for (std::size_t i = 0; i <= version.size(); ++i) {
    if (i == version.size() || version[i] == '.') {
      release.numbers.push_back(number);
      number = 0;
      if (i < version.size() && (i + 1 == version.size() || version[i + 1] == '.')) return {};
    } else if (version[i] >= '0' && version[i] <= '9' && number < (std::uint64_t{1} << 58)) {
      number = number * 10 + static_cast<std::uint64_t>(version[i] - '0');
    } else {
      return {};
    }
  }
  return release;
}

Release release_of(std::string_view url) {
  url = path_of(url);
  // Directory segments only: everything before the last '/'.
  const std::size_t last = url.rfind('/');
  std::string_view dirs = last == std::string_view::npos ? std::string_view{} : url.substr(0, last);
  while (!dirs.empty()) {
    const std::size_t slash = dirs.find('/');
    const std::string_view segment = dirs.substr(0, slash);
    dirs = slash == std::string_view::npos ? std::string_view{} : dirs.substr(slash + 1);
    if (Release release = release_in_segment(segment); release.kind != 0) return release;
  }
  return {};
}

bool newer_release(const Release& a, const Release& b) {
  if (a.kind != b.kind) return a.kind > b.kind;
  return a.numbers > b.numbers;  // lexicographic by number: 0.10 > 0.9, 1.2.1 > 1.2
}

namespace {

/// Keeps the members of `pool` that score highest by `score` (a number, higher wins); true when
/// that left fewer than were there.
template <class Score>
bool keep_best(std::vector<std::uint32_t>& pool, const Score& score) {
  auto top = score(pool.front());
  for (std::uint32_t m : pool) top = std::max(top, score(m));
  const std::size_t before = pool.size();
  std::erase_if(pool, [&](std::uint32_t m) { return score(m) < top; });
  return pool.size() < before;
}

/// Whether `path` is the path of another member of `paths` (sorted) below a prefix: one of
/// its proper suffixes that start at a '/' is a member's path.
bool repeats_another(std::string_view path, std::span<const std::string_view> paths) {
  for (std::size_t slash = path.find('/', 1); slash != std::string_view::npos; slash = path.find('/', slash + 1)) {
    if (std::binary_search(paths.begin(), paths.end(), path.substr(slash))) return true;
  }
  return false;
}

/// How early the page's own file name stands in what it calls itself: higher the earlier the
/// first word of its name equal to its page_stem() (case aside) stands, 0 when none is; the same
/// for the same position, whatever the name's length.
/// A page saved under several names (MediaWiki's redirect names: `find.html`, `find_if.html`,
/// `find_if_not.html` for "std::find, std::find_if, std::find_if_not") is its own under the first.
std::size_t own_name_rank(const AuthorityCandidate& page) {
  std::string stem(page_stem(page.url));
  for (char& c : stem) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  if (stem.empty() || page.name.empty()) return 0;
  const std::vector<std::string> words = tokenize(page.name);
  const auto at = std::find(words.begin(), words.end(), stem);
  if (at == words.end()) return 0;
  constexpr std::size_t kFirst = std::size_t{1} << 32;
  return kFirst - static_cast<std::size_t>(at - words.begin());
}

bool same_rank(double a, double b) {
  return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b));
}

/// Rules 9 and 10 among `pool` (not empty); `tie` is set when rule 10 had to decide.
std::uint32_t best_by_rank(std::vector<std::uint32_t> pool,
                           const AuthorityCandidateTable& candidates, bool& tie) {
  double top = candidates[pool.front()].pagerank;
  for (std::uint32_t m : pool) top = std::max(top, candidates[m].pagerank);
  std::erase_if(pool, [&](std::uint32_t m) { return !same_rank(candidates[m].pagerank, top); });
  tie = pool.size() > 1;
  return *std::min_element(pool.begin(), pool.end(), [&](std::uint32_t a, std::uint32_t b) {
    const std::string_view ua = candidates[a].url, ub = candidates[b].url;
    if (ua.size() != ub.size()) return ua.size() < ub.size();
    return ua != ub ? ua < ub : a < b;
  });
}

/// Keeps the members of `pool` in the newest release, when the members of `cluster` (sorted) sit
/// in folders of different releases; true when it did. `releases` is scratch space.
bool keep_newest_release(std::vector<std::uint32_t>& pool, const std::vector<std::uint32_t>& cluster,
                         const AuthorityCandidateTable& candidates, std::vector<Release>& releases) {
  releases.clear();
  for (std::uint32_t m : cluster) releases.push_back(release_of(candidates[m].url));
  const auto release = [&](std::uint32_t m) -> const Release& {
    return releases[std::lower_bound(cluster.begin(), cluster.end(), m) - cluster.begin()];
  };
  const Release* first = nullptr;  // of the members with a release in their path
  bool differ = false;
  for (std::uint32_t m : cluster) {
    if (release(m).kind == 0) continue;
    if (!first) first = &release(m);
    differ = differ || newer_release(release(m), *first) || newer_release(*first, release(m));
  }
  if (!differ) return false;
  const Release* best = nullptr;
  for (std::uint32_t m : pool) {
    if (!best || newer_release(release(m), *best)) best = &release(m);
  }
  std::erase_if(pool, [&](std::uint32_t m) { return newer_release(*best, release(m)); });
  return true;
}

/// rel=canonical votes for each page, from other members of its cluster and from outside it.
struct CanonicalVotes {
  std::vector<std::uint32_t> inside, outside;
  /// Page m's votes from inside its cluster, or none when more come from outside it.
  std::uint32_t trusted(std::uint32_t m) const { return outside[m] > inside[m] ? 0u : inside[m]; }
};

CanonicalVotes count_canonical_votes(std::span<const std::uint32_t> cluster_of,
                                     const AuthorityCandidateTable& candidates, bool honour_canonical) {
  const std::size_t n = cluster_of.size();
  CanonicalVotes votes{std::vector<std::uint32_t>(n, 0), std::vector<std::uint32_t>(n, 0)};
  if (!honour_canonical) return votes;
  for (std::uint32_t m = 0; m < n; ++m) {
    const auto& target = candidates[m].canonical;
    if (!target || *target == m || *target >= n) continue;
    ++(cluster_of[*target] == cluster_of[m] ? votes.inside : votes.outside)[*target];
  }
  return votes;
}

/// The authoritative page of `cluster` (its members, sorted; at least two), by the rule order of
/// choose_authorities(). `paths` and `releases` are scratch space.
Authority choose_in_cluster(const std::vector<std::uint32_t>& cluster, const AuthorityCandidateTable& candidates,
                            const CanonicalVotes& votes, std::span<const char> covered_by_fuller,
                            const PlacePreferences* places, std::vector<std::string_view>& paths,
                            std::vector<Release>& releases) {
  std::vector<std::uint32_t> pool = cluster;
  AuthorityReason reason = AuthorityReason::PageRank;
  const auto trusted_votes = [&](std::uint32_t m) { return votes.trusted(m); };
  if (keep_best(pool, trusted_votes) || trusted_votes(pool.front()) > 0) reason = AuthorityReason::Canonical;
  // The fuller page, the page's own name and its place narrow the members without deciding
  // alone: the rules after them still choose among those left (the original of its copies, the
  // newest release), and the reason is theirs when they narrow further.
  AuthorityReason narrowed = AuthorityReason::PageRank;
  const auto keep_uncovered = [&](char how) {
    if (reason == AuthorityReason::PageRank && !covered_by_fuller.empty() &&
        keep_best(pool, [&](std::uint32_t m) { return covered_by_fuller[m] == how ? 0 : 1; })) {
      narrowed = AuthorityReason::Fuller;
    }
  };
  keep_uncovered(kCoveredByListing);
  if (reason == AuthorityReason::PageRank && places != nullptr && keep_preferred_places(pool, candidates, *places)) {
    narrowed = AuthorityReason::Place;
  }
  keep_uncovered(kCoveredByText);
  // Only where the members have other file names (a page saved under several names): copies
  // and releases of one page keep its file name, and their headings' wording is no choice.
  const auto other_stem = [&](std::uint32_t m) {
    return page_stem(candidates[m].url) != page_stem(candidates[pool.front()].url);
  };
  if (reason == AuthorityReason::PageRank && std::any_of(pool.begin(), pool.end(), other_stem) &&
      keep_best(pool, [&](std::uint32_t m) { return own_name_rank(candidates[m]); })) {
    narrowed = AuthorityReason::OwnName;
  }
  if (reason == AuthorityReason::PageRank &&
      keep_best(pool, [&](std::uint32_t m) { return candidates[m].redirects_in; })) {
    reason = AuthorityReason::Redirect;
  }
  if (reason == AuthorityReason::PageRank) {
    paths.clear();
    for (std::uint32_t m : cluster) paths.push_back(path_of(candidates[m].url));
    std::sort(paths.begin(), paths.end());
    if (keep_best(pool, [&](std::uint32_t m) { return repeats_another(path_of(candidates[m].url), paths) ? 0 : 1; })) {
      reason = AuthorityReason::Original;
    }
  }
  if (reason == AuthorityReason::PageRank && keep_newest_release(pool, cluster, candidates, releases)) {
    reason = AuthorityReason::Release;
  }
  if (reason == AuthorityReason::PageRank) reason = narrowed;
  bool tie = false;
  Authority winner;
  winner.authoritative = best_by_rank(std::move(pool), candidates, tie);
  winner.reason = reason != AuthorityReason::PageRank ? reason
                  : tie                               ? AuthorityReason::Tie
                                                      : AuthorityReason::PageRank;
  return winner;
}

}  // namespace

std::vector<Authority> choose_authorities(std::span<const std::uint32_t> cluster_of,
                                          const AuthorityCandidateTable& candidates,
                                          bool honour_canonical, std::span<const char> covered_by_fuller,
                                          const PlacePreferences* places) {
  assert(cluster_of.size() == candidates.size());
  assert(covered_by_fuller.empty() || covered_by_fuller.size() == candidates.size());
  const std::size_t n = cluster_of.size();
  std::vector<std::vector<std::uint32_t>> members(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    assert(cluster_of[i] < n);
    members[cluster_of[i]].push_back(i);
  }
  const CanonicalVotes votes = count_canonical_votes(cluster_of, candidates, honour_canonical);
  std::vector<Authority> result(n);
  std::vector<Release> releases;
  std::vector<std::string_view> paths;
  for (const std::vector<std::uint32_t>& cluster : members) {
    if (cluster.empty()) continue;
    const Authority winner = cluster.size() == 1
                                 ? Authority{cluster.front(), AuthorityReason::Singleton}
                                 : choose_in_cluster(cluster, candidates, votes, covered_by_fuller, places, paths, releases);
    for (std::uint32_t m : cluster) result[m] = winner;
  }
  return result;
}

}  // namespace canon::dedup
