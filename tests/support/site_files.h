/// @file site_files.h
/// @brief Files of the sites tests index: sample_site's place, and reading and writing a file
/// whole (a test fails on a file it cannot read).
#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/file_io.h"

namespace canon::testing {

/// The repository's sample_site/ (ctest sets CANON_SOURCE_DIR).
inline std::filesystem::path sample_site() {
  const char* source = std::getenv("CANON_SOURCE_DIR");
  REQUIRE_MESSAGE(source != nullptr, "CANON_SOURCE_DIR is set by ctest");
  return std::filesystem::path(source) / "sample_site";
}

/// The bytes of the file at `path`; the test fails when it cannot be read.
inline std::string slurp(const std::filesystem::path& path) {
  auto bytes = canon::read_file(path);
  REQUIRE_MESSAGE(bytes.ok(), path.string());
  return bytes.value();
}

/// Writes `text` to `path`, replacing it, its directories created.
inline void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

}  // namespace canon::testing
