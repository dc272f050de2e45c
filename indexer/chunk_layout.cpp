/// @file chunk_layout.cpp
/// @brief chunk_layout() and the chunks and files of each process.
#include "indexer/chunk_layout.h"

namespace canon::indexer::detail {
namespace fs = std::filesystem;

namespace {

/// The site is parsed in chunks of consecutive files, each written by one thread into a
/// database of its own; merging the chunk databases in order numbers the documents in file
/// order, so the index does not depend on the thread count. Enough chunks to keep every thread
/// busy to the end; not so big that a chunk's Xapian write buffer grows large.
std::size_t chunk_size(std::size_t files, unsigned threads) {
  return std::clamp<std::size_t>((files + threads * 8 - 1) / (threads * 8), 32, 20000);
}

}  // namespace

ChunkLayout chunk_layout(const fs::path& work_dir, std::size_t files, std::size_t chunk_files, unsigned threads) {
  return ChunkLayout{work_dir / "chunks", files, chunk_files != 0 ? chunk_files : chunk_size(files, threads), {}};
}


std::pair<std::size_t, std::size_t> chunks_of_process(const ChunkLayout& chunks, unsigned rank, unsigned processes) {
  if (chunks.process_first.size() != std::size_t{processes} + 1) {  // not cut: one process parses all
    return rank == 0 ? std::pair<std::size_t, std::size_t>{0, chunks.count()} : std::pair<std::size_t, std::size_t>{0, 0};
  }
  return {chunks.process_first[rank], chunks.process_first[rank + 1]};
}

std::pair<std::uint32_t, std::uint32_t> files_of_process(const ChunkLayout& chunks, unsigned rank,
                                                         unsigned processes) {
  const auto [first, end] = chunks_of_process(chunks, rank, processes);
  if (first == end) return {0, 0};
  return {static_cast<std::uint32_t>(chunks.first(first)), static_cast<std::uint32_t>(chunks.end(end - 1))};
}

}  // namespace canon::indexer::detail
