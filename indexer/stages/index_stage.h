/// @file index_stage.h
/// @brief Stage 6 of `canon index`: the search index written afresh, updated from the previous one, or in shards.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "common/collective.h"
#include "common/progress.h"
#include "common/status.h"
#include "format/index_format.h"
#include "indexer/chunk_layout.h"
#include "indexer/stages/index_writer.h"
#include "indexer/records/page_record.h"
#include "indexer/index_options.h"
#include "indexer/index_summary.h"
#include "indexer/reuse/previous_build.h"
#include "indexer/partitioned/record_holders.h"
#include "indexer/reuse/run_store.h"

namespace canon::indexer {
struct ClusterAssignment;  // stages/cluster_assignment.h: the authority stage's hand-off
}  // namespace canon::indexer

namespace canon::indexer::detail {

/// Whether record `r` is a document of the index: a page handed to the detector that is not a
/// duplicate, unless search collapses at query time.
bool is_document(const PageRecord& r, bool index_duplicates);

/// How stage 6 writes every document.
struct IndexPlan {
  const ClusterAssignment& clusters;
  /// The link texts of the site, by AnchorIds id.
  const std::vector<std::string>& anchor_texts;
  WriterOptions writer;
  bool index_duplicates = false;
  /// The largest cluster PageRank of the documents (IndexWriter::set_static_score_bound).
  double static_score_bound = 0.0;
  /// Called when the documents are in their chunk databases, before those are merged (not
  /// called when the previous database is updated in place): the pipeline times the two apart.
  std::function<void()> documents_written;

  /// The plan of a run of `processes`, each holding its part of `records` (`parts`): the bound is
  /// the largest of every process's documents. Collective.
  IndexPlan(const HeldRecords& records, const RecordParts& parts, const ClusterAssignment& clusters,
            const std::vector<std::string>& anchor_texts, const IndexOptions& options, std::size_t graph_nodes,
            const Collective& processes);
};

/// Stage 6: the search index in `layout` (write_database); by several processes, a shard each,
/// which the first then lists in a stub or, `to_merge`, merges (join_shards). A process reads
/// only the records it holds (`parts`): the documents of others' records it writes are sent by
/// their holders. Sets the docid and digests of the records it holds. Fails on every process
/// when one could not write its shard.
Status write_search_index(const PreviousBuild* previous, const ChunkLayout& chunks, const StoreReader& store_reader,
                          HeldRecords& records, const RecordParts& parts, const IndexPlan& index_plan, unsigned threads,
                          const index_format::IndexLayout& layout, const Collective& processes, bool to_merge,
                          Progress& progress, ReindexSummary& reindex);

}  // namespace canon::indexer::detail
