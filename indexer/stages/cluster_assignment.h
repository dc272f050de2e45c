/// @file cluster_assignment.h
/// @brief Stage 5 of `canon index`, around dedup::choose_authoritative_pages: what the authority
/// rule needs of each page record, and the records' clusters, statuses and alternates from its
/// choice. Works on page records alone, so it is tested without parsing or Xapian.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "dedup/authority/authority.h"
#include "dedup/authority/authoritative_pages.h"
#include "dedup/authority/places.h"
#include "format/alternates.h"
#include "common/collective.h"
#include "common/status.h"
#include "indexer/records/page_record.h"
#include "indexer/partitioned/record_holders.h"

namespace canon::indexer {

/// The owner of a cluster of the detector's (named by its smallest document) among `processes`
/// processes: the process that chooses its authoritative page. Clusters spread over the
/// processes by their names; a split keeps its parts with the owner.
inline unsigned cluster_owner(std::uint32_t cluster, unsigned processes) { return cluster % processes; }

/// The clusters of two or more (of the detector's, `cluster_of`) one process owns
/// (cluster_owner), with what the authority rule reads of their pages
/// (dedup::choose_authoritative_pages), numbered 0.. in document order (the share's indexes).
struct ClusterShare {
  /// The share's detector documents, sorted: the members of its clusters and the pages outside
  /// them whose rel=canonical names a member (a vote from outside the cluster).
  std::vector<std::uint32_t> documents;
  /// Per share index: whether it is a member of one of the share's clusters (else a vote).
  std::vector<char> member;
  /// Per share index: its cluster, the share index of the cluster's smallest document (a vote's,
  /// its own index).
  std::vector<std::uint32_t> cluster_of;
  /// Per share index: its URL, name (heading, else title), PageRank, the redirect pages leading
  /// to it (redirects_in), what it defines and lists (a member's), and the share index of the
  /// member its rel=canonical names, when that is one; they view `bytes`.
  std::vector<dedup::AuthorityCandidate> candidates;
  std::vector<std::string> bytes;
  /// The detector's verified pairs within the share's clusters, in share indexes.
  std::vector<dedup::SimilarPair> pairs;

  /// The share index of detector document `document`, nullopt when it is not in the share.
  std::optional<std::uint32_t> index_of(std::uint32_t document) const;
};

/// This process's share of the clusters: each process sends what the rule reads of the records
/// it holds (`parts`) to the owners of their clusters, and a rel=canonical into a cluster of two
/// or more to that cluster's owner; one all_to_all_bytes (none in one process, which owns every
/// cluster). `clusters`: the detector's, the same on every process. Collective; kCorruption when
/// what another process sent does not decode or names a document its receiver does not own.
Result<ClusterShare> gather_cluster_share(const HeldRecords& records, const dedup::Clusters& clusters,
                                          const detail::RecordParts& parts, const Collective& processes);

/// The authority stage's decision for a record in a cluster of two or more.
struct AuthorityDecision {
  std::uint32_t record = 0;
  /// Its final cluster (after splits), named by the cluster's smallest record.
  std::uint32_t cluster = 0;
  /// Its cluster's authoritative page and why it won.
  dedup::Authority authority{};
  /// The detector's similarity to the authoritative page, for a duplicate.
  double similarity = 0.0;
};

/// What the authority stage decided for the records a process holds.
struct ChosenAuthorities {
  /// This process's records in the detector's clusters of two or more, in record order; any
  /// other record handed to the detector is alone, its own authoritative page.
  std::vector<AuthorityDecision> decisions;
  /// Of every process: pages that left the cluster the detector gave them, and of them those
  /// that define an item their authoritative page lacks (dedup::AuthoritativePages).
  std::size_t split_off = 0;
  std::size_t split_for_definitions = 0;
  /// The pairs of places whose copies the site leads readers to at one of them (the same on
  /// every process: dedup/authority/places.h).
  std::vector<dedup::PlacePreference> place_preferences;

  /// The decision for `record`, nullptr when it is alone (or not this process's).
  const AuthorityDecision* find(std::uint32_t record) const;
};

/// The authority stage by the clusters' owners: each process chooses the authoritative pages of
/// its share of the clusters (gather_cluster_share, dedup::choose_authoritative_pages) under the
/// place preferences of the whole site (every process's tally of its share added up), the
/// detector's judgements shared among the processes (every process gives the pairs of its
/// share, and Detector::compare runs over all of them on every process, as in one), and sends
/// each member's decision to the process holding its record. One process is the same with one
/// share. Collective; kCorruption when a message does not decode.
Result<ChosenAuthorities> choose_authorities_by_owner(const HeldRecords& records, const dedup::Clusters& clusters,
                                                      dedup::Detector& detector, const dedup::DocumentLoader& load,
                                                      bool honour_canonical, dedup::ChainPolicy policy,
                                                      const detail::RecordParts& parts, const Collective& processes);

/// The records' clusters as the search index needs them.
struct ClusterAssignment {
  /// Per record of a page that others were collapsed into: those pages, in record order.
  std::unordered_map<std::uint32_t, std::vector<index_format::Alternate>> alternates;
  /// Clusters with more than one member.
  std::size_t duplicate_clusters = 0;
};

/// Gives every record handed to the detector its dense cluster id (numbered in record order),
/// its cluster's PageRank (the sum of its members', in record order), the page it is indexed
/// under with the reason, and its status: indexed when that is itself, else duplicate with its
/// similarity. By parts: each process does so for the records it holds (`parts`), reading only
/// those and the decisions `chosen` has for them, and gets the alternates of the authoritative
/// pages it holds. Collective; kCorruption when a message does not decode.
Result<ClusterAssignment> assign_clusters(HeldRecords& records, const ChosenAuthorities& chosen,
                                          const detail::RecordParts& parts, const Collective& processes);

/// The clusters with a duplicate among every process's records (each reads those it holds):
/// the authoritative pages duplicates name, each counted once. Collective.
Result<std::size_t> count_duplicate_clusters(const HeldRecords& records, const detail::RecordParts& parts,
                                             const Collective& processes);

}  // namespace canon::indexer
