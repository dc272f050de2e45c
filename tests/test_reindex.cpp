/// @file test_reindex.cpp
/// @brief Re-indexing (docs/design.md, "Re-indexing"): after any sequence of edits to a site,
/// `canon index` on the existing index gives the same pages.jsonl and the same search results
/// as a full rebuild, while parsing only the files that changed. A model test: random edit
/// sequences on a copy of sample_site, each step checked against a full build from scratch.
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <xapian.h>

#include "format/index_format.h"
#include "indexer/pipeline.h"
#include "store/store_catalog.h"
#include "query/searcher.h"
#include "support/site_files.h"
#include "support/temp_dir.h"
#include "support/thread_collective.h"
#include "urls/url_rules.h"

namespace fs = std::filesystem;
using canon::indexer::IndexOptions;
using canon::indexer::IndexSummary;

using canon::testing::sample_site;
using canon::testing::slurp;
using canon::testing::write;

namespace {

IndexSummary index(const fs::path& site, const fs::path& out, bool full,
                   canon::indexer::CollapseMode collapse = canon::indexer::CollapseMode::kIndexTime,
                   const std::shared_ptr<const canon::urls::RuleSet>& url_rules = nullptr, unsigned processes = 1) {
  IndexOptions options;
  options.url_rules = url_rules;
  options.url_rules_digest = url_rules ? "test-rules" : "";
  options.site_dir = site;
  options.out_dir = out;
  options.show_progress = false;
  options.full = full;
  options.collapse = collapse;
  options.threads = 2;
  options.chunk_files = 4;  // several chunks and segments even on a small site
  if (processes == 1) {
    auto summary = canon::indexer::index_site(options);
    REQUIRE_MESSAGE(summary.ok(), summary.status().message());
    return summary.value();
  }
  // A partitioned build of `processes` simulated processes; process 0's summary.
  std::mutex mutex;
  std::vector<canon::Result<IndexSummary>> summaries(processes, canon::Status::error("not run"));
  canon::testing::run_processes(processes, [&](const canon::Collective& collective) {
    IndexOptions mine = options;
    mine.processes = &collective;
    auto summary = canon::indexer::index_site(mine);
    const std::lock_guard lock(mutex);
    summaries[collective.rank()] = std::move(summary);
  });
  for (const auto& summary : summaries) REQUIRE_MESSAGE(summary.ok(), summary.status().message());
  return summaries[0].value();
}

/// Every search result of `queries` on the index at `dir`: URL, weight and alternates, per query.
std::string search_all(const fs::path& dir, const std::vector<std::string>& queries) {
  auto searcher = canon::query::Searcher::open(dir);
  REQUIRE_MESSAGE(searcher.ok(), searcher.status().message());
  std::ostringstream out;
  for (const std::string& query : queries) {
    canon::query::SearchRequest request;
    request.query = query;
    request.limit = 50;
    auto results = searcher.value()->search(request);
    if (!results.ok()) {
      out << query << ": " << results.status().message() << "\n";
      continue;
    }
    out << query << ": " << results->estimated_matches << "\n";
    for (const auto& hit : results->hits) {
      out << "  " << hit.url << " " << hit.weight << " " << hit.matched_url;
      for (const auto& alternate : hit.alternates) out << " [" << alternate.url << " " << alternate.similarity << "]";
      out << "\n";
    }
  }
  return out.str();
}

/// Every document of the index at `dir`, whole (data, values, terms with their wdf and
/// positions), keyed by URL, and the database's statistics: what a re-used database must share
/// with a fresh one, whatever their document ids.
std::map<std::string, std::string> dump_documents(const fs::path& dir) {
  Xapian::Database db((dir / "xapian").string());
  std::map<std::string, std::string> documents;
  for (auto id = db.postlist_begin(""); id != db.postlist_end(""); ++id) {
    const Xapian::Document doc = db.get_document(*id);
    std::ostringstream out;
    out << doc.get_data() << "|values";
    for (auto value = doc.values_begin(); value != doc.values_end(); ++value) out << " " << value.get_valueno() << "=" << *value;
    out << "|terms";
    for (auto term = doc.termlist_begin(); term != doc.termlist_end(); ++term) {
      out << " " << *term << ":" << term.get_wdf();
      for (auto pos = term.positionlist_begin(); pos != term.positionlist_end(); ++pos) out << "," << *pos;
    }
    const std::string url = canon::index_format::data_field(doc.get_data(), canon::index_format::kDataUrl);
    CHECK_MESSAGE(documents.emplace(url, out.str()).second, "two documents for " << url);
  }
  std::ostringstream stats;
  stats << db.get_doccount() << " documents, length " << db.get_total_length();
  for (const char* key : {"canon_collapse", "canon_static_score_bound", "canon_static_weight_bound"}) {
    stats << " " << key << "=" << db.get_metadata(key);
  }
  documents["(database)"] = stats.str();
  return documents;
}

/// Each document's exact-anchor terms (what other pages call it) with their wdf, by URL.
std::map<std::string, std::string> anchor_terms(const fs::path& dir) {
  Xapian::Database db((dir / "xapian").string());
  std::map<std::string, std::string> anchors;
  for (auto id = db.postlist_begin(""); id != db.postlist_end(""); ++id) {
    const Xapian::Document doc = db.get_document(*id);
    std::string& terms = anchors[canon::index_format::data_field(doc.get_data(), canon::index_format::kDataUrl)];
    const std::string prefix(canon::index_format::kExactAnchorPrefix);
    for (auto term = doc.termlist_begin(); term != doc.termlist_end(); ++term) {
      if ((*term).starts_with(prefix)) terms += *term + ":" + std::to_string(term.get_wdf()) + " ";
    }
  }
  return anchors;
}

/// The site's page files, relative, in path order.
std::vector<std::string> pages_of(const fs::path& site) {
  std::vector<std::string> pages;
  for (const auto& entry : fs::recursive_directory_iterator(site)) {
    if (entry.is_regular_file() && entry.path().extension() == ".html") {
      pages.push_back(fs::relative(entry.path(), site).generic_string());
    }
  }
  std::sort(pages.begin(), pages.end());
  return pages;
}

const std::vector<std::string> kWords = {"backup", "restore", "install", "release", "encryption", "quartz",
                                         "harbour", "schedule", "nightly", "repository", "survey", "lantern"};

/// One random edit of the site, described for the failure message.
/// `last_run` is when the last index run began.
std::string edit_site(const fs::path& site, std::mt19937& random, int step, fs::file_time_type last_run) {
  const std::vector<std::string> pages = pages_of(site);
  auto pick = [&](const std::vector<std::string>& from) { return from[random() % from.size()]; };
  const std::string page = pick(pages);
  const std::string other = pick(pages);
  const std::string word = kWords[random() % kWords.size()];
  switch (random() % 8) {
    case 0: {  // a change of text: the page's document changes, PageRank may not
      std::string html = slurp(site / page);
      const auto body = html.rfind("</body>");
      html.insert(body == std::string::npos ? html.size() : body,
                  "<p>Step " + std::to_string(step) + " adds a note about " + word + " lanterns.</p>");
      write(site / page, html);
      return "changed " + page;
    }
    case 1:  // a copy of another page: it joins that page's cluster (and leaves its own)
      write(site / page, slurp(site / other) + "<!-- copy " + std::to_string(step) + " -->");
      return page + " became a copy of " + other;
    case 2:  // a new page, a near-copy of another: a cluster grows, its indexed page may change
      write(site / ("added/step-" + std::to_string(step) + ".html"),
            slurp(site / other) + "<p>" + word + "</p><a href=\"/" + page + "\">more</a>");
      return "added a copy of " + other;
    case 3:  // a new page of its own, linking to others: PageRank moves
      write(site / ("added/own-" + std::to_string(step) + ".html"),
            "<html><head><title>" + word + " notes " + std::to_string(step) + "</title></head><body><h1>" + word +
                " notes</h1><p>Notes on " + word + " and the " + kWords[random() % kWords.size()] +
                " of step " + std::to_string(step) + ".</p><a href=\"/" + page + "\">a</a> <a href=\"/" + other +
                "\">b</a></body></html>");
      return "added a page linking to " + page + " and " + other;
    case 4:  // deleted
      if (pages.size() > 10) fs::remove(site / page);
      return "deleted " + page;
    case 5:  // a redirect to another page
      write(site / page, "<html><head><meta http-equiv=\"refresh\" content=\"0; url=/" + other +
                             "\"><title>Moved</title></head><body>Moved.</body></html>");
      return page + " became a redirect to " + other;
    case 6: {  // touched: the same bytes, a new modification time
      const std::string html = slurp(site / page);
      write(site / page, html);
      return "touched " + page;
    }
    default: {  // the same size, other bytes; when the page was written after the last run
                // began, the same modification time too (two writes in one tick of the file
                // system's clock): then only the content hash tells
      std::string html = slurp(site / page);
      const auto at = html.find("</title>");
      if (at != std::string::npos && at > 0) html[at - 1] = html[at - 1] == 'x' ? 'y' : 'x';
      const auto modified = fs::last_write_time(site / page);
      write(site / page, html);
      if (modified < last_run) return "changed a title letter of " + page;
      fs::last_write_time(site / page, modified);
      return "changed a title letter of " + page + " keeping its time";
    }
  }
}

}  // namespace

/// How a model run indexes: the collapse mode, URL rules (may be null) and the processes that
/// build and re-index (the full builds it is checked against are one process's).
struct ModelRun {
  canon::indexer::CollapseMode collapse = canon::indexer::CollapseMode::kIndexTime;
  std::shared_ptr<const canon::urls::RuleSet> url_rules;
  unsigned processes = 1;
  int steps = 8;
};

/// The model test: a copy of sample_site indexed, then `run.steps` times 1-3 random edits
/// (seeded by `seed`) and a re-index, each checked against a full build from scratch: the same
/// pages.jsonl, results for `queries` and documents. `first` sees the first build's summary,
/// `again` each re-index's (it must not be a full build).
void check_reindex_model(unsigned seed, const ModelRun& run, const std::vector<std::string>& queries,
                         const std::function<void(const IndexSummary&)>& first = {},
                         const std::function<void(const IndexSummary&, const fs::path& site)>& again = {}) {
  canon::testing::TempDir dir;
  const fs::path site = dir.path() / "site";
  fs::copy(sample_site(), site, fs::copy_options::recursive);
  const fs::path reindexed = dir.path() / "reindexed";
  auto last_run = fs::file_time_type::clock::now();
  const IndexSummary built = index(site, reindexed, false, run.collapse, run.url_rules, run.processes);
  if (first) first(built);
  std::mt19937 random(seed);
  std::string history;
  for (int step = 0; step < run.steps; ++step) {
    const int edits = 1 + static_cast<int>(random() % 3);
    for (int e = 0; e < edits; ++e) history += edit_site(site, random, step, last_run) + "; ";
    CAPTURE(seed);
    CAPTURE(history);
    last_run = fs::file_time_type::clock::now();
    const IndexSummary summary = index(site, reindexed, false, run.collapse, run.url_rules, run.processes);
    REQUIRE_MESSAGE(summary.reindex.full_because.empty(), summary.reindex.full_because);
    if (again) again(summary, site);
    const fs::path fresh = dir.path() / ("fresh-" + std::to_string(step));
    index(site, fresh, true, run.collapse, run.url_rules);
    CHECK(slurp(reindexed / "pages.jsonl") == slurp(fresh / "pages.jsonl"));
    CHECK(search_all(reindexed, queries) == search_all(fresh, queries));
    CHECK(dump_documents(reindexed) == dump_documents(fresh));
    fs::remove_all(fresh);
  }
}

TEST_CASE("re-indexing after random edits gives what a full rebuild gives") {
  const std::vector<std::string> queries = {"backup", "restore files", "install", "release notes", "encryption",
                                            "lanterns", "quartz", "harbour", "nightly", "survey", "moved",
                                            "title:notes", "download"};
  for (const unsigned seed : {1u, 2u, 3u}) {
    for (const auto collapse : {canon::indexer::CollapseMode::kIndexTime, canon::indexer::CollapseMode::kQueryTime}) {
      check_reindex_model(seed, ModelRun{collapse, nullptr, 1, 8}, queries);
    }
  }
}

TEST_CASE("re-indexing a partitioned build after random edits gives what a one-process full rebuild gives") {
  // Two processes re-index an index two processes built, after each step's edits: each process
  // re-uses or parses the files of its own chunks (the first one's comparison with the previous
  // build told to both), and the result is the one-process full build's.
  const std::vector<std::string> queries = {"backup", "restore files", "install", "release notes", "quartz",
                                            "harbour", "survey", "moved", "download"};
  for (const unsigned seed : {4u, 5u}) {
    check_reindex_model(seed, ModelRun{canon::indexer::CollapseMode::kIndexTime, nullptr, 2, 6}, queries, {},
                        [](const IndexSummary& again, const fs::path& site) {
                          CHECK(again.reindex.unchanged > 0);
                          CHECK(again.reindex.unchanged + again.reindex.changed + again.reindex.added +
                                    again.reindex.retried <=
                                pages_of(site).size());
                        });
  }
}

TEST_CASE("re-indexing with URL rules after random edits gives what a full rebuild gives") {
  // sample_site's mirror/ and print/ pages: the rules record them as duplicates unread, until an
  // edit deletes their page (then they are read) or turns it into a redirect or a copy.
  std::vector<canon::urls::UrlRule> rules(2);
  rules[0].pattern = "(http://localhost)/mirror(/.*)";
  rules[0].rewrite = "\\1\\2";
  rules[1].pattern = "(http://localhost)/print/(.*)";
  rules[1].rewrite = "\\1/docs/\\2";
  auto compiled = canon::urls::RuleSet::compile(rules);
  REQUIRE(compiled.ok());
  const auto url_rules = std::make_shared<const canon::urls::RuleSet>(std::move(compiled).value());
  const std::vector<std::string> queries = {"backup", "install", "release notes", "lanterns", "quartz", "download"};
  for (const unsigned seed : {1u, 2u, 3u}) {
    check_reindex_model(seed, ModelRun{canon::indexer::CollapseMode::kIndexTime, url_rules, 1, 8}, queries,
                        [](const IndexSummary& first) { CHECK(first.url_rule_duplicates > 0); });
  }
}

TEST_CASE("a re-index reads only what changed and says what it found") {
  canon::testing::TempDir dir;
  const fs::path site = dir.path() / "site";
  fs::copy(sample_site(), site, fs::copy_options::recursive);
  const fs::path out = dir.path() / "index";
  const IndexSummary first = index(site, out, false);
  CHECK(first.reindex.full_because == "there is no index yet");

  const IndexSummary same = index(site, out, false);
  CHECK(same.reindex.full_because.empty());
  CHECK(same.reindex.changed == 0);
  CHECK(same.reindex.retried == 1);  // downloads/screenshot.html, PNG bytes: read again in case it is fixed
  CHECK(same.reindex.unchanged == 39);  // sample_site/README.md: 39 HTML pages and the PNG
  CHECK(same.reindex.added == 0);
  CHECK(same.reindex.deleted == 0);
  CHECK(same.reindex.documents_kept == first.status_counts.at("indexed"));
  CHECK(same.reindex.documents_added + same.reindex.documents_rewritten + same.reindex.documents_updated +
            same.reindex.documents_removed ==
        0);

  const std::map<std::string, std::string> anchors_before = anchor_terms(out);
  write(site / "about.html", slurp(site / "about.html") + "<p>lantern</p>");
  fs::remove(site / "faq.html");
  write(site / "fresh.html", "<html><head><title>Fresh</title></head><body><p>lantern</p></body></html>");
  const IndexSummary edited = index(site, out, false);
  CHECK(edited.reindex.changed == 1);
  CHECK(edited.reindex.deleted == 1);
  CHECK(edited.reindex.added == 1);
  CHECK(edited.reindex.documents_added == 1);
  CHECK(edited.reindex.documents_removed == 1);
  // Rewritten: about.html, whose text changed, and the pages whose exact-anchor terms changed
  // because faq.html, which linked to them by name, is gone.
  std::size_t renamed = 0;
  for (const auto& [url, terms] : anchor_terms(out)) {
    const auto before = anchors_before.find(url);
    if (url != "http://localhost/about.html" && before != anchors_before.end() && before->second != terms) ++renamed;
  }
  CHECK(renamed > 0);
  CHECK(edited.reindex.documents_rewritten == 1 + renamed);

  // Touched, and rewritten with the same bytes: not parsed; the documents take the new time.
  const auto touched_at = fs::last_write_time(site / "contact.html") + std::chrono::seconds(5);
  fs::last_write_time(site / "contact.html", touched_at);
  write(site / "license.html", slurp(site / "license.html"));
  const IndexSummary touched = index(site, out, false);
  CHECK(touched.reindex.changed == 0);
  CHECK(touched.reindex.restamped == 2);
  CHECK(touched.reindex.documents_rewritten == 0);
  // contact.html's document takes its new time; license.html's only if its second changed
  // (documents hold whole seconds, as Omega's modtime).
  CHECK(touched.reindex.documents_updated >= 1);
  const std::string modtime = std::to_string(
      std::chrono::duration_cast<std::chrono::seconds>(
          std::chrono::file_clock::to_sys(touched_at).time_since_epoch()).count());
  CHECK(dump_documents(out)["http://localhost/contact.html"].find("modtime=" + modtime + "\n") != std::string::npos);
  index(site, dir.path() / "fresh", true);
  CHECK(dump_documents(out) == dump_documents(dir.path() / "fresh"));

  CHECK(index(site, out, true).reindex.full_because == "--full");
  // Another base URL: every URL in the store is wrong, so it is not re-used.
  IndexOptions options;
  options.site_dir = site;
  options.out_dir = out;
  options.show_progress = false;
  options.base_url = "https://docs.example.org/";
  auto other = canon::indexer::index_site(options);
  REQUIRE(other.ok());
  CHECK(other->reindex.full_because.find("base_url") != std::string::npos);
}

TEST_CASE("a change that keeps a file's size and time is found when the file was written as the last run began") {
  canon::testing::TempDir dir;
  const fs::path site = dir.path() / "site";
  write(site / "a.html", "<html><head><title>Alpha</title></head><body><p>lantern</p></body></html>");
  write(site / "b.html", "<html><head><title>Bravo</title></head><body><p>harbour</p></body></html>");
  const fs::path out = dir.path() / "index";
  index(site, out, false);
  const auto modified = fs::last_write_time(site / "a.html");
  write(site / "a.html", "<html><head><title>Alpha</title></head><body><p>quartzy</p></body></html>");
  fs::last_write_time(site / "a.html", modified);  // one tick of a coarse clock: the same time
  const IndexSummary again = index(site, out, false);
  CHECK(again.reindex.changed == 1);
  CHECK(again.reindex.unchanged == 1);
  CHECK(search_all(out, {"quartzy"}).find("a.html") != std::string::npos);
}

TEST_CASE("a damaged or foreign page store catalog leads to a full build, never to a wrong index") {
  canon::testing::TempDir dir;
  const fs::path out = dir.path() / "index";
  index(sample_site(), out, false);
  const fs::path catalog = out / "store" / "catalog";
  std::string bytes = slurp(catalog);
  SUBCASE("a flipped byte") {
    bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x20);
    write(catalog, bytes);
    const IndexSummary summary = index(sample_site(), out, false);
    CHECK(summary.reindex.full_because.find("damaged") != std::string::npos);
  }
  SUBCASE("another format version") {
    const std::size_t version_at = std::string("canon page store catalog\n").size();
    bytes[version_at] = static_cast<char>(canon::store::kStoreCatalogVersion + 1);
    write(catalog, bytes);
    const IndexSummary summary = index(sample_site(), out, false);
    CHECK(summary.reindex.full_because.find("format") != std::string::npos);
  }
  SUBCASE("no store (an index of an earlier canon)") {
    fs::remove_all(out / "store");
    const IndexSummary summary = index(sample_site(), out, false);
    CHECK(summary.reindex.full_because.find("no page store") != std::string::npos);
  }
  // Whatever happened, the index is whole and re-usable again.
  CHECK(index(sample_site(), out, false).reindex.full_because.empty());
}

namespace {

/// The bytes of the page store's segments in the index at `dir`.
std::uintmax_t store_bytes(const fs::path& dir) {
  std::uintmax_t bytes = 0;
  for (const auto& entry : fs::directory_iterator(dir / "store")) {
    if (entry.path().extension() == ".seg") bytes += entry.file_size();
  }
  return bytes;
}

}  // namespace

TEST_CASE("the page store stays within twice the size of its pages, however many re-indexes it sees") {
  canon::testing::TempDir dir;
  const fs::path site = dir.path() / "site";
  fs::copy(sample_site(), site, fs::copy_options::recursive);
  const fs::path out = dir.path() / "index";
  index(site, out, false);
  std::mt19937 random(7);
  for (int round = 0; round < 6; ++round) {
    CAPTURE(round);
    for (const std::string& page : pages_of(site)) {
      if (random() % 10 < 6) write(site / page, slurp(site / page) + "<!-- round " + std::to_string(round) + " -->");
    }
    const IndexSummary again = index(site, out, false);
    REQUIRE(again.reindex.full_because.empty());
    const fs::path fresh = dir.path() / "fresh";
    index(site, fresh, true);
    CHECK(slurp(out / "pages.jsonl") == slurp(fresh / "pages.jsonl"));
    CHECK(store_bytes(out) <= 2 * store_bytes(fresh));
    CHECK(store_bytes(out) >= store_bytes(fresh));
    fs::remove_all(fresh);
  }
}

TEST_CASE("a re-index in the other collapse mode writes the search index afresh from the store") {
  canon::testing::TempDir dir;
  const fs::path out = dir.path() / "index";
  index(sample_site(), out, false, canon::indexer::CollapseMode::kIndexTime);
  const IndexSummary query_time = index(sample_site(), out, false, canon::indexer::CollapseMode::kQueryTime);
  CHECK(query_time.reindex.full_because.empty());  // no file parsed again
  CHECK(query_time.reindex.unchanged == 39);
  CHECK(query_time.reindex.index_rewritten_because.find("collapses") != std::string::npos);
  const fs::path fresh = dir.path() / "fresh";
  index(sample_site(), fresh, true, canon::indexer::CollapseMode::kQueryTime);
  CHECK(slurp(out / "pages.jsonl") == slurp(fresh / "pages.jsonl"));
  CHECK(dump_documents(out) == dump_documents(fresh));
}
