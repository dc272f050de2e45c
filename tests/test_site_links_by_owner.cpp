/// @file test_site_links_by_owner.cpp
/// @brief link_pages_by_owner against link_pages (the oracle: one process, every record): random
/// sites with redirect chains, loops, chains longer than canon::indexer::kMaxRedirectHops, pages
/// sharing a URL, unparsed files, link texts naming pages and places, rel=canonical URLs and
/// pages URL rules recorded, cut among 1 to 5 simulated processes at random (empty parts among
/// them), the URLs linked to followed a few at a time or all at once.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "indexer/records/page_record.h"
#include "indexer/stages/site_links.h"
#include "indexer/stages/site_links_by_owner.h"
#include "support/link_pages_oracle.h"
#include "support/thread_collective.h"

using canon::testing::link_pages;
using canon::testing::RedirectResolver;
using canon::testing::resolve_named_pages;
using namespace canon::indexer;

namespace {

/// A random site: its records (links and texts not yet taken) and the URL and text tables.
struct RandomSite {
  std::vector<PageRecord> records;
  UrlIds urls;
  std::vector<std::string> anchor_texts;
};

std::string url_of(std::size_t k) { return "http://s/p" + std::to_string(k); }

RandomSite make_site(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto below = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  RandomSite site;
  const std::size_t n = 40 + below(160);
  for (std::size_t k = 0; k < n; ++k) {
    PageRecord r;
    r.url = url_of(k);
    r.parsed = below(10) != 0;
    r.status = r.parsed ? PageStatus::kIndexed : PageStatus::kSkipped;
    if (r.parsed && below(6) == 0) {
      // A redirect to a page of the site, to its index.html form, or to nowhere.
      const std::size_t to = below(n);
      r.refresh_url = below(8) == 0 ? "http://s/gone" + std::to_string(to)
                                    : (below(4) == 0 ? url_of(to) + "/index.html" : url_of(to));
    }
    site.records.push_back(std::move(r));
  }
  // Two pages giving the same URL: the first serves it.
  site.records[below(n)].url = site.records[below(n)].url;
  // A chain longer than the resolver follows, ending on a page, and a loop.
  const std::size_t chain = canon::indexer::kMaxRedirectHops + 2;
  for (std::size_t k = 0; k < chain; ++k) {
    PageRecord r;
    r.url = "http://s/chain" + std::to_string(k);
    r.parsed = true;
    r.refresh_url = k + 1 < chain ? "http://s/chain" + std::to_string(k + 1) : url_of(0);
    site.records.push_back(std::move(r));
  }
  for (const int k : {0, 1}) {
    PageRecord r;
    r.url = "http://s/loop" + std::to_string(k);
    r.parsed = true;
    r.refresh_url = "http://s/loop" + std::to_string(1 - k);
    site.records.push_back(std::move(r));
  }
  // Pages URL rules recorded: redirects (parsed, not read) to a page, to a redirect, or nowhere.
  for (std::size_t k = 0; k < 6; ++k) {
    PageRecord r;
    r.url = "http://s/ruled" + std::to_string(k);
    r.parsed = true;
    r.status = PageStatus::kRedirect;
    r.url_rule = "a rule";
    r.refresh_url = k == 5 ? std::string("http://s/gone") : k == 4 ? std::string("http://s/chain3") : url_of(below(n));
    site.records.push_back(std::move(r));
  }
  // Pages handed to the detector, some with a rel=canonical: to a page, through a redirect, to
  // an index.html form, nowhere, or into a loop.
  for (PageRecord& r : site.records) {
    if (!r.parsed || r.refresh_url || below(3) == 0) continue;
    r.in_dedup = true;
    if (below(2) == 0) continue;
    const std::size_t to = below(n);
    const std::size_t kind = below(6);
    r.canonical_url = kind == 0   ? "http://s/nowhere" + std::to_string(to)
                      : kind == 1 ? url_of(to) + "/index.html"
                      : kind == 2 ? std::string("http://s/loop0")
                      : kind == 3 ? std::string("http://s/chain1")
                                  : url_of(to);
  }
  std::shuffle(site.records.begin(), site.records.end(), rng);
  // Links and their texts: names and place names from a small pool, some links without a text.
  AnchorIds anchors;
  const std::vector<std::string> words = {"vec", "push", "home", "Vec push", "push", "index"};
  for (PageRecord& r : site.records) {
    if (!r.parsed) continue;
    std::vector<std::string> targets, keys;
    const std::size_t links = below(12);
    for (std::size_t k = 0; k < links; ++k) {
      const std::size_t to = below(site.records.size());
      targets.push_back(below(10) == 0 ? "http://elsewhere/x" : site.records[to].url);
      const std::size_t text = below(words.size() + 2);
      keys.push_back(text >= words.size() ? "" : (below(3) == 0 ? place_key(words[text]) : anchor_key(words[text])));
    }
    r.links = site.urls.ids(targets);
    if (below(5) != 0) r.link_anchors = intern_anchor_keys(keys, anchors);
  }
  site.anchor_texts = anchors.urls();
  return site;
}

/// What link_pages leaves in a record, with its inbound anchors as texts.
struct Linked {
  PageStatus status;
  std::string reason;
  std::optional<std::string> redirect_to;
  std::optional<canon::ranking::NodeId> node;
  std::vector<std::pair<std::string, std::uint32_t>> inbound;
  std::uint32_t canonical_page, rule_page, redirects_in;
  bool operator==(const Linked&) const = default;
};

std::vector<Linked> linked(const HeldRecords& records, const std::vector<std::string>& anchor_texts) {
  std::vector<Linked> out;
  for (const PageRecord& r : records) {
    Linked l{r.status,
             std::string(r.reason.str()),
             r.redirect_to ? std::optional<std::string>(std::string(*r.redirect_to)) : std::nullopt,
             r.node,
             {},
             r.canonical_page,
             r.rule_page,
             r.redirects_in};
    for (const InboundAnchor& a : r.inbound_anchors) l.inbound.emplace_back(anchor_texts[a.text], a.pages);
    out.push_back(std::move(l));
  }
  return out;
}

/// `processes` ranges tiling [0, n) in rank order, cut at random; some may be empty.
std::vector<std::pair<std::uint32_t, std::uint32_t>> random_ranges(std::uint32_t n, unsigned processes, std::mt19937_64& rng) {
  std::vector<std::uint32_t> cuts = {0, n};
  for (unsigned p = 1; p < processes; ++p) cuts.push_back(static_cast<std::uint32_t>(rng() % (n + 1)));
  std::sort(cuts.begin(), cuts.end());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
  for (unsigned p = 0; p < processes; ++p) ranges.emplace_back(cuts[p], cuts[p + 1]);
  return ranges;
}

/// Rows' edges as (source, target) pairs, appended to `out`.
void add_edges(const canon::ranking::OutLinkRows& rows, std::vector<std::pair<std::uint32_t, std::uint32_t>>& out) {
  for (std::uint32_t u = rows.first(); u < rows.end(); ++u) {
    for (const std::uint32_t v : rows.out_links(u)) out.emplace_back(u, v);
  }
}

}  // namespace

TEST_CASE("link_pages_by_owner: the processes' rows are link_pages' graph; each gets its own records, whatever the parts") {
  std::mt19937_64 cuts(99);
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    RandomSite site = make_site(seed);
    HeldRecords oracle(site.records);
    const RedirectResolver resolver(oracle);
    const SiteGraph want = link_pages(oracle, take_links(oracle, site.urls, site.anchor_texts), resolver);
    const std::vector<Linked> want_records = linked(oracle, site.anchor_texts);
    REQUIRE(want.rows.edge_count() > 0);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> want_edges;
    add_edges(want.rows, want_edges);
    for (const unsigned processes : {1u, 2u, 3u, 5u}) {
      CAPTURE(seed);
      CAPTURE(processes);
      const auto ranges = random_ranges(static_cast<std::uint32_t>(site.records.size()), processes, cuts);
      std::vector<std::size_t> round_sizes(processes);
      for (std::size_t& size : round_sizes) size = std::array<std::size_t, 4>{1, 3, 17, kLinkTargetsPerRound}[cuts() % 4];
      CAPTURE(round_sizes);
      std::vector<std::vector<Linked>> got_records(processes);
      std::vector<canon::ranking::OutLinkRows> got_rows(processes);
      std::vector<std::vector<std::uint32_t>> got_nodes(processes);
      std::vector<canon::indexer::detail::RecordParts> got_node_parts(processes);
      std::vector<std::string> failed(processes);
      canon::testing::run_processes(processes, [&](const canon::Collective& collective) {
        const unsigned p = collective.rank();
        HeldRecords mine(site.records);
        // The process holds the texts its own files link with (with the name in each place
        // key, as intern_anchor_keys interns it); the others' are other strings.
        std::vector<std::string> texts = site.anchor_texts;
        std::vector<bool> own_text(texts.size(), false);
        for (std::uint32_t i = ranges[p].first; i < ranges[p].second; ++i) {
          for (const std::uint32_t t : mine[i].link_anchors) {
            if (t == kNoRecord) continue;
            own_text[t] = true;
            if (!is_place_key(texts[t])) continue;
            const auto name = std::find(texts.begin(), texts.end(), texts[t].substr(1));
            if (name != texts.end()) own_text[static_cast<std::size_t>(name - texts.begin())] = true;
          }
        }
        for (std::size_t t = 0; t < texts.size(); ++t) {
          if (!own_text[t] && (texts[t].starts_with('#') || t % 2 == 0)) texts[t] = "not held " + std::to_string(t);
        }
        const ParsedLinks links = take_links(mine, site.urls, texts);
        // The URLs linked to followed a few at a time, or all in one round; each process its
        // own size (they agree on the rounds).
        auto graph = link_pages_by_owner(mine, ranges[p].first, ranges[p].second, links, texts, collective,
                                         round_sizes[p]);
        if (!graph.ok()) {
          failed[p] = graph.status().message();
          return;
        }
        got_records[p] = linked(mine, texts);
        got_rows[p] = std::move(graph->rows);
        got_nodes[p] = graph->own_records;
        got_node_parts[p] = graph->node_parts;
      });
      // The rows, in rank order, tile the nodes and hold link_pages' edges.
      std::vector<std::pair<std::uint32_t, std::uint32_t>> got_edges;
      std::uint32_t next_node = 0;
      for (unsigned p = 0; p < processes; ++p) {
        CAPTURE(p);
        REQUIRE(failed[p].empty());
        CHECK(got_rows[p].node_count() == want.rows.node_count());
        CHECK(got_rows[p].first() == next_node);
        next_node = got_rows[p].end();
        add_edges(got_rows[p], got_edges);
      }
      CHECK(next_node == want.rows.node_count());
      CHECK(got_edges == want_edges);
      // Each process's own records as link_pages leaves them; every node's record on each.
      for (unsigned p = 0; p < processes; ++p) {
        CAPTURE(p);
        // Its own nodes' records, link_pages' for those nodes; which process holds each node.
        const auto own_first = want.own_records.begin() + got_rows[p].first();
        CHECK(got_nodes[p] == std::vector<std::uint32_t>(own_first, own_first + (got_rows[p].end() - got_rows[p].first())));
        REQUIRE(got_node_parts[p].processes() == processes);
        for (unsigned q = 0; q < processes; ++q) {
          CHECK(got_node_parts[p].first(q) == got_rows[q].first());
          CHECK(got_node_parts[p].end(q) == got_rows[q].end());
        }
        REQUIRE(got_records[p].size() == want_records.size());
        for (std::size_t i = ranges[p].first; i < ranges[p].second; ++i) {
          CAPTURE(i);
          CHECK(got_records[p][i] == want_records[i]);
        }
      }
    }
  }
}

TEST_CASE("link_pages_by_owner: ranges that do not tile the files are refused on every process") {
  RandomSite site = make_site(3);
  const auto n = static_cast<std::uint32_t>(site.records.size());
  std::vector<std::string> failed(2);
  canon::testing::run_processes(2, [&](const canon::Collective& collective) {
    HeldRecords mine(site.records);
    std::vector<std::string> texts = site.anchor_texts;
    const ParsedLinks links = take_links(mine, site.urls, texts);
    // Process 1 starts one file late: file n / 2 belongs to no process.
    const auto [first, end] = collective.rank() == 0 ? std::pair<std::uint32_t, std::uint32_t>{0, n / 2}
                                                     : std::pair<std::uint32_t, std::uint32_t>{n / 2 + 1, n};
    auto graph = link_pages_by_owner(mine, first, end, links, texts, collective);
    failed[collective.rank()] = graph.ok() ? "" : graph.status().message();
  });
  CHECK(failed[0].find("do not tile") != std::string::npos);
  CHECK(failed[1].find("do not tile") != std::string::npos);
}
