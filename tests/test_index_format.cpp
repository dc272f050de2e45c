/// @file test_index_format.cpp
/// @brief The index directory's layout, the one "is this a canon index" test, and the
/// alternates' text form.
#include <doctest/doctest.h>
#include <xapian.h>

#include <string>
#include <vector>

#include "format/alternates.h"
#include "format/index_format.h"
#include "support/canon_index.h"
#include "support/temp_dir.h"

namespace fmt = canon::index_format;

TEST_CASE("check_canon_index: a directory whose xapian/ database canon wrote, and nothing else") {
  canon::testing::TempDir dir;
  const auto message = [](const std::filesystem::path& p) { return fmt::check_canon_index(p).message(); };

  CHECK(message(dir.path() / "missing").find("does not exist") != std::string::npos);
  CHECK(message(dir.write("file", "x")).find("is not a canon index (not a directory, nor a stub file listing shards") != std::string::npos);
  CHECK(message(dir.path()).find("is not a canon index (no xapian/ inside)") != std::string::npos);

  std::filesystem::create_directories(dir.path() / "broken" / "xapian");
  CHECK(message(dir.path() / "broken").find("cannot open the index at") != std::string::npos);

  {  // omindex's database, or anyone's: no canon metadata.
    std::filesystem::create_directories(dir.path() / "other");
    Xapian::WritableDatabase other((dir.path() / "other" / "xapian").string(), Xapian::DB_CREATE_OR_OVERWRITE);
    other.commit();
  }
  CHECK(message(dir.path() / "other").find("was not written by canon") != std::string::npos);

  canon::testing::make_empty_canon_index(dir.path() / "index");
  CHECK(fmt::check_canon_index(dir.path() / "index").ok());

  // Callers decide by code, not by text.
  using canon::StatusCode;
  CHECK(fmt::check_canon_index(dir.path() / "missing").code() == StatusCode::kNotFound);
  CHECK(fmt::check_canon_index(dir.path()).code() == StatusCode::kFailedPrecondition);
  CHECK(fmt::check_canon_index(dir.path() / "other").code() == StatusCode::kFailedPrecondition);
  CHECK(fmt::check_canon_index(dir.path() / "broken").code() == StatusCode::kCorruption);
}

TEST_CASE("index layout: every file of an index named in one place") {
  const fmt::IndexLayout index{"/srv/site-index"};
  CHECK(index.xapian() == "/srv/site-index/xapian");
  CHECK(index.pages() == "/srv/site-index/pages.jsonl");
  CHECK(index.graph() == "/srv/site-index/graph.tsv");
  CHECK(index.pairs() == "/srv/site-index/pairs.tsv");
  CHECK(index.summary() == "/srv/site-index/summary.json");
}

TEST_CASE("alternates: encoded once, decoded back; damaged text gives none, never an error") {
  const std::vector<fmt::Alternate> alternates = {
      {"http://localhost/print/a.html", "A \"quoted\" title\nwith a newline", 0.97},
      {"http://localhost/b.html", "", 0.5}};
  const std::string text = fmt::encode_alternates(alternates);
  CHECK(text ==
        R"([{"similarity":0.97,"title":"A \"quoted\" title\nwith a newline","url":"http://localhost/print/a.html"},)"
        R"({"similarity":0.5,"title":"","url":"http://localhost/b.html"}])");
  CHECK(text.find('\n') == std::string::npos);  // one document data line
  const auto back = fmt::decode_alternates(text);
  REQUIRE(back.size() == 2);
  CHECK(back[0].url == alternates[0].url);
  CHECK(back[0].title == alternates[0].title);
  CHECK(back[0].similarity == 0.97);
  CHECK(back[1].url == alternates[1].url);
  CHECK(fmt::encode_alternates({}) == "[]");

  struct Damaged {
    const char* text;
    std::size_t decoded;
  };
  for (const Damaged& d : {Damaged{"", 0}, Damaged{"not json", 0}, Damaged{"{\"url\":\"x\"}", 0},
                           Damaged{"[1, \"x\", {\"url\":\"u\"}]", 1}, Damaged{"[{\"url\":\"u\"", 0}}) {
    CAPTURE(d.text);
    CHECK(fmt::decode_alternates(d.text).size() == d.decoded);
  }
}
