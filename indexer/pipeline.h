/// @file pipeline.h
/// @brief `canon index`: walk → parse → link graph → PageRank → near-duplicates → authority →
/// Xapian index + pages.jsonl + graph.tsv + summary.json (docs/design.md).
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/collective.h"
#include "common/memory_use.h"
#include "common/resource_use.h"
#include "common/status.h"
#include "dedup/detectors/detector.h"
#include "dedup/authority/places.h"
#include "html/html_extract.h"
#include "indexer/input/archive_site.h"
#include "indexer/stages/index_writer.h"
#include "ranking/pagerank.h"
#include "urls/url_rules.h"

namespace canon::indexer {

/// Everything `canon index` can be told.
struct IndexOptions {
  std::filesystem::path site_dir;
  /// Web archives to index instead of `site_dir` (archive_site.h: archive_inputs()); their
  /// records give the pages' URLs and the base URL, not `base_url`. Read by one process.
  std::vector<std::filesystem::path> archives;
  /// INDEX_DIR: replaced only when the new index is complete.
  std::filesystem::path out_dir;
  /// The URL the site is served at; must end in '/'.
  std::string base_url = std::string(index_format::kDefaultBaseUrl);
  /// Near-duplicate detector name (dedup::detector_names()).
  std::string detector = "minhash";
  dedup::DedupOptions dedup;
  ranking::PageRankOptions pagerank;
  /// What one page may cost (docs/reliability.md, "Limits").
  html::PageLimits limits;
  /// A rel=canonical naming another member of the same cluster chooses the authoritative page.
  bool honour_canonical = true;
  /// Split chained clusters: every duplicate must be a near-duplicate of its authoritative page
  /// (dedup::ChainPolicy::kSplit, the default); false keeps the detector's union-find clusters.
  bool split_chains = true;
  /// kIndexTime: only each cluster's authoritative page is indexed. kQueryTime (`--no-collapse`):
  /// every indexable page is, with its cluster id as the collapse key search uses.
  CollapseMode collapse = CollapseMode::kIndexTime;
  /// Parse (and detector) threads; 0 means all hardware threads. The results do not depend on it.
  unsigned threads = 0;
  /// Files per chunk database (see docs/design.md, "The pipeline"); 0 chooses by site size and
  /// thread count. The results do not depend on it (tests vary it).
  std::size_t chunk_files = 0;
  /// URL rules (canon urls learn): a page whose URL they rewrite into the URL of another page of
  /// the site is recorded as its duplicate without being read (docs/url-rules.md). May be null.
  std::shared_ptr<const urls::RuleSet> url_rules;
  /// A digest of the rule file (a re-index with other rules is a full build); empty without rules.
  std::string url_rules_digest;
  /// Rebuild from the site's files alone, even when INDEX_DIR holds an index whose page store
  /// could be re-used (docs/design.md, "Re-indexing").
  bool full = false;
  /// Progress lines on stderr (only shown on a terminal), by the first process.
  bool show_progress = true;
  /// The processes of a partitioned build (`mpirun`: mpi/mpi_collective.h), which all call
  /// index_site() with the same options: each parses its part of the site, the first writes the
  /// index (docs/partitioned-build.md). Null: this process alone. Not owned.
  const Collective* processes = nullptr;
  /// A partitioned build: merge the processes' shards into one database (Xapian's compaction)
  /// instead of listing them in a stub (docs/partitioned-build.md). Nothing to merge in one process.
  bool merge_shards = false;
  /// Called as each stage ends, with its name as in summary.json's stage times, on the calling
  /// thread. For tests that act between stages (change a file after the parse); may be empty.
  std::function<void(std::string_view stage)> after_stage;
};

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
};

/// Runs the whole pipeline. Fails (and leaves an existing INDEX_DIR untouched) when the site
/// cannot be read, the options are invalid, or the output cannot be written; bad pages never
/// fail a run, they are recorded as skipped with their reason.
Result<IndexSummary> index_site(const IndexOptions& options);

}  // namespace canon::indexer
