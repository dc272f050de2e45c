/// @file test_searcher.cpp
/// @brief Searching an index written by IndexWriter: ranking, alternates, syntax, errors.
#include <doctest/doctest.h>
#include <xapian.h>

#include <cmath>
#include <random>
#include <memory>
#include <set>

#include "indexer/stages/index_writer.h"
#include "format/text_head.h"
#include "format/text_tail.h"
#include "query/searcher.h"
#include "query/spelling.h"
#include "support/temp_dir.h"

using canon::indexer::IndexedPage;
using canon::query::Searcher;
using canon::query::SearchRequest;

namespace {

/// An index directory (INDEX_DIR/xapian) with three pages; the first has an alternate.
void build_index(const std::filesystem::path& index_dir) {
  auto writer = canon::indexer::IndexWriter::create((index_dir / "xapian").string());
  REQUIRE(writer.ok());
  IndexedPage install;
  install.url = "http://localhost/docs/install.html";
  install.title = "Installing Tern";
  install.main_text =
      "Tern installs from Debian packages. Run the installer and answer its questions.";
  install.cluster_pagerank = 0.5;
  install.alternates = {{"http://localhost/print/install.html", "Installing Tern (print)", 0.96},
                        {"http://localhost/mirror/install.html", "Installing Tern", 0.91}};
  IndexedPage backups;
  backups.url = "http://localhost/docs/backups.html";
  backups.title = "Scheduling backups";
  backups.main_text =
      "Backups run every night. The scheduler keeps seven daily snapshots of each volume.";
  backups.cluster_pagerank = 0.3;
  IndexedPage news;
  news.url = "http://news.localhost/2024/release.html";
  news.title = "Tern 2.0 released";
  news.main_text = "Version 2.0 brings incremental backups and a faster installer.";
  news.cluster_pagerank = 0.2;
  for (const IndexedPage& page : {install, backups, news}) REQUIRE(writer.value()->add(page).ok());
  REQUIRE(writer.value()->finish().ok());
}

canon::query::SearchResults must_search(Searcher& searcher, const std::string& query,
                                        std::size_t limit = 10) {
  SearchRequest request;
  request.query = query;
  request.limit = limit;
  auto results = searcher.search(request);
  REQUIRE_MESSAGE(results.ok(), results.status().message());
  return results.value();
}

}  // namespace

TEST_CASE("results carry title, URL, snippet, static score and alternates") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  CHECK(searcher.value()->document_count() == 3);

  SearchRequest request;
  request.query = "debian packages";
  request.highlight_start = "[";
  request.highlight_end = "]";
  auto results = searcher.value()->search(request);
  REQUIRE(results.ok());
  REQUIRE(results->hits.size() == 1);
  const auto& hit = results->hits.front();
  CHECK(hit.rank == 1);
  CHECK(hit.url == "http://localhost/docs/install.html");
  CHECK(hit.title == "Installing Tern");
  CHECK(hit.pagerank == doctest::Approx(0.5));
  CHECK(hit.snippet.find("[Debian]") != std::string::npos);
  REQUIRE(hit.alternates.size() == 2);
  CHECK(hit.alternates[0].url == "http://localhost/print/install.html");
  CHECK(hit.alternates[0].similarity == doctest::Approx(0.96));
  CHECK(hit.alternates[1].title == "Installing Tern");
}

TEST_CASE("query syntax: stemming, AND by default, OR, NOT, phrases, title:, site:") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  Searcher& s = *searcher.value();
  CHECK(must_search(s, "backup").hits.size() == 2);             // stems match "backups"
  CHECK(must_search(s, "backups installer").hits.size() == 1);  // default AND
  CHECK(must_search(s, "snapshots OR questions").hits.size() == 2);
  CHECK(must_search(s, "backups NOT nightly NOT night").hits.size() == 1);
  CHECK(must_search(s, "\"daily snapshots\"").hits.size() == 1);
  CHECK(must_search(s, "\"snapshots daily\"").hits.empty());
  CHECK(must_search(s, "title:backups").hits.size() == 1);
  const auto on_news = must_search(s, "backups site:news.localhost");
  REQUIRE(on_news.hits.size() == 1);
  CHECK(on_news.hits[0].url == "http://news.localhost/2024/release.html");
}

TEST_CASE("offset and limit page through the results") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  SearchRequest request;
  request.query = "tern OR backups";
  request.limit = 1;
  request.offset = 1;
  auto page = searcher.value()->search(request);
  REQUIRE(page.ok());
  REQUIRE(page->hits.size() == 1);
  CHECK(page->hits[0].rank == 2);
  CHECK(page->estimated_matches == 3);
}

TEST_CASE("malformed and empty queries are clear errors") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  struct Row {
    const char* query;
    const char* message_part;
  };
  const Row rows[] = {
      {"\"daily snapshots", "closing '\"'"},
      {"(backups OR tern", "'(' without a matching ')'"},
      {"backups)", "')' without a matching '('"},
      {"", "no searchable words"},
      {"   ", "no searchable words"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.query);
    SearchRequest request;
    request.query = row.query;
    auto results = searcher.value()->search(request);
    REQUIRE_FALSE(results.ok());
    CHECK(results.status().message().find(row.message_part) != std::string::npos);
  }
}

TEST_CASE("opening a missing or foreign directory is a clear error") {
  canon::testing::TempDir dir;
  auto missing = Searcher::open(dir.path() / "nope");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message().find("does not exist") != std::string::npos);

  auto foreign = Searcher::open(dir.path());
  REQUIRE_FALSE(foreign.ok());
  CHECK(foreign.status().message().find("not a canon index") != std::string::npos);

  dir.write("broken/xapian/iamglass", "garbage");
  auto corrupt = Searcher::open(dir.path() / "broken");
  REQUIRE_FALSE(corrupt.ok());
  CHECK(corrupt.status().message().find("cannot open the index") != std::string::npos);
}

namespace {

/// Three pages matching "harbour": two with the same text (so the same BM25 weight) but
/// different PageRank, and one whose title also matches (a clearly better text match).
void build_static_index(const std::filesystem::path& index_dir) {
  auto writer = canon::indexer::IndexWriter::create((index_dir / "xapian").string());
  REQUIRE(writer.ok());
  IndexedPage low;
  low.url = "http://localhost/low.html";
  low.title = "Timetable notes";
  low.main_text = "The harbour ferry leaves every hour from the north pier.";
  low.cluster_pagerank = 0.01;
  IndexedPage high = low;
  high.url = "http://localhost/top.html";
  high.cluster_pagerank = 0.5;
  IndexedPage best;
  best.url = "http://localhost/best.html";
  best.title = "Harbour";
  best.main_text = "The harbour: its piers, its harbour master and the harbour ferry timetable.";
  best.cluster_pagerank = 0.001;
  for (const IndexedPage& page : {low, high, best}) REQUIRE(writer.value()->add(page).ok());
  for (int i = 0; i < 40; ++i) {  // pages without the query words, so that they are rare ones
    IndexedPage other;
    other.url = "http://localhost/other" + std::to_string(i) + ".html";
    other.title = "Timetables";
    other.main_text = "Buses and trains run every day.";
    REQUIRE(writer.value()->add(other).ok());
  }
  REQUIRE(writer.value()->finish().ok());
}

/// The hits' paths, space-separated.
std::string urls_for(Searcher& searcher, const SearchRequest& request) {
  auto results = searcher.search(request);
  REQUIRE_MESSAGE(results.ok(), results.status().message());
  std::string urls;
  for (const auto& hit : results->hits) {
    urls += (urls.empty() ? "" : " ") + hit.url.substr(std::string("http://localhost/").size());
  }
  return urls;
}

}  // namespace

TEST_CASE("the static score orders equal text matches and adds at most static_weight") {
  canon::testing::TempDir dir;
  build_static_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  SearchRequest request;
  request.query = "harbour ferry";

  request.static_weight = 0;  // BM25 alone: equal weights in URL order
  CHECK(urls_for(*searcher.value(), request) == "best.html low.html top.html");
  request.static_weight = canon::query::kDefaultStaticWeight;
  CHECK(urls_for(*searcher.value(), request) == "best.html top.html low.html");
  request.static_score = canon::query::StaticScore::kPageRank;
  CHECK(urls_for(*searcher.value(), request) == "best.html top.html low.html");
  request.static_weight = 1000;  // an absurd weight: PageRank decides
  CHECK(urls_for(*searcher.value(), request).starts_with("top.html"));

  // The page with the highest static score gets exactly static_weight; others ln-proportionally.
  request.static_score = canon::query::StaticScore::kLogPageRank;
  request.static_weight = 0;
  auto bare = searcher.value()->search(request);
  request.static_weight = 1;
  auto boosted = searcher.value()->search(request);
  REQUIRE(bare.ok());
  REQUIRE(boosted.ok());
  const auto weight_of = [](const canon::query::SearchResults& results, const std::string& url) {
    for (const auto& hit : results.hits) {
      if (hit.url == "http://localhost/" + url) return hit.weight;
    }
    FAIL("no hit for " << url);
    return 0.0;
  };
  CHECK(weight_of(boosted.value(), "top.html") - weight_of(bare.value(), "top.html") ==
        doctest::Approx(1.0));
  CHECK(weight_of(boosted.value(), "low.html") - weight_of(bare.value(), "low.html") ==
        doctest::Approx(std::log1p(0.01) / std::log1p(0.5)));
}

TEST_CASE("an invalid static weight is an error") {
  canon::testing::TempDir dir;
  build_static_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  for (double weight : {-1.0, std::nan(""), HUGE_VAL}) {
    CAPTURE(weight);
    SearchRequest request;
    request.query = "harbour";
    request.static_weight = weight;
    auto results = searcher.value()->search(request);
    REQUIRE_FALSE(results.ok());
    CHECK(results.status().message().find("static weight") != std::string::npos);
  }
}

namespace {

/// Writes `pages` and 40 pages without their words (so that those words are rare ones) into
/// an index at `index_dir`.
void write_with_filler(const std::filesystem::path& index_dir, std::initializer_list<IndexedPage> pages) {
  auto writer = canon::indexer::IndexWriter::create((index_dir / "xapian").string());
  REQUIRE(writer.ok());
  for (const IndexedPage& page : pages) REQUIRE(writer.value()->add(page).ok());
  for (int i = 0; i < 40; ++i) {
    IndexedPage filler;
    filler.url = "http://localhost/other" + std::to_string(i) + ".html";
    filler.title = "Glossary";
    filler.main_text = "Terms used in this documentation.";
    REQUIRE(writer.value()->add(filler).ok());
  }
  REQUIRE(writer.value()->finish().ok());
}

/// A page named "Bytes Objects" with little text, and a long page about types that mentions
/// bytes objects again and again; an alternate named "Bytearray Objects" on a third page; a
/// page named "Bytes".
void build_title_index(const std::filesystem::path& index_dir) {
  IndexedPage named;
  named.url = "http://localhost/c-api/bytes.html";
  named.title = "Bytes Objects";
  named.main_text = "These functions raise TypeError when expecting a bytes parameter.";
  IndexedPage mentions;
  mentions.url = "http://localhost/library/stdtypes.html";
  mentions.title = "Built-in Types";
  for (int i = 0; i < 30; ++i) {
    mentions.main_text += "Bytes objects are immutable sequences; objects of other types convert to bytes. ";
  }
  IndexedPage other;
  other.url = "http://localhost/c-api/concrete.html";
  other.title = "Concrete Objects Layer";
  other.main_text = "The functions in this chapter are specific to certain Python object types.";
  other.alternates = {{"http://localhost/c-api/bytearray.html", "Bytearray Objects", 0.97}};
  IndexedPage exact;
  exact.url = "http://localhost/library/bytes.html";
  exact.title = "Bytes";
  exact.main_text = "The bytes type holds a sequence of small integers; see also bytearray and memoryview, "
                    "the buffer protocol, the codecs and the struct module for packing binary data.";
  write_with_filler(index_dir, {named, mentions, other, exact});
}

}  // namespace

TEST_CASE("a page whose title holds the query's words ranks above pages that only mention them") {
  canon::testing::TempDir dir;
  build_title_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  SearchRequest request;
  request.query = "bytes objects";
  request.static_weight = 0;
  request.title_weight = 0;  // BM25 alone: the page that says it thirty times wins
  CHECK(urls_for(*searcher.value(), request) == "library/stdtypes.html c-api/bytes.html");
  request.title_weight = canon::query::kDefaultTitleWeight;
  CHECK(urls_for(*searcher.value(), request) == "c-api/bytes.html library/stdtypes.html");
  // Matches are the same: the title part only ranks.
  request.query = "immutable";
  CHECK(urls_for(*searcher.value(), request) == "library/stdtypes.html");
  // An alternate's title names its authoritative page.
  request.query = "bytearray objects";
  CHECK(urls_for(*searcher.value(), request) == "c-api/concrete.html");
  // A page whose whole title is the query ranks above one whose title only holds its words.
  request.query = "bytes";
  CHECK(urls_for(*searcher.value(), request).starts_with("library/bytes.html "));
  request.query = "Concrete  objects layer!";
  CHECK(urls_for(*searcher.value(), request) == "c-api/concrete.html");

  for (double weight : {-1.0, std::nan(""), HUGE_VAL}) {
    CAPTURE(weight);
    request.title_weight = weight;
    auto results = searcher.value()->search(request);
    REQUIRE_FALSE(results.ok());
    CHECK(results.status().message().find("title weight") != std::string::npos);
  }
}

TEST_CASE("a page's main heading names it as its title does; a title pasted with words added still names it") {
  canon::testing::TempDir dir;
  {
    // Doxygen's member lists: one <title> for all; the class is in the visible heading.
    IndexedPage vector_members;
    vector_members.url = "http://localhost/vector-members.html";
    vector_members.title = "lib: Member List";
    vector_members.main_heading = "std::vector Member List";
    vector_members.main_text = "push_back size; converts to std::deque too.";
    for (int i = 0; i < 30; ++i) vector_members.main_text += " std::deque";
    IndexedPage deque_members = vector_members;
    deque_members.url = "http://localhost/deque-members.html";
    deque_members.main_heading = "std::deque Member List";
    deque_members.main_text = "push_front pop_front.";
    // Javadoc: classes of one name in two packages, and a page about one of them.
    IndexedPage util_timer;
    util_timer.url = "http://localhost/java/util/Timer.html";
    util_timer.title = "Timer (Java SE 17)";
    util_timer.main_heading = "Class Timer";
    util_timer.main_text = "A facility for threads to schedule tasks.";
    IndexedPage swing_timer = util_timer;
    swing_timer.url = "http://localhost/javax/swing/Timer.html";
    swing_timer.main_text = "Fires action events at intervals.";
    IndexedPage timer_uses;
    timer_uses.url = "http://localhost/javax/swing/class-use/Timer.html";
    timer_uses.title = "Uses of Class javax.swing.Timer (Java SE 17)";
    for (int i = 0; i < 30; ++i) timer_uses.main_text += "Timer class Java SE 17. ";
    write_with_filler(dir.path(), {vector_members, deque_members, util_timer, swing_timer, timer_uses});
  }
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  SearchRequest request;
  request.static_weight = 0;
  request.query = "title:deque";
  CHECK(urls_for(*searcher.value(), request) == "deque-members.html");
  request.query = "std::deque Member List";  // the heading as the reader sees it
  CHECK(urls_for(*searcher.value(), request) == "deque-members.html vector-members.html");
  request.query = "lib: Member List std::deque";  // the title and the heading's own words
  CHECK(urls_for(*searcher.value(), request) == "deque-members.html vector-members.html");

  // The title pasted with the heading's word added: both classes rank above the page that
  // only repeats the words. Without the title part, that page wins.
  request.query = "Timer (Java SE 17) class";
  CHECK(urls_for(*searcher.value(), request) ==
        "javax/swing/Timer.html java/util/Timer.html javax/swing/class-use/Timer.html");  // shorter first
  request.title_weight = 0;
  CHECK(urls_for(*searcher.value(), request).starts_with("javax/swing/class-use/Timer.html "));
}

namespace {

/// A page of the anchor-text tests: what other pages call it and the names of its places.
IndexedPage named_page(const std::string& path, const std::string& title, const std::string& text,
                       std::vector<canon::indexer::AnchorName> anchors = {}, std::vector<std::string> places = {}) {
  IndexedPage page;
  page.url = "http://localhost/" + path;
  page.title = title;
  page.main_text = text;
  page.anchors = std::move(anchors);
  page.places = std::move(places);
  return page;
}

/// An index of some pages (and the filler) and its searcher, asked without the static score.
struct NamedIndex {
  canon::testing::TempDir dir;
  std::unique_ptr<Searcher> searcher;

  explicit NamedIndex(std::initializer_list<IndexedPage> pages) {
    write_with_filler(dir.path(), pages);
    auto opened = Searcher::open(dir.path());
    REQUIRE(opened.ok());
    searcher = std::move(opened).value();
  }
  /// The pages `query` finds, in order (urls_for), with anchor weight `anchor_weight`.
  std::string ranked(const std::string& query, double anchor_weight = canon::query::kDefaultAnchorWeight) {
    SearchRequest request;
    request.static_weight = 0;
    request.query = query;
    request.anchor_weight = anchor_weight;
    return urls_for(*searcher, request);
  }
};

}  // namespace

TEST_CASE("a page other pages link to by the query's name ranks above pages that repeat the name") {
  NamedIndex index{
      // Javadoc: the class page, and its "Uses of" page, whose title and text repeat the name.
      named_page("java/util/HashMap.html", "HashMap (Java SE 17)", "Hash table based implementation of the Map interface.",
                 {{"hashmap", 40}, {"class", 1}}),
      named_page("java/util/class-use/HashMap.html", "Uses of Class java.util.HashMap (Java SE 17)",
                 "Methods in java.util that return HashMap. HashMap. HashMap. HashMap.", {{"use", 1}}),
      // cppreference: the constructor page, titled with the class's name twice.
      named_page("java/util/HashMap/HashMap.html", "HashMap::HashMap", "Constructs an empty HashMap.",
                 {{"constructor", 1}})};
  CHECK_FALSE(index.ranked("HashMap", 0).starts_with("java/util/HashMap.html "));  // the repetitions win
  CHECK(index.ranked("HashMap").starts_with("java/util/HashMap.html "));
  // Anchors only rank: a page is not found by its link texts alone.
  CHECK(index.ranked("constructor").empty());

  for (double weight : {-1.0, std::nan(""), HUGE_VAL}) {
    CAPTURE(weight);
    SearchRequest request;
    request.query = "HashMap";
    request.anchor_weight = weight;
    auto invalid = index.searcher->search(request);
    REQUIRE_FALSE(invalid.ok());
    CHECK(invalid.status().message().find("anchor weight") != std::string::npos);
  }
}

TEST_CASE("anchor text: among pages named alike but for case, the one named as the query writes it") {
  // By as many pages, give or take a count level.
  NamedIndex index{named_page("core/marker/trait.Copy.html", "Copy in core::marker",
                              "Types whose values can be duplicated simply by copying bits.", {{"Copy", 6}}),
                   named_page("core/ptr/fn.copy.html", "copy in core::ptr", "Copies count values from src to dst.",
                              {{"copy", 3}})};
  CHECK(index.ranked("copy") == "core/ptr/fn.copy.html core/marker/trait.Copy.html");
  CHECK(index.ranked("Copy") == "core/marker/trait.Copy.html core/ptr/fn.copy.html");
}

TEST_CASE("anchor text: only the whole query names a page; a page called by a run of it does not gain") {
  NamedIndex index{
      named_page("filesystem/path.html", "std::filesystem::path",
                 "Objects of type path represent paths on a filesystem; std::filesystem::path::path.",
                 {{"std filesystem path", 200}}),
      named_page("filesystem/path/path.html", "std::filesystem::path::path", "Constructs a new path.")};
  CHECK(index.ranked("std::filesystem::path::path") == "filesystem/path/path.html filesystem/path.html");
  CHECK(index.ranked("std::filesystem::path") == "filesystem/path.html filesystem/path/path.html");
}

TEST_CASE("places: the page the query's first words name, with a place the rest name, comes first") {
  NamedIndex index{
      named_page("vec/struct.Vec.html", "Vec in std::vec",
                 "A contiguous growable array type. Methods: push appends an element; pop removes one.",
                 {{"Vec", 50}}, {"push", "pop", "Vec push"}),
      named_page("collections/struct.BinaryHeap.html", "BinaryHeap in std::collections",
                 "A priority queue. push pushes an item; built on a Vec. Vec push, Vec push.", {{"BinaryHeap", 10}},
                 {"push"}),
      named_page("os.html", "os - Miscellaneous operating system interfaces",
                 "makedirs creates directories; the os module.", {}, {"os makedirs"}),
      named_page("howto/files.html", "Working with files",
                 "Use os makedirs to create nested directories. Use os makedirs again. os makedirs.")};
  CHECK(index.ranked("Vec push", 0).starts_with("collections/struct.BinaryHeap.html "));
  CHECK(index.ranked("Vec push").starts_with("vec/struct.Vec.html "));
  // A place's whole name ("os.makedirs()" links).
  CHECK(index.ranked("os makedirs", 0).starts_with("howto/files.html "));
  CHECK(index.ranked("os makedirs").starts_with("os.html "));
}

TEST_CASE("a hit's place: its breadcrumb trail, else its URL's directories") {
  canon::testing::TempDir dir;
  {
    IndexedPage trail;
    trail.url = "http://localhost/library/urllib.request.html";
    trail.title = "urllib.request";
    trail.main_text = "Extensible library for opening URLs.";
    trail.place = {"Python", "The Python Standard Library", "Internet Protocols and Support"};
    IndexedPage plain;
    plain.url = "http://localhost/java.desktop/javax/swing/Timer.html";
    plain.title = "Timer";
    plain.main_text = "Fires action events; opening URLs is not its job.";
    write_with_filler(dir.path(), {trail, plain});
  }
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  const auto results = must_search(*searcher.value(), "opening URLs");
  REQUIRE(results.hits.size() == 2);
  for (const canon::query::SearchHit& hit : results.hits) {
    CAPTURE(hit.url);
    if (hit.url.ends_with("urllib.request.html")) {
      CHECK(hit.place == std::vector<std::string>{"Python", "The Python Standard Library", "Internet Protocols and Support"});
      CHECK(hit.place_from_breadcrumbs);
    } else {
      CHECK(hit.place == std::vector<std::string>{"java.desktop", "javax", "swing"});
      CHECK_FALSE(hit.place_from_breadcrumbs);
    }
  }
}

TEST_CASE("path: filters on the directories a page is in") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  Searcher& s = *searcher.value();
  for (const char* query : {"backups path:/docs/", "backups path:/docs", "backups path:docs"}) {
    CAPTURE(query);
    const auto results = must_search(s, query);
    REQUIRE(results.hits.size() == 1);
    CHECK(results.hits[0].url == "http://localhost/docs/backups.html");
  }
  CHECK(must_search(s, "backups path:/2024/").hits.size() == 1);
  CHECK(must_search(s, "backups path:/").hits.size() == 2);  // the root holds everything
  CHECK(must_search(s, "backups path:/doc").hits.empty());   // whole directory names only
  CHECK(must_search(s, "path:/docs/").hits.size() == 2);     // a filter alone lists its pages
  CHECK(must_search(s, "backups -path:/docs/").hits.size() == 1);
}

namespace {

const std::string install_text =
    "Tern installs from Debian packages. Run the installer and answer its questions.";

/// A query-time-collapse index: the install cluster (authoritative page, a printable copy with
/// one extra word, an exact mirror), and two singletons.
void build_query_collapse_index(const std::filesystem::path& index_dir) {
  auto writer = canon::indexer::IndexWriter::create(
      (index_dir / "xapian").string(), {canon::indexer::CollapseMode::kQueryTime, 3.0});
  REQUIRE(writer.ok());
  const std::string text = install_text;
  IndexedPage install;
  install.url = "http://localhost/docs/install.html";
  install.title = "Installing Tern";
  install.main_text = text;
  install.cluster_pagerank = 0.5;
  install.cluster_id = 1;
  install.alternates = {
      {"http://localhost/mirror/install.html", "Installing Tern", 1.0},
      {"http://localhost/print/install.html", "Installing Tern (printable)", 0.9}};
  IndexedPage mirror = install;
  mirror.url = "http://localhost/mirror/install.html";
  mirror.alternates.clear();
  mirror.authoritative_url = install.url;
  IndexedPage print = mirror;
  print.url = "http://localhost/print/install.html";
  print.title = "Installing Tern (printable)";
  print.main_text = text + " This is the printable version.";
  IndexedPage backups;
  backups.url = "http://localhost/docs/backups.html";
  backups.title = "Scheduling backups";
  backups.main_text = "Backups run every night; the installer sets up the schedule.";
  backups.cluster_pagerank = 0.3;
  backups.cluster_id = 2;
  IndexedPage news;
  news.url = "http://localhost/news/release.html";
  news.title = "Tern 2.0 released";
  news.main_text = "Tern 2.0 brings a faster installer.";
  news.cluster_pagerank = 0.2;
  news.cluster_id = 3;
  for (const IndexedPage& page : {install, mirror, print, backups, news})
    REQUIRE(writer.value()->add(page).ok());
  REQUIRE(writer.value()->finish().ok());
}

}  // namespace

TEST_CASE("query-time collapse: one hit per cluster, shown as its authoritative page") {
  canon::testing::TempDir dir;
  build_query_collapse_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  Searcher& s = *searcher.value();
  CHECK(s.collapses_at_query_time());
  CHECK(s.document_count() == 5);

  // All three members of the install cluster match; it appears once.
  const auto installer = must_search(s, "installer");
  CHECK(installer.collapse == "query");
  REQUIRE(installer.hits.size() == 3);
  std::set<std::string> urls;
  for (const auto& hit : installer.hits) urls.insert(hit.url);
  CHECK(urls == std::set<std::string>{"http://localhost/docs/install.html",
                                      "http://localhost/docs/backups.html",
                                      "http://localhost/news/release.html"});
  CHECK(installer.estimated_matches == 3);

  // Only the printable copy has "printable": the cluster is found through it, shown as the
  // authoritative page (its title, URL, snippet, alternates), and the copy is named.
  SearchRequest request;
  request.query = "printable";
  request.highlight_start = "[";
  request.highlight_end = "]";
  auto printable = s.search(request);
  REQUIRE(printable.ok());
  REQUIRE(printable->hits.size() == 1);
  const auto& hit = printable->hits[0];
  CHECK(hit.url == "http://localhost/docs/install.html");
  CHECK(hit.title == "Installing Tern");
  CHECK(hit.matched_url == "http://localhost/print/install.html");
  CHECK(hit.pagerank == doctest::Approx(0.5));
  CHECK(hit.snippet == install_text);  // the authoritative text (no match in it: its start)
  REQUIRE(hit.alternates.size() == 2);
  CHECK(hit.alternates[1].url == "http://localhost/print/install.html");

  // When the authoritative page itself matches best, nothing is named.
  const auto debian = must_search(s, "debian");
  REQUIRE(debian.hits.size() == 1);
  CHECK(debian.hits[0].url == "http://localhost/docs/install.html");

  // Paging is over clusters.
  request = SearchRequest{};
  request.query = "installer";
  request.offset = 1;
  request.limit = 5;
  auto page = s.search(request);
  REQUIRE(page.ok());
  REQUIRE(page->hits.size() == 2);
  CHECK(page->hits[0].rank == 2);
  CHECK(page->hits[0].url == installer.hits[1].url);
}

TEST_CASE("snippets and alternates can be left out") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  SearchRequest request;
  request.query = "debian";
  request.with_snippets = false;
  request.with_alternates = false;
  auto results = searcher.value()->search(request);
  REQUIRE(results.ok());
  REQUIRE(results->hits.size() == 1);
  CHECK(results->hits[0].url == "http://localhost/docs/install.html");
  CHECK(results->hits[0].snippet.empty());
  CHECK(results->hits[0].alternates.empty());
  CHECK(results->collapse == "index");
  CHECK_FALSE(searcher.value()->collapses_at_query_time());
}

TEST_CASE("collapse metadata: a database without it is not a canon index; an unknown mode is an error") {
  canon::testing::TempDir dir;
  std::filesystem::create_directories(dir.path() / "old");
  std::filesystem::create_directories(dir.path() / "odd");
  {
    Xapian::WritableDatabase db((dir.path() / "old" / "xapian").string(),
                                Xapian::DB_CREATE_OR_OVERWRITE);
    Xapian::Document doc;
    doc.add_term("word");
    doc.add_term("Zword");
    doc.set_data("url=http://localhost/\ncaption=Old\n");
    db.add_document(doc);
    db.commit();
  }
  auto old = Searcher::open(dir.path() / "old");
  REQUIRE_FALSE(old.ok());
  CHECK(old.status().message().find("was not written by canon") != std::string::npos);

  {
    Xapian::WritableDatabase db((dir.path() / "odd" / "xapian").string(),
                                Xapian::DB_CREATE_OR_OVERWRITE);
    db.set_metadata("canon_collapse", "sideways");
    db.commit();
  }
  auto odd = Searcher::open(dir.path() / "odd");
  REQUIRE_FALSE(odd.ok());
  CHECK(odd.status().message().find("unknown collapse mode 'sideways'") != std::string::npos);
}

TEST_CASE("a page that matches outside its text gets the start of its text as snippet") {
  canon::testing::TempDir dir;
  auto writer = canon::indexer::IndexWriter::create((dir.path() / "xapian").string());
  REQUIRE(writer.ok());
  IndexedPage page;
  page.url = "http://localhost/airships.html";
  page.title = "Zeppelins";
  for (int i = 0; i < 60; ++i) page.main_text += "Airships float above the fields. ";
  REQUIRE(writer.value()->add(page).ok());
  REQUIRE(writer.value()->finish().ok());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  const auto results = must_search(*searcher.value(), "zeppelins");
  REQUIRE(results.hits.size() == 1);
  const std::string& snippet = results.hits[0].snippet;
  REQUIRE(snippet.ends_with("..."));
  const std::string kept = snippet.substr(0, snippet.size() - 3);
  CHECK(kept.size() <= 240);
  CHECK(page.main_text.starts_with(kept));
  CHECK(page.main_text[kept.size()] == ' ');  // cut after a whole word
}

TEST_CASE("snippets come from where the query's words are, however deep in the page") {
  canon::testing::TempDir dir;
  auto writer = canon::indexer::IndexWriter::create((dir.path() / "xapian").string());
  REQUIRE(writer.ok());
  IndexedPage page;
  page.url = "http://localhost/long.html";
  page.title = "A long page";
  for (int i = 0; i < 200; ++i) page.main_text += "Filler words about nothing in particular here. ";
  page.main_text += "Completion scripts make the shell complete commands for you. ";
  for (int i = 0; i < 100; ++i) page.main_text += "More filler words about nothing much. ";
  REQUIRE(page.main_text.size() > 9000);
  REQUIRE(writer.value()->add(page).ok());
  REQUIRE(writer.value()->finish().ok());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());

  SearchRequest request;
  request.query = "shell completions";  // "completions" stems to the "complet" of "Completion"
  request.highlight_start = "[";
  request.highlight_end = "]";
  auto results = searcher.value()->search(request);
  REQUIRE(results.ok());
  REQUIRE(results->hits.size() == 1);
  const std::string& snippet = results->hits[0].snippet;
  CAPTURE(snippet);
  CHECK(snippet.find("[Completion] scripts make the [shell] [complete] commands") !=
        std::string::npos);
  CHECK(snippet.ends_with("..."));
  CHECK(snippet.size() < 300);
}

TEST_CASE("snippets of long pages: words past the text the document's data holds come from its deflated tail") {
  canon::testing::TempDir dir;
  auto writer = canon::indexer::IndexWriter::create((dir.path() / "xapian").string());
  REQUIRE(writer.ok());
  // Words only past the head (kTextHeadBytes), and words in the head too; in the head, "turtle"
  // only inside another word, where the query's words are not.
  IndexedPage page;
  page.url = "http://localhost/contents.html";
  page.title = "Contents";
  while (page.main_text.size() < 3 * canon::index_format::kTextHeadBytes) {
    page.main_text += "Filler headings of the table of contents. ";
    if (page.main_text.size() % 7 == 0) page.main_text += "See turtledemo. ";
  }
  page.main_text += "Turtle motion moves the pen across the screen. ";
  for (int i = 0; i < 100; ++i) page.main_text += "More filler words about nothing much. ";
  REQUIRE(writer.value()->add(page).ok());
  REQUIRE(writer.value()->finish().ok());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  struct Row {
    const char* query;
    const char* expected;  // in the snippet
  };
  const Row rows[] = {
      {"turtle motion", "[Turtle] [motion] moves the pen"},
      {"filler headings", "[Filler] [headings] of the table"},
  };
  for (const Row& row : rows) {
    SearchRequest request;
    request.query = row.query;
    request.highlight_start = "[";
    request.highlight_end = "]";
    auto results = searcher.value()->search(request);
    REQUIRE(results.ok());
    REQUIRE(results->hits.size() == 1);
    CAPTURE(results->hits[0].snippet);
    CHECK(results->hits[0].snippet.find(row.expected) != std::string::npos);
  }
}

TEST_CASE("text tail: deflated and inflated back; bytes that are not one do not decode") {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "word" + std::to_string(i % 37) + " ";
  const std::string bytes = canon::index_format::encode_text_tail(text);
  CHECK(bytes.size() < text.size() / 4);
  CHECK(canon::index_format::decode_text_tail(bytes) == text);
  CHECK(canon::index_format::decode_text_tail(canon::index_format::encode_text_tail("")) == std::string());
  CHECK_FALSE(canon::index_format::decode_text_tail(bytes.substr(0, bytes.size() / 2)));
  CHECK_FALSE(canon::index_format::decode_text_tail(""));
  CHECK_FALSE(canon::index_format::decode_text_tail("\x05hello"));
  // A piece at a time: the same text; a cut tail ends bad.
  canon::index_format::TextTailReader reader(bytes);
  std::string pieces;
  std::size_t calls = 0;
  while (reader.append(pieces, 1000)) ++calls;
  CHECK_FALSE(reader.bad());
  CHECK(pieces == text);
  CHECK(calls == (text.size() + 999) / 1000);
  const std::string cut = bytes.substr(0, bytes.size() - 8);
  canon::index_format::TextTailReader short_reader(cut);
  std::string some;
  while (short_reader.append(some, 1000)) {
  }
  CHECK(short_reader.bad());
  CHECK(some.size() < text.size());
}

TEST_CASE("text head: compressed and back; bytes that are not one do not decode") {
  namespace fmt = canon::index_format;
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "wörd" + std::to_string(i % 37) + " ";
  const std::string bytes = fmt::encode_text_head(text);
  CHECK(bytes.size() < text.size() / 2);
  CHECK(fmt::decode_text_head(bytes) == text);
  CHECK(fmt::encode_text_head("").empty());
  CHECK(fmt::decode_text_head("") == std::string());  // a page without text has no head
  CHECK(fmt::decode_text_head(fmt::encode_text_head("x")) == "x");
  CHECK_FALSE(fmt::decode_text_head(bytes.substr(0, bytes.size() - 4)));  // cut
  CHECK_FALSE(fmt::decode_text_head("\x05hello"));                       // not LZ4 of 5 bytes
  CHECK_FALSE(fmt::decode_text_head("\xff\xff\xff\xff\x0f"));           // a length past any head
  std::string longer = bytes;
  longer[0] = static_cast<char>(longer[0] + 1);  // says one byte more than it holds
  CHECK_FALSE(fmt::decode_text_head(longer));
}

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

TEST_CASE("snippets highlight the query's stopwords only in a phrase or when the query is nothing else") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  const auto snippet_of = [&](const std::string& query) {
    SearchRequest request;
    request.query = query;
    request.highlight_start = "[";
    request.highlight_end = "]";
    auto results = searcher.value()->search(request);
    REQUIRE(results.ok());
    REQUIRE_FALSE(results->hits.empty());
    return results->hits.front().snippet;
  };
  struct Row {
    const char* query;
    const char* marked;    // in the snippet
    const char* unmarked;  // in it without marks
  };
  const Row rows[] = {
      {"the installer", "[installer]", "the"},
      {"answer its questions", "[questions]", "its"},
      {"\"answer its questions\"", "[answer its questions]", ""},  // a phrase is marked whole
      {"its", "[its]", ""},
  };
  for (const Row& row : rows) {
    const std::string snippet = snippet_of(row.query);
    INFO(std::string(row.query) << " -> " << snippet);
    CHECK(snippet.find(row.marked) != std::string::npos);
    if (*row.unmarked != '\0') {
      CHECK(snippet.find(std::string("[") + row.unmarked + "]") == std::string::npos);
      CHECK(snippet.find(std::string(" ") + row.unmarked + " ") != std::string::npos);
    }
  }
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

TEST_CASE("the first results do not depend on how many are asked for (model: a page of k is the first k of all)") {
  canon::testing::TempDir dir;
  const std::vector<std::string> words = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"};
  std::mt19937 random(56);
  const auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
  {
    auto writer = canon::indexer::IndexWriter::create((dir.path() / "xapian").string());
    REQUIRE(writer.ok());
    for (int i = 0; i < 400; ++i) {
      IndexedPage page;
      page.url = "http://localhost/p" + std::to_string(i) + ".html";
      page.title = words[pick(words.size())] + " " + words[pick(words.size())];
      for (int w = 0, n = 5 + static_cast<int>(pick(60)); w < n; ++w) page.main_text += words[pick(words.size())] + " ";
      page.cluster_pagerank = 0.001 * static_cast<double>(1 + pick(100));
      if (pick(20) == 0) page.anchors = {{words[pick(words.size())] + " " + words[pick(words.size())], 1 + static_cast<std::uint32_t>(pick(300))}};
      REQUIRE(writer.value()->add(page).ok());
    }
    REQUIRE(writer.value()->finish().ok());
  }
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  std::size_t compared = 0;
  for (const std::string& first : words) {
    for (const std::string& second : words) {
      for (const canon::query::StaticScore score : {canon::query::StaticScore::kLogPageRank, canon::query::StaticScore::kPageRank}) {
        SearchRequest all;
        all.query = first + " " + second;
        all.static_score = score;
        all.limit = 1000;
        all.with_snippets = all.with_alternates = false;
        all.sections = 0;
        auto everything = searcher.value()->search(all);
        REQUIRE(everything.ok());
        for (std::size_t k : {1, 2, 3, 5}) {
          SearchRequest some = all;
          some.limit = k;
          auto page = searcher.value()->search(some);
          REQUIRE(page.ok());
          CAPTURE(all.query);
          CAPTURE(k);
          for (std::size_t i = 0; i < page->hits.size() && i < everything->hits.size(); ++i) {
            CHECK(page->hits[i].url == everything->hits[i].url);
          }
          ++compared;
        }
      }
    }
  }
  CHECK(compared == words.size() * words.size() * 2 * 4);
}
