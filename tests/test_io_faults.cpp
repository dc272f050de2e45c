/// @file test_io_faults.cpp
/// @brief docs/reliability.md's promises through the file system seam (common/file_system.h):
/// each file a build writes failing with no space or an I/O error, at its first byte and part-way,
/// ends the run with a message naming the file (in INDEX_DIR) and the reason, and leaves the
/// previous index as it was, byte for byte, with no build directory left behind; reads that come
/// back short give the same index; a page that cannot be read is recorded as skipped with the
/// reason, and the rest of the site is indexed.
#include <doctest/doctest.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

#include "common/file_system.h"
#include "indexer/pipeline.h"
#include "support/faulty_file_system.h"
#include "support/site_files.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
using canon::indexer::IndexOptions;
using canon::testing::FaultyFileSystem;
using canon::testing::sample_site;

namespace {

IndexOptions options_for(const fs::path& out) {
  IndexOptions options;
  options.site_dir = sample_site();
  options.out_dir = out;
  options.show_progress = false;
  options.full = true;  // every file written again
  return options;
}

std::string bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Every file under `dir` (and every directory entry beside it in its parent), by path.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) files[fs::relative(entry.path(), dir).string()] = bytes_of(entry.path());
  }
  for (const auto& entry : fs::directory_iterator(dir.parent_path())) files["../" + entry.path().filename().string()];
  return files;
}

}  // namespace

TEST_CASE("a write that fails ends the run with the file and the reason; the previous index stays as it was") {
  canon::testing::TempDir dir;
  const fs::path out = dir.path() / "index";
  REQUIRE(canon::indexer::index_site(options_for(out)).ok());
  const auto before = snapshot(out);

  struct Case {
    const char* what;
    const char* path_part;
    std::size_t after_bytes;
  };
  const Case cases[] = {
      {"a page store segment, at its first byte", ".seg", 0},
      {"a page store segment, part-way", ".seg", 4096},
      {"the page store's catalog", "store/catalog", 0},
      {"the page store's catalog, part-way", "store/catalog", 300},
      {"pages.jsonl, part-way", "pages.jsonl", 1000},
      {"graph.tsv", "graph.tsv", 0},
      {"pairs.tsv", "pairs.tsv", 0},
      {"summary.json", "summary.json", 0},
  };
  for (const Case& c : cases) {
    for (const int error : {ENOSPC, EIO}) {
      CAPTURE(c.what);
      CAPTURE(std::strerror(error));
      FaultyFileSystem faulty;
      faulty.fail_writes(c.path_part, error, c.after_bytes);
      const canon::io::ScopedFileSystem installed(faulty);
      const auto run = canon::indexer::index_site(options_for(out));
      REQUIRE_FALSE(run.ok());
      CHECK(faulty.failures() > 0);
      CHECK(run.status().code() == canon::StatusCode::kIoError);
      CHECK(run.status().message().find(c.path_part) != std::string::npos);
      CHECK(run.status().message().find(std::strerror(error)) != std::string::npos);
      // Named as a file of INDEX_DIR, not of the hidden directory the index is built in.
      CHECK(run.status().message().find(".building-") == std::string::npos);
      CHECK(run.status().message().find(out.string() + "/") != std::string::npos);
      CHECK(snapshot(out) == before);
    }
  }
}

TEST_CASE("reads that come back short give the same index") {
  canon::testing::TempDir dir;
  REQUIRE(canon::indexer::index_site(options_for(dir.path() / "whole")).ok());
  for (const std::size_t most : {1u, 7u, 4096u}) {
    CAPTURE(most);
    FaultyFileSystem faulty;
    faulty.short_reads(most);
    const canon::io::ScopedFileSystem installed(faulty);
    const fs::path out = dir.path() / ("short-" + std::to_string(most));
    REQUIRE(canon::indexer::index_site(options_for(out)).ok());
    CHECK(bytes_of(out / "pages.jsonl") == bytes_of(dir.path() / "whole" / "pages.jsonl"));
    CHECK(bytes_of(out / "graph.tsv") == bytes_of(dir.path() / "whole" / "graph.tsv"));
  }
}

TEST_CASE("a page that cannot be read is skipped with the reason; the rest of the site is indexed") {
  canon::testing::TempDir dir;
  FaultyFileSystem faulty;
  faulty.fail_reads("about.html", EIO);
  const canon::io::ScopedFileSystem installed(faulty);
  const auto run = canon::indexer::index_site(options_for(dir.path() / "index"));
  REQUIRE(run.ok());
  CHECK(faulty.failures() > 0);
  const std::string pages = bytes_of(dir.path() / "index" / "pages.jsonl");
  std::size_t about = 0, indexed = 0;
  std::istringstream lines(pages);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("\"path\":\"about.html\"") != std::string::npos) {
      ++about;
      CHECK(line.find("\"status\":\"skipped\"") != std::string::npos);
      CHECK(line.find(std::strerror(EIO)) != std::string::npos);
    }
    if (line.find("\"status\":\"indexed\"") != std::string::npos) ++indexed;
  }
  CHECK(about == 1);
  CHECK(indexed > 20);
}
