/// @file test_build_dir.cpp (and common/file_io.h)
/// @brief BuildDirectory: built beside, swapped into place, removed when not committed, stale
/// builds of dead processes cleaned; messages name the destination, not the build directory.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/build_dir.h"
#include "common/file_io.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
using canon::BuildDirectory;

namespace {

std::string read(const fs::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("commit puts a new directory in place, and replaces an old one whole") {
  canon::testing::TempDir dir;
  const fs::path out = dir.path() / "sub" / "out";  // the parent is created
  {
    auto build = BuildDirectory::create(out, "building");
    REQUIRE(build.ok());
    CHECK(build->path().parent_path() == out.parent_path());
    CHECK(build->path().filename().string().starts_with(".out.building-"));
    std::ofstream(build->path() / "a.txt") << "first";
    REQUIRE(build->commit().ok());
  }
  CHECK(read(out / "a.txt") == "first");
  {
    auto build = BuildDirectory::create(out / "", "building");  // a trailing slash names the same
    REQUIRE(build.ok());
    std::ofstream(build->path() / "b.txt") << "second";
    CHECK(read(out / "a.txt") == "first");  // untouched until the commit
    REQUIRE(build->commit().ok());
  }
  CHECK(read(out / "b.txt") == "second");
  CHECK_FALSE(fs::exists(out / "a.txt"));
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(out.parent_path())) ++entries;
  CHECK(entries == 1);  // nothing left beside it
}

TEST_CASE("a build that is not committed is removed, and the destination kept") {
  canon::testing::TempDir dir;
  const fs::path out = dir.path() / "out";
  fs::create_directory(out);
  std::ofstream(out / "keep.txt") << "old";
  fs::path built;
  {
    auto build = BuildDirectory::create(out, "synth");
    REQUIRE(build.ok());
    built = build->path();
    std::ofstream(built / "half.txt") << "half";
  }
  CHECK_FALSE(fs::exists(built));
  CHECK(read(out / "keep.txt") == "old");
}

TEST_CASE("stale builds of processes that are gone are removed; others are left alone") {
  canon::testing::TempDir dir;
  const fs::path out = dir.path() / "out";
  const fs::path dead = dir.path() / ".out.building-2147483646";  // no such process
  const fs::path not_a_pid = dir.path() / ".out.building-12ab";
  const fs::path huge = dir.path() / ".out.building-99999999999999999999";
  const fs::path other_tag = dir.path() / ".out.synth-2147483646";
  for (const fs::path& p : {dead, not_a_pid, huge, other_tag}) fs::create_directory(p);
  auto build = BuildDirectory::create(out, "building");
  REQUIRE(build.ok());
  CHECK_FALSE(fs::exists(dead));
  CHECK(fs::exists(not_a_pid));
  CHECK(fs::exists(huge));  // not a pid: left alone, no exception
  CHECK(fs::exists(other_tag));
}

TEST_CASE("read_file: the bytes, or why not without the path") {
  canon::testing::TempDir dir;
  std::ofstream(dir.path() / "a.bin", std::ios::binary) << std::string("x\0y", 3);
  auto bytes = canon::read_file(dir.path() / "a.bin");
  REQUIRE(bytes.ok());
  CHECK(bytes.value() == std::string("x\0y", 3));
  const auto missing = canon::read_file(dir.path() / "missing");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message() == "No such file or directory");
}

TEST_CASE("read_file_prefix: the first bytes and the size; never blocks on what is not a file") {
  canon::testing::TempDir dir;
  std::ofstream(dir.path() / "page.html", std::ios::binary) << "0123456789";
  auto whole = canon::read_file_prefix(dir.path() / "page.html");
  REQUIRE(whole.ok());
  CHECK(whole->bytes == "0123456789");
  CHECK(whole->stamp.size == 10);
  CHECK_FALSE(whole->cut());
  auto first = canon::read_file_prefix(dir.path() / "page.html", 4);
  REQUIRE(first.ok());
  CHECK(first->bytes == "0123");
  CHECK(first->stamp.size == 10);
  CHECK(first->cut());

  // A FIFO with no writer: opening it for reading would wait forever without O_NONBLOCK.
  REQUIRE(::mkfifo((dir.path() / "fifo.html").c_str(), 0600) == 0);
  const auto fifo = canon::read_file_prefix(dir.path() / "fifo.html");
  REQUIRE_FALSE(fifo.ok());
  CHECK(fifo.status().message() == "not a regular file");
  CHECK(fifo.status().code() == canon::StatusCode::kFailedPrecondition);
  CHECK(canon::read_file(dir.path() / "missing").status().code() == canon::StatusCode::kNotFound);
  fs::create_directory(dir.path() / "dir.html");
  const auto directory = canon::read_file(dir.path() / "dir.html");
  REQUIRE_FALSE(directory.ok());
  CHECK(directory.status().message() == "not a regular file");
}

TEST_CASE("without_build_paths: a message names the destination, not the directory built beside it") {
  using canon::without_build_paths;
  CHECK(without_build_paths("cannot write '/srv/.index.building-4624/store/0.seg': No space left on device") ==
        "cannot write '/srv/index/store/0.seg': No space left on device");
  CHECK(without_build_paths("cannot sync /srv/.my.index.sharding-7") == "cannot sync /srv/my.index");
  CHECK(without_build_paths("process 1 of 3: '/a/.out.synth-42/x' and '/b/.out.building-9'") ==
        "process 1 of 3: '/a/out/x' and '/b/out'");
  // Anything else stays as it is.
  for (const char* kept : {"cannot read '/home/u/.config/canon'", "'/srv/.index.building-12ab/x'",
                           "'/srv/.index.building-'", "'/srv/index.building-12'"}) {
    CHECK(without_build_paths(kept) == kept);
  }
  const canon::Status status = canon::Status::io_error("cannot write '/srv/.index.building-1/pages.jsonl'");
  CHECK(without_build_paths(status).code() == canon::StatusCode::kIoError);
  CHECK(without_build_paths(status).message() == "cannot write '/srv/index/pages.jsonl'");
  CHECK(without_build_paths(canon::Status::ok_status()).ok());

  // The one message made before the build directory exists names the destination too.
  canon::testing::TempDir dir;
  dir.write("file", "not a directory");
  auto build = BuildDirectory::create(dir.path() / "file" / "out", "building");
  REQUIRE_FALSE(build.ok());
  CHECK(build.status().message().find(".building-") == std::string::npos);
  CHECK(build.status().message().find("cannot write '" + (dir.path() / "file" / "out").string() + "'") == 0);
}
