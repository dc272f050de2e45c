/// @file index_summary.h
/// @brief What a run of `canon index` did (IndexSummary, written as summary.json), filled in by
/// the stages as they end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/memory_use.h"
#include "common/resource_use.h"
#include "dedup/authority/places.h"
#include "indexer/input/archive_site.h"

namespace canon::indexer {

/// What a run re-used of the index it replaced (summary.json's `reindex`).
struct ReindexSummary {
  /// Why the run parsed every file, when it did: no index yet, --full, or why the previous
  /// index's page store could not be re-used. Empty for a re-index.
  std::string full_because;
  /// Files compared with the previous build (all 0 for a full build).
  std::size_t added = 0;
  std::size_t changed = 0;
  std::size_t deleted = 0;
  std::size_t unchanged = 0;
  /// Of the unchanged files, those with a new modification time (the same bytes written again,
  /// or touched): not parsed, their documents take the new time.
  std::size_t restamped = 0;
  /// Files the previous run could not read (or refused), read again.
  std::size_t retried = 0;
  /// Why a re-index wrote the Xapian database afresh (another collapse mode), when it did.
  std::string index_rewritten_because;
  /// What a re-index did to the previous database's documents.
  std::size_t documents_added = 0;
  std::size_t documents_rewritten = 0;
  std::size_t documents_updated = 0;
  std::size_t documents_removed = 0;
  std::size_t documents_kept = 0;
};

/// What one process of a partitioned build exchanged and held, stage by stage.
struct ProcessFigures {
  /// Bytes sent and received in each stage, in run order.
  std::vector<std::pair<std::string, std::pair<std::uint64_t, std::uint64_t>>> exchanged;
  /// Memory at the end of each stage, in run order.
  std::vector<std::pair<std::string, MemoryUse>> memory;
};

/// What a run did; also written as summary.json.
struct IndexSummary {
  /// What the records of the web archives came to, for a crawl; where an archive could not
  /// be read to its end.
  std::optional<ArchiveCounts> archives;
  std::vector<std::string> archive_problems;
  /// The base URL the run used (IndexOptions::base_url, or a crawl's).
  std::string base_url;
  /// Pages per status: indexed, duplicate, redirect, skipped.
  std::map<std::string, std::size_t> status_counts;
  /// Pages with a warning in pages.jsonl (PageLine::warnings).
  std::size_t pages_with_warnings = 0;
  std::size_t input_files = 0;
  std::size_t graph_nodes = 0;
  std::size_t graph_edges = 0;
  /// Clusters with more than one member.
  std::size_t duplicate_clusters = 0;
  /// The detector's candidate pairs (after LSH or its filter) and those it verified.
  std::size_t candidates_examined = 0;
  std::size_t near_duplicate_pairs = 0;
  /// split_chains: pages that left the cluster union-find gave them (dedup::AuthoritativePages).
  std::size_t split_off = 0;
  /// Of split_off, pages that define an item their authoritative page lacks.
  std::size_t split_for_definitions = 0;
  /// The pairs of places whose copies the site leads readers to at one of them, with their
  /// evidence (dedup/authority/places.h).
  std::vector<dedup::PlacePreference> place_preferences;
  /// Rules given (IndexOptions::url_rules), and the pages they recorded without reading them.
  std::size_t url_rules = 0;
  std::size_t url_rule_duplicates = 0;
  unsigned pagerank_iterations = 0;
  bool pagerank_converged = false;
  ReindexSummary reindex;
  /// Seconds per stage, in run order.
  std::vector<std::pair<std::string, double>> stage_seconds;
  /// What this process used in each stage, in run order (summary.json's `cpu_seconds`,
  /// `system_cpu_seconds` and `storage`): with stage_seconds, whether a stage waited or worked.
  std::vector<std::pair<std::string, ResourceUse>> stage_use;
  /// The processes of the build (IndexOptions::processes), and in a partitioned build the bytes
  /// this process sent and received through them in each stage (summary.json's `exchanged`).
  unsigned processes = 1;
  std::vector<std::pair<std::string, std::pair<std::uint64_t, std::uint64_t>>> stage_exchanged;
  /// This process's memory at the end of each stage, in run order (summary.json's `memory`).
  std::vector<std::pair<std::string, MemoryUse>> stage_memory;
  /// In a partitioned build, on the first process: every process's stage_exchanged and
  /// stage_memory, by rank (summary.json's `processes.by_process`), gathered once the run ends.
  std::vector<ProcessFigures> by_process;
};

}  // namespace canon::indexer
