/// @file test_index_writer.cpp
/// @brief The Xapian layout written by IndexWriter, read back with Xapian itself.
#include <doctest/doctest.h>
#include <xapian.h>

#include <cmath>
#include <map>
#include <optional>
#include <thread>
#include <vector>

#include "format/index_format.h"
#include "indexer/stages/index_writer.h"
#include "format/page_place.h"
#include "format/text_head.h"
#include "support/temp_dir.h"

namespace fmt = canon::index_format;
using canon::indexer::IndexedPage;
using canon::indexer::IndexWriter;

namespace {

IndexedPage sample_page() {
  IndexedPage page;
  page.url = "http://localhost/docs/install.html";
  page.title = "Installing Tern";
  page.meta_description = "How to install Tern on Debian";
  page.meta_keywords = "install, setup";
  page.headings = {"Installing Tern", "From packages"};
  page.main_text = "Run apt-get install tern. Then configure the backups.\nSecond line.";
  page.cluster_pagerank = 0.125;
  page.cluster_id = 7;
  page.alternates = {{"http://localhost/print/install.html", "Installing Tern (print)", 0.97}};
  return page;
}

std::string data_value(const std::string& data, const std::string& key) {
  const std::string needle = key + "=";
  std::size_t pos = data.rfind("\n" + needle);
  pos = data.starts_with(needle) ? 0 : (pos == std::string::npos ? pos : pos + 1);
  if (pos == std::string::npos) return "<missing>";
  const std::size_t end = data.find('\n', pos);
  return data.substr(pos + needle.size(), end - pos - needle.size());
}

}  // namespace

TEST_CASE("a page becomes one document with Omega's terms, values and data") {
  canon::testing::TempDir dir;
  const std::string path = (dir.path() / "db").string();
  auto writer = IndexWriter::create(path);
  REQUIRE(writer.ok());
  REQUIRE(writer.value()->add(sample_page()).ok());
  REQUIRE(writer.value()->finish().ok());

  Xapian::Database db(path);
  REQUIRE(db.get_doccount() == 1);
  const Xapian::Document doc =
      db.get_document(*db.postlist_begin(fmt::url_term(sample_page().url)));
  CHECK(db.term_exists("Uhttp://localhost/docs/install.html"));
  CHECK(db.term_exists("Hlocalhost"));
  CHECK(db.term_exists("P/docs"));  // omindex's P: the directories the page is in
  CHECK_FALSE(db.term_exists("P/docs/install.html"));
  CHECK(db.term_exists("Ttext/html"));
  CHECK(db.term_exists("Sinstalling"));  // title term with the title prefix

  CHECK(db.term_exists("XTinstalling tern"));  // the whole title, for exact-title matches
  CHECK(db.term_exists("ZSinstal"));
  CHECK(db.term_exists("backups"));  // unstemmed body term
  CHECK(db.term_exists("Zbackup"));  // stemmed body term
  CHECK(db.term_exists("Ksetup"));

  CHECK(Xapian::sortable_unserialise(doc.get_value(fmt::kStaticScoreSlot)) ==
        doctest::Approx(0.125));
  CHECK(doc.get_value(fmt::kClusterSlot) == "7");
  // ln(1 + N * PageRank) with the default N = 1.
  CHECK(Xapian::sortable_unserialise(doc.get_value(fmt::kStaticWeightSlot)) ==
        doctest::Approx(std::log1p(0.125)));
  // No source file: none of Omega's file values.
  CHECK(doc.get_value(fmt::kLastModifiedSlot).empty());
  CHECK(doc.get_value(fmt::kSizeSlot).empty());
  CHECK(db.get_metadata("canon_collapse") == "index");

  const std::string data = doc.get_data();
  CHECK(data_value(data, "url") == "http://localhost/docs/install.html");
  CHECK(data_value(data, "caption") == "Installing Tern");
  CHECK(data_value(data, "sample") == "How to install Tern on Debian");
  CHECK(data_value(data, "type") == "text/html");
  // The text's head is a value, not a data line (newlines in a data line become spaces).
  CHECK(data_value(data, "canon_text") == "<missing>");
  CHECK(fmt::decode_text_head(doc.get_value(fmt::kTextHeadSlot)) ==
        "Run apt-get install tern. Then configure the backups.\nSecond line.");
  CHECK(doc.get_value(fmt::kTextTailSlot).empty());  // the text fits in the head
  CHECK(data_value(data, "canon_alternates").find("\"http://localhost/print/install.html\"") !=
        std::string::npos);
}

TEST_CASE("re-adding a URL replaces its document") {
  canon::testing::TempDir dir;
  const std::string path = (dir.path() / "db").string();
  auto writer = IndexWriter::create(path);
  REQUIRE(writer.ok());
  IndexedPage page = sample_page();
  REQUIRE(writer.value()->add(page).ok());
  page.title = "Installing Tern, revised";
  REQUIRE(writer.value()->add(page).ok());
  REQUIRE(writer.value()->finish().ok());
  Xapian::Database db(path);
  CHECK(db.get_doccount() == 1);
  CHECK(db.term_exists("Srevised"));
}

TEST_CASE("URL terms stay within Xapian's term length and stay unique") {
  const std::string base = "http://localhost/" + std::string(300, 'a');
  const std::string a = fmt::url_term(base + "1.html");
  const std::string b = fmt::url_term(base + "2.html");
  CHECK(a.size() <= 240);
  CHECK(a != b);
  CHECK(fmt::url_term("http://x/") == "Uhttp://x/");
}

TEST_CASE("long URL terms are hashed exactly as omindex 1.4 hashes them") {
  // The term omindex 1.4.22 wrote for this URL (a file named 240 'a's + "Ab.html" indexed with
  // --url http://localhost/): the first 234 bytes of the term, then 6 bytes of hash.
  const std::string url = "http://localhost/" + std::string(240, 'a') + "Ab.html";
  const std::string expected = ("U" + url).substr(0, 234) + "@W/(A#";
  CHECK(fmt::url_term(url) == expected);
  CHECK(fmt::url_term("http://localhost/" + std::string(222, 'a')).size() == 240);  // 240: not cut
  CHECK(fmt::url_term("http://localhost/" + std::string(222, 'a')).back() == 'a');
  CHECK(fmt::hash_long_term("short") == "short");
}

TEST_CASE("exact-title terms: the title's words, lowercased, joined by single spaces") {
  const struct {
    const char* text;
    const char* term;
  } cases[] = {
      {"Bytes Objects", "XTbytes objects"},
      {"File (Java SE 17 & JDK 17)", "XTfile java se 17 jdk 17"},
      {"file java se 17 jdk 17", "XTfile java se 17 jdk 17"},  // a query of the same words
      {"std::max - cppreference.com", "XTstd max cppreference com"},
      {"  Ünïcode\twords — Ωmega", "XTünïcode words ωmega"},  // Unicode letters, lowercased
      {"", ""},
      {" — & ", ""},  // no word: no term
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    CHECK(fmt::exact_title_term(c.text) == c.term);
  }
  const std::string long_title(300, 'a');
  CHECK(fmt::exact_title_term(long_title).size() == fmt::kMaxBooleanTermLength);
}

TEST_CASE("exact-title terms within a query: the whole query, then every run of two or more words") {
  using Terms = std::vector<std::string>;
  CHECK(fmt::exact_title_terms_within("") == Terms{});
  CHECK(fmt::exact_title_terms_within("Bytes") == Terms{"XTbytes"});
  CHECK(fmt::exact_title_terms_within("bytes objects") == Terms{"XTbytes objects"});
  CHECK(fmt::exact_title_terms_within("Timer (JDK 17) class") ==
        Terms{"XTtimer jdk 17 class", "XTtimer jdk 17", "XTjdk 17 class", "XTtimer jdk", "XTjdk 17", "XT17 class"});
  // Only the first max_words words make runs; the whole query stays whole.
  CHECK(fmt::exact_title_terms_within("a b c d", 3) == Terms{"XTa b c d", "XTa b c", "XTa b", "XTb c"});
  const std::string many_words = [] {
    std::string text;
    for (int i = 0; i < 100; ++i) text += "w" + std::to_string(i) + " ";
    return text;
  }();
  CHECK(fmt::exact_title_terms_within(many_words).size() == 1 + 15 * 16 / 2);  // the whole query; runs of 2..16 of the first 16 words: 15 + 14 + ... + 1
}

TEST_CASE("anchor terms: a link's words as titles' are, caseless and as written") {
  CHECK(fmt::exact_anchor_term("std::vector") == "XAstd vector");
  CHECK(fmt::exact_anchor_term("  HashMap ") == "XAhashmap");
  CHECK(fmt::exact_anchor_term("(constructor)") == "XAconstructor");
  CHECK(fmt::exact_anchor_term("→ ·") == "");
  CHECK(fmt::exact_anchor_term(std::string(300, 'x')).size() == fmt::kMaxBooleanTermLength);
  CHECK(fmt::exact_words("std::map<K, V>::~map") == "std map k v map");
  // The cased terms keep the case, with Omega's ':' before a capital.
  CHECK(fmt::words_as_written("std::Map<K>") == "std Map K");
  CHECK(fmt::cased_anchor_term("Copy") == "XC:Copy");
  CHECK(fmt::cased_anchor_term("copy") == "XCcopy");
  CHECK(fmt::cased_anchor_term("...") == "");
  CHECK(fmt::cased_anchor_term("Option map") == "XC:Option map");
  CHECK(fmt::exact_title_term("Éclair") == "XTéclair");
}

TEST_CASE("the texts other pages link with are boolean anchor terms, with a count term per doubling") {
  CHECK(fmt::anchor_count_levels(0) == 0);
  CHECK(fmt::anchor_count_levels(1) == 0);
  CHECK(fmt::anchor_count_levels(2) == 1);
  CHECK(fmt::anchor_count_levels(3) == 1);
  CHECK(fmt::anchor_count_levels(4) == 2);
  CHECK(fmt::anchor_count_levels(255) == 7);
  CHECK(fmt::anchor_count_levels(256) == 8);
  CHECK(fmt::anchor_count_levels(UINT32_MAX) == fmt::kAnchorCountLevels);
  CHECK(fmt::anchor_count_term("XAmap", 3) == "XAmap#3");
  CHECK(fmt::anchor_count_term(std::string(240, 'x'), 1).size() == fmt::kMaxBooleanTermLength);

  canon::testing::TempDir dir;
  const std::string path = (dir.path() / "db").string();
  auto writer = IndexWriter::create(path);
  REQUIRE(writer.ok());
  IndexedPage page;
  page.url = "http://localhost/map.html";
  page.title = "std::map";
  page.main_text = "An associative container.";
  IndexedPage plain = page;
  plain.url = "http://localhost/plain.html";
  page.anchors = {{"map", 7}, {"std map", 2}, {"Map", 1}, {"home", 0}};
  page.places = {"Insert", "find"};
  REQUIRE(writer.value()->add(page).ok());
  REQUIRE(writer.value()->add(plain).ok());
  REQUIRE(writer.value()->finish().ok());
  Xapian::Database db(path);
  std::map<std::string, Xapian::termcount> anchor_terms;
  const Xapian::Document doc = db.get_document(1);
  for (auto term = doc.termlist_begin(); term != doc.termlist_end(); ++term) {
    if ((*term).starts_with("XA") || (*term).starts_with("XC") || (*term).starts_with("XP")) {
      anchor_terms[*term] = term.get_wdf();
    }
  }
  // 7 pages: levels 1-2; 2 pages: level 1; texts alike but for case are one caseless term, of
  // all their pages (7 + 1: levels 1-3).
  CHECK(anchor_terms == std::map<std::string, Xapian::termcount>{
                            {"XAhome", 0}, {"XAmap", 0}, {"XAmap#1", 0}, {"XAmap#2", 0}, {"XAmap#3", 0},
                            {"XAstd map", 0}, {"XAstd map#1", 0}, {"XChome", 0}, {"XC:Map", 0}, {"XCmap", 0},
                            {"XCmap#1", 0}, {"XCmap#2", 0}, {"XCstd map", 0}, {"XCstd map#1", 0},
                            {"XPfind", 0}, {"XPinsert", 0}});  // place names: caseless, no counts
  // Boolean: the page is as long as it would be without them.
  CHECK(db.get_doclength(1) == db.get_doclength(2));
}

TEST_CASE("canon_place: a JSON array of the crumbs; damaged text gives none") {
  using V = std::vector<std::string>;
  CHECK(fmt::encode_place({"Python", "Library \"std\""}) == R"(["Python","Library \"std\""])");
  CHECK(fmt::decode_place(fmt::encode_place({"a", "é"})) == V{"a", "é"});
  CHECK(fmt::decode_place("not json").empty());
  CHECK(fmt::decode_place(R"({"a": 1})").empty());
  CHECK(fmt::decode_place(R"(["a", 2, null, "b"])") == V{"a", "b"});
  CHECK(fmt::encode_place({std::string("bad \xff byte")}) == "[\"bad \xEF\xBF\xBD byte\"]");  // replaced, not thrown
}

TEST_CASE("path terms are omindex's: every enclosing directory, no trailing slash") {
  using V = std::vector<std::string>;
  CHECK(fmt::path_terms("/docs/tutorials/a.html") == V{"P/docs/tutorials", "P/docs"});
  CHECK(fmt::path_terms("/docs/") == V{"P/docs"});
  CHECK(fmt::path_terms("/a.html").empty());
  CHECK(fmt::path_terms("/").empty());
  CHECK(fmt::path_filter_term("/docs/") == "P/docs");
  CHECK(fmt::path_filter_term("/docs") == "P/docs");
  CHECK(fmt::path_filter_term("docs/tutorials") == "P/docs/tutorials");
  CHECK(fmt::path_filter_term("/").empty());
  CHECK(fmt::path_filter_term("").empty());
}

TEST_CASE("the page's file stamp gives Omega's modtime and size, in the data and in slots 0 and 2") {
  canon::testing::TempDir dir;
  const std::string path = (dir.path() / "db").string();
  auto writer = IndexWriter::create(path);
  REQUIRE(writer.ok());
  IndexedPage page = sample_page();
  const std::int64_t mtime = 1700000000;
  page.file = canon::indexer::FileStamp{1234, mtime * 1'000'000'000};
  REQUIRE(writer.value()->add(page).ok());
  IndexedPage missing = sample_page();
  missing.url = "http://localhost/gone.html";  // no stamp: no values, no error
  REQUIRE(writer.value()->add(missing).ok());
  REQUIRE(writer.value()->finish().ok());

  Xapian::Database db(path);
  const Xapian::Document doc = db.get_document(*db.postlist_begin(fmt::url_term(page.url)));
  CHECK(data_value(doc.get_data(), "modtime") == std::to_string(mtime));
  CHECK(data_value(doc.get_data(), "size") == "1234");
  const std::string modified = doc.get_value(fmt::kLastModifiedSlot);
  REQUIRE(modified.size() == 4);  // big-endian time_t, as omindex writes it
  std::uint32_t decoded = 0;
  for (unsigned char c : modified) decoded = (decoded << 8) | c;
  CHECK(decoded == static_cast<std::uint32_t>(mtime));
  CHECK(Xapian::sortable_unserialise(doc.get_value(fmt::kSizeSlot)) == 1234.0);

  const Xapian::Document gone = db.get_document(*db.postlist_begin(fmt::url_term(missing.url)));
  CHECK(data_value(gone.get_data(), "modtime") == "<missing>");
  CHECK(gone.get_value(fmt::kLastModifiedSlot).empty());
}

TEST_CASE("query-time collapse: metadata, a duplicate names its authoritative page") {
  canon::testing::TempDir dir;
  const std::string path = (dir.path() / "db").string();
  auto writer = IndexWriter::create(path, {canon::indexer::CollapseMode::kQueryTime, 100.0});
  REQUIRE(writer.ok());
  IndexedPage authoritative = sample_page();
  IndexedPage duplicate = sample_page();
  duplicate.url = "http://localhost/print/install.html";
  duplicate.alternates.clear();
  duplicate.authoritative_url = authoritative.url;
  REQUIRE(writer.value()->add(authoritative).ok());
  REQUIRE(writer.value()->add(duplicate).ok());
  REQUIRE(writer.value()->finish().ok());

  Xapian::Database db(path);
  CHECK(db.get_metadata("canon_collapse") == "query");
  CHECK(db.get_doccount() == 2);
  const Xapian::Document dup = db.get_document(*db.postlist_begin(fmt::url_term(duplicate.url)));
  CHECK(data_value(dup.get_data(), "canon_authoritative") == authoritative.url);
  CHECK(dup.get_value(fmt::kClusterSlot) == "7");  // the collapse key, shared with its cluster
  CHECK(Xapian::sortable_unserialise(dup.get_value(fmt::kStaticWeightSlot)) ==
        doctest::Approx(std::log1p(12.5)));
  const Xapian::Document auth =
      db.get_document(*db.postlist_begin(fmt::url_term(authoritative.url)));
  CHECK(data_value(auth.get_data(), "canon_authoritative") == "<missing>");
}

TEST_CASE("two URLs whose hashed terms collide are an error, not a silent overwrite") {
  // omindex's hash multiplies by 33: tails "Ab" and "BA" collide (65*33+98 == 66*33+65).
  canon::testing::TempDir dir;
  const std::string path = (dir.path() / "db").string();
  auto writer = IndexWriter::create(path);
  REQUIRE(writer.ok());
  IndexedPage a = sample_page();
  a.url = "http://localhost/" + std::string(240, 'a') + "Ab";
  IndexedPage b = sample_page();
  b.url = "http://localhost/" + std::string(240, 'a') + "BA";
  REQUIRE(fmt::url_term(a.url) == fmt::url_term(b.url));
  REQUIRE(writer.value()->add(a).ok());
  REQUIRE(writer.value()->add(a).ok());  // the same URL again only replaces
  const auto collided = writer.value()->add(b);
  REQUIRE_FALSE(collided.ok());
  CHECK(collided.message().find("hashed URL term") != std::string::npos);
  CHECK_FALSE(writer.value()->finish().ok());  // sticky
}

TEST_CASE("a database that cannot be created is a clear error") {
  canon::testing::TempDir dir;
  dir.write("file", "not a directory");
  auto writer = IndexWriter::create((dir.path() / "file" / "db").string());
  REQUIRE_FALSE(writer.ok());
  CHECK(writer.status().message().find("cannot create Xapian database") != std::string::npos);
}

TEST_CASE("documents prepared on other threads, then written once with their cluster fields") {
  canon::testing::TempDir dir;
  const std::string path = (dir.path() / "db").string();
  auto writer = IndexWriter::create(path, {canon::indexer::CollapseMode::kIndexTime, 10.0});
  REQUIRE(writer.ok());
  // prepare() is what parse threads call: build three documents on three threads.
  std::vector<std::string> prepared(3);
  std::vector<std::string> urls(3);
  {
    std::vector<std::jthread> threads;
    for (int i = 0; i < 3; ++i) {
      urls[i] = "http://localhost/docs/page" + std::to_string(i) + ".html";
      threads.emplace_back([&prepared, &urls, i] {
        canon::indexer::PageContent content = sample_page();
        content.url = urls[i];
        content.main_text = "page number " + std::to_string(i) + " about backups";
        prepared[i] = IndexWriter::prepare(content);
      });
    }
  }
  canon::indexer::ClusterFields kept;
  kept.cluster_pagerank = 0.5;
  kept.cluster_id = 3;
  kept.alternates = {{"http://localhost/mirror/page0.html", "Mirror", 0.9}};
  canon::indexer::ClusterFields plain;
  plain.cluster_pagerank = 0.25;
  plain.cluster_id = 4;
  auto first_id = writer.value()->add(urls[0], prepared[0], kept);
  auto second_id = writer.value()->add(urls[1], prepared[1], plain);
  REQUIRE(first_id.ok());
  REQUIRE(second_id.ok());
  // Page 2 is a duplicate that is not indexed: it is never written.
  CHECK_FALSE(writer.value()->add("http://localhost/x.html", "not a serialised document", plain).ok());
  CHECK_FALSE(writer.value()->finish().ok());  // errors are sticky
}

TEST_CASE("a prepared document written once holds its terms, positions and cluster fields") {
  canon::testing::TempDir dir;
  const std::string path = (dir.path() / "db").string();
  auto writer = IndexWriter::create(path, {canon::indexer::CollapseMode::kIndexTime, 10.0});
  REQUIRE(writer.ok());
  std::vector<canon::indexer::DocumentId> ids;
  for (int i = 0; i < 2; ++i) {
    canon::indexer::PageContent content = sample_page();
    content.url = "http://localhost/docs/page" + std::to_string(i) + ".html";
    content.main_text = "page number " + std::to_string(i) + " about backups";
    canon::indexer::ClusterFields fields;
    fields.cluster_pagerank = i == 0 ? 0.5 : 0.25;
    fields.cluster_id = i == 0 ? 3 : 4;
    if (i == 0) fields.alternates = {{"http://localhost/mirror/page0.html", "Mirror", 0.9}};
    auto id = writer.value()->add(content.url, IndexWriter::prepare(content), fields);
    REQUIRE(id.ok());
    ids.push_back(id.value());
  }
  REQUIRE(writer.value()->finish().ok());

  Xapian::Database db(path);
  CHECK(db.get_doccount() == 2);
  CHECK(db.get_termfreq("backups") == 2);
  CHECK(db.get_termfreq("number") == 2);
  const Xapian::Document first = db.get_document(ids[0]);
  CHECK(db.positionlist_begin(ids[0], "number") != db.positionlist_end(ids[0], "number"));  // positions kept
  CHECK(Xapian::sortable_unserialise(first.get_value(fmt::kStaticScoreSlot)) == doctest::Approx(0.5));
  CHECK(Xapian::sortable_unserialise(first.get_value(fmt::kStaticWeightSlot)) == doctest::Approx(std::log1p(5.0)));
  CHECK(first.get_value(fmt::kClusterSlot) == "3");
  CHECK(data_value(first.get_data(), "canon_alternates").find("mirror/page0.html") != std::string::npos);
  CHECK(fmt::decode_text_head(first.get_value(fmt::kTextHeadSlot)) == "page number 0 about backups");
  CHECK(db.term_exists("Smirror"));  // the alternate's title is a title of the page
  const Xapian::Document second = db.get_document(ids[1]);
  CHECK(second.get_value(fmt::kClusterSlot) == "4");
  CHECK(data_value(second.get_data(), "canon_alternates") == "<missing>");  // none: no line
  CHECK(data_value(second.get_data(), "canon_authoritative") == "<missing>");
}

TEST_CASE("document data: add_data_line and data_field read each other back") {
  namespace fmt = canon::index_format;
  std::string data;
  fmt::add_data_line(data, fmt::kDataUrl, "http://localhost/a.html");
  fmt::add_data_line(data, fmt::kDataCaption, "Two\nlines\rhere");
  fmt::add_data_line(data, fmt::kDataSample, "x=y");
  CHECK(data == "url=http://localhost/a.html\ncaption=Two lines here\nsample=x=y\n");
  CHECK(fmt::data_field(data, fmt::kDataUrl) == "http://localhost/a.html");
  CHECK(fmt::data_field(data, fmt::kDataCaption) == "Two lines here");
  CHECK(fmt::data_field(data, fmt::kDataSample) == "x=y");
  CHECK(fmt::data_field(data, "ur").empty());  // a key is a whole key
  CHECK(fmt::data_field(data, fmt::kDataSize).empty());
  CHECK(fmt::data_field("", fmt::kDataUrl).empty());
}

TEST_CASE("restamp gives a prepared document the stamp prepare would have given it") {
  using canon::indexer::FileStamp;
  using canon::indexer::PageContent;
  struct Case {
    const char* what;
    FileStamp before;
    FileStamp after;
  };
  constexpr std::int64_t kSecond = 1'000'000'000;
  const Case cases[] = {
      {"touched: a later time", {1234, 1'700'000'000 * kSecond}, {1234, 1'700'000'100 * kSecond}},
      {"an earlier time", {1234, 1'700'000'000 * kSecond}, {1234, 1'600'000'000 * kSecond}},
      {"a file cut at the page limit grew past it", {9'000'000, 1'700'000'000 * kSecond},
       {9'500'000, 1'700'000'000 * kSecond}},
      {"the same stamp", {77, 1'700'000'000 * kSecond}, {77, 1'700'000'000 * kSecond}},
      {"the same second, other nanoseconds", {77, 1'700'000'000 * kSecond}, {77, 1'700'000'000 * kSecond + 5}},
  };
  PageContent page{"http://localhost/docs/a.html", "A title", "A description", "some keywords", {"Heading one"},
                   "Main heading", "The main text, with modtime=1 and size=2 written in it.", std::nullopt, {}, "", {}};
  for (const Case& c : cases) {
    CAPTURE(c.what);
    page.file = c.before;
    const std::string before = IndexWriter::prepare(page);
    page.file = c.after;
    auto restamped = IndexWriter::restamp(before, c.after);
    REQUIRE(restamped.ok());
    CHECK(restamped.value() == IndexWriter::prepare(page));
  }
  CHECK(IndexWriter::restamp("not a document", FileStamp{1, 2}).status().code() == canon::StatusCode::kCorruption);
}

TEST_CASE("a writer commits every documents_per_commit changes, and the rest in finish()") {
  canon::testing::TempDir dir;
  struct Row {
    unsigned documents_per_commit;
    Xapian::doccount committed_before_finish;  // of 7 added
  };
  for (const Row row : {Row{3, 6}, Row{1, 7}, Row{7, 7}, Row{8, 0}, Row{0, 0}}) {
    CAPTURE(row.documents_per_commit);
    const std::string path = (dir.path() / ("db-" + std::to_string(row.documents_per_commit))).string();
    canon::indexer::WriterOptions options;
    options.documents_per_commit = row.documents_per_commit;
    auto writer = IndexWriter::create(path, options);
    REQUIRE(writer.ok());
    for (int i = 0; i < 7; ++i) {
      IndexedPage page = sample_page();
      page.url = "http://localhost/docs/page" + std::to_string(i) + ".html";
      REQUIRE(writer.value()->add(page).ok());
    }
    CHECK(Xapian::Database(path).get_doccount() == row.committed_before_finish);
    REQUIRE(writer.value()->finish().ok());
    CHECK(Xapian::Database(path).get_doccount() == 7);
  }
}
