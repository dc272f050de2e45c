/// @file test_authority.cpp
/// @brief choose_authorities(): a table of small clusters and the expected winners.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "dedup/authority/authority.h"

using namespace canon::dedup;
using R = AuthorityReason;

TEST_CASE("to_string of reasons") {
  CHECK(to_string(R::Singleton) == "singleton");
  CHECK(to_string(R::PageRank) == "pagerank");
  CHECK(to_string(R::Canonical) == "canonical");
  CHECK(to_string(R::Tie) == "tie");
  CHECK(to_string(R::Release) == "release");
  CHECK(to_string(R::Redirect) == "redirect");
  CHECK(to_string(R::Original) == "original");
  CHECK(to_string(R::Place) == "place");
}

TEST_CASE("release_of: the first directory segment that is a version or a current alias") {
  struct Case {
    const char* url;
    int kind;
    std::vector<std::uint64_t> numbers;
  };
  const Case cases[] = {
      {"http://h/0.50.1/user/jit.html", 1, {0, 50, 1}},
      {"http://h/docs/v2/index.html", 1, {2}},
      {"http://h/latest/user/jit.html", 2, {}},
      {"http://h/current/a.html", 3, {}},
      {"http://h/stable/a.html", 4, {}},
      {"http://h/2023/05/post.html", 1, {2023}},  // the first one
      {"http://h/docs/install.html", 0, {}},
      {"http://h/0.50.1.html", 0, {}},           // a file name is not a release
      {"http://h/1..2/a.html", 0, {}},           // not a version
      {"http://h/1.2rc1/a.html", 0, {}},         // (suffixes are not read)
      {"http://h/dev/a.html", 0, {}},
      {"http://h/v/a.html", 0, {}},
      {"http://h/a/b/3.11/c.html?x=1/2", 1, {3, 11}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.url);
    const Release r = release_of(c.url);
    CHECK(r.kind == c.kind);
    CHECK(r.numbers == c.numbers);
  }
  CHECK(newer_release(release_of("http://h/0.10/a"), release_of("http://h/0.9/a")));
  CHECK(newer_release(release_of("http://h/1.2.1/a"), release_of("http://h/1.2/a")));
  CHECK_FALSE(newer_release(release_of("http://h/1.2/a"), release_of("http://h/1.2/b")));
  CHECK(newer_release(release_of("http://h/latest/a"), release_of("http://h/99.0/a")));
  CHECK(newer_release(release_of("http://h/stable/a"), release_of("http://h/latest/a")));
  CHECK(newer_release(release_of("http://h/0.1/a"), release_of("http://h/a")));
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
    std::vector<std::uint32_t> authoritative;  // per document
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
      {"the newest release wins over pagerank",
       {{"/0.9/a", 0.9, none, 0}, {"/0.10/a", 0.1, none, 0}, {"/0.10.1/a", 0.2, none, 0}}, true,
       {2, 2, 2}, {R::Release, R::Release, R::Release}},
      {"an alias of the current release beats every version",
       {{"/0.50.1/a", 0.9, none, 0}, {"/latest/a", 0.1, none, 0}}, true, {1, 1},
       {R::Release, R::Release}},
      {"one release only: pagerank (a v1 copy beside the unversioned page)",
       {{"/docs/a", 0.1, none, 0}, {"/docs/v1/a", 0.5, none, 0}}, true, {1, 1},
       {R::PageRank, R::PageRank}},
      {"canonical beats release",
       {{"/0.1/a", 0.1, none, 0}, {"/0.2/a", 0.5, 0, 0}}, true, {0, 0},
       {R::Canonical, R::Canonical}},
      {"a canonical named more from outside the cluster than inside is not trusted",
       {{"/a", 0.1, none, 0}, {"/b", 0.5, 0, 0}, {"/x", 0.1, 0, 2}, {"/y", 0.1, 0, 3}}, true,
       {1, 1, 2, 3}, {R::PageRank, R::PageRank, R::Singleton, R::Singleton}},
      // A mirror (or printable, archived) copy below a prefix gets the original's PageRank
      // through the original's link to it, and can outrank it.
      {"the page that others repeat below a prefix beats pagerank",
       {{"/mirror/docs/a", 0.9, none, 0}, {"/docs/a", 0.1, none, 0}, {"/print/docs/a", 0.5, none, 0}}, true,
       {1, 1, 1}, {R::Original, R::Original, R::Original}},
      {"pages in parallel directories repeat none: pagerank",
       {{"/x/a", 0.9, none, 0}, {"/y/a", 0.1, none, 0}}, true, {0, 0}, {R::PageRank, R::PageRank}},
      {"only whole segments repeat: /docs/xa is no copy of /a",
       {{"/docs/xa", 0.9, none, 0}, {"/a", 0.1, none, 0}}, true, {0, 0}, {R::PageRank, R::PageRank}},
      {"pagerank among the pages no other repeats",
       {{"/a", 0.1, none, 0}, {"/docs/a", 0.5, none, 0}, {"/x/b", 0.3, none, 0}}, true, {2, 2, 2},
       {R::Original, R::Original, R::Original}},
      // Copies in numbered folders are copies, not releases: "1", "2", "3" would be versions.
      {"the original beats copies in numbered folders beside it",
       {{"/copies/3/docs/a", 0.5, none, 0}, {"/docs/a", 0.1, none, 0}, {"/copies/1/docs/a", 0.4, none, 0}}, true,
       {1, 1, 1}, {R::Original, R::Original, R::Original}},
      {"the newest release beats the original",
       {{"/0.1/a", 0.9, none, 0}, {"/mirror/0.2/a", 0.1, none, 0}}, true, {1, 1},
       {R::Release, R::Release}},
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
      candidates.push_back({d.url, d.pagerank, d.canonical, 0});
    }
    const auto result = choose_authorities(cluster_of, candidates, c.honour_canonical);
    REQUIRE(result.size() == c.docs.size());
    for (std::size_t i = 0; i < result.size(); ++i) {
      CAPTURE(i);
      CHECK(result[i].authoritative == c.authoritative[i]);
      CHECK(to_string(result[i].reason) == to_string(c.reason[i]));
    }
  }
  CHECK(choose_authorities({}, {}, true).empty());
}

TEST_CASE("the target of the most redirects wins when canonical and releases do not decide") {
  const std::vector<std::uint32_t> cluster_of = {0, 0, 0};
  const std::vector<AuthorityCandidate> candidates = {
      {"/a", 0.9, std::nullopt, 0}, {"/b", 0.1, std::nullopt, 2}, {"/c", 0.2, std::nullopt, 1}};
  const auto result = choose_authorities(cluster_of, candidates, true);
  CHECK(result[0].authoritative == 1);
  CHECK(result[0].reason == R::Redirect);
}

TEST_CASE("own name: a page saved under several names is its own under the first name it calls itself") {
  using R = AuthorityReason;
  struct Case {
    const char* comment;
    std::vector<std::pair<const char*, const char*>> pages;  // url, main heading
    std::uint32_t authoritative;
    R reason;
  };
  const std::vector<Case> cases = {
      {"MediaWiki's redirect names: the first name of the heading",
       {{"/cpp/algorithm/find_if_not.html", "std::find, std::find_if, std::find_if_not"},
        {"/cpp/algorithm/find.html", "std::find, std::find_if, std::find_if_not"},
        {"/cpp/algorithm/find_if.html", "std::find, std::find_if, std::find_if_not"}},
       1, R::OwnName},
      {"an alias the heading does not say (a misspelling), case aside",
       {{"/cpp/named_req/Eraseable.html", "C++ named requirements: Erasable"},
        {"/cpp/named_req/Erasable.html", "C++ named requirements: Erasable"}},
       1, R::OwnName},
      // Own name narrows without deciding alone: the original among that name's copies.
      {"own name, then the original of its print copy",
       {{"/print/cpp/find.html", "std::find, std::find_if"}, {"/cpp/find.html", "std::find, std::find_if"},
        {"/cpp/find_if.html", "std::find, std::find_if"}},
       1, R::Original},
      {"the same file name (copies): no say, PageRank decides",
       {{"/mirror/x/a.html", "A"}, {"/y/a.html", "A"}}, 0, R::PageRank},
      {"no member's file name in the heading: PageRank decides",
       {{"/p.html", "Something"}, {"/q.html", "Something"}}, 0, R::PageRank},
  };
  for (const Case& c : cases) {
    CAPTURE(c.comment);
    std::vector<std::uint32_t> cluster_of(c.pages.size(), 0);
    std::vector<AuthorityCandidate> candidates;
    for (std::size_t d = 0; d < c.pages.size(); ++d) {
      AuthorityCandidate page{c.pages[d].first, d == 0 ? 0.5 : 0.1, std::nullopt, 0};
      page.name = c.pages[d].second;
      candidates.push_back(page);
    }
    const auto result = choose_authorities(cluster_of, candidates, true);
    CHECK(result[0].authoritative == c.authoritative);
    CHECK(to_string(result[0].reason) == to_string(c.reason));
  }
}

TEST_CASE("AuthorityCandidateTable: every document's candidate") {
  std::vector<AuthorityCandidate> every(4);
  every[1].url = "http://h/b";
  every[3].pagerank = 0.5;
  const AuthorityCandidateTable dense(every);
  CHECK(dense.size() == 4);
  CHECK(dense[1].url == "http://h/b");
  CHECK(dense[3].pagerank == 0.5);
}
