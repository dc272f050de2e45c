/// @file authority.h
/// @brief Choosing the page that represents (is indexed for) each near-duplicate cluster.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
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
};

/// Why a cluster's representative won.
enum class AuthorityReason {
  Singleton,  ///< the cluster has one member
  PageRank,   ///< strictly highest PageRank in the cluster
  Canonical,  ///< named by rel=canonical of another member of the same cluster
  Tie,        ///< equal highest PageRank; shorter URL, then lexicographically smaller, won
};

/// "singleton", "pagerank", "canonical", "tie".
std::string_view to_string(AuthorityReason reason);

/// A cluster's representative and the reason it won.
struct Authority {
  std::uint32_t representative;
  AuthorityReason reason;
};

/// For each document, the representative of its cluster. Rules, in order:
/// 1. when `honour_canonical`, a member named by rel=canonical of another member of the same
///    cluster wins (several named: the most-named, then the rules below among them);
/// 2. the highest PageRank (equal within a relative 1e-12 counts as a tie);
/// 3. ties: the shorter URL, then the lexicographically smaller one.
/// REQUIRES: cluster_of.size() == candidates.size(); cluster ids index documents.
std::vector<Authority> choose_authorities(std::span<const std::uint32_t> cluster_of,
                                          std::span<const AuthorityCandidate> candidates,
                                          bool honour_canonical);

}  // namespace canon::dedup
