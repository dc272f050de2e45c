/// @file test_authority.cpp
/// @brief choose_authorities(): a table of small clusters and the expected winners.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "dedup/authority.h"

using namespace canon::dedup;
using R = AuthorityReason;

TEST_CASE("to_string of reasons") {
  CHECK(to_string(R::Singleton) == "singleton");
  CHECK(to_string(R::PageRank) == "pagerank");
  CHECK(to_string(R::Canonical) == "canonical");
  CHECK(to_string(R::Tie) == "tie");
}

TEST_CASE("choose_authorities on small clusters") {
  constexpr auto none = std::nullopt;
  struct Doc {
    const char* url;
    double pagerank;
    std::optional<std::uint32_t> canonical;
    std::uint32_t cluster;
  };
  struct Case {
    const char* name;
    std::vector<Doc> docs;
    bool honour_canonical;
    std::vector<std::uint32_t> representative;  // per document
    std::vector<R> reason;
  };
  const std::vector<Case> cases = {
      {"singletons", {{"/a", 0.1, none, 0}, {"/b", 0.9, 0, 1}}, true, {0, 1},
       {R::Singleton, R::Singleton}},
      {"highest pagerank wins",
       {{"/a", 0.1, none, 0}, {"/b", 0.5, none, 0}, {"/c", 0.2, none, 0}}, true, {1, 1, 1},
       {R::PageRank, R::PageRank, R::PageRank}},
      {"canonical beats pagerank", {{"/a", 0.1, none, 0}, {"/b", 0.5, 0, 0}}, true, {0, 0},
       {R::Canonical, R::Canonical}},
      {"canonical ignored when not honoured", {{"/a", 0.1, none, 0}, {"/b", 0.5, 0, 0}}, false,
       {1, 1}, {R::PageRank, R::PageRank}},
      {"canonical naming a page of another cluster is ignored",
       {{"/a", 0.1, 2, 0}, {"/b", 0.5, none, 0}, {"/c", 0.0, none, 2}}, true, {1, 1, 2},
       {R::PageRank, R::PageRank, R::Singleton}},
      {"a page naming itself does not count",
       {{"/a", 0.1, 0, 0}, {"/b", 0.5, 1, 0}, {"/c", 0.2, none, 0}}, true, {1, 1, 1},
       {R::PageRank, R::PageRank, R::PageRank}},
      {"the most-named page wins",
       {{"/a", 0.1, none, 0}, {"/b", 0.5, 0, 0}, {"/c", 0.9, 0, 0}, {"/d", 0.3, 1, 0}}, true,
       {0, 0, 0, 0}, {R::Canonical, R::Canonical, R::Canonical, R::Canonical}},
      {"equally named: pagerank among them",
       {{"/a", 0.1, 1, 0}, {"/b", 0.2, 0, 0}, {"/c", 0.9, none, 0}}, true, {1, 1, 1},
       {R::Canonical, R::Canonical, R::Canonical}},
      {"equally named, equal pagerank: shorter url among them",
       {{"/long", 0.2, 1, 0}, {"/s", 0.2, 0, 0}, {"/", 0.9, none, 0}}, true, {1, 1, 1},
       {R::Canonical, R::Canonical, R::Canonical}},
      {"tie: shorter url wins", {{"/a/long", 0.3, none, 0}, {"/b", 0.3, none, 0}}, true,
       {1, 1}, {R::Tie, R::Tie}},
      {"tie: same length, lexicographically smaller wins",
       {{"/b", 0.3, none, 0}, {"/a", 0.3, none, 0}, {"/c", 0.1, none, 0}}, true, {1, 1, 1},
       {R::Tie, R::Tie, R::Tie}},
      {"tie within a relative 1e-12",
       {{"/bb", 0.3 * (1 + 1e-13), none, 0}, {"/a", 0.3, none, 0}}, true, {1, 1},
       {R::Tie, R::Tie}},
      {"beyond a relative 1e-12 pagerank decides",
       {{"/bb", 0.3 * (1 + 1e-9), none, 0}, {"/a", 0.3, none, 0}}, true, {0, 0},
       {R::PageRank, R::PageRank}},
      {"several clusters at once",
       {{"/x", 0.4, none, 0}, {"/y", 0.1, none, 1}, {"/z", 0.2, none, 0}, {"/w", 0.3, 1, 1},
        {"/v", 0.5, none, 4}},
       true, {0, 1, 0, 1, 4},
       {R::PageRank, R::Canonical, R::PageRank, R::Canonical, R::Singleton}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    std::vector<std::uint32_t> cluster_of;
    std::vector<AuthorityCandidate> candidates;
    for (const Doc& d : c.docs) {
      cluster_of.push_back(d.cluster);
      candidates.push_back({d.url, d.pagerank, d.canonical});
    }
    const auto result = choose_authorities(cluster_of, candidates, c.honour_canonical);
    REQUIRE(result.size() == c.docs.size());
    for (std::size_t i = 0; i < result.size(); ++i) {
      CAPTURE(i);
      CHECK(result[i].representative == c.representative[i]);
      CHECK(to_string(result[i].reason) == to_string(c.reason[i]));
    }
  }
  CHECK(choose_authorities({}, {}, true).empty());
}
