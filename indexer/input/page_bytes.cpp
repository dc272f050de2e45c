/// @file page_bytes.cpp
/// @brief read_page_bytes() and content_hash().
#include "indexer/input/page_bytes.h"

#include <xxhash.h>

#include "common/utf8.h"

namespace canon::indexer {

Result<FilePrefix> read_page_bytes(const std::filesystem::path& path, const html::PageLimits& limits) {
  auto read = read_file_prefix(path, limits.max_page_bytes);
  if (!read.ok()) return read.status();
  FilePrefix& file = read.value();
  if (file.cut()) file.bytes.resize(utf8_prefix(file.bytes, limits.max_page_bytes).size());
  return read;
}

std::uint64_t content_hash(std::string_view bytes) { return XXH3_64bits(bytes.data(), bytes.size()); }

}  // namespace canon::indexer
