/// @file cluster_assignment.h
/// @brief Stage 5 of `canon index`, around dedup::choose_authoritative_pages: what the authority
/// rule needs of each page record, and the records' clusters, statuses and alternates from its
/// choice. Works on page records alone, so it is tested without parsing or Xapian.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "dedup/authority.h"
#include "dedup/authoritative_pages.h"
#include "indexer/index_writer.h"
#include "common/collective.h"
#include "common/status.h"
#include "indexer/page_record.h"
#include "indexer/record_parts.h"
#include "indexer/site_links.h"

namespace canon::indexer {

/// What the authority rule reads of the pages (dedup::choose_authoritative_pages): a candidate
/// per detector document, those that matter filled in; they view `bytes`.
struct AuthorityCandidates {
  std::vector<std::string> bytes;  ///< what the candidates' strings view
  dedup::AuthorityCandidateTable candidates;
};

/// Per detector document d (record d; `cluster_of`, the detector's clusters): for a member of a
/// cluster of two or more, its URL, name (heading, else title), PageRank, the redirect pages
/// leading to it (redirects_in), the page its rel=canonical names (canonical_page, when that
/// page is in such a cluster too) and what it defines and lists; for another page, only its
/// rel=canonical into such a cluster (a vote from outside it); nothing for the rest, which the
/// rule does not read (a page alone is its own authoritative page, and splitting a cluster
/// makes no member join another). By parts: each process makes the candidates of the records it
/// holds (`parts`), and every process gets all of them (one all_gather_bytes). Collective;
/// kCorruption when what another process sent does not decode.
Result<AuthorityCandidates> authority_candidates(const HeldRecords& records,
                                                 std::span<const std::uint32_t> cluster_of,
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
/// those, and gets the alternates of the authoritative pages it holds. Collective; kCorruption
/// when a message does not decode.
/// REQUIRES: chosen covers the detector's documents, records[d] for each of them.
Result<ClusterAssignment> assign_clusters(HeldRecords& records, const dedup::AuthoritativePages& chosen,
                                          const detail::RecordParts& parts, const Collective& processes);

/// The clusters with a duplicate among every process's records (each reads those it holds):
/// the authoritative pages duplicates name, each counted once. Collective.
Result<std::size_t> count_duplicate_clusters(const HeldRecords& records, const detail::RecordParts& parts,
                                             const Collective& processes);

}  // namespace canon::indexer
