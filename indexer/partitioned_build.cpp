/// @file partitioned_build.cpp
/// @brief A partitioned build's processes: parts exchanged and taken over, failures told, one build directory.
#include "indexer/partitioned_build.h"

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <optional>
#include <utility>

#include "common/parallel.h"
#include "indexer/previous_build.h"
#include "store/store_catalog.h"

namespace canon::indexer::detail {
namespace fs = std::filesystem;

namespace {

/// The part of a partitioned build this process parsed (its chunks' files, chunk_owner()), as a
/// catalog (store_catalog.h) the other processes take the files over from: one entry per file
/// of its chunks, in file order, with the links as `url_ids` and `anchor_ids` number them and
/// the run's segments as they are. Only what the parse made is in it (no docids yet).
std::string encode_parsed_part(const RunStore& store, const ChunkLayout& chunks, const Collective& processes,
                               const std::vector<PageRecord>& records, const UrlIds& url_ids,
                               const AnchorIds& anchor_ids) {
  store::StoreCatalog part;
  part.segments = store.names;
  part.urls = url_ids.urls();
  part.anchors = anchor_ids.urls();
  std::vector<std::uint32_t> same_segment(store.names.size());
  std::iota(same_segment.begin(), same_segment.end(), 0);
  for (std::size_t chunk = 0; chunk < chunks.count(); ++chunk) {
    if (chunk_owner(chunk, chunks.count(), processes.size()) != processes.rank()) continue;
    for (std::size_t i = chunks.first(chunk); i < chunks.end(chunk); ++i) {
      const PageRecord& r = records[i];
      part.files.push_back(catalog_entry(r, r.links, r.link_anchors, same_segment));
    }
  }
  return store::encode_store_catalog(part);
}

/// Every process's part of a partitioned build, exchanged: each process gives the part it parsed
/// (encode_parsed_part) and receives the others', decoded, by rank (its own left empty). Also
/// the barrier after which every segment of the run's store is finished.
Result<std::vector<store::StoreCatalog>> exchange_parsed_parts(const std::string& mine, const Collective& processes) {
  const std::vector<std::string> parts = processes.all_gather_bytes(mine);
  std::vector<store::StoreCatalog> decoded(parts.size());
  for (unsigned p = 0; p < parts.size(); ++p) {
    if (p == processes.rank()) continue;
    auto part = store::decode_store_catalog(parts[p], "the part of process " + std::to_string(p));
    if (!part.ok()) return part.status();
    decoded[p] = std::move(part).value();
  }
  return decoded;
}

/// The files of the chunks process `rank` parses: one run of consecutive files (chunk_owner()
/// gives each process a contiguous run of chunks), empty when it has no chunk.
std::pair<std::uint32_t, std::uint32_t> files_of_process(const ChunkLayout& chunks, unsigned rank, unsigned processes) {
  std::size_t begin = 0, end = 0;
  bool any = false;
  for (std::size_t chunk = 0; chunk < chunks.count(); ++chunk) {
    if (chunk_owner(chunk, chunks.count(), processes) != rank) continue;
    if (!any) begin = chunks.first(chunk);
    end = chunks.end(chunk);
    any = true;
  }
  return {static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end)};
}

/// What the detector kept of this process's own files, given to every process and the others'
/// taken (Detector::encode_added, add_encoded), so that no process reads the others' pages to
/// add them. False when the detector cannot (then take_over_parts adds them from the store);
/// the same on every process (all run one detector).
Result<bool> exchange_detector_state(dedup::Detector& detector, const ChunkLayout& chunks, const Collective& processes) {
  const auto [begin, end] = files_of_process(chunks, processes.rank(), processes.size());
  const std::optional<std::string> mine = detector.encode_added(begin, end);
  if (!mine) return false;
  std::vector<std::string> states = processes.all_gather_bytes(*mine);
  for (unsigned p = 0; p < states.size(); ++p) {
    if (p == processes.rank()) continue;
    if (Status taken = detector.add_encoded(states[p]); !taken.ok()) {
      return Status::corruption("the detector state of process " + std::to_string(p) + ": " + taken.message());
    }
    std::string().swap(states[p]);  // taken: its bytes are not held while the next part is
  }
  return true;
}

/// Stage 2 of a partitioned build, second half: the files of the chunks the other processes
/// parsed, taken over from their `parts` (exchange_parsed_parts) as a re-index takes over
/// unchanged files: each record filled as the parse made it, its page read from the store for the
/// detector unless `detector_has_them` (exchange_detector_state). Nothing is written.
/// REQUIRES: every segment of the run's store open in `run.store_reader`.
Status take_over_parts(const ParseContext& run, const ChunkLayout& chunks, const RunStore& store,
                       const Collective& processes, std::vector<store::StoreCatalog>&& parts, bool detector_has_them,
                       unsigned threads, std::vector<PageRecord>& records) {
  const std::size_t files = run.plan.files.size();
  for (unsigned p = 0; p < parts.size(); ++p) {
    if (p == processes.rank()) continue;
    PreviousBuild part{store.dir, {}, std::move(parts[p]), {}};
    Reuse reuse{&part, std::vector<std::uint32_t>(files, kNoEntry), std::vector<std::optional<FileStamp>>(files),
                std::vector<std::uint32_t>(store.names.size()), std::vector<bool>(store.names.size(), false)};
    std::iota(reuse.segment_of_old.begin(), reuse.segment_of_old.end(), 0);
    std::vector<std::size_t> owned;
    std::uint32_t entry = 0;
    for (std::size_t chunk = 0; chunk < chunks.count(); ++chunk) {
      if (chunk_owner(chunk, chunks.count(), processes.size()) != p) continue;
      owned.push_back(chunk);
      for (std::size_t i = chunks.first(chunk); i < chunks.end(chunk); ++i) reuse.unchanged_entry[i] = entry++;
    }
    if (entry != part.catalog.files.size()) {
      return Status::corruption("the part of process " + std::to_string(p) + " has " +
                                std::to_string(part.catalog.files.size()) + " files, its chunks " + std::to_string(entry));
    }
    ParseContext from_part{run.plan, run.by_rule, reuse, run.sample, run.detector, run.store_reader, run.url_ids,
                           run.anchor_ids, !detector_has_them};
    std::vector<Status> chunk_status(owned.size(), Status::ok_status());
    parallel_for(owned.size(), threads, [&](std::size_t k, std::size_t) {
      for (std::size_t i = chunks.first(owned[k]); i < chunks.end(owned[k]) && chunk_status[k].ok(); ++i) {
        chunk_status[k] = record_file(from_part, i, nullptr, 0, records[i]);
      }
    });
    if (Status failed = first_error(chunk_status); !failed.ok()) return failed;
  }
  return Status::ok_status();
}

}  // namespace

Status every_process_did(const Status& mine, const Collective& processes, const std::string& what) {
  if (processes.size() == 1) return mine;
  // A failure as its code (one byte) and its message, so that every process fails with its code.
  const std::vector<std::string> told = processes.all_gather_bytes(
      mine.ok() ? std::string() : std::string(1, static_cast<char>(mine.code())) + mine.message());
  if (!mine.ok()) return mine;
  for (unsigned p = 0; p < told.size(); ++p) {
    if (told[p].empty()) continue;
    return Status::error("process " + std::to_string(p) + " could not " + what + ": " + told[p].substr(1),
                         static_cast<StatusCode>(static_cast<unsigned char>(told[p][0])));
  }
  return Status::ok_status();
}

Result<RunStore> start_shared_store(const fs::path& store_dir, Reuse& reuse, const ChunkLayout& chunks,
                                    const Collective& processes) {
  auto store = start_store(store_dir, reuse, chunks.count(), processes.rank() == 0);
  const Status started = store.ok() ? Status::ok_status() : store.status();
  if (Status all = every_process_did(started, processes, "start the page store"); !all.ok()) return all;
  return store;
}

Status gather_parts(const ParseContext& parse, const ChunkLayout& chunks, const RunStore& store,
                    const Collective& processes, unsigned threads, StoreReader& store_reader,
                    std::vector<PageRecord>& records) {
  if (processes.size() == 1) return store_reader.open_new();
  auto parts = exchange_parsed_parts(
      encode_parsed_part(store, chunks, processes, records, parse.url_ids, parse.anchor_ids), processes);
  if (!parts.ok()) return parts.status();
  if (Status opened = store_reader.open_new(); !opened.ok()) return opened;
  auto shared = exchange_detector_state(parse.detector, chunks, processes);
  if (!shared.ok()) return shared.status();
  return take_over_parts(parse, chunks, store, processes, std::move(parts).value(), shared.value(), threads, records);
}

Result<SharedBuildDirectory> start_build_directory(const fs::path& out_dir, const Collective& processes) {
  std::optional<BuildDirectory> build;
  Status failure = Status::ok_status();
  if (processes.rank() == 0) {
    auto created = BuildDirectory::create(out_dir, "building");
    if (created.ok()) build.emplace(std::move(created).value());
    else failure = created.status();
  }
  if (processes.size() == 1) {
    if (!build) return failure;
    fs::path path = build->path();
    return SharedBuildDirectory{std::move(build), std::move(path)};
  }
  // The path, or (first byte '!') why there is none.
  const std::vector<std::string> told = processes.all_gather_bytes(
      processes.rank() != 0 ? std::string() : build ? build->path().string() : "!" + failure.message());
  if (told[0].empty() || told[0][0] == '!') {
    if (processes.rank() == 0) return failure;
    return Status::error("process 0 could not create the build directory: " + told[0].substr(told[0].empty() ? 0 : 1));
  }
  return SharedBuildDirectory{std::move(build), fs::path(told[0])};
}

}  // namespace canon::indexer::detail
