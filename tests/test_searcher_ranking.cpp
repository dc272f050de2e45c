/// @file test_searcher_ranking.cpp
/// @brief How the Searcher ranks: the static score, titles and main headings, anchor text and
/// places, and the first results whatever the number asked for.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "indexer/stages/index_writer.h"
#include "query/searcher.h"
#include "support/searcher_fixtures.h"
#include "support/temp_dir.h"

using canon::indexer::IndexedPage;
using canon::query::Searcher;
using canon::query::SearchRequest;
using canon::testing::write_with_filler;

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
