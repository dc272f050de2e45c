/// @file index_options.h
/// @brief Everything `canon index` can be told (IndexOptions): what the pipeline and each stage
/// read of the run's settings, in a header of its own so that a stage needs no other stage for it.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/collective.h"
#include "dedup/detectors/detector.h"
#include "format/index_format.h"
#include "html/html_extract.h"
#include "ranking/pagerank.h"
#include "urls/url_rules.h"

namespace canon::indexer {

using CollapseMode = index_format::CollapseMode;

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

}  // namespace canon::indexer
