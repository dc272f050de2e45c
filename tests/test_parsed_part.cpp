/// @file test_parsed_part.cpp
/// @brief A parsed part (indexer/partitioned/parsed_part.h): encoded and decoded, saved and loaded as it was;
/// damaged bytes refused with the reason; parts that do not cover a site refused before a merge.
/// That merged parts give the one-process index is test_partitioned_build's.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dedup/detectors/detector.h"
#include "dedup/detectors/registry.h"
#include "indexer/partitioned/parsed_part.h"
#include "support/temp_dir.h"

using canon::StatusCode;
using canon::indexer::detail::decode_parsed_part;
using canon::indexer::detail::encode_parsed_part;
using canon::indexer::detail::load_parsed_part;
using canon::indexer::detail::ParsedPart;
using canon::indexer::detail::save_parsed_part;

namespace {

/// A part of files [3, 6): an indexed page, a redirect and an unreadable file.
ParsedPart sample_part(bool with_detector_state) {
  ParsedPart part;
  part.first_file = 3;
  part.end_file = 6;
  canon::store::StoreCatalog& catalog = part.catalog.emplace();
  catalog.segments = {"segment-1", "segment-2"};
  catalog.urls = {"https://example.org/a.html", "https://example.org/b.html"};
  catalog.anchors = {"a page"};
  canon::store::CatalogEntry page;
  page.path = "a.html";
  page.title = "A page";
  page.links = {1};
  page.link_anchors = {0};
  page.store_location = canon::store::StoreLocation{1, 4096};
  page.store_bytes = 812;
  canon::store::CatalogEntry redirect;
  redirect.path = "old.html";
  redirect.refresh_url = "https://example.org/a.html";
  canon::store::CatalogEntry unreadable;
  unreadable.path = "logo.html";
  unreadable.unreadable = "not HTML";
  catalog.files = {page, redirect, unreadable};
  if (with_detector_state) part.detector_state = std::string("state\0bytes", 11);
  return part;
}

void check_same(const ParsedPart& a, const ParsedPart& b) {
  CHECK(a.first_file == b.first_file);
  CHECK(a.end_file == b.end_file);
  CHECK(a.detector_state == b.detector_state);
  REQUIRE(a.catalog.has_value() == b.catalog.has_value());
  if (a.catalog) CHECK(canon::store::encode_store_catalog(*a.catalog) == canon::store::encode_store_catalog(*b.catalog));
}

}  // namespace

TEST_CASE("a parsed part is read back as it was encoded and as it was saved") {
  canon::testing::TempDir dir;
  for (const int form : {0, 1, 2}) {  // entries and a state, entries only, a state only
    CAPTURE(form);
    const bool with_state = form != 1;
    ParsedPart part = sample_part(with_state);
    if (form == 2) part.catalog.reset();
    auto decoded = decode_parsed_part(encode_parsed_part(part), "a part");
    REQUIRE_MESSAGE(decoded.ok(), decoded.status().message());
    check_same(decoded.value(), part);

    const auto path = dir.path() / ("form-" + std::to_string(form));
    REQUIRE(save_parsed_part(path, part).ok());
    auto loaded = load_parsed_part(path);
    REQUIRE_MESSAGE(loaded.ok(), loaded.status().message());
    check_same(loaded.value(), part);
  }
  auto missing = load_parsed_part(dir.path() / "none");
  CHECK_FALSE(missing.ok());
  CHECK(missing.status().message().find("none") != std::string::npos);
}

TEST_CASE("a parsed part that does not check out is refused with the status that says why") {
  const std::string bytes = encode_parsed_part(sample_part(true));
  // Every cut is refused: nothing decodes from a part cut short.
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    CAPTURE(size);
    CHECK(decode_parsed_part(bytes.substr(0, size), "part").status().code() == StatusCode::kCorruption);
  }
  CHECK(decode_parsed_part(bytes + "x", "part").status().code() == StatusCode::kCorruption);
  CHECK(decode_parsed_part("canon-catalog", "part").status().message() == "part is not a parsed part");

  std::string other_version = bytes;
  other_version[std::string_view("canon-part").size()] = 9;
  const auto refused = decode_parsed_part(other_version, "part");
  CHECK(refused.status().code() == StatusCode::kFailedPrecondition);
  CHECK(refused.status().message() == "part is a parsed part of format 9, not 2");

  // A range that is not its files' count.
  ParsedPart wider = sample_part(false);
  wider.end_file = 7;
  const auto wrong = decode_parsed_part(encode_parsed_part(wider), "part");
  CHECK(wrong.status().code() == StatusCode::kCorruption);
  CHECK(wrong.status().message() == "part holds 3 files, its range 4");

  // Files with neither entries nor a detector state: nothing a receiver could take over.
  ParsedPart empty = sample_part(false);
  empty.catalog.reset();
  const auto bare = decode_parsed_part(encode_parsed_part(empty), "part");
  CHECK(bare.status().code() == StatusCode::kCorruption);
  CHECK(bare.status().message() == "part holds neither entries nor a detector state for its 3 files");
}

TEST_CASE("a part's catalog holds the URLs and link texts of its own files only, renumbered") {
  using canon::indexer::kNoRecord;
  // The run's tables: ten URLs and six texts; the part is files [3, 5) of five.
  const std::vector<std::string> url_strings{"u0", "u1", "u2", "u3", "u4", "u5", "u6", "u7", "u8", "u9"};
  const std::vector<std::string> text_strings{"t0", "t1", "t2", "t3", "t4", "t5"};
  const std::vector<std::string_view> urls(url_strings.begin(), url_strings.end());
  const std::vector<std::string_view> texts(text_strings.begin(), text_strings.end());
  std::vector<canon::indexer::PageRecord> records(5);
  for (canon::indexer::PageRecord& r : records) r.parsed = true;
  records[0].links = {0, 1};  // outside the part: its URLs stay out
  records[0].link_anchors = {0, 1};
  records[3].links = {7, 2, 7};
  records[3].link_anchors = {kNoRecord, 4, 4};
  records[4].links = {2, 9};
  records[4].link_anchors = {5, kNoRecord};
  canon::indexer::detail::RunStore store;
  store.names = {"segment-1"};
  auto detector = canon::dedup::make_detector("minhash", {});
  REQUIRE(detector.ok());
  detector.value()->reset(5);

  const ParsedPart whole = canon::indexer::detail::make_parsed_part(records, 3, 5, store, urls, texts, *detector.value());
  REQUIRE(whole.catalog.has_value());
  const canon::store::StoreCatalog& catalog = *whole.catalog;
  CHECK(catalog.urls == std::vector<std::string>{"u7", "u2", "u9"});
  CHECK(catalog.anchors == std::vector<std::string>{"t4", "t5"});
  REQUIRE(catalog.files.size() == 2);
  CHECK(catalog.files[0].links == std::vector<std::uint32_t>{0, 1, 0});
  CHECK(catalog.files[0].link_anchors == std::vector<std::uint32_t>{kNoRecord, 0, 0});
  CHECK(catalog.files[1].links == std::vector<std::uint32_t>{1, 2});
  CHECK(catalog.files[1].link_anchors == std::vector<std::uint32_t>{1, kNoRecord});
  // Each file's links name the URLs they named in the run's table.
  for (std::size_t k = 0; k < 2; ++k) {
    for (std::size_t l = 0; l < records[3 + k].links.size(); ++l) {
      CHECK(catalog.urls[catalog.files[k].links[l]] == url_strings[records[3 + k].links[l]]);
    }
  }
}

TEST_CASE("a part made for the other processes carries the detector's state alone, or entries without links") {
  using canon::indexer::detail::PartContent;
  const std::vector<std::string> url_strings{"u0", "u1"};
  const std::vector<std::string_view> urls(url_strings.begin(), url_strings.end());
  std::vector<canon::indexer::PageRecord> records(4);
  for (canon::indexer::PageRecord& r : records) {
    r.parsed = true;
    r.links = {1, 0};
  }
  canon::indexer::detail::RunStore store;
  store.names = {"segment-1"};
  for (const char* name : {"minhash", "exact"}) {
    CAPTURE(name);
    auto detector = canon::dedup::make_detector(name, {});
    REQUIRE(detector.ok());
    detector.value()->reset(4);
    const ParsedPart part = canon::indexer::detail::make_parsed_part(records, 1, 4, store, urls, {}, *detector.value(),
                                                                     PartContent::kForTakeOver);
    CHECK(part.first_file == 1);
    CHECK(part.end_file == 4);
    const bool stateful = detector.value()->encode_added(1, 4).has_value();
    CHECK(stateful == (std::string_view(name) == "minhash"));
    CHECK(part.detector_state.has_value() == stateful);
    // The state stands for the files; without one, the receivers need their entries (their
    // stored pages' places), and none of their links.
    REQUIRE(part.catalog.has_value() == !stateful);
    auto decoded = decode_parsed_part(encode_parsed_part(part), "part");
    REQUIRE_MESSAGE(decoded.ok(), decoded.status().message());
    check_same(decoded.value(), part);
    if (!part.catalog) continue;
    CHECK(part.catalog->files.size() == 3);
    CHECK(part.catalog->urls.empty());
    for (const canon::store::CatalogEntry& e : part.catalog->files) CHECK(e.links.empty());
  }
}
