/// @file test_store_catalog.cpp
/// @brief The page store's catalog (store_catalog.h): what is written is read back field for
/// field, and a catalog that is damaged, cut, of another version or missing is refused with the
/// status that says which.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "common/file_io.h"
#include "store/store_catalog.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
using canon::StatusCode;
using canon::store::CatalogEntry;
using canon::store::StoreCatalog;
using canon::store::StoreLocation;

namespace {

/// A catalog with one entry of each kind.
StoreCatalog sample_catalog() {
  StoreCatalog catalog;
  catalog.fingerprint = {{"canon", "0.1.0"}, {"base_url", "http://localhost/"}, {"max_links", "100000"}};
  catalog.run_started_ns = 1'764'000'000'123'456'789;
  catalog.segments = {"3.seg", "7.seg"};
  catalog.next_segment = 9;
  catalog.urls = {"http://localhost/a.html", "http://localhost/b/", "https://example.org/x?y=1"};
  catalog.anchors = {"home", "std vector"};
  CatalogEntry indexed;
  indexed.path = "a.html";
  indexed.file.size = 12'345;
  indexed.file.mtime_ns = 1'763'000'000'000'000'001;
  indexed.content_hash = 0xfedcba9876543210u;
  indexed.cuts = {"links: 100000 of 123456 followed"};
  indexed.title = "Alpha — a title";
  indexed.heading = "Alpha";
  indexed.defined = {"alpha", "beta"};
  indexed.listed = {3, 17, 4000000000u};
  indexed.canonical_url = "http://localhost/a.html";
  indexed.links = {1, 2, 1};
  indexed.link_anchors = {1, UINT32_MAX, 0};  // the second link's text names nothing
  indexed.store_location = StoreLocation{1, 4096};
  indexed.store_bytes = 777;
  indexed.docid = 42;
  indexed.terms_digest = 1;
  indexed.fields_digest = UINT64_MAX;
  indexed.data_digest = 0x0123456789abcdefu;
  CatalogEntry redirect;
  redirect.path = "b/old.html";
  redirect.file.mtime_ns = -5;  // before 1970
  redirect.refresh_url = "http://localhost/b/";
  CatalogEntry noindex;
  noindex.path = "c.html";
  noindex.robots_noindex = true;
  noindex.links = {0};
  CatalogEntry unreadable;
  unreadable.path = "d.html";
  unreadable.unreadable = "binary file (not HTML)";
  catalog.files = {indexed, redirect, noindex, unreadable};
  return catalog;
}

void check_same(const CatalogEntry& a, const CatalogEntry& b) {
  CAPTURE(a.path);
  CHECK(a.path == b.path);
  CHECK(a.unreadable == b.unreadable);
  CHECK(a.file == b.file);
  CHECK(a.content_hash == b.content_hash);
  CHECK(a.cuts == b.cuts);
  CHECK(a.title == b.title);
  CHECK(a.heading == b.heading);
  CHECK(a.defined == b.defined);
  CHECK(a.listed == b.listed);
  CHECK(a.robots_noindex == b.robots_noindex);
  CHECK(a.canonical_url == b.canonical_url);
  CHECK(a.refresh_url == b.refresh_url);
  CHECK(a.links == b.links);
  CHECK(a.link_anchors == b.link_anchors);
  CHECK(a.store_location == b.store_location);
  CHECK(a.store_bytes == b.store_bytes);
  CHECK(a.docid == b.docid);
  CHECK(a.terms_digest == b.terms_digest);
  CHECK(a.fields_digest == b.fields_digest);
  CHECK(a.data_digest == b.data_digest);
}

std::string slurp(const fs::path& path) {
  auto bytes = canon::read_file(path);
  REQUIRE(bytes.ok());
  return bytes.value();
}

void overwrite(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace

TEST_CASE("a catalog is read back as it was written") {
  canon::testing::TempDir dir;
  const StoreCatalog written = sample_catalog();
  REQUIRE(canon::store::write_store_catalog(dir.path() / "catalog", written).ok());
  auto read = canon::store::read_store_catalog(dir.path() / "catalog");
  REQUIRE_MESSAGE(read.ok(), read.status().message());
  CHECK(read->fingerprint == written.fingerprint);
  CHECK(read->run_started_ns == written.run_started_ns);
  CHECK(read->segments == written.segments);
  CHECK(read->next_segment == written.next_segment);
  CHECK(read->urls == written.urls);
  CHECK(read->anchors == written.anchors);
  REQUIRE(read->files.size() == written.files.size());
  for (std::size_t i = 0; i < written.files.size(); ++i) check_same(read->files[i], written.files[i]);
}

TEST_CASE("a catalog written in parts, entry by entry, reads back as one catalog") {
  canon::testing::TempDir dir;
  StoreCatalog whole = sample_catalog();
  // Enough entries to flush the writers' buffers several times.
  const std::size_t first_files = whole.files.size();
  for (std::size_t copy = 0; copy < 40000; ++copy) {
    CatalogEntry e = whole.files[copy % first_files];
    e.path = "copies/" + std::to_string(copy) + "/" + e.path;
    whole.files.push_back(std::move(e));
  }
  StoreCatalog head = whole;
  head.urls.clear();
  head.anchors.clear();
  head.files.clear();
  // One part: the bytes of the catalog encoded whole.
  REQUIRE(canon::store::write_catalog_part(dir.path() / "part", whole.urls, whole.anchors, whole.files.size(),
                                           [&](std::size_t i) { return whole.files[i]; })
              .ok());
  REQUIRE(canon::store::write_store_catalog_of_parts(dir.path() / "streamed", head, {dir.path() / "part"}).ok());
  const std::string bytes = slurp(dir.path() / "streamed");
  CHECK(bytes.size() > (std::size_t{3} << 20));
  CHECK(bytes == canon::store::encode_store_catalog(whole));
  // Three parts (one empty), each with its own tables: the files in order, their links and
  // texts the same strings.
  const std::vector<std::size_t> cuts = {0, 100, 100, whole.files.size()};
  std::vector<fs::path> parts;
  for (std::size_t p = 0; p + 1 < cuts.size(); ++p) {
    parts.push_back(dir.path() / ("part-" + std::to_string(p)));
    // The part's tables: the whole tables reversed, so that every id moves.
    std::vector<std::string> urls(whole.urls.rbegin(), whole.urls.rend());
    std::vector<std::string> anchors(whole.anchors.rbegin(), whole.anchors.rend());
    REQUIRE(canon::store::write_catalog_part(parts.back(), urls, anchors, cuts[p + 1] - cuts[p], [&](std::size_t i) {
              CatalogEntry e = whole.files[cuts[p] + i];
              for (std::uint32_t& link : e.links) link = static_cast<std::uint32_t>(whole.urls.size() - 1 - link);
              for (std::uint32_t& text : e.link_anchors) {
                if (text != UINT32_MAX) text = static_cast<std::uint32_t>(whole.anchors.size() - 1 - text);
              }
              return e;
            }).ok());
  }
  REQUIRE(canon::store::write_store_catalog_of_parts(dir.path() / "joined", head, parts).ok());
  auto read = canon::store::read_store_catalog(dir.path() / "joined");
  REQUIRE_MESSAGE(read.ok(), read.status().message());
  CHECK(read->segments == whole.segments);
  CHECK(read->urls.size() == 3 * whole.urls.size());
  REQUIRE(read->files.size() == whole.files.size());
  for (std::size_t i = 0; i < whole.files.size(); i += 97) {
    CAPTURE(i);
    const CatalogEntry& got = read->files[i];
    const CatalogEntry& want = whole.files[i];
    CHECK(got.path == want.path);
    REQUIRE(got.links.size() == want.links.size());
    for (std::size_t k = 0; k < want.links.size(); ++k) CHECK(read->urls[got.links[k]] == whole.urls[want.links[k]]);
    REQUIRE(got.link_anchors.size() == want.link_anchors.size());
    for (std::size_t k = 0; k < want.link_anchors.size(); ++k) {
      if (want.link_anchors[k] == UINT32_MAX) {
        CHECK(got.link_anchors[k] == UINT32_MAX);
      } else {
        CHECK(read->anchors[got.link_anchors[k]] == whole.anchors[want.link_anchors[k]]);
      }
    }
  }
  // A part whose entry refers past its own table is refused.
  REQUIRE(canon::store::write_catalog_part(dir.path() / "bad", {"http://only/"}, {}, 1, [&](std::size_t) {
            CatalogEntry e = whole.files[0];
            e.links = {1};
            e.link_anchors.clear();
            return e;
          }).ok());
  REQUIRE(canon::store::write_store_catalog_of_parts(dir.path() / "bad-catalog", head, {dir.path() / "bad"}).ok());
  CHECK(canon::store::read_store_catalog(dir.path() / "bad-catalog").status().code() == StatusCode::kCorruption);
}

TEST_CASE("a catalog that does not check out is refused with the status that says why") {
  canon::testing::TempDir dir;
  const fs::path path = dir.path() / "catalog";
  REQUIRE(canon::store::write_store_catalog(path, sample_catalog()).ok());
  const std::string bytes = slurp(path);
  const std::size_t version_at = std::string("canon page store catalog\n").size();
  struct Case {
    const char* what;
    std::string bytes;
    StatusCode code;
  };
  std::string flipped = bytes;
  flipped[bytes.size() / 2] = static_cast<char>(flipped[bytes.size() / 2] ^ 1);
  std::string other_version = bytes;
  other_version[version_at] = static_cast<char>(other_version[version_at] + 1);
  const Case cases[] = {
      {"a flipped bit", flipped, StatusCode::kCorruption},
      {"cut short", bytes.substr(0, bytes.size() - 9), StatusCode::kCorruption},
      {"only the magic", bytes.substr(0, version_at), StatusCode::kCorruption},
      {"empty", "", StatusCode::kCorruption},
      {"another file", "<html>not a catalog</html>", StatusCode::kCorruption},
      {"another format version", other_version, StatusCode::kFailedPrecondition},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    overwrite(path, c.bytes);
    auto read = canon::store::read_store_catalog(path);
    REQUIRE_FALSE(read.ok());
    CHECK(read.status().code() == c.code);
  }
  fs::remove(path);
  CHECK(canon::store::read_store_catalog(path).status().code() == StatusCode::kNotFound);
}

TEST_CASE("page facts: read back as written; bytes that do not decode mark the reader bad") {
  using canon::store::PageFacts;
  PageFacts facts;
  facts.file.size = 1'234'567;
  facts.file.mtime_ns = -5;  // before the epoch: kept as written
  facts.content_hash = 0xFEDCBA9876543210ULL;
  facts.cuts = {"title: 2000000 bytes, the first 1024 kept"};
  facts.encoding = "windows-1252";
  facts.encoding_source = "meta";
  facts.title = "Crème brûlée";
  facts.heading = "Heading";
  facts.defined = {"std::map", "std::map::at"};
  facts.listed = {0, 7, UINT32_MAX};
  facts.robots_noindex = true;
  facts.refresh_url = "http://localhost/next.html";
  std::string bytes;
  canon::store::encode_page_facts(facts, bytes);
  canon::codec::Reader in(bytes);
  const PageFacts back = canon::store::decode_page_facts(in);
  CHECK(in.ok());
  CHECK(in.at_end());
  CHECK(back.file == facts.file);
  CHECK(back.content_hash == facts.content_hash);
  CHECK(back.cuts == facts.cuts);
  CHECK(back.encoding == facts.encoding);
  CHECK(back.encoding_source == facts.encoding_source);
  CHECK(back.title == facts.title);
  CHECK(back.heading == facts.heading);
  CHECK(back.defined == facts.defined);
  CHECK(back.listed == facts.listed);
  CHECK(back.robots_noindex);
  CHECK_FALSE(back.canonical_url);
  CHECK(back.refresh_url == facts.refresh_url);

  // Every prefix of the bytes is too short to decode.
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    CAPTURE(cut);
    canon::codec::Reader short_in(std::string_view(bytes).substr(0, cut));
    canon::store::decode_page_facts(short_in);
    CHECK_FALSE(short_in.ok());
  }
  // Listed entries that do not increase.
  PageFacts repeated;
  repeated.listed = {3, 3};
  std::string repeated_bytes;
  canon::store::encode_page_facts(repeated, repeated_bytes);
  canon::codec::Reader repeated_in(repeated_bytes);
  canon::store::decode_page_facts(repeated_in);
  CHECK_FALSE(repeated_in.ok());
}
