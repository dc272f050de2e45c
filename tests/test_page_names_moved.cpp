/// @file test_page_names_moved.cpp
/// @brief Moved pages (SiteNames::moved): one item at parallel paths of a site, its place in its
/// name, and its texts compared with the place masked (moved_shingle_set, moved_coverage).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dedup/sketches/boilerplate.h"
#include "dedup/names/page_names.h"
#include "dedup/sketches/shingles.h"
#include "dedup/sketches/tokenizer.h"
#include "support/page_name_fixtures.h"

using namespace canon::dedup;
using canon::testing::named;

TEST_CASE("SiteNames::moved: the same item at a parallel path, its place in its name") {
  // Each case: two pages of a site where "core" and "std" name the top-level directories (each
  // in half its directory's names: a section's common word) and "x86"/"x86_64" are common words
  // (in a fifth of the names), plus siblings that make the class names of a C++-like
  // reference ordinary words.
  struct Case {
    const char* comment;
    std::string url_a, title_a, url_b, title_b;
    bool expected;
  };
  const std::vector<Case> cases = {
      {"a re-export: the crate in the path and in the name", "http://h/std/cmp/trait.Eq.html", "Eq in std::cmp",
       "http://h/core/cmp/trait.Eq.html", "Eq in core::cmp", true},
      {"a platform module repeating another's item", "http://h/core/arch/x86/fn.f.html", "f in core::arch::x86",
       "http://h/core/arch/x86_64/fn.f.html", "f in core::arch::x86_64", true},
      {"a directory's index page", "http://h/core/arch/x86/", "core::arch::x86", "http://h/core/arch/x86_64/",
       "core::arch::x86_64", true},
      // Template siblings: the class name is the item's own word, not a place many pages share.
      {"members of two classes", "http://h/cpp/deque/at.html", "std::deque::at", "http://h/cpp/vector/at.html",
       "std::vector::at", false},
      // The other name does not say its own place: a qualifier added, not a place substituted.
      {"a qualifier one name adds", "http://h/cpp/experimental/any.html", "std::experimental::any",
       "http://h/cpp/utility/any.html", "std::any", false},
      // The same name: the same item where the site's other pages in the two trees say their
      // place (std, core), not where they do not (c, cpp: "x1", "std::x1").
      {"the same name in trees named by their place", "http://h/std/primitive.f32.html", "f32",
       "http://h/core/primitive.f32.html", "f32", true},
      {"the same name in trees whose names do not say their place", "http://h/c/atof.html", "atof",
       "http://h/cpp/atof.html", "atof", false},
      {"other file names", "http://h/std/cmp/trait.Eq.html", "Eq in std::cmp", "http://h/core/cmp/trait.Ord.html",
       "Eq in core::cmp", false},
      {"other depths", "http://h/std/cmp/trait.Eq.html", "Eq in std::cmp", "http://h/core/trait.Eq.html",
       "Eq in core", false},
      {"a name word no differing directory has", "http://h/std/cmp/trait.Eq.html", "Eq in std::cmp",
       "http://h/core/cmp/trait.Eq.html", "Eq in core::cmp deprecated", false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.comment);
    std::vector<PageName> names = {named(c.url_a, c.title_a), named(c.url_b, c.title_b)};
    for (std::size_t i = 0; i < SiteNames::kMinPlaceTreePaths; ++i) {
      const std::string n = std::to_string(i);
      names.push_back(named("http://h/std/m" + n + "/s.html", "S" + n + " in std::m" + n));
      names.push_back(named("http://h/core/m" + n + "/s.html", "S" + n + " in core::m" + n));
      names.push_back(named("http://h/core/arch/x86/g" + n + ".html", "g" + n + " in core::arch::x86"));
      names.push_back(named("http://h/core/arch/x86_64/g" + n + ".html", "g" + n + " in core::arch::x86_64"));
      names.push_back(named("http://h/cpp/k" + n + "/at.html", "std::k" + n + "::at"));
      names.push_back(named("http://h/c/p" + n + "/x.html", "x" + n));
      names.push_back(named("http://h/cpp/p" + n + "/x.html", "std::x" + n));
    }
    const SiteNames site_names(names);
    CHECK(site_names.moved(0, 1) == c.expected);
    CHECK(site_names.moved(1, 0) == c.expected);
    const auto pairs = site_names.moved_pairs();
    CHECK((std::find(pairs.begin(), pairs.end(), std::pair<std::uint32_t, std::uint32_t>{0, 1}) != pairs.end()) ==
          c.expected);
    if (c.expected) {
      const DedupOptions options;
      CHECK(site_names.required(options, 0, 1) == options.moved_threshold);
    }
  }
}

TEST_CASE("moved_shingle_set masks the place; moved_coverage is the share of a page in the other") {
  const Boilerplate none;
  JoinedWords a, b;
  tokenize_joined("Trait std::cmp::Eq for equality comparisons which are equivalence relations", a);
  tokenize_joined("Trait core::cmp::Eq for equality comparisons which are equivalence relations impl Eq for X", b);
  std::vector<std::uint32_t> masked = {name_word_hash("std"), name_word_hash("core")};
  std::sort(masked.begin(), masked.end());
  ShingleSet x, y;
  moved_shingle_set(a, MovedPlace{masked, false}, 3, none, x);
  moved_shingle_set(b, MovedPlace{masked, false}, 3, none, y);
  std::size_t common = 0;
  for (const auto h : x) common += std::binary_search(y.begin(), y.end(), h) ? 1 : 0;
  CHECK(common == x.size());  // every shingle of the shorter text, the crate masked
  CHECK(moved_coverage(common, x.size()) == 1.0);
  CHECK(moved_coverage(common, y.size()) < 1.0);  // the longer text has its own shingles
  // Unmasked, the shingles holding the crate's name differ.
  moved_shingle_set(a, MovedPlace{}, 3, none, x);
  moved_shingle_set(b, MovedPlace{}, 3, none, y);
  common = 0;
  for (const auto h : x) common += std::binary_search(y.begin(), y.end(), h) ? 1 : 0;
  CHECK(common < x.size());
  CHECK(moved_coverage(0, 0) == 0.0);
  // A directory inserted in one path: its words left out, the texts read the same.
  tokenize_joined("Function core::arch::arm::dsp::qadd saturating add of two words", a);
  tokenize_joined("Function core::arch::arm::qadd saturating add of two words", b);
  moved_shingle_set(a, MovedPlace{{name_word_hash("dsp")}, true}, 3, none, x);
  moved_shingle_set(b, MovedPlace{{name_word_hash("dsp")}, true}, 3, none, y);
  CHECK(x == y);
  moved_shingle_set(a, MovedPlace{{name_word_hash("dsp")}, false}, 3, none, x);  // a placeholder: not the same
  moved_shingle_set(b, MovedPlace{{name_word_hash("dsp")}, false}, 3, none, y);
  CHECK(x != y);
}

TEST_CASE("SiteNames::moved needs parallel trees: kMinPlaceTreePaths paths the same below both directories") {
  for (const std::size_t shared : {SiteNames::kMinPlaceTreePaths - 1, SiteNames::kMinPlaceTreePaths}) {
    CAPTURE(shared);
    std::vector<PageName> names = {named("http://h/std/cmp/trait.Eq.html", "Eq in std::cmp"),
                                   named("http://h/core/cmp/trait.Eq.html", "Eq in core::cmp")};
    // Each crate's own pages (its name its directory's common word), `shared - 1` more of them
    // at the same paths in both.
    for (std::size_t i = 0; i < SiteNames::kMinPlaceTreePaths + 20; ++i) {
      const std::string n = std::to_string(i);
      const bool same = i + 1 < shared;
      names.push_back(named("http://h/std/m" + n + "/s.html", "S" + n + " in std::m" + n));
      names.push_back(named("http://h/core/" + std::string(same ? "m" : "n") + n + "/s.html", "T" + n + " in core::n" + n));
    }
    const SiteNames site_names(names);
    CHECK(site_names.moved(0, 1) == (shared >= SiteNames::kMinPlaceTreePaths));
  }
}

TEST_CASE("SiteNames::moved: smaller trees when both pages cite one definition") {
  // Two platform modules of a few pages each; the pages' first cited place is their source.
  const auto page = [](const std::string& url, const std::string& title, const std::string& cited) {
    DedupDocument doc{url, title, ""};
    doc.cited_place = cited;
    return page_name(doc);
  };
  const std::vector<PageName> names = {
      page("http://h/core/arch/riscv32/fn.f.html", "f in core::arch::riscv32", "http://h/src/shared.rs.html#10"),
      page("http://h/core/arch/riscv64/fn.f.html", "f in core::arch::riscv64", "http://h/src/shared.rs.html#10"),
      page("http://h/core/arch/arm/fn.g.html", "g in core::arch::arm", "http://h/src/arm.rs.html#5"),
      page("http://h/core/arch/aarch64/fn.g.html", "g in core::arch::aarch64", "http://h/src/aarch64.rs.html#7"),
      page("http://h/core/arch/riscv32/fn.h.html", "h", "http://h/src/shared.rs.html#20"),
      page("http://h/core/arch/riscv64/fn.h.html", "h", "http://h/src/shared.rs.html#20"),
      // Two classes' member pages citing one page's section first: not a source line.
      page("http://h/cpp/deque/op.html", "std::deque::op", "http://h/cpp/operators.html#Assignment"),
      page("http://h/cpp/list/op.html", "std::list::op", "http://h/cpp/operators.html#Assignment"),
      // ... or a numbered item of another site (a defect report).
      page("http://h/cpp/map/at.html", "std::map::at", "http://other/issues.html#2321"),
      page("http://h/cpp/set/at.html", "std::set::at", "http://other/issues.html#2321"),
  };
  const SiteNames site_names(names);
  CHECK(site_names.moved(0, 1));        // one definition, the names differ in the place alone
  CHECK_FALSE(site_names.moved(2, 3));  // two definitions of one name, no parallel trees
  CHECK_FALSE(site_names.moved(4, 5));  // the same name needs trees named by their place
  CHECK(site_names.same_definition(6, 7));
  CHECK_FALSE(site_names.moved(6, 7));  // one section cited, no source line
  CHECK(site_names.same_definition(8, 9));
  CHECK_FALSE(site_names.moved(8, 9));  // a line, but not of the site's own pages
  const DedupOptions options;
  CHECK(site_names.required(options, 0, 1) == options.threshold);
}

TEST_CASE("SiteNames::moved: directories sharing kMinPlaceTreePaths paths are places, their words common or not") {
  // "arm" and "aarch64" are in fewer names than the site's common words need (the site has many
  // other pages), so the names are not renamed; the two directories are trees of their own.
  for (const std::size_t shared : {SiteNames::kMinPlaceTreePaths - 1, SiteNames::kMinPlaceTreePaths}) {
    CAPTURE(shared);
    std::vector<PageName> names;
    for (std::size_t i = 0; i < SiteNames::kMinPlaceTreePaths; ++i) {
      const std::string n = std::to_string(i);
      const std::string other = i < shared ? "f" + n : "g" + n;  // aarch64's own items past `shared`
      names.push_back(named("http://h/core/arch/arm/fn.f" + n + ".html", "f" + n + " in core::arch::arm"));
      names.push_back(named("http://h/core/arch/aarch64/fn." + other + ".html", other + " in core::arch::aarch64"));
    }
    for (int i = 0; i < 1000; ++i) names.push_back(named("http://h/other/p" + std::to_string(i) + ".html", "P" + std::to_string(i)));
    // core's own pages, so that neither platform is in half of core's names.
    for (int i = 0; i < 300; ++i) names.push_back(named("http://h/core/q" + std::to_string(i) + ".html", "q" + std::to_string(i) + " in core"));
    const SiteNames site_names(names);
    CHECK(site_names.relation(0, 1) == NameRelation::kDifferent);
    CHECK(site_names.moved(0, 1) == (shared >= SiteNames::kMinPlaceTreePaths));
  }
  // Two classes' member pages: named alike in far fewer paths, never moved.
  std::vector<PageName> names;
  for (int i = 0; i < 40; ++i) {
    const std::string n = std::to_string(i);
    names.push_back(named("http://h/cpp/deque/m" + n + ".html", "std::deque::m" + n));
    names.push_back(named("http://h/cpp/vector/m" + n + ".html", "std::vector::m" + n));
  }
  const SiteNames classes(names);
  CHECK_FALSE(classes.moved(0, 1));
}

TEST_CASE("SiteNames::moved: a directory inserted, when both pages cite one definition") {
  // A module that re-exports its submodule's items: each page again one directory deeper.
  const auto page = [](const std::string& url, const std::string& title, const std::string& cited) {
    DedupDocument doc{url, title, ""};
    doc.cited_place = cited;
    return page_name(doc);
  };
  const std::string line = "http://h/src/dsp.rs.html#10";
  const std::vector<PageName> names = {
      page("http://h/core/arch/arm/dsp/fn.q.html", "q in core::arch::arm::dsp", line),  // 0
      page("http://h/core/arch/arm/fn.q.html", "q in core::arch::arm", line),
      page("http://h/core/arch/arm/dsp/fn.r.html", "r in core::arch::arm::dsp", line + "1"),  // 2
      page("http://h/core/arch/arm/fn.r.html", "r in core::arch::arm", line + "2"),
      page("http://h/core/arch/arm/dsp/fn.s.html", "s", line + "3"),  // 4
      page("http://h/core/arch/arm/fn.s.html", "s", line + "3"),
      page("http://h/core/arch/arm/dsp/fn.t.html", "t in core::arch::arm::dsp", line + "4"),  // 6
      page("http://h/core/arch/arm/fn.t.html", "t in core::arch::arm helper", line + "4"),
      page("http://h/core/arch/arm/dsp/simd/fn.u.html", "u in core::arch::arm::dsp::simd", line + "5"),  // 8
      page("http://h/core/arch/arm/fn.u.html", "u in core::arch::arm", line + "5"),
      page("http://h/dsp/core/fn.v.html", "v in dsp::core", line + "6"),  // 10
      page("http://h/core/fn.v.html", "v in core", line + "6"),
      page("http://h/core/arch/arm/dsp/fn.w.html", "w in core::arch::arm::dsp", line + "7"),  // 12
      page("http://h/core/arch/arm/other/fn.w.html", "w in core::arch::arm::other", line + "7"),
  };
  const SiteNames site_names(names);
  CHECK(site_names.moved(0, 1));        // the deeper name says the inserted directory alone
  CHECK(site_names.moved(1, 0));
  CHECK_FALSE(site_names.moved(2, 3));  // two definitions
  CHECK_FALSE(site_names.moved(4, 5));  // the same name: the deeper one does not say its place
  CHECK_FALSE(site_names.moved(6, 7));  // the shorter path's name adds a word of its own
  CHECK_FALSE(site_names.moved(8, 9));  // two directories inserted
  CHECK_FALSE(site_names.moved(10, 11));  // a directory above the whole path: a mirror's
  CHECK(site_names.moved(12, 13));      // substituted, one definition
  CHECK(site_names.moved_place(0, 1) == MovedPlace{{name_word_hash("dsp")}, true});
  CHECK_FALSE(site_names.moved_place(12, 13).inserted);
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> want = {{0, 1}, {12, 13}};
  CHECK(site_names.moved_pairs() == want);
  const DedupOptions options;
  CHECK(site_names.required(options, 0, 1) == options.threshold);
}
