/// @file test_places.cpp
/// @brief Pairs of places (dedup/authority/places.h): a table of paths, the clusters' votes, the preferences
/// they make, and the authority rule that applies them to every cluster alike.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dedup/authority/authority.h"
#include "dedup/authority/places.h"

using namespace canon::dedup;

TEST_CASE("places_of: the folders before the trailing segments two copies share") {
  struct Case {
    std::string a;
    std::string b;
    std::optional<PlacePair> places;
  };
  const Case cases[] = {
      {"http://h/std/str/fn.from_utf8.html", "http://h/core/str/fn.from_utf8.html", PlacePair{"core", "std"}},
      {"http://h/core/str/fn.from_utf8.html", "http://h/std/str/fn.from_utf8.html", PlacePair{"core", "std"}},
      {"http://h/std/", "http://h/core/", PlacePair{"core", "std"}},  // the folders' own pages
      {"http://h/core/arch/x86/fn.f.html", "http://h/core/arch/x86_64/fn.f.html",
       PlacePair{"core/arch/x86", "core/arch/x86_64"}},
      {"http://h/a/std/x.html?q=1", "http://h/a/core/x.html#top", PlacePair{"a/core", "a/std"}},
      {"http://h/docs/a.html", "http://h/mirror/docs/a.html", std::nullopt},  // a copy below a prefix
      {"http://h/index.html", "http://h/mirror/index.html", std::nullopt},
      {"http://h/x/a.html", "http://h/y/b.html", std::nullopt},               // other file names
      {"http://h/a.html", "http://h/b.html", std::nullopt},
      {"http://h/a/b.html", "http://x/a/b.html", std::nullopt},               // the same path
      {"http://h/std/collections/x.html", "http://h/std/x.html", std::nullopt},  // one holds the other
      {"http://h/1.2/docs/a.html", "http://h/1.3/docs/a.html", std::nullopt},    // releases
      {"http://h/v2/a.html", "http://h/stable/a.html", std::nullopt},
      {"http://h/docs/1.0/en/a.html", "http://h/docs/2.0/en/a.html", std::nullopt},  // a release in the place
      {"http://h/en/1.0/a.html", "http://h/fr/1.0/a.html", PlacePair{"en", "fr"}},  // one release, two languages
  };
  for (const Case& c : cases) {
    CAPTURE(c.a);
    CAPTURE(c.b);
    CHECK(places_of(c.a, c.b) == c.places);
  }
}

namespace {

/// Candidates with URLs and click depths, viewing `urls`.
std::vector<AuthorityCandidate> candidates_of(const std::vector<std::string>& urls, const std::vector<std::uint32_t>& depths) {
  std::vector<AuthorityCandidate> out(urls.size());
  for (std::size_t i = 0; i < urls.size(); ++i) {
    out[i].url = urls[i];
    out[i].click_depth = depths[i];
  }
  return out;
}

}  // namespace

TEST_CASE("tally_places: one vote per cluster and pair, for the place whose closest copy is fewer clicks away") {
  const std::vector<std::string> urls = {
      "http://h/std/a.html", "http://h/core/a.html", "http://h/alloc/a.html",  // cluster 0
      "http://h/std/b.html", "http://h/core/b.html",                           // cluster 3
      "http://h/std/c.html", "http://h/core/c.html",                           // cluster 5: equal depths
      "http://h/std/d.html",                                                   // alone
      "http://h/core/e.html", "http://h/std/e.html"};                          // cluster 8, not members
  const std::vector<std::uint32_t> depths = {2, 4, 5, 3, 3, 4, 4, 1, 9, 1};
  const std::vector<std::uint32_t> cluster_of = {0, 0, 0, 3, 3, 5, 5, 7, 8, 8};
  const std::vector<char> member = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0};
  const std::vector<AuthorityCandidate> candidates = candidates_of(urls, depths);
  PlaceTally tally;
  tally_places(cluster_of, AuthorityCandidateTable(candidates), member, tally);
  REQUIRE(tally.size() == 3);
  const PlaceVotes core_std = tally.at({"core", "std"});
  CHECK(core_std.shared == 3);
  CHECK(core_std.first_closer == 0);
  CHECK(core_std.second_closer == 1);  // a's std copy; b's and c's copies are as far
  const PlaceVotes alloc_core = tally.at({"alloc", "core"});
  CHECK(alloc_core.shared == 1);
  CHECK(alloc_core.second_closer == 1);
  CHECK(tally.at({"alloc", "std"}).second_closer == 1);

  // Encoded and added up, as the processes of a partitioned build do.
  PlaceTally twice;
  CHECK(add_encoded_place_tally(encode_place_tally(tally), twice));
  CHECK(add_encoded_place_tally(encode_place_tally(tally), twice));
  CHECK(twice.at({"core", "std"}).shared == 6);
  CHECK(twice.at({"core", "std"}).second_closer == 2);
  PlaceTally bad;
  CHECK_FALSE(add_encoded_place_tally(encode_place_tally(tally).substr(0, 5), bad));
}

TEST_CASE("PlacePreferences: a pair counts when many clusters share it and most say the same") {
  struct Case {
    PlaceVotes votes;
    std::optional<bool> std_preferred;  // nullopt: no preference
  };
  const Case cases[] = {
      {{100, 0, 90}, true},    // core, std: std closer in 90
      {{100, 90, 0}, false},   // core closer
      {{3, 0, 3}, std::nullopt},     // too few clusters
      {{100, 0, 40}, std::nullopt},  // most clusters have copies equally far
      {{100, 30, 60}, std::nullopt}, // no clear side (60 of 90)
      {{100, 10, 80}, true},   // 80 of 90
      {{8, 1, 3}, std::nullopt},     // 3 < kMinSharedDocuments
  };
  for (const Case& c : cases) {
    CAPTURE(c.votes.shared);
    CAPTURE(c.votes.first_closer);
    CAPTURE(c.votes.second_closer);
    const PlacePreferences preferences(PlaceTally{{{"core", "std"}, c.votes}});
    CHECK(preferences.learnt().size() == (c.std_preferred ? 1u : 0u));
    const bool std_wins = preferences.prefers("http://h/std/x/a.html", "http://h/core/x/a.html");
    const bool core_wins = preferences.prefers("http://h/core/x/a.html", "http://h/std/x/a.html");
    CHECK(std_wins == (c.std_preferred == true));
    CHECK(core_wins == (c.std_preferred == false));
    // Never across pairs it was not learnt for.
    CHECK_FALSE(preferences.prefers("http://h/std/a.html", "http://h/alloc/a.html"));
    CHECK_FALSE(preferences.prefers("http://h/std/a.html", "http://h/mirror/std/a.html"));
  }
}

TEST_CASE("choose_authorities: the preferred place wins every cluster of the pair, whatever the PageRank") {
  const PlacePreferences preferences(PlaceTally{{{"core", "std"}, {50, 0, 50}}});
  const std::vector<std::string> urls = {
      "http://h/core/a.html", "http://h/std/a.html",                              // core has more PageRank
      "http://h/std/b.html", "http://h/core/b.html",                              // std has more already
      "http://h/alloc/c.html", "http://h/core/c.html",                            // no preference: PageRank
      "http://h/core/d.html", "http://h/std/d.html", "http://h/std/d/index.html",  // pairs by path only
      "http://h/docs/e.html", "http://h/mirror/docs/e.html", "http://h/core/docs/e.html",
      "http://h/std/docs/e.html"};
  std::vector<AuthorityCandidate> candidates = candidates_of(urls, std::vector<std::uint32_t>(urls.size(), 1));
  const double ranks[] = {0.9, 0.1, 0.8, 0.2, 0.1, 0.9, 0.9, 0.2, 0.5, 0.1, 0.2, 0.9, 0.3};
  for (std::size_t i = 0; i < candidates.size(); ++i) candidates[i].pagerank = ranks[i];
  const std::vector<std::uint32_t> cluster_of = {0, 0, 2, 2, 4, 4, 6, 6, 6, 9, 9, 9, 9};
  const std::vector<Authority> without = choose_authorities(cluster_of, AuthorityCandidateTable(candidates), false);
  const std::vector<Authority> with =
      choose_authorities(cluster_of, AuthorityCandidateTable(candidates), false, {}, &preferences);
  CHECK(without[0].authoritative == 0);
  CHECK(with[0].authoritative == 1);
  CHECK(with[0].reason == AuthorityReason::Place);
  CHECK(with[2].authoritative == 2);
  CHECK(with[2].reason == AuthorityReason::Place);  // the place narrowed to it
  CHECK(with[4].authoritative == 5);
  CHECK(with[4].reason == AuthorityReason::PageRank);
  // core/d.html is out; std/d.html and std/d/index.html are no pair of places: PageRank between them.
  CHECK(with[6].authoritative == 8);
  // The original of copies still wins: the place only took core's copy out.
  CHECK(with[9].authoritative == 9);
  CHECK(with[9].reason == AuthorityReason::Original);
}
