/// @file page_bytes.h
/// @brief The bytes a run parses of a page file, and their hash: what the parse reads and what a
/// re-index compares with the previous build's catalog.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>

#include "common/file_io.h"
#include "common/status.h"
#include "html/html_extract.h"

namespace canon::indexer {

/// What a run parses of the file at `path`: at most limits.max_page_bytes, cut at a character
/// boundary, with the file's size and modification time as opened (read_file_prefix).
Result<FilePrefix> read_page_bytes(const std::filesystem::path& path, const html::PageLimits& limits);

/// The content hash of a page's bytes as a catalog entry keeps it (XXH3-64 of the bytes parsed).
std::uint64_t content_hash(std::string_view bytes);

}  // namespace canon::indexer
