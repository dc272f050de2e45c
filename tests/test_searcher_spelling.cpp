/// @file test_searcher_spelling.cpp
/// @brief Spelling: the table sync_spelling fills, the Searcher's "did you mean", and
/// corrected_query_string.
#include <doctest/doctest.h>
#include <xapian.h>

#include <cstddef>
#include <string>

#include "format/index_format.h"
#include "indexer/stages/index_writer.h"
#include "query/searcher.h"
#include "query/spelling.h"
#include "support/searcher_fixtures.h"
#include "support/temp_dir.h"

using canon::query::Searcher;
using canon::query::SearchRequest;
using canon::testing::build_index;
using canon::testing::must_search;

TEST_CASE("did you mean: a word the index does not hold is corrected when the correction finds more") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  REQUIRE(canon::indexer::sync_spelling((dir.path() / "xapian").string()).ok());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  Searcher& s = *searcher.value();

  struct Row {
    const char* comment;
    const char* query;
    const char* corrected;  // "" for none
    std::size_t hits;
  };
  const Row rows[] = {
      {"a letter dropped", "snapshts", "snapshots", 1},
      {"two letters swapped, beside a right word", "debian pakcages", "debian packages", 1},
      {"a letter changed", "schedulor", "scheduler", 1},
      {"a word the index holds is never corrected", "backups", "", 2},
      {"only the word the index lacks changes", "nigth snapshots", "night snapshots", 1},
      {"nothing near enough: no correction, no results", "xylophone", "", 0},
  };
  for (const Row& row : rows) {
    INFO(row.comment);
    const canon::query::SearchResults results = must_search(s, row.query);
    CHECK(results.query == row.query);
    CHECK(results.corrected_query == row.corrected);
    CHECK(results.hits.size() == row.hits);
  }
  // As typed: no correction.
  SearchRequest as_typed;
  as_typed.query = "snapshts";
  as_typed.correct_spelling = false;
  auto typed = s.search(as_typed);
  REQUIRE(typed.ok());
  CHECK(typed->corrected_query.empty());
  CHECK(typed->hits.empty());
}

namespace {

/// The frequency the spelling table of `db` holds for `word` (0 when it has none).
Xapian::termcount spelling_frequency(const Xapian::Database& db, const std::string& word) {
  for (auto it = db.spellings_begin(); it != db.spellings_end(); ++it) {
    if (*it == word) return it.get_termfreq();
  }
  return 0;
}

}  // namespace

TEST_CASE("sync_spelling: the table holds the index's words, and loses those no document has any more") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  const std::string path = (dir.path() / "xapian").string();
  REQUIRE(canon::indexer::sync_spelling(path).ok());
  {
    Xapian::Database db(path);
    CHECK(spelling_frequency(db, "snapshots") == 1);
    CHECK(spelling_frequency(db, "backups") == 2);  // in two documents
    CHECK(spelling_frequency(db, "tern") == 2);  // the guide and the news
    CHECK(spelling_frequency(db, "2.0") == 0);  // not a word: no letter
    CHECK(spelling_frequency(db, "Stern") == 0);  // prefixed terms are not words
  }
  {
    Xapian::WritableDatabase db(path, Xapian::DB_OPEN);
    db.delete_document(2);  // "Scheduling backups"
    db.commit();
  }
  REQUIRE(canon::indexer::sync_spelling(path).ok());
  Xapian::Database db(path);
  CHECK(spelling_frequency(db, "snapshots") == 0);
  CHECK(spelling_frequency(db, "scheduler") == 0);
  CHECK(spelling_frequency(db, "backups") == 1);
  CHECK(spelling_frequency(db, "tern") == 2);  // the guide and the news
}

TEST_CASE("corrected_query_string: the words the index lacks, one by one; the rest as typed (table)") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  const std::string path = (dir.path() / "xapian").string();
  REQUIRE(canon::indexer::sync_spelling(path).ok());
  const Xapian::Database db(path);
  struct Row {
    const char* comment;
    const char* query;
    const char* corrected;  // "" for none
  };
  const Row rows[] = {
      {"a word corrected", "snapshts", "snapshots"},
      {"case does not matter; the suggestion is the index's word", "Snapshts", "snapshots"},
      {"words the index holds stay, as written or as their stem", "backup snapshts", "backup snapshots"},
      {"quotes, parentheses and trailing punctuation kept", "(\"daily snapshts\"),", "(\"daily snapshots\"),"},
      {"numbers are never corrected", "2.1 snapshts", "2.1 snapshots"},
      {"a word inside a name joined by punctuation", "std::snapshts", "std::snapshots"},
      {"a run touching a digit is a code, left as typed", "snapshts2 x86", ""},
      {"a name joined by '_' is one word, not misspelt", "snapshts_nigth _nigth std::atomic_xchg", ""},
      {"a misspelt word beside such a name is corrected", "snapshts atomic_xchg", "snapshots atomic_xchg"},
      {"a field is left as typed (a filter's value is a path or a host)", "snapshts AND titl:snapshts path:/snapshts/",
       "snapshots AND titl:snapshts path:/snapshts/"},
      {"nothing to correct", "daily snapshots", ""},
      {"nothing near enough", "xylophone", ""},
      {"white space as typed", "  nigth   snapshts ", "  night   snapshots "},
  };
  for (const Row& row : rows) {
    INFO(row.comment);
    CHECK(canon::query::corrected_query_string(db, db, Xapian::Stem(canon::index_format::kStemLanguage), row.query) == row.corrected);
  }
}
