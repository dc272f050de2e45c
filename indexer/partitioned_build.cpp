/// @file partitioned_build.cpp
/// @brief A partitioned build's processes: parts exchanged and merged, failures told, one build directory.
#include "indexer/partitioned_build.h"

#include <optional>
#include <string>
#include <utility>

#include "indexer/parsed_part.h"

namespace canon::indexer::detail {
namespace fs = std::filesystem;

namespace {

/// Every process's part of a partitioned build, exchanged: each process gives its own (encoded)
/// and receives the others', decoded, by rank (its own left out). Also the barrier after which
/// every segment of the run's store is finished.
Result<std::vector<ParsedPart>> exchange_parsed_parts(std::string mine, const Collective& processes) {
  std::vector<std::string> parts = processes.all_gather_bytes(mine);
  // Its own part, sent and given back: neither copy is held while the others are decoded.
  std::string().swap(mine);
  std::string().swap(parts[processes.rank()]);
  std::vector<ParsedPart> others;
  for (unsigned p = 0; p < parts.size(); ++p) {
    if (p == processes.rank()) continue;
    auto part = decode_parsed_part(parts[p], "the part of process " + std::to_string(p));
    if (!part.ok()) return part.status();
    others.push_back(std::move(part).value());
    std::string().swap(parts[p]);  // decoded: its bytes are not held while the next part is
  }
  return others;
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
  const auto own = files_of_process(chunks, processes.rank(), processes.size());
  // Encoded in a statement of its own: the part itself (its catalog entries, a copy of every URL)
  // is let go before the exchange.
  std::string mine = encode_parsed_part(
      make_parsed_part(records, own.first, own.second, store, parse.url_ids, parse.anchor_ids, parse.detector));
  auto others = exchange_parsed_parts(std::move(mine), processes);
  if (!others.ok()) return others.status();
  if (Status opened = store_reader.open_new(); !opened.ok()) return opened;
  return merge_parsed_parts(parse, own, std::move(others).value(), store, threads, records);
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
