/// @file test_authoritative_pages.cpp
/// @brief Detector::compare() agrees with find_clusters() for every detector; the chain split
/// on hand-made chains (a table) and against a brute-force oracle on random drifting families.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "dedup/detectors/exact_detector.h"
#include "dedup/authority/authoritative_pages.h"
#include "dedup/detectors/registry.h"
#include "dedup/sketches/shingles.h"
#include "dedup/sketches/tokenizer.h"
#include "support/detector_fixtures.h"

using namespace canon::dedup;
using canon::testing::documents;
using canon::testing::words;

namespace {

using Pair = std::pair<std::uint32_t, std::uint32_t>;

/// Families whose members are overlapping windows of one long word sequence, each window
/// starting 10 to 45 words after the previous one, with a few words replaced: neighbours are
/// near-duplicates, members far apart are not, so union-find chains them.
std::vector<std::string> drifting_families(std::mt19937_64& rng, int families, int members) {
  std::vector<std::string> texts;
  for (int f = 0; f < families; ++f) {
    const std::string prefix = "f" + std::to_string(f) + "w";
    int start = 0;
    for (int m = 0; m < members; ++m) {
      std::string text;
      for (int w = start; w < start + 100; ++w) {
        text += (rng() % 50 == 0 ? "edit" + std::to_string(rng() % 1000) : prefix + std::to_string(w)) + " ";
      }
      texts.push_back(text);
      start += 10 + static_cast<int>(rng() % 36);
    }
  }
  return texts;
}

std::vector<AuthorityCandidate> candidates_with_ranks(const std::vector<double>& pageranks,
                                                      std::vector<std::string>& urls) {
  urls.clear();
  urls.reserve(pageranks.size());  // the candidates view these strings: no reallocation
  std::vector<AuthorityCandidate> candidates;
  for (std::size_t d = 0; d < pageranks.size(); ++d) {
    urls.push_back("/page" + std::to_string(d));
    candidates.push_back({urls.back(), pageranks[d], std::nullopt});
  }
  return candidates;
}

/// Partition → set of member sets, to compare partitions whatever their labels.
std::set<std::vector<std::uint32_t>> groups(const std::vector<std::uint32_t>& cluster_of) {
  std::map<std::uint32_t, std::vector<std::uint32_t>> by_id;
  for (std::uint32_t d = 0; d < cluster_of.size(); ++d) by_id[cluster_of[d]].push_back(d);
  std::set<std::vector<std::uint32_t>> out;
  for (auto& [id, members] : by_id) out.insert(members);
  return out;
}

}  // namespace

TEST_CASE("compare() calls every pair find_clusters() returned a near-duplicate, same similarity") {
  std::mt19937_64 rng(11);
  const std::vector<std::string> texts = drifting_families(rng, 6, 5);
  const std::vector<DedupDocument> docs = documents(texts);
  for (const std::string& name : detector_names()) {
    CAPTURE(name);
    DedupOptions options;
    options.threads = 2;
    auto detector = make_detector(name, options);
    REQUIRE(detector.ok());
    const Clusters c = find_clusters(*detector.value(), docs);
    std::vector<Pair> pairs, reversed;
    for (const SimilarPair& p : c.pairs) {
      pairs.emplace_back(p.a, p.b);
      reversed.emplace_back(p.b, p.a);
    }
    const std::vector<Comparison> forward = compare(*detector.value(), docs, pairs);
    const std::vector<Comparison> backward = compare(*detector.value(), docs, reversed);
    for (std::size_t p = 0; p < c.pairs.size(); ++p) {
      CHECK(forward[p].near_duplicate);
      CHECK(forward[p].similarity == c.pairs[p].similarity);
      CHECK(backward[p].near_duplicate);
      CHECK(backward[p].similarity == c.pairs[p].similarity);
    }
  }
}

TEST_CASE("exact: compare() over all pairs is exactly the join's pairs") {
  std::mt19937_64 rng(12);
  const std::vector<std::string> texts = drifting_families(rng, 5, 6);
  const std::vector<DedupDocument> docs = documents(texts);
  ExactDetector detector(DedupOptions{});
  const Clusters c = find_clusters(detector, docs);
  std::set<Pair> found;
  for (const SimilarPair& p : c.pairs) found.emplace(p.a, p.b);
  std::vector<Pair> all;
  for (std::uint32_t a = 0; a < docs.size(); ++a) {
    for (std::uint32_t b = a + 1; b < docs.size(); ++b) all.emplace_back(a, b);
  }
  const std::vector<Comparison> verdicts = compare(detector, docs, all);
  std::set<Pair> judged;
  for (std::size_t p = 0; p < all.size(); ++p) {
    if (verdicts[p].near_duplicate) judged.insert(all[p]);
  }
  CHECK(judged == found);
  CHECK(!found.empty());
}

TEST_CASE("chains: kept, or split against the authoritative page (table)") {
  // Windows of 100 distinct words, 40 apart: neighbours have Jaccard 58/138 ≈ 0.42 over
  // 3-word shingles, pages two apart 18/178 ≈ 0.10, three apart 0 (threshold 0.2).
  const std::vector<std::string> texts = {words(0, 100), words(40, 140), words(80, 180), words(120, 220)};
  const std::vector<DedupDocument> docs = documents(texts);
  struct Case {
    const char* name;
    std::vector<double> pagerank;
    std::vector<std::optional<std::uint32_t>> canonical;  // empty: none
    ChainPolicy policy;
    std::set<std::vector<std::uint32_t>> clusters;
    std::vector<std::uint32_t> authoritative;
    std::size_t split_off;
    unsigned rounds;
  };
  const auto keep = ChainPolicy::kKeep, split = ChainPolicy::kSplit;
  const std::vector<Case> cases = {
      {"keep: one chained cluster", {0.4, 0.3, 0.2, 0.1}, {}, keep, {{0, 1, 2, 3}}, {0, 0, 0, 0}, 0, 1},
      // A is the authoritative page: B holds, C and D do not and regroup; D holds against C.
      {"split at an end: two clusters, two rounds", {0.4, 0.3, 0.2, 0.1}, {}, split,
       {{0, 1}, {2, 3}}, {0, 0, 2, 2}, 2, 2},
      // B is the authoritative page: A and C hold, D does not.
      {"split in the middle: only the far end leaves", {0.3, 0.4, 0.2, 0.1}, {}, split,
       {{0, 1, 2}, {3}}, {1, 1, 1, 3}, 1, 1},
      // C names A canonical, so A represents {A,B,C}; C fails against A and leaves, taking its
      // vote with it: B (highest PageRank) now represents {A,B} and A is compared with B.
      {"split changes a canonical authoritative page", {0.2, 0.4, 0.3, 0.0}, {std::nullopt, std::nullopt, 0u, std::nullopt},
       split, {{0, 1}, {2, 3}}, {1, 1, 2, 2}, 2, 2},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    ExactDetector detector(DedupOptions{});
    const Clusters found = find_clusters(detector, docs);
    REQUIRE(groups(found.cluster_of) == std::set<std::vector<std::uint32_t>>{{0, 1, 2, 3}});
    std::vector<std::string> urls;
    std::vector<AuthorityCandidate> candidates = candidates_with_ranks(c.pagerank, urls);
    for (std::size_t d = 0; d < c.canonical.size(); ++d) candidates[d].canonical = c.canonical[d];
    const AuthoritativePages r =
        choose_authoritative_pages(detector, found, candidates, true, c.policy, canon::dedup::memory_loader(docs));
    CHECK(groups(r.cluster_of) == c.clusters);
    std::vector<std::uint32_t> authoritative;
    for (const Authority& a : r.authority) authoritative.push_back(a.authoritative);
    CHECK(authoritative == c.authoritative);
    CHECK(r.split_off == c.split_off);
    CHECK(r.rounds == c.rounds);
    for (std::uint32_t d = 0; d < docs.size(); ++d) {
      CAPTURE(d);
      if (authoritative[d] == d) {
        CHECK(r.to_authoritative[d].similarity == 0.0);
        continue;
      }
      const double exact = jaccard(shingle_set(tokenize(texts[d]), 3), shingle_set(tokenize(texts[authoritative[d]]), 3));
      CHECK(r.to_authoritative[d].similarity == exact);
      CHECK(r.to_authoritative[d].near_duplicate == (exact >= DedupOptions{}.threshold));
    }
  }
}

TEST_CASE("defined_terms: <dt> ids lowercased, sorted, unique; covered when all are the authoritative page's") {
  using canon::dedup::defined_terms;
  using canon::dedup::definitions_covered;
  CHECK(defined_terms(std::vector<std::string>{"term-AOT", "numba.cuda.grid", "", "term-aot"}) ==
        std::vector<std::string>{"numba.cuda.grid", "term-aot"});
  CHECK(defined_terms(std::vector<std::string>{}).empty());
  const struct {
    const char* name;
    std::vector<std::string> page, authoritative;
    bool covered;
  } cases[] = {
      {"nothing defined", {}, {"numba.cuda.grid"}, true},
      {"the same anchors, another case", {"term-aot", "numba.cuda.grid"}, {"numba.cuda.grid", "term-AOT"}, true},
      {"the authoritative page defines more: a newer release", {"numba.cuda.grid"},
       {"numba.cuda.grid", "numba.cuda.gridsize"}, true},
      {"a class the authoritative page dropped", {"numba.transforms.MathMixin", "numba.transforms.Foo"},
       {"numba.transforms.Foo"}, false},
      {"the authoritative page defines nothing", {"term-jit"}, {}, false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    CHECK(definitions_covered(defined_terms(c.page), defined_terms(c.authoritative)) == c.covered);
  }
}

TEST_CASE("split: a near-duplicate that defines an item its authoritative page lacks leaves") {
  // Three near-identical pages (Jaccard ≥ 0.9); page 2 defines a class the others do not.
  const std::vector<std::string> texts = {words(0, 100), words(0, 100) + " extra", words(0, 100) + " more"};
  const std::vector<DedupDocument> docs = documents(texts);
  ExactDetector detector(DedupOptions{});
  const Clusters found = find_clusters(detector, docs);
  REQUIRE(groups(found.cluster_of) == std::set<std::vector<std::uint32_t>>{{0, 1, 2}});
  std::vector<std::string> urls;
  std::vector<AuthorityCandidate> candidates = candidates_with_ranks({0.5, 0.3, 0.2}, urls);
  const std::vector<std::string> shared = {"pkg.Foo"}, more = {"pkg.Foo", "pkg.MathMixin"};
  candidates[0].defined = canon::dedup::defined_terms(shared);
  candidates[1].defined = canon::dedup::defined_terms(shared);
  candidates[2].defined = canon::dedup::defined_terms(more);
  for (const ChainPolicy policy : {ChainPolicy::kKeep, ChainPolicy::kSplit}) {
    const AuthoritativePages r =
        choose_authoritative_pages(detector, found, candidates, true, policy, canon::dedup::memory_loader(docs));
    if (policy == ChainPolicy::kKeep) {
      CHECK(groups(r.cluster_of) == std::set<std::vector<std::uint32_t>>{{0, 1, 2}});
      CHECK(r.split_for_definitions == 0);
    } else {
      CHECK(groups(r.cluster_of) == std::set<std::vector<std::uint32_t>>{{0, 1}, {2}});
      CHECK(r.split_off == 1);
      CHECK(r.split_for_definitions == 1);
      CHECK(r.to_authoritative[2].similarity == 0.0);  // its own authoritative page now
    }
  }
}

TEST_CASE("split against a brute-force oracle on random drifting families") {
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 4; ++trial) {
    CAPTURE(trial);
    const std::vector<std::string> texts = drifting_families(rng, 8, 2 + trial * 2);
    const std::vector<DedupDocument> docs = documents(texts);
    std::vector<ShingleSet> sets;
    for (const std::string& t : texts) sets.push_back(shingle_set(tokenize(t), 3));
    std::vector<double> pagerank;
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (std::size_t d = 0; d < texts.size(); ++d) pagerank.push_back(unit(rng));
    std::vector<std::string> urls;
    const std::vector<AuthorityCandidate> candidates = candidates_with_ranks(pagerank, urls);

    ExactDetector detector(DedupOptions{});
    const Clusters found = find_clusters(detector, docs);
    const AuthoritativePages kept = choose_authoritative_pages(detector, found, candidates, true, ChainPolicy::kKeep,
                                                         canon::dedup::memory_loader(docs));
    CHECK(kept.cluster_of == found.cluster_of);
    CHECK(kept.split_off == 0);
    const AuthoritativePages split = choose_authoritative_pages(detector, found, candidates, true, ChainPolicy::kSplit,
                                                         canon::dedup::memory_loader(docs));
    for (std::uint32_t d = 0; d < docs.size(); ++d) {
      const std::uint32_t rep = split.authority[d].authoritative;
      CAPTURE(d);
      // Every member is a near-duplicate of its authoritative page (the oracle: exact Jaccard)...
      if (rep != d) CHECK(jaccard(sets[d], sets[rep]) >= DedupOptions{}.threshold);
      // ...the authoritative page is its cluster's highest PageRank...
      CHECK(split.cluster_of[d] == split.cluster_of[rep]);
      for (std::uint32_t e = 0; e < docs.size(); ++e) {
        if (split.cluster_of[e] == split.cluster_of[d]) CHECK(pagerank[e] <= pagerank[rep]);
      }
      // ...and the split only refines union-find's clusters.
      for (std::uint32_t e = 0; e < docs.size(); ++e) {
        if (split.cluster_of[e] == split.cluster_of[d]) CHECK(found.cluster_of[e] == found.cluster_of[d]);
      }
      // Cluster ids are smallest members.
      CHECK(split.cluster_of[d] <= d);
      CHECK(split.cluster_of[split.cluster_of[d]] == split.cluster_of[d]);
    }
    // Longer chains split more.
    if (trial == 3) CHECK(split.split_off > 0);
  }
}



TEST_CASE("moved pages: compare() is directional; find_clusters() keeps the larger direction") {
  const canon::testing::MovedSite site = canon::testing::moved_site(80, 0, SiteNames::kMinPlaceTreePaths);
  const std::vector<DedupDocument> docs = site.documents();
  for (const std::string name : {"minhash", "exact"}) {
    CAPTURE(name);
    auto detector = make_detector(name, DedupOptions{});
    REQUIRE(detector.ok());
    const Clusters c = find_clusters(*detector.value(), docs);
    REQUIRE(c.pairs.size() == 1);
    const std::vector<Comparison> both = compare(*detector.value(), docs, std::vector<Pair>{{0, 1}, {1, 0}});
    CHECK(both[0].moved);
    CHECK(both[1].moved);
    CHECK_FALSE(both[0].near_duplicate);  // std's page is not covered by core's
    CHECK(both[1].near_duplicate);        // core's is covered by std's
    CHECK(both[1].similarity == c.pairs[0].similarity);
    CHECK(both[0].similarity < both[1].similarity);
  }
}

TEST_CASE("moved pages: the fuller page represents them; one missing a substantial part of what the other lists stays apart") {
  const canon::testing::MovedSite site = canon::testing::moved_site(10, 0, SiteNames::kMinPlaceTreePaths);
  const std::vector<DedupDocument> docs = site.documents();
  const auto entries = [](std::initializer_list<const char*> names) {
    const std::vector<std::string> hrefs(names.begin(), names.end());
    return listed_entries(hrefs);
  };
  struct Case {
    const char* comment;
    std::vector<std::uint32_t> std_lists, core_lists;
    bool together;
    std::uint32_t authoritative;
    AuthorityReason reason;
  };
  const std::vector<Case> cases = {
      {"std lists core's entries and more: std's page, though core's is better linked",
       entries({"a.html", "b.html", "c.html", "#impl-X", "d.html"}), entries({"a.html", "b.html", "c.html"}), true, 0,
       AuthorityReason::Fuller},
      {"the same entries: the texts decide (std's covers core's, not the other way)",
       entries({"a.html", "b.html"}), entries({"a.html", "b.html"}), true, 0, AuthorityReason::Fuller},
      // Each lists what the other lacks: 2 of 5 and 2 of 5, far above kMaxMissingShare.
      {"each lacks a substantial part of the other's", entries({"a.html", "b.html", "c.html", "x.html", "y.html"}),
       entries({"a.html", "b.html", "c.html", "p.html", "q.html"}), false, 0, AuthorityReason::Singleton},
  };
  for (const Case& c : cases) {
    CAPTURE(c.comment);
    ExactDetector detector(DedupOptions{});
    const Clusters found = find_clusters(detector, docs);
    REQUIRE(found.cluster_of[1] == 0);
    std::vector<std::string> candidate_urls;
    std::vector<double> ranks(docs.size(), 0.01);
    ranks[0] = 0.2;  // core's page is the better linked
    ranks[1] = 0.5;
    std::vector<AuthorityCandidate> candidates = candidates_with_ranks(ranks, candidate_urls);
    candidates[0].listed = c.std_lists;
    candidates[1].listed = c.core_lists;
    const AuthoritativePages r = choose_authoritative_pages(detector, found, candidates, true, ChainPolicy::kSplit,
                                                            canon::dedup::memory_loader(docs));
    CHECK((r.cluster_of[0] == r.cluster_of[1]) == c.together);
    CHECK(r.authority[0].authoritative == c.authoritative);
    CHECK(r.authority[0].reason == c.reason);
  }
}

TEST_CASE("listed_entries and entries_covered (table)") {
  const auto entries = [](std::vector<std::string> hrefs) { return listed_entries(hrefs); };
  // The same entry from parallel trees and from a copy below a prefix.
  CHECK(entries({"../task/trait.Wake.html", "trait.Wake.html", "/core/task/trait.Wake.html/"}).size() == 1);
  // A place in another page says where, not what; a place in the page itself is an entry.
  CHECK(entries({"../../src/core/cmp.rs.html#287-300"}).empty());
  CHECK(entries({"#method.map"}).size() == 1);
  CHECK(entries({"#", "", "?q=1"}).empty());
  CHECK(entries({"a.html?x=1", "a.html"}).size() == 1);
  // Covered: fewer than kMaxMissingEntries missing and at most kMaxMissingShare of them.
  std::vector<std::string> many;
  for (int i = 0; i < 100; ++i) many.push_back("e" + std::to_string(i) + ".html");
  const std::vector<std::uint32_t> all = entries(many);
  const std::vector<std::string> fewer_names(many.begin(), many.begin() + 93);  // 7 missing of 100
  const std::vector<std::string> much_fewer(many.begin(), many.begin() + 92);   // 8 missing
  CHECK(entries_covered(all, entries(fewer_names)));
  CHECK_FALSE(entries_covered(all, entries(much_fewer)));
  CHECK(entries_covered(entries(fewer_names), all));
  const std::vector<std::uint32_t> ten = entries({many.begin(), many.begin() + 10});
  CHECK(entries_covered(ten, entries({many.begin(), many.begin() + 9})));       // 1 of 10: 10 %
  CHECK_FALSE(entries_covered(ten, entries({many.begin(), many.begin() + 8})));  // 2 of 10
  CHECK(entries_covered({}, ten));
  // A sample of a page that lists more than kMaxListedEntries tells only below its largest hash.
  std::vector<std::string> huge;
  for (std::size_t i = 0; i < 3 * kMaxListedEntries; ++i) huge.push_back("h" + std::to_string(i) + ".html");
  const std::vector<std::uint32_t> sample = entries(huge);
  CHECK(sample.size() == kMaxListedEntries);
  CHECK(entries_covered(entries({huge.begin(), huge.begin() + 50}), sample));
}

TEST_CASE("split: a copy of one of a page's names stays with the page, under whichever name it is shown") {
  // en/index.html and en/Main_Page.html are one page saved twice; the mirror copies
  // en/Main_Page.html with edits (Jaccard 0.53). Names agree; only Main_Page's copy mirrors its
  // path, so against en/index.html alone the copy would need 0.95.
  const std::string text = words(0, 100);
  const std::vector<std::string> texts = {text, text, words(30, 130)};
  const std::vector<std::string> urls = {"http://h/en/index.html", "http://h/en/Main_Page.html",
                                         "http://h/mirror/en/Main_Page.html"};
  std::vector<DedupDocument> docs;
  for (std::size_t d = 0; d < texts.size(); ++d) docs.push_back({urls[d], "Main Page", texts[d]});
  for (const std::string name : {"minhash", "exact"}) {
    CAPTURE(name);
    auto detector = make_detector(name, DedupOptions{});
    REQUIRE(detector.ok());
    const Clusters found = find_clusters(*detector.value(), docs);
    REQUIRE(groups(found.cluster_of) == std::set<std::vector<std::uint32_t>>{{0, 1, 2}});
    std::vector<std::string> candidate_urls;
    std::vector<AuthorityCandidate> candidates = candidates_with_ranks({0.5, 0.2, 0.1}, candidate_urls);
    const AuthoritativePages r = choose_authoritative_pages(*detector.value(), found, candidates, true,
                                                            ChainPolicy::kSplit, canon::dedup::memory_loader(docs));
    CHECK(groups(r.cluster_of) == std::set<std::vector<std::uint32_t>>{{0, 1, 2}});
    CHECK(r.authority[2].authoritative == 0);
    CHECK(r.to_authoritative[2].near_duplicate);
    CHECK(r.split_off == 0);
  }
}

TEST_CASE("split: the same item at a parallel path stays with a near twin of its authoritative page") {
  // std's Eq is also re-exported one module up (std/trait.Eq.html, its text and one word more:
  // a near twin) and that page is the better linked; core's Eq is std::cmp's at a parallel
  // path, but not a near-duplicate of std/trait.Eq.html by the names' rule. Through the near
  // twin it stays: one result for the item.
  canon::testing::MovedSite site = canon::testing::moved_site(0, 0, SiteNames::kMinPlaceTreePaths);
  site.texts.push_back(site.texts[0] + " reexported");
  site.titles.push_back("Eq in std");
  site.urls.push_back("http://h/std/trait.Eq.html");
  const std::vector<DedupDocument> docs = site.documents();
  const std::uint32_t std_cmp = 0, core_cmp = 1, std_top = static_cast<std::uint32_t>(docs.size() - 1);
  for (const std::string name : {"minhash", "exact"}) {
    CAPTURE(name);
    auto detector = make_detector(name, DedupOptions{});
    REQUIRE(detector.ok());
    const Clusters found = find_clusters(*detector.value(), docs);
    REQUIRE(found.cluster_of[core_cmp] == found.cluster_of[std_top]);
    const std::vector<Comparison> verdicts =
        compare(*detector.value(), docs, std::vector<Pair>{{core_cmp, std_top}, {std_cmp, std_top}, {core_cmp, std_cmp}});
    REQUIRE_FALSE(verdicts[0].near_duplicate);  // core's page alone would leave
    REQUIRE(verdicts[1].near_duplicate);
    REQUIRE(verdicts[1].similarity >= kNearTwinSimilarity);
    REQUIRE(verdicts[1].similarity < 1.0);
    REQUIRE(verdicts[2].moved);
    std::vector<std::string> candidate_urls;
    std::vector<double> ranks(docs.size(), 0.01);
    ranks[std_top] = 0.5;
    const std::vector<AuthorityCandidate> candidates = candidates_with_ranks(ranks, candidate_urls);
    const AuthoritativePages r = choose_authoritative_pages(*detector.value(), found, candidates, true,
                                                            ChainPolicy::kSplit, canon::dedup::memory_loader(docs));
    CHECK(r.authority[core_cmp].authoritative == std_top);
    CHECK(r.authority[std_cmp].authoritative == std_top);
    CHECK(r.to_authoritative[core_cmp].near_duplicate);
    CHECK(r.to_authoritative[core_cmp].moved);
    CHECK(r.split_off == 0);
  }
}
