/// @file test_pipeline_stages.cpp
/// @brief The stages of `canon index` on their own: URL ownership (site_plan), redirects and the
/// link graph (site_links) on hand-made records, cluster assignment without parsing.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "indexer/stages/cluster_assignment.h"
#include "indexer/records/page_record.h"
#include "indexer/stages/parse_stage.h"
#include "indexer/stages/site_links.h"
#include "indexer/input/site_plan.h"
#include "indexer/stages/site_links_by_owner.h"
#include "support/link_pages_oracle.h"
#include "support/temp_dir.h"
#include "support/thread_collective.h"

using canon::testing::RedirectResolver;
using canon::testing::resolve_named_pages;
using namespace canon::indexer;
namespace fs = std::filesystem;

namespace {

/// A parsed page at `url`, redirecting to `refresh` when given.
PageRecord page(const std::string& url, const char* refresh = nullptr) {
  PageRecord r;
  r.url = url;
  r.parsed = true;
  r.status = refresh ? PageStatus::kRedirect : PageStatus::kIndexed;
  if (refresh) r.refresh_url = refresh;
  return r;
}

}  // namespace

namespace {

/// The link stage as a one-process run does it: link_pages_by_owner over every record.
SiteGraph link_alone(HeldRecords& records, const ParsedLinks& links) {
  std::vector<std::string> texts = links.anchor_texts;
  auto graph = link_pages_by_owner(records, 0, static_cast<std::uint32_t>(records.size()), links, texts,
                                   canon::LocalCollective());
  REQUIRE_MESSAGE(graph.ok(), graph.status().message());
  return std::move(graph).value();
}

}  // namespace

TEST_CASE("ChunkLayout: every file in exactly one chunk, whatever the chunk size") {
  using canon::indexer::detail::chunk_layout;
  const std::size_t huge = std::size_t{1} << 40;  // more files a chunk than any site has
  for (const auto& [files, per_chunk, chunks] : std::vector<std::tuple<std::size_t, std::size_t, std::size_t>>{
           {0, 7, 0}, {1, 7, 1}, {7, 7, 1}, {8, 7, 2}, {40, 1, 40}, {40, huge, 1}, {40, SIZE_MAX, 1}}) {
    CAPTURE(files);
    CAPTURE(per_chunk);
    const auto layout = chunk_layout("/tmp", files, per_chunk, 2);
    REQUIRE(layout.count() == chunks);
    std::size_t covered = 0;
    for (std::size_t c = 0; c < layout.count(); ++c) {
      CHECK(layout.first(c) == covered);
      covered = layout.end(c);
    }
    CHECK(covered == files);
  }
}

TEST_CASE("share_chunks: contiguous runs of about equal work, as the first process cuts them") {
  using canon::indexer::detail::chunk_layout;
  using canon::indexer::detail::share_chunks;
  std::mt19937_64 rng(5);
  for (int round = 0; round < 40; ++round) {
    const std::size_t count = 1 + rng() % 60;
    // Skewed work: most chunks light, a few heavy (a site's large pages in some folders).
    std::vector<std::uint64_t> work(count);
    for (std::uint64_t& w : work) w = rng() % 8 == 0 ? 1000 + rng() % 100000 : 1 + rng() % 100;
    std::uint64_t total = 0, heaviest = 0;
    for (const std::uint64_t w : work) {
      total += w;
      heaviest = std::max(heaviest, w);
    }
    for (const unsigned processes : {1u, 2u, 3u, 5u}) {
      CAPTURE(round);
      CAPTURE(processes);
      std::vector<std::vector<std::size_t>> got(processes);
      canon::testing::run_processes(processes, [&](const canon::Collective& collective) {
        auto layout = chunk_layout("/tmp", count, 1, 2);
        // The others see other sizes (the site changed between walks): process 0's cut rules.
        std::vector<std::uint64_t> seen = work;
        if (collective.rank() != 0) std::reverse(seen.begin(), seen.end());
        CHECK(share_chunks(layout, seen, collective).ok());
        got[collective.rank()] = layout.process_first;
        for (std::size_t c = 0; c < count; ++c) {
          CHECK(layout.owner(c) < processes);
          CHECK(layout.process_first[layout.owner(c)] <= c);
          CHECK(c < layout.process_first[layout.owner(c) + 1]);
        }
      });
      const std::vector<std::size_t>& first = got[0];
      REQUIRE(first.size() == processes + 1);
      CHECK(first.front() == 0);
      CHECK(first.back() == count);
      for (unsigned p = 0; p < processes; ++p) {
        CHECK(got[p] == first);
        CHECK(first[p] <= first[p + 1]);
        std::uint64_t share = 0;
        for (std::size_t c = first[p]; c < first[p + 1]; ++c) share += work[c];
        CHECK(share <= total / processes + heaviest);  // no process more than its share and a chunk
      }
    }
  }
}

TEST_CASE("page statuses: one text form each, read back") {
  for (const PageStatus status : {PageStatus::kIndexed, PageStatus::kDuplicate, PageStatus::kRedirect, PageStatus::kSkipped}) {
    CHECK(parse_page_status(to_string(status)) == status);
  }
  CHECK(to_string(PageStatus::kDuplicate) == "duplicate");
  CHECK_FALSE(parse_page_status("").has_value());
  CHECK_FALSE(parse_page_status("Indexed").has_value());
}

TEST_CASE("serves_before: index.html serves a directory's URL before any other file") {
  struct Case {
    const char* path;
    const char* other;
    bool serves_first;
  };
  const Case cases[] = {
      {"doc/index.html", "doc/index.htm", true},
      {"doc/index.htm", "doc/index.html", false},
      {"doc/index.htm", "doc/index.php.html", false},  // neither is index.html: the first keeps it
      {"a.html", "b.html", false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.path);
    CHECK(serves_before(c.path, c.other) == c.serves_first);
  }
}

TEST_CASE("plan_site: each file's URL, and the file that serves a URL two files map to") {
  canon::testing::TempDir dir;
  for (const char* path : {"doc/index.htm", "doc/index.html", "page.html"}) {
    fs::create_directories((dir.path() / path).parent_path());
    std::ofstream(dir.path() / path) << "<html><title>x</title></html>";
  }
  auto plan = plan_site(dir.path(), "http://localhost/");
  REQUIRE(plan.ok());
  REQUIRE(plan->files.size() == 3);
  CHECK(plan->files[0].relative_path == "doc/index.htm");
  CHECK(plan->url(0).value() == "http://localhost/doc/");
  CHECK(plan->url(1).value() == "http://localhost/doc/");
  CHECK_FALSE(plan->serves_url(0));
  CHECK(plan->url_owner(0) == 1);
  CHECK(plan->url_owner(1) == 1);
  CHECK(plan->serves_url(1));
  CHECK(plan->serves_url(2));
  CHECK(plan->url_owner_path(0) == "doc/index.html");

  // A process's part: the file whose URL another part's file serves still names it.
  SitePlan part = plan.value();
  part.keep_part(0, 1, false);
  CHECK(part.file_count() == 3);
  CHECK(part.files.size() == 1);
  CHECK(part.has(0));
  CHECK_FALSE(part.has(1));
  CHECK_FALSE(part.serves_url(0));
  CHECK(part.url_owner_path(0) == "doc/index.html");
  CHECK(outline_of(part).serves_url.size() == 1);
  SitePlan rest = plan.value();
  rest.keep_part(1, 3, true);
  CHECK(rest.first == 1);
  CHECK(rest.file(2).relative_path == "page.html");
  CHECK(rest.url(1).value() == "http://localhost/doc/");
  CHECK(rest.serves_url(1));
  CHECK(rest.serves_url(2));
  CHECK(outline_of(rest).serves(2));
}

TEST_CASE("redirects: chains are followed to the page they end on; loops and missing pages land nowhere") {
  HeldRecords records = {
      page("http://s/a"),                      // 0
      page("http://s/old", "http://s/older"),  // 1 -> 2 -> 0
      page("http://s/older", "http://s/a"),    // 2
      page("http://s/loop1", "http://s/loop2"),
      page("http://s/loop2", "http://s/loop1"),
      page("http://s/gone", "http://s/missing"),
  };
  const RedirectResolver resolver(records);
  std::string url = "http://s/old";
  CHECK(resolver.follow(url) == 0);
  CHECK(url == "http://s/a");
  url = "http://s/loop1";
  CHECK(resolver.follow(url) == kNoRecord);
  url = "http://s/gone";
  CHECK(resolver.follow(url) == kNoRecord);
  CHECK(url == "http://s/missing");
  url = "http://s/elsewhere";
  CHECK(resolver.follow(url) == kNoRecord);
}

TEST_CASE("the link stage (one process): redirect pages become redirects, links through them reach their target") {
  PageRecord unparsed;
  unparsed.url = "http://s/unreadable";
  HeldRecords records = {page("http://s/a"), page("http://s/b"), page("http://s/r", "http://s/b"), unparsed};
  UrlIds urls;
  records[0].links = urls.ids({"http://s/r", "http://s/a", "http://s/elsewhere", "http://s/unreadable"});
  records[1].links = urls.ids({"http://s/a", "http://s/a"});
  const std::vector<std::string> no_texts;
  const SiteGraph site = link_alone(records, take_links(records, urls, no_texts));
  CHECK(records[2].status == PageStatus::kRedirect);
  CHECK(records[2].redirect_to == "http://s/b");
  CHECK_FALSE(records[2].node.has_value());
  CHECK_FALSE(records[3].node.has_value());
  CHECK(site.own_records == std::vector<std::uint32_t>{0, 1});
  CHECK(site.node_parts.processes() == 1);
  CHECK(site.node_parts.end(0) == 2);
  // a -> b through the redirect (a's self-link dropped), b -> a once.
  REQUIRE(site.rows.first() == 0);
  REQUIRE(site.rows.end() == 2);
  CHECK(site.rows.edge_count() == 2);
  CHECK(std::vector<std::uint32_t>(site.rows.out_links(0).begin(), site.rows.out_links(0).end()) ==
        std::vector<std::uint32_t>{1});
  CHECK(std::vector<std::uint32_t>(site.rows.out_links(1).begin(), site.rows.out_links(1).end()) ==
        std::vector<std::uint32_t>{0});
  CHECK(records[0].links.empty());  // released
}

TEST_CASE("the link stage (one process): what other pages call a page, each linking page counted once per text") {
  HeldRecords records = {page("http://s/a"), page("http://s/b"), page("http://s/c"),
                                     page("http://s/r", "http://s/b")};
  UrlIds urls;
  AnchorIds anchors;
  const auto texts = [&](const std::vector<std::string>& keys) { return intern_anchor_keys(keys, anchors); };
  // a: b twice as "vector" (counted once), b through its redirect as "vec", itself, c unnamed.
  records[0].links = urls.ids({"http://s/b", "http://s/b", "http://s/r", "http://s/a", "http://s/c"});
  records[0].link_anchors = texts({"vector", "vector", "vec", "vector", ""});
  // c: b as "vector", a as "home"; b: a as "home".
  records[2].links = urls.ids({"http://s/b", "http://s/a"});
  records[2].link_anchors = texts({"vector", "home"});
  records[1].links = urls.ids({"http://s/a"});
  records[1].link_anchors = texts({"home"});
  std::vector<std::string> anchor_texts = anchors.urls();
  link_alone(records, take_links(records, urls, anchor_texts));
  const auto named = [&](std::size_t record) {
    std::vector<std::pair<std::string, std::uint32_t>> out;
    for (const InboundAnchor& a : records[record].inbound_anchors) out.emplace_back(anchor_texts[a.text], a.pages);
    return out;
  };
  using Named = std::vector<std::pair<std::string, std::uint32_t>>;
  CHECK(named(0) == Named{{"home", 2}});  // a's own link to itself does not name it
  CHECK(named(1) == Named{{"vector", 2}, {"vec", 1}});
  CHECK(named(2).empty());
  CHECK(named(3).empty());
  CHECK(records[0].link_anchors.empty());  // released

  // A cluster's copies pass what they are called to the page it is indexed under.
  records[2].status = PageStatus::kDuplicate;
  records[2].authoritative = 1;
  records[2].inbound_anchors = {{records[1].inbound_anchors[1].text, 4}};  // "vec", 4 pages
  REQUIRE(gather_cluster_anchors(records, anchor_texts, canon::indexer::detail::RecordParts(static_cast<std::uint32_t>(records.size())), canon::LocalCollective())
              .ok());
  CHECK(named(1) == Named{{"vec", 5}, {"vector", 2}});
  CHECK(named(2).empty());
}

TEST_CASE("the link stage (one process): the names of a page's places, from its own links and other pages'") {
  HeldRecords records = {page("http://s/vec"), page("http://s/heap")};
  UrlIds urls;
  AnchorIds anchors;
  // vec's sidebar names its own places; heap links to one of them, written `Vec::push`, and to
  // vec itself.
  records[0].links = urls.ids({"http://s/vec", "http://s/vec", "http://s/vec"});
  records[0].link_anchors = intern_anchor_keys({place_key("push"), place_key("pop"), "Vec"}, anchors);
  records[1].links = urls.ids({"http://s/vec", "http://s/vec"});
  records[1].link_anchors = intern_anchor_keys({place_key("Vec::push"), "Vec"}, anchors);
  const std::vector<std::string> anchor_texts = anchors.urls();
  link_alone(records, take_links(records, urls, anchor_texts));
  std::vector<std::pair<std::string, std::uint32_t>> named;
  for (const InboundAnchor& a : records[0].inbound_anchors) named.emplace_back(anchor_texts[a.text], a.pages);
  // Names first: `Vec` from heap (vec's own link to itself does not count), and `Vec push`, the
  // text of heap's link to a place of vec, which names vec too; then the place names.
  using Named = std::vector<std::pair<std::string, std::uint32_t>>;
  CHECK(named == Named{{"Vec", 1}, {"Vec push", 1}, {"#Vec push", 1}, {"#pop", 1}, {"#push", 1}});
  CHECK(is_place_key("#push"));
  CHECK_FALSE(is_place_key("push"));
  CHECK(place_key("") == "");
  CHECK(place_key(" Vec::push ") == "#Vec push");
}

TEST_CASE("sort_inbound_anchors: the page's names first, then its places, each bounded") {
  std::vector<std::string> texts;
  std::vector<InboundAnchor> anchors;
  for (std::uint32_t i = 0; i < kMaxInboundAnchors + 5; ++i) {
    texts.push_back("name" + std::to_string(i));
    anchors.push_back({static_cast<std::uint32_t>(texts.size() - 1), i + 1});
  }
  for (std::uint32_t i = 0; i < kMaxInboundPlaces + 7; ++i) {
    texts.push_back("#place" + std::to_string(i));
    anchors.push_back({static_cast<std::uint32_t>(texts.size() - 1), 1000 + i});
  }
  std::shuffle(anchors.begin(), anchors.end(), std::mt19937(3));
  sort_inbound_anchors(anchors, texts);
  REQUIRE(anchors.size() == kMaxInboundAnchors + kMaxInboundPlaces);
  CHECK(texts[anchors[0].text] == "name" + std::to_string(kMaxInboundAnchors + 4));  // most pages
  CHECK(texts[anchors[kMaxInboundAnchors - 1].text] == "name5");
  CHECK(texts[anchors[kMaxInboundAnchors].text] == "#place" + std::to_string(kMaxInboundPlaces + 6));
  CHECK(texts[anchors.back().text] == "#place7");
}

TEST_CASE("UrlIds: dense ids in order of first sight; release() hands the strings over by id") {
  UrlIds ids;
  CHECK(ids.ids({"b", "a", "b", "c"}) == std::vector<std::uint32_t>{0, 1, 0, 2});
  CHECK(ids.find("c") == 2);
  CHECK(ids.urls() == std::vector<std::string>{"b", "a", "c"});
  CHECK(ids.release() == std::vector<std::string>{"b", "a", "c"});
  CHECK(ids.size() == 0);
  CHECK(ids.find("a") == kNoRecord);
  CHECK(ids.ids({"z"}) == std::vector<std::uint32_t>{0});  // afresh
}

TEST_CASE("anchor keys: a link's words as written; none for no words or a sentence") {
  CHECK(anchor_key("  std::vector ") == "std vector");
  CHECK(anchor_key("HashMap<K, V>") == "HashMap K V");
  CHECK(anchor_key("→") == "");
  CHECK(anchor_key("one two three four five six seven eight") == "one two three four five six seven eight");
  CHECK(anchor_key("one two three four five six seven eight nine") == "");
}

TEST_CASE("the link stage (one process): inbound anchors agree with counting every link of a random site") {
  std::mt19937 random(7);
  for (int round = 0; round < 20; ++round) {
    const std::size_t pages = 2 + random() % 12;
    std::vector<PageRecord> all;
    for (std::size_t p = 0; p < pages; ++p) all.push_back(page("http://s/" + std::to_string(p)));
    HeldRecords records(std::move(all));
    UrlIds urls;
    AnchorIds anchors;
    const std::vector<std::string> words = {"", "map", "vector", "std map", "home"};
    // The oracle: for each target and text, the set of pages linking to it with that text.
    std::map<std::pair<std::size_t, std::string>, std::set<std::size_t>> linking;
    for (std::size_t p = 0; p < pages; ++p) {
      std::vector<std::string> targets, keys;
      for (std::size_t k = random() % 30; k > 0; --k) {
        const std::size_t target = random() % (pages + 1);  // pages: a URL outside the site
        targets.push_back("http://s/" + std::to_string(target));
        keys.push_back(words[random() % words.size()]);
        if (target < pages && target != p && !keys.back().empty()) linking[{target, keys.back()}].insert(p);
      }
      records[p].links = urls.ids(targets);
      records[p].link_anchors = intern_anchor_keys(keys, anchors);
    }
      const std::vector<std::string> anchor_texts = anchors.urls();
    link_alone(records, take_links(records, urls, anchor_texts));
    for (std::size_t p = 0; p < pages; ++p) {
      std::vector<std::pair<std::uint32_t, std::string>> expected;  // (-pages, text): the order wanted
      for (const auto& [key, sources] : linking) {
        if (key.first == p) expected.emplace_back(static_cast<std::uint32_t>(sources.size()), key.second);
      }
      std::sort(expected.begin(), expected.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
      });
      std::vector<std::pair<std::uint32_t, std::string>> got;
      for (const InboundAnchor& a : records[p].inbound_anchors) got.emplace_back(a.pages, anchor_texts[a.text]);
      CAPTURE(round);
      CAPTURE(p);
      CHECK(got == expected);
    }
  }
}

TEST_CASE("resolve_named_pages and gather_cluster_share: redirects in, canonical through redirects, only the pages the rule reads") {
  HeldRecords records = {page("http://s/a"), page("http://s/b"), page("http://s/r", "http://s/b"),
                                     page("http://s/c"), page("http://s/d"), page("http://s/e")};
  for (const std::size_t d : {0, 1, 3, 4, 5}) records[d].in_dedup = true;
  records[2].redirect_to = "http://s/b";
  records[0].canonical_url = "http://s/r";   // through the redirect to b
  records[3].canonical_url = "http://s/x";   // not a page of the site
  records[4].canonical_url = "http://s/a";   // from outside a's cluster
  records[5].canonical_url = "http://s/c";   // between two pages alone: read by no rule
  records[1].pagerank = 0.25;
  records[1].defined = {"foo"};
  records[1].heading = "B";
  resolve_named_pages(records, RedirectResolver(records));
  CHECK(records[1].redirects_in == 1);
  CHECK(records[0].canonical_page == 1u);
  CHECK(records[3].canonical_page == canon::indexer::kNoRecord);
  canon::dedup::Clusters clusters;
  clusters.cluster_of = {0, 0, 2, 3, 4, 5};  // a and b together
  clusters.pairs = {{0, 1, 0.9}};
  const auto made = gather_cluster_share(records, clusters,
                                         canon::indexer::detail::RecordParts(static_cast<std::uint32_t>(records.size())),
                                         canon::LocalCollective());
  REQUIRE(made.ok());
  const ClusterShare& share = made.value();
  // The members a and b, and e's vote for a from outside their cluster; nothing of the rest.
  CHECK(share.documents == std::vector<std::uint32_t>{0, 1, 4});
  CHECK(share.member == std::vector<char>{1, 1, 0});
  CHECK(share.cluster_of == std::vector<std::uint32_t>{0, 0, 2});
  REQUIRE(share.pairs.size() == 1);
  CHECK(share.pairs[0].a == 0u);
  CHECK(share.pairs[0].b == 1u);
  const auto& candidates = share.candidates;
  CHECK(candidates[1].redirects_in == 1);
  CHECK(candidates[0].redirects_in == 0);
  CHECK(candidates[0].canonical == 1u);
  CHECK(candidates[1].pagerank == 0.25);
  CHECK(candidates[1].defined == std::vector<std::string>{"foo"});
  CHECK(candidates[1].url == "http://s/b");
  CHECK(candidates[1].name == "B");
  CHECK(candidates[2].canonical == 0u);  // e's vote, and nothing else of it
  CHECK(candidates[2].url.empty());
  CHECK(share.index_of(4) == 2u);
  CHECK_FALSE(share.index_of(3).has_value());
}

TEST_CASE("assign_clusters: dense ids in record order, cluster PageRank, statuses and alternates") {
  HeldRecords records = {page("http://s/a"), page("http://s/b"), page("http://s/c"), page("http://s/r", "x")};
  for (const std::size_t d : {0, 1, 2}) records[d].in_dedup = true;
  records[0].pagerank = 0.5;
  records[1].pagerank = 0.2;
  records[2].pagerank = 0.3;
  records[2].title = "C";
  ChosenAuthorities chosen;  // a and c together; b alone; the redirect outside
  chosen.decisions = {{0, 0, {0, canon::dedup::AuthorityReason::PageRank}, 0.0},
                      {2, 0, {0, canon::dedup::AuthorityReason::PageRank}, 0.8}};
  const auto assigned =
      assign_clusters(records, chosen, canon::indexer::detail::RecordParts(static_cast<std::uint32_t>(records.size())), canon::LocalCollective());
  REQUIRE(assigned.ok());
  const ClusterAssignment& assignment = assigned.value();
  CHECK(assignment.duplicate_clusters == 1);
  CHECK(records[0].cluster == 0u);
  CHECK(records[1].cluster == 1u);
  CHECK(records[2].cluster == 0u);
  CHECK_FALSE(records[3].cluster.has_value());
  CHECK(records[3].status == PageStatus::kRedirect);  // not the detector's: left alone
  CHECK(records[0].status == PageStatus::kIndexed);
  CHECK(records[1].status == PageStatus::kIndexed);
  CHECK(records[2].status == PageStatus::kDuplicate);
  CHECK(records[2].authoritative == 0);
  CHECK(records[2].similarity == 0.8);
  CHECK(records[2].authority_reason == "pagerank");
  CHECK(records[0].cluster_pagerank == doctest::Approx(0.8));
  CHECK(records[1].cluster_pagerank == doctest::Approx(0.2));
  REQUIRE(assignment.alternates.count(0) == 1);
  REQUIRE(assignment.alternates.at(0).size() == 1);
  CHECK(assignment.alternates.at(0)[0].url == "http://s/c");
  CHECK(assignment.alternates.at(0)[0].title == "C");
}

TEST_CASE("the link stage (one process): redirects that go round are skipped, with the reason; out of the site is a redirect") {
  HeldRecords records = {page("http://s/a"), page("http://s/loop1", "http://s/loop2"),
                                     page("http://s/loop2", "http://s/loop1"), page("http://s/self", "http://s/self"),
                                     page("http://s/into-loop", "http://s/loop1"), page("http://s/out", "http://other/x")};
  UrlIds urls;
  records[0].links = urls.ids({"http://s/loop1", "http://s/out"});
  const std::vector<std::string> no_texts;
  const SiteGraph site = link_alone(records, take_links(records, urls, no_texts));
  for (const std::size_t i : {1, 2, 3, 4}) {
    CAPTURE(records[i].url);
    CHECK(records[i].status == PageStatus::kSkipped);
    CHECK(records[i].reason == "redirect loop (or a chain of more than 20 redirects)");
    CHECK_FALSE(records[i].redirect_to.has_value());
    CHECK_FALSE(records[i].node.has_value());
  }
  CHECK(records[5].status == PageStatus::kRedirect);
  CHECK(records[5].redirect_to == "http://other/x");
  CHECK(site.rows.edge_count() == 0);  // a's links land nowhere in the site
}
