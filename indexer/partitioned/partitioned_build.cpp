/// @file partitioned_build.cpp
/// @brief A partitioned build's processes: parts exchanged and merged, failures told, one build directory.
#include "indexer/partitioned/partitioned_build.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "common/byte_codec.h"
#include "indexer/partitioned/parsed_part.h"

namespace canon::indexer::detail {
namespace fs = std::filesystem;

Status status_of_all_processes(const Status& mine, const Collective& processes, const std::string& what) {
  if (processes.size() == 1) return mine;
  // A failure as its code (one byte) and its message, so that every process fails with its code.
  const std::vector<std::string> failures = processes.all_gather_bytes(
      mine.ok() ? std::string() : std::string(1, static_cast<char>(mine.code())) + mine.message());
  if (!mine.ok()) return mine;
  for (unsigned p = 0; p < failures.size(); ++p) {
    if (failures[p].empty()) continue;
    return Status::error("process " + std::to_string(p) + " could not " + what + ": " + failures[p].substr(1),
                         static_cast<StatusCode>(static_cast<unsigned char>(failures[p][0])));
  }
  return Status::ok_status();
}

Result<std::vector<ProcessFigures>> gather_process_figures(const IndexSummary& summary, const Collective& processes) {
  std::string mine;
  codec::put_varint(mine, summary.stage_exchanged.size());
  for (const auto& [stage, bytes] : summary.stage_exchanged) {
    codec::put_string(mine, stage);
    codec::put_varint(mine, bytes.first);
    codec::put_varint(mine, bytes.second);
  }
  codec::put_varint(mine, summary.stage_memory.size());
  for (const auto& [stage, use] : summary.stage_memory) {
    codec::put_string(mine, stage);
    codec::put_varint(mine, use.resident_bytes);
    codec::put_varint(mine, use.peak_resident_bytes);
  }
  std::vector<ProcessFigures> all;
  for (const std::string& bytes : processes.all_gather_bytes(mine)) {
    codec::Reader in(bytes);
    ProcessFigures& figures = all.emplace_back();
    for (std::uint64_t n = in.count(); n > 0 && in.ok(); --n) {
      std::string stage = in.string();
      const std::uint64_t sent = in.varint(), received = in.varint();
      figures.exchanged.emplace_back(std::move(stage), std::pair{sent, received});
    }
    for (std::uint64_t n = in.count(); n > 0 && in.ok(); --n) {
      std::string stage = in.string();
      const std::uint64_t resident = in.varint(), peak = in.varint();
      figures.memory.emplace_back(std::move(stage), MemoryUse{resident, peak});
    }
    if (!in.ok() || !in.at_end()) return Status::corruption("a process's figures do not decode");
  }
  return all;
}

Result<RunStore> start_shared_store(const fs::path& store_dir, Reuse& reuse, const ChunkLayout& chunks,
                                    const Collective& processes) {
  auto store = start_store(store_dir, reuse, chunks.count(), processes.rank() == 0);
  const Status started = store.ok() ? Status::ok_status() : store.status();
  if (Status all = status_of_all_processes(started, processes, "start the page store"); !all.ok()) return all;
  return store;
}

Status gather_parts(const ParseContext& parse, const ChunkLayout& chunks, const RunStore& store,
                    const std::string& base_url, const Collective& processes, unsigned threads, StoreReader& store_reader,
                    const HeldRecords& records) {
  if (processes.size() == 1) return store_reader.open_new();
  // Round r: every process gives the r-th chunk of its part (its chunks are consecutive) and
  // takes over the others' r-th, so that a process holds one chunk of each other part at a time,
  // not their whole parts (on the 1M-page site each part's bytes were 0.6 GB).
  const unsigned count = processes.size();
  std::vector<std::pair<std::size_t, std::size_t>> chunks_of(count);  // [first, end) by process
  std::size_t rounds = 1;  // at least one exchange, the barrier below, even for a site without files
  for (unsigned p = 0; p < count; ++p) {
    chunks_of[p] = chunks_of_process(chunks, p, count);
    rounds = std::max(rounds, chunks_of[p].second - chunks_of[p].first);
  }
  // The files of process p's round r: its r-th chunk, or none.
  const auto piece = [&](unsigned p, std::size_t round) -> std::pair<std::uint32_t, std::uint32_t> {
    const auto [first, end] = chunks_of[p];
    if (first + round >= end) return {0, 0};
    return {static_cast<std::uint32_t>(chunks.first(first + round)), static_cast<std::uint32_t>(chunks.end(first + round))};
  };
  // The pieces carry the detector's state of their files and nothing else the others would
  // drop (PartContent::kForTakeOver): each process works out its own files' links by their
  // URLs' owners (link_pages_by_owner) and writes their part of the catalog, so no process
  // interns the URLs and texts the others' files link with or holds their entries.
  DetectorPartLoader take_over(parse, store, base_url);
  for (std::size_t round = 0; round < rounds; ++round) {
    const auto [first, end] = piece(processes.rank(), round);
    std::vector<std::string> pieces = processes.all_gather_bytes(encode_parsed_part(
        make_parsed_part(records, first, end, store, {}, {}, parse.detector, PartContent::kForTakeOver)));
    // The first exchange is the barrier after which every segment of the run's store is finished.
    if (round == 0) {
      if (Status opened = store_reader.open_new(); !opened.ok()) return opened;
    }
    std::string().swap(pieces[processes.rank()]);  // its own, given back
    for (unsigned p = 0; p < count; ++p) {
      if (p == processes.rank()) continue;
      const std::string where = "the part of process " + std::to_string(p);
      auto part = decode_parsed_part(pieces[p], where);
      if (!part.ok()) return part.status();
      if (std::pair(part->first_file, part->end_file) != piece(p, round)) {
        return Status::corruption(where + " holds files " + std::to_string(part->first_file) + " to " +
                                  std::to_string(part->end_file) + ", not its chunk's");
      }
      if (part->first_file == part->end_file) continue;
      Status taken = take_over.take(std::move(part).value(), threads);
      if (!taken.ok()) return taken;
      std::string().swap(pieces[p]);  // taken over: its bytes are not held while the next piece is
    }
  }
  return Status::ok_status();
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
