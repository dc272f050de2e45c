/// @file chunk_layout.h
/// @brief How a run's files are cut into chunks (a Xapian database each, consecutive files) and
/// which chunks, so which files, each process of a partitioned build parses.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace canon::indexer::detail {

/// Where the parse writes its documents: one Xapian database per chunk of consecutive files.
struct ChunkLayout {
  std::filesystem::path dir;
  std::size_t files = 0;
  std::size_t files_per_chunk = 1;
  std::size_t count() const { return files / files_per_chunk + (files % files_per_chunk != 0 ? 1 : 0); }
  /// The chunk's Xapian database.
  std::string path(std::size_t chunk) const { return (dir / std::to_string(chunk)).string(); }
  /// [first, end) of the files of `chunk`.
  std::size_t first(std::size_t chunk) const { return chunk * files_per_chunk; }
  std::size_t end(std::size_t chunk) const { return std::min(files, (chunk + 1) * files_per_chunk); }
  /// A partitioned build: process p parses chunks [process_first[p], process_first[p + 1])
  /// (share_chunks). Empty: one process parses them all.
  std::vector<std::size_t> process_first;
  /// The process that parses `chunk`.
  unsigned owner(std::size_t chunk) const {
    if (process_first.empty()) return 0;
    const auto after = std::upper_bound(process_first.begin(), process_first.end(), chunk);
    return static_cast<unsigned>(after - process_first.begin() - 1);
  }
};

/// The chunks of the run's `files` files under `work_dir`: `chunk_files` files each, or as many
/// as chunk_size() gives for `threads` when it is 0.
ChunkLayout chunk_layout(const std::filesystem::path& work_dir, std::size_t files, std::size_t chunk_files,
                         unsigned threads);

/// The chunks process `rank` of `processes` parses, [first, end): ChunkLayout::owner() gives
/// each process a contiguous run of chunks; empty when it has none.
std::pair<std::size_t, std::size_t> chunks_of_process(const ChunkLayout& chunks, unsigned rank, unsigned processes);

/// The files of those chunks: one run of consecutive files, empty when it has no chunk.
std::pair<std::uint32_t, std::uint32_t> files_of_process(const ChunkLayout& chunks, unsigned rank,
                                                         unsigned processes);

}  // namespace canon::indexer::detail
