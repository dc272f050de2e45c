/// @file test_index_writer.cpp
/// @brief The Xapian layout written by IndexWriter, read back with Xapian itself.
#include <doctest/doctest.h>
#include <xapian.h>

#include "indexer/index_format.h"
#include "indexer/index_writer.h"
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
  const Xapian::Document doc = db.get_document(*db.postlist_begin(fmt::url_term(sample_page().url)));
  CHECK(db.term_exists("Uhttp://localhost/docs/install.html"));
  CHECK(db.term_exists("Hlocalhost"));
  CHECK(db.term_exists("P/docs/install.html"));
  CHECK(db.term_exists("Ttext/html"));
  CHECK(db.term_exists("Sinstalling"));  // title term with the title prefix

  CHECK(db.term_exists("ZSinstal"));
  CHECK(db.term_exists("backups"));  // unstemmed body term
  CHECK(db.term_exists("Zbackup"));  // stemmed body term
  CHECK(db.term_exists("Ksetup"));

  CHECK(Xapian::sortable_unserialise(doc.get_value(fmt::kStaticScoreSlot)) == doctest::Approx(0.125));
  CHECK(doc.get_value(fmt::kClusterSlot) == "7");

  const std::string data = doc.get_data();
  CHECK(data_value(data, "url") == "http://localhost/docs/install.html");
  CHECK(data_value(data, "caption") == "Installing Tern");
  CHECK(data_value(data, "sample") == "How to install Tern on Debian");
  CHECK(data_value(data, "type") == "text/html");
  // Newlines inside a value would break Omega's key=value lines.
  CHECK(data_value(data, "canon_text") == "Run apt-get install tern. Then configure the backups. Second line.");
  CHECK(data_value(data, "canon_alternates").find("\"http://localhost/print/install.html\"") != std::string::npos);
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

TEST_CASE("a database that cannot be created is a clear error") {
  canon::testing::TempDir dir;
  dir.write("file", "not a directory");
  auto writer = IndexWriter::create((dir.path() / "file" / "db").string());
  REQUIRE_FALSE(writer.ok());
  CHECK(writer.status().message().find("cannot create Xapian database") != std::string::npos);
}
