/// @file pipeline.h
/// @brief `canon index`: walk → parse → link graph → PageRank → near-duplicates → authority →
/// Xapian index + pages.jsonl + graph.tsv + summary.json (docs/design.md).
#pragma once

#include "common/status.h"
#include "indexer/index_options.h"
#include "indexer/index_summary.h"

namespace canon::indexer {

/// Runs the whole pipeline. Fails (and leaves an existing INDEX_DIR untouched) when the site
/// cannot be read, the options are invalid, or the output cannot be written; bad pages never
/// fail a run, they are recorded as skipped with their reason.
Result<IndexSummary> index_site(const IndexOptions& options);

}  // namespace canon::indexer
