/// @file sample_index.h
/// @brief The index of sample_site the query and web fuzzers search, built once per process.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "indexer/pipeline.h"

namespace canon::fuzz {

/// Indexes sample_site into a new directory of the temporary directory named after `name` and
/// the process, and returns it; aborts when it cannot (a fuzzer without its index is no test).
inline std::filesystem::path index_sample_site(const std::string& name) {
  const std::filesystem::path index =
      std::filesystem::temp_directory_path() / ("canon-fuzz-" + name + "-" + std::to_string(getpid()));
  canon::indexer::IndexOptions options;
  options.site_dir = std::filesystem::path(CANON_SOURCE_DIR) / "sample_site";
  options.out_dir = index;
  options.show_progress = false;
  if (!canon::indexer::index_site(options).ok()) std::abort();
  return index;
}

}  // namespace canon::fuzz
