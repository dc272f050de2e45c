/// @file test_page_store.cpp
/// @brief The page store: pages read back as written, at their offsets, from many threads; a
/// damaged or cut store is reported, never read as another page.
#include <doctest/doctest.h>

#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "store/page_store.h"
#include "support/temp_dir.h"

using canon::store::PageStoreReader;
using canon::store::PageStoreWriter;
using canon::store::StoredPage;
using canon::store::StoreOffset;

namespace {

bool same(const StoredPage& a, const StoredPage& b) {
  return a.title == b.title && a.text == b.text && a.headings == b.headings && a.main_heading == b.main_heading &&
         a.meta_keywords == b.meta_keywords && a.meta_description == b.meta_description &&
         a.same_site_anchors == b.same_site_anchors && a.other_site_anchors == b.other_site_anchors &&
         a.cited_place == b.cited_place && a.document == b.document;
}

StoredPage random_page(std::mt19937& random) {
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> length(0, 300);
  std::uniform_int_distribution<int> count(0, 4);
  const auto text = [&] {
    std::string t(static_cast<std::size_t>(length(random)), '\0');
    for (char& c : t) c = static_cast<char>(byte(random));
    return t;
  };
  const auto list = [&] {
    std::vector<std::string> l(static_cast<std::size_t>(count(random)));
    for (auto& t : l) t = text();
    return l;
  };
  StoredPage page;
  page.title = text();
  page.text = text();
  page.headings = list();
  page.main_heading = text();
  page.meta_keywords = text();
  page.meta_description = text();
  page.same_site_anchors = list();
  page.other_site_anchors = list();
  page.cited_place = text();
  page.document = text();
  return page;
}

}  // namespace

TEST_CASE("pages come back as written, at their offsets, in any order and from many threads") {
  canon::testing::TempDir dir;
  const auto path = dir.path() / "0.store";
  std::mt19937 random(11);
  std::vector<StoredPage> pages;
  StoredPage empty;
  pages.push_back(empty);
  StoredPage large;
  large.text.assign(3u << 20, 'x');  // past the writer's 1 MiB buffer
  large.headings = {"", "é", std::string("nul\0inside", 10)};
  pages.push_back(large);
  for (int i = 0; i < 300; ++i) pages.push_back(random_page(random));

  std::vector<StoreOffset> offsets;
  {
    auto writer = PageStoreWriter::create(path);
    REQUIRE(writer.ok());
    for (const StoredPage& page : pages) {
      auto offset = writer.value()->append(page);
      REQUIRE(offset.ok());
      offsets.push_back(offset.value());
    }
    REQUIRE(writer.value()->finish().ok());
  }
  auto reader = PageStoreReader::open(path);
  REQUIRE(reader.ok());
  std::vector<int> wrong(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t k = 0; k < pages.size(); ++k) {
        const std::size_t i = (k * 7 + static_cast<std::size_t>(t) * 13) % pages.size();  // each thread its own order
        auto page = reader.value()->read(offsets[i]);
        if (!page.ok() || !same(page.value(), pages[i])) ++wrong[t];
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(wrong == std::vector<int>(4, 0));
  // dedup_view shows the page's texts.
  const auto view = pages[1].dedup_view("http://a/");
  CHECK(view.url == "http://a/");
  CHECK(view.text.size() == (3u << 20));
  CHECK(view.headings.size() == 3);
}

TEST_CASE("a damaged, cut or misaddressed store is reported as corruption") {
  canon::testing::TempDir dir;
  const auto path = dir.path() / "0.store";
  StoredPage page;
  page.title = "Apples";
  page.text = "apples and pears";
  page.document = "doc";
  StoreOffset second = 0;
  {
    auto writer = PageStoreWriter::create(path);
    REQUIRE(writer.ok());
    REQUIRE(writer.value()->append(page).ok());
    second = writer.value()->append(page).value();
    REQUIRE(writer.value()->finish().ok());
  }
  auto reader = PageStoreReader::open(path);
  REQUIRE(reader.ok());
  REQUIRE(reader.value()->read(second).ok());
  // Not the start of a record, past the end.
  for (const StoreOffset offset : {StoreOffset{1}, second - 1, second + 3, StoreOffset{1} << 40}) {
    CAPTURE(offset);
    const auto read = reader.value()->read(offset);
    REQUIRE_FALSE(read.ok());
    CHECK(read.status().code() == canon::StatusCode::kCorruption);
  }
  // A byte changed in the first record's payload: its hash no longer matches.
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(12 + 2);
    file.put('X');
  }
  CHECK(reader.value()->read(0).status().code() == canon::StatusCode::kCorruption);
  CHECK(reader.value()->read(second).ok());
  // The file cut short: the second record is no longer whole.
  std::filesystem::resize_file(path, second + 14);
  CHECK(reader.value()->read(second).status().code() == canon::StatusCode::kCorruption);

  CHECK(PageStoreReader::open(dir.path() / "missing.store").status().code() == canon::StatusCode::kIoError);
  CHECK(PageStoreWriter::create(dir.path() / "no" / "dir.store").status().code() == canon::StatusCode::kIoError);
}
