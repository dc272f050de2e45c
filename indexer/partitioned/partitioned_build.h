/// @file partitioned_build.h
/// @brief What the processes of a partitioned build share: parsed parts, failures, the build directory.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/build_dir.h"
#include "common/collective.h"
#include "common/status.h"
#include "indexer/chunk_layout.h"
#include "indexer/index_summary.h"
#include "indexer/records/page_record.h"
#include "indexer/stages/parse_stage.h"
#include "indexer/reuse/run_store.h"

namespace canon::indexer::detail {

/// `mine` when it failed, else the first failure of another of `processes` (each gives its own
/// status to all: a collective call), as "process R could not WHAT: why"; ok when all did.
Status status_of_all_processes(const Status& mine, const Collective& processes, const std::string& what);

/// Every process's figures (its `summary`'s stage_exchanged and stage_memory), by rank, on
/// every process: a few numbers a stage and process. kCorruption when one does not decode.
Result<std::vector<ProcessFigures>> gather_process_figures(const IndexSummary& summary, const Collective& processes);

/// The run's page store (start_store), with every process of a partitioned build: the first
/// puts the previous segments in place, the others wait for it. Fails on every process when
/// the first could not.
Result<RunStore> start_shared_store(const std::filesystem::path& store_dir, Reuse& reuse, const ChunkLayout& chunks,
                                    const Collective& processes);

/// Stage 2's end: the new segments opened, and in a partitioned build every process's part
/// (parsed_part.h) exchanged, a chunk a round (each gives its next chunk's part, made from its
/// `records`, and takes the others' over: their files' URLs are under `base_url`), so that the
/// detector holds its state of the whole site on every process. kCorruption when a part
/// received does not check out or is not its sender's chunk.
Status gather_parts(const ParseContext& parse, const ChunkLayout& chunks, const RunStore& store,
                    const std::string& base_url, const Collective& processes, unsigned threads, StoreReader& store_reader,
                    const HeldRecords& records);

/// A run's build directory: owned (and committed) by the first process of a partitioned
/// build, only used by the others.
struct SharedBuildDirectory {
  std::optional<BuildDirectory> owned;
  std::filesystem::path shared;
  const std::filesystem::path& path() const { return shared; }
  Status commit() { return owned ? owned->commit() : Status::ok_status(); }
};

/// Where a run builds: the first of `processes` creates the directory beside `out_dir` (and
/// commits it at the end); the others are told its path and build in it without owning it.
/// Fails on every process when it could not be created.
Result<SharedBuildDirectory> start_build_directory(const std::filesystem::path& out_dir, const Collective& processes);

}  // namespace canon::indexer::detail
