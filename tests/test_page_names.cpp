/// @file test_page_names.cpp
/// @brief The name rule (SiteNames: relations, URL evidence, same-name pairs, names held encoded
/// or by parts) and site-wide repeated text (Boilerplate, page_stem, site_sample): tables of
/// small sites.
#include <doctest/doctest.h>

#include <algorithm>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "dedup/sketches/boilerplate.h"
#include "dedup/sketches/minhash.h"
#include "dedup/names/page_names.h"
#include "dedup/sketches/shingles.h"
#include "dedup/sketches/tokenizer.h"
#include "dedup/names/url_path.h"
#include "support/page_name_fixtures.h"
#include "support/thread_collective.h"

using namespace canon::dedup;
using Rel = NameRelation;
using canon::testing::named;

namespace {

/// A site of the given titles (and headings) at /p<i>.html, with `filler` more pages titled
/// "T<i> — Site 1.0" so that "site" and the release are common words.
SiteNames site(const std::vector<std::pair<std::string, std::string>>& pages, int filler = 20) {
  std::vector<PageName> names;
  for (const auto& [title, heading] : pages) {
    names.push_back(named("http://h/p" + std::to_string(names.size()) + ".html", title, heading));
  }
  for (int i = 0; i < filler; ++i) names.push_back(named("http://h/t" + std::to_string(i) + ".html", "T" + std::to_string(i) + " — Site 1.0"));
  return SiteNames(names);
}

}  // namespace

TEST_CASE("SiteNames::relation of two pages") {
  struct Case {
    const char* comment;
    std::string title_a, heading_a, title_b, heading_b;
    Rel expected;
  };
  const std::vector<Case> cases = {
      {"same title, case and spacing aside", "Install — Site 1.0", "", "install  —  site 1.0", "", Rel::kSame},
      {"another dash", "Install — Site 1.0", "", "Install - Site 1.0", "", Rel::kRenamed},
      {"release in the title: renamed", "Install — Site 1.0", "", "Install — Site 2.3", "", Rel::kRenamed},
      {"punctuation only: renamed", "C keywords: if", "", "C keywords, if", "", Rel::kRenamed},
      // Operator characters are words: another language, a specialization, a destructor.
      {"C and C++: related", "C keywords: if", "", "C++ keywords: if", "", Rel::kRelated},
      {"a reference specialization", "std::promise< _Res >", "", "std::promise< _Res & >", "", Rel::kRelated},
      {"constructor and destructor", "X::X", "", "X::~X", "", Rel::kRelated},
      {"operator= and operator==", "x::operator=", "", "x::operator==", "", Rel::kDifferent},
      {"a common word added: renamed", "Install — Site 1.0", "", "Site Install — Site 1.0", "", Rel::kRenamed},
      {"own words added: related", "Install — Site 1.0", "", "Install (printable version) — Site 1.0", "",
       Rel::kRelated},
      {"another subject: different", "normal_distribution::param — Site 1.0", "",
       "binomial_distribution::param — Site 1.0", "", Rel::kDifferent},
      {"no title words on one side: unknown", "Install", "", "", "", Rel::kUnknown},
  };
  for (const Case& c : cases) {
    CAPTURE(c.comment);
    const SiteNames names = site({{c.title_a, c.heading_a}, {c.title_b, c.heading_b}});
    CHECK(names.relation(0, 1) == c.expected);
    CHECK(names.relation(1, 0) == c.expected);
  }
}

TEST_CASE("a title many pages share is read with the first heading") {
  std::vector<std::pair<std::string, std::string>> pages;
  for (int i = 0; i < 10; ++i) pages.push_back({"lib: Member List", "std::class" + std::to_string(i) + "x Member List"});
  pages.push_back({"lib: Member List", "std::class0x Member List"});  // a copy of page 0
  const SiteNames names = site(pages);
  CHECK(names.relation(0, 1) == Rel::kDifferent);
  CHECK(names.relation(0, 10) == Rel::kSame);
  std::vector<std::pair<std::string, std::string>> no_headings(10, {"lib: Member List", ""});
  CHECK(site(no_headings).relation(0, 1) == Rel::kUnknown);
}

TEST_CASE("a word in many names is common, a word in few is a subject") {
  // "basic" in 30 titles is common; "alpha"/"beta" in one each are subjects.
  std::vector<std::pair<std::string, std::string>> pages = {{"basic alpha", ""}, {"basic beta", ""}, {"alpha", ""}};
  for (int i = 0; i < 30; ++i) pages.push_back({"basic w" + std::to_string(i), ""});
  const SiteNames names = site(pages);
  CHECK(names.relation(0, 1) == Rel::kDifferent);
  CHECK(names.relation(0, 2) == Rel::kRenamed);  // "basic alpha" / "alpha"
}

TEST_CASE("a word in half the names of a top-level directory is that directory's template") {
  // Two releases side by side, each titling its pages with its own build string: "dirty",
  // "macosx", "egg" name the release, not the page.
  std::vector<PageName> pages;
  for (int i = 0; i < 10; ++i) {
    pages.push_back(named("http://h/0.36/p" + std::to_string(i) + ".html",
                          "Topic" + std::to_string(i) + " — Numba 0.36.1-py2.7-macosx-10.6.egg documentation"));
    pages.push_back(named("http://h/0.37/p" + std::to_string(i) + ".html",
                          "Topic" + std::to_string(i) + " — Numba 0.37.0dev1+32.gbe5fb1f.dirty documentation"));
  }
  // A directory holding several items: a word in a third of its names still names an item.
  for (int i = 0; i < 20; ++i) {
    const std::string item = i < 7 ? "normal_distribution" : i < 14 ? "gamma_distribution" : "w" + std::to_string(i);
    pages.push_back(named("http://h/en/" + item + "/m" + std::to_string(i) + ".html", item + "::m" + std::to_string(i % 7)));
  }
  // More of the site, so that a release's words are in far fewer than 20 % of all names.
  for (int i = 0; i < 40; ++i) pages.push_back(named("http://h/p" + std::to_string(i) + ".html", "Page " + std::to_string(i)));
  const SiteNames names(pages);
  CHECK(names.relation(0, 1) == Rel::kRenamed);   // Topic0 in 0.36 and in 0.37
  CHECK(names.relation(0, 3) == Rel::kDifferent);  // Topic0 / Topic1
  CHECK(names.relation(20, 27) == Rel::kDifferent);  // normal_distribution::m0 / gamma_distribution::m0
}

TEST_CASE("required_similarity for each relation and what the URLs say") {
  using Url = UrlEvidence;
  DedupOptions o;
  CHECK(required_similarity(o, Rel::kSame, Url::kMirrored) == o.copy_threshold);
  CHECK(o.copy_threshold < o.threshold);
  CHECK(required_similarity(o, Rel::kSame, Url::kSameStem) == o.parallel_threshold);
  CHECK(required_similarity(o, Rel::kSame, Url::kNone) == o.parallel_threshold);
  // Another release's page of one name under another file name: the document renumbered.
  CHECK(required_similarity(o, Rel::kSame, Url::kOtherRelease) == o.threshold);
  CHECK(required_similarity(o, Rel::kUnknown, Url::kOtherRelease) == o.parallel_threshold);
  CHECK(required_similarity(o, Rel::kRelated, Url::kOtherRelease) == o.parallel_threshold);
  CHECK(required_similarity(o, Rel::kDifferent, Url::kOtherRelease) > 1.0);
  CHECK(required_similarity(o, Rel::kUnknown, Url::kMirrored) == o.threshold);
  CHECK(required_similarity(o, Rel::kUnknown, Url::kNone) == o.parallel_threshold);
  CHECK(required_similarity(o, Rel::kRelated, Url::kMirrored) == o.related_title_threshold);
  CHECK(required_similarity(o, Rel::kRelated, Url::kSameStem) == o.parallel_threshold);
  CHECK(required_similarity(o, Rel::kRelated, Url::kNone) > 1.0);
  CHECK(required_similarity(o, Rel::kRenamed, Url::kMirrored) == o.renamed_threshold);
  CHECK(required_similarity(o, Rel::kRenamed, Url::kNone) == o.renamed_threshold);
  // A page saved under two names is near-identical; parallel items are not (0.91 measured).
  CHECK(o.parallel_threshold > 0.91);
  CHECK(required_similarity(o, Rel::kDifferent, Url::kMirrored) > 1.0);
  o.title_rule = false;
  CHECK(required_similarity(o, Rel::kDifferent, Url::kNone) == o.threshold);
}

TEST_CASE("SiteNames::same_name_pairs: one name at mirrored paths") {
  std::vector<PageName> pages = {
      named("http://h/docs/a.html", "Guide"),         // 0
      named("http://h/mirror/docs/a.html", "Guide"),  // 1: mirrors 0
      named("http://h/0.9/docs/a.html", "Guide"),     // 2: a release's copy of 0 (and of 1)
      named("http://h/print/a.html", "Guide"),        // 3: the same file name, a parallel path
      named("http://h/mirror/docs/b.html", "Other"),  // 4: another name
      named("http://h/x/docs/b.html", "Guide"),       // 5: another file
      named("http://h/y/docs/a.html", ""),            // 6: no name
      named("http://h/1.0/a007.html", "Renumbered"),  // 7: a release's page ...
      named("http://h/1.1/a009.html", "Renumbered"),  // 8: ... renumbered in the next release
      named("http://h/a009.html", "Renumbered"),      // 9: not in a release: not paired with 7
  };
  for (int i = 0; i < 20; ++i) pages.push_back(named("http://h/t" + std::to_string(i) + ".html", "T" + std::to_string(i)));
  const SiteNames names(pages);
  using Pairs = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
  CHECK(names.same_name_pairs() == Pairs{{0, 1}, {0, 2}, {1, 2}, {7, 8}, {8, 9}});
  // At most one neighbour of one name each: 0 with 1, 1 with 2 (3 is not mirrored, so not counted).
  CHECK(names.same_name_pairs(1) == Pairs{{0, 1}, {1, 2}, {7, 8}, {8, 9}});
}

TEST_CASE("SiteNames::url_evidence") {
  struct Case {
    const char* a;
    const char* b;
    UrlEvidence expected;
  };
  const Case cases[] = {
      {"http://h/docs/install.html", "http://h/mirror/docs/install.html", UrlEvidence::kMirrored},
      {"http://h/archive/x/docs/install.html", "http://h/docs/install.html", UrlEvidence::kMirrored},
      {"http://h/docs/install.html", "http://h/print/install.html", UrlEvidence::kSameStem},
      {"http://h/en/c/comment.html", "http://h/en/cpp/comment.html", UrlEvidence::kSameStem},
      {"http://h/a/StackWalker.html", "http://h/a/StackWalker.Option.html", UrlEvidence::kNone},
      {"http://h/xdocs/install.html", "http://h/docs/install.html", UrlEvidence::kSameStem},  // not at a '/'
      {"http://h/", "http://h/manual/", UrlEvidence::kNone},  // the root is not mirrored by every directory
      {"http://h/docs/", "http://h/mirror/docs/", UrlEvidence::kMirrored},
      // Releases in the path aside: a release's copy mirrors the page.
      {"http://h/docs/v1/upgrading.html", "http://h/docs/upgrading.html", UrlEvidence::kMirrored},
      {"http://h/0.36.1/user/jit.html", "http://h/0.50.1/user/jit.html", UrlEvidence::kMirrored},
      {"http://h/stable/user/jit.html", "http://h/0.3/doc/user/jit.html", UrlEvidence::kMirrored},
      // Both in a release, not the same one, the paths apart: another release's file.
      {"http://h/0.36.1/user/jit.html", "http://h/0.50.1/reference/jit.html", UrlEvidence::kOtherRelease},
      {"http://h/3.3.10/a00085.html", "http://h/3.4/a00089.html", UrlEvidence::kOtherRelease},
      {"http://h/0.36.1/user/jit.html", "http://h/user/cuda.html", UrlEvidence::kNone},  // one in no release
      {"http://h/0.36.1/user/jit.html", "http://h/0.36.1/user/cuda.html", UrlEvidence::kNone},  // one release
      {"http://h/v1x/upgrading.html", "http://h/upgrading.html", UrlEvidence::kMirrored},  // "/upgrading.html" below
      {"http://h/docs/1.2/", "http://h/docs/", UrlEvidence::kMirrored},
      {"http://h/en/c/1.2.html", "http://h/en/cpp/1.3.html", UrlEvidence::kNone},  // file names are not releases
  };
  for (const Case& c : cases) {
    CAPTURE(c.a);
    CAPTURE(c.b);
    const std::vector<PageName> names = {named(c.a, "A"), named(c.b, "B")};
    const SiteNames site_names(names);
    CHECK(site_names.url_evidence(0, 1) == c.expected);
    CHECK(site_names.url_evidence(1, 0) == c.expected);
  }
}

TEST_CASE("page_stem") {
  struct Case {
    const char* url;
    const char* stem;
  };
  const Case cases[] = {
      {"http://h/a/b/jit.html", "jit"},
      {"http://h/0.50/user/jit.html", "jit"},
      {"http://h/mirror/docs/install.html#x", "install"},
      {"http://h/docs/", "docs"},
      {"http://h/docs/index.html", "docs"},
      {"http://h/page.php?id=3", "page.php?id=3"},  // the query follows the whole segment
      {"http://h/a/StackWalker.Option.html", "StackWalker.Option"},
      {"http://h/", ""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.url);
    CHECK(page_stem(c.url) == c.stem);
  }
}

TEST_CASE("site_sample: evenly spaced, all of a small site, at most 1000") {
  CHECK(site_sample(5) == std::vector<std::uint32_t>{0, 1, 2, 3, 4});
  CHECK(site_sample(0).empty());
  const auto big = site_sample(100000);
  CHECK(big.size() == 1000);
  CHECK(big.front() == 0);
  CHECK(big[1] == 100);
  CHECK(site_sample(4000).size() == 400);
}

TEST_CASE("Boilerplate: text on pages of many stems, not text many copies of one page share") {
  std::vector<std::string> urls, texts;
  // 20 pages of different stems with one template sentence; 10 copies of one page (one stem).
  for (int i = 0; i < 20; ++i) {
    urls.push_back("http://h/p" + std::to_string(i) + ".html");
    texts.push_back("uses of class item" + std::to_string(i) + " here and w" + std::to_string(i) + " more");
  }
  for (int i = 0; i < 10; ++i) {
    urls.push_back("http://h/" + std::to_string(i) + ".0/guide.html");
    texts.push_back("the guide text that every release repeats word for word");
  }
  std::vector<DedupDocument> docs;
  for (std::size_t i = 0; i < urls.size(); ++i) docs.push_back({urls[i], "", texts[i]});
  const Boilerplate b = Boilerplate::learn(docs, 3);
  ShingleSet template_page, guide;
  JoinedWords words;
  tokenize_joined(texts[0], words);
  shingle_set(words, 3, template_page);
  tokenize_joined(texts[20], words);
  shingle_set(words, 3, guide);
  std::size_t before = template_page.size();
  b.remove_from(template_page);
  CHECK(template_page.size() == before - 1);  // "uses of class"
  before = guide.size();
  b.remove_from(guide);
  CHECK(guide.size() == before);
  CHECK(b.size() == 1);
  CHECK(Boilerplate().size() == 0);
}

TEST_CASE("after_host and origin_of: the parts of a URL after and up to scheme://host") {
  struct Row {
    std::string_view url, after;
  };
  for (const Row row : {
           Row{"https://example.org/docs/a.html", "/docs/a.html"},
           Row{"https://example.org/docs/a.html?x=1#top", "/docs/a.html?x=1#top"},  // query and fragment kept
           Row{"https://example.org", ""},                                         // no path
           Row{"http://localhost:8080/", "/"},
           Row{"/docs/a.html", "/docs/a.html"},                                    // a path already
           Row{"", ""},
           Row{"https://example.org/a?next=https://other.org/b", "/a?next=https://other.org/b"},
       }) {
    CAPTURE(row.url);
    CHECK(after_host(row.url) == row.after);
    CHECK(std::string(origin_of(row.url)) + std::string(after_host(row.url)) == row.url);
  }
  CHECK(origin_of("https://example.org/docs/a.html") == "https://example.org");
  CHECK(origin_of("/docs/a.html").empty());
}

TEST_CASE("EncodedPageNames: SiteNames from the names held encoded answers as from the names") {
  // A site with parallel trees (moved pages), shared titles, mirrored paths, and documents never
  // named (the empty name of a page with no words).
  std::vector<PageName> names;
  for (std::size_t i = 0; i < SiteNames::kMinPlaceTreePaths + 10; ++i) {
    const std::string n = std::to_string(i);
    names.push_back(named("http://h/std/m" + n + "/s.html", "S" + n + " in std::m" + n));
    names.push_back(named("http://h/core/m" + n + "/s.html", "S" + n + " in core::m" + n));
    names.push_back(named("http://h/v1/p" + n + ".html", i % 3 == 0 ? "Shared title — Site" : "Page " + n, "Heading " + n));
    if (i % 7 == 0) names.push_back(PageName{});
  }
  EncodedPageNames encoded;
  encoded.reset(names.size() + 2);  // two more documents never set
  for (std::size_t d = 0; d < names.size(); ++d) {
    if (d % 2 == 0) {
      encoded.set(d, names[d]);
    } else {  // as a partitioned build takes another process's names over
      std::string bytes;
      encode_page_name(names[d], bytes);
      encoded.set_encoded(d, bytes);
    }
  }
  names.resize(names.size() + 2);
  // Each name reads back as it was written, an unset one as the empty name.
  for (std::size_t d = 0; d < names.size(); ++d) {
    std::string want, got;
    encode_page_name(names[d], want);
    encoded.append_encoded(d, got);
    CAPTURE(d);
    CHECK(got == want);
  }
  const SiteNames from_names(names), from_encoded(encoded);
  CHECK(from_encoded.same_name_pairs() == from_names.same_name_pairs());
  CHECK(from_encoded.moved_pairs() == from_names.moved_pairs());
  CHECK_FALSE(from_names.moved_pairs().empty());
  for (std::uint32_t a = 0; a < names.size(); a += 3) {
    for (std::uint32_t b = 0; b < names.size(); b += 5) {
      CAPTURE(a);
      CAPTURE(b);
      CHECK(from_encoded.relation(a, b) == from_names.relation(a, b));
      CHECK(from_encoded.url_evidence(a, b) == from_names.url_evidence(a, b));
      CHECK(from_encoded.moved(a, b) == from_names.moved(a, b));
    }
  }
}

TEST_CASE("SiteNames::of_part: processes holding their own pages' names answer as the whole site's names") {
  // Shared titles (read with their headings), a top-level directory's template word, words
  // common on the site, parallel trees (moved pages), mirrored copies and pages never named.
  std::vector<PageName> names;
  for (std::size_t i = 0; i < SiteNames::kMinPlaceTreePaths + 20; ++i) {
    const std::string n = std::to_string(i);
    names.push_back(named("http://h/std/m" + n + "/s.html", "S" + n + " in std::m" + n));
    names.push_back(named("http://h/core/m" + n + "/s.html", "S" + n + " in core::m" + n));
    names.push_back(named("http://h/v1/p" + n + ".html", i % 3 == 0 ? "Shared title — Site" : "Page " + n, "Heading " + n));
    if (i % 4 == 0) names.push_back(named("http://h/mirror/v1/p" + n + ".html", "Page " + n));
    if (i % 5 == 0) names.push_back(named("http://h/guide/g" + n + ".html", "Guide topic " + n + " handbook"));
    if (i % 7 == 0) names.push_back(PageName{});
    if (i % 6 == 0) {  // a module re-exporting its submodule's items, one directory up
      // DedupDocument holds views: the strings outlive them.
      const std::string urls[2] = {"http://h/core/arm/dsp/fn.q" + n + ".html", "http://h/core/arm/fn.q" + n + ".html"};
      const std::string titles[2] = {"q" + n + " in core::arm::dsp", "q" + n + " in core::arm"};
      const std::string line = "http://h/src/dsp.rs.html#" + n;
      DedupDocument deeper{urls[0], titles[0], ""}, shallower{urls[1], titles[1], ""};
      deeper.cited_place = shallower.cited_place = line;
      names.push_back(page_name(deeper));
      names.push_back(page_name(shallower));
    }
  }
  const SiteNames whole(names);
  const auto [same_name, moved] = std::pair(whole.same_name_pairs(), whole.moved_pairs());
  REQUIRE_FALSE(same_name.empty());
  REQUIRE(moved.size() == SiteNames::kMinPlaceTreePaths + 20 + 20);  // parallel trees' pairs, nested ones
  const auto count = static_cast<std::uint32_t>(names.size());
  const DedupOptions options;
  std::mt19937 random(7);
  for (unsigned processes = 1; processes <= 4; ++processes) {
    // Random parts, some empty: process p holds documents [cut[p], cut[p + 1]).
    std::vector<std::uint32_t> cut{0};
    for (unsigned p = 1; p < processes; ++p) cut.push_back(static_cast<std::uint32_t>(random() % (count + 1)));
    if (processes == 4) cut[1] = cut[2] = count / 2;  // empty parts among the others'
    if (processes == 3) cut[1] = cut[2] = count;      // and after them
    cut.push_back(count);
    std::sort(cut.begin(), cut.end());
    CAPTURE(processes);
    std::mutex mutex;
    std::vector<std::string> failures;
    canon::testing::run_processes(processes, [&](const canon::Collective& collective) {
      std::uint32_t first = cut[collective.rank()], end = cut[collective.rank() + 1];
      // An empty part may start anywhere (a partitioned build's start at 0).
      if (first == end && collective.rank() % 2 == 1) first = end = 0;
      EncodedPageNames own;
      own.reset(end - first);
      for (std::uint32_t d = first; d < end; ++d) own.set(d - first, names[d]);
      SiteNames part = SiteNames::of_part(own, first, collective);
      std::vector<std::string> wrong;
      // Each process gets the whole site's pairs whose handling page it holds.
      const auto pairs = part.name_pairs(static_cast<std::size_t>(-1), own, collective);
      const auto owned = [&](const std::vector<std::pair<std::uint32_t, std::uint32_t>>& all) {
        std::vector<std::pair<std::uint32_t, std::uint32_t>> mine;
        for (const auto& [a, b] : all) {
          const std::uint32_t page = canon::dedup::handling_page(a, b);
          if (page >= first && page < end) mine.emplace_back(a, b);
        }
        return mine;
      };
      if (pairs.first != owned(same_name)) wrong.push_back("same_name_pairs");
      if (pairs.second != owned(moved)) wrong.push_back("moved_pairs");
      for (std::uint32_t d = 0; d < count; ++d) {
        if (part.has(d) != (d >= first && d < end)) wrong.push_back("has " + std::to_string(d));
      }
      // Every pair of a sample, its names taken from their holders (the same on every process:
      // the taking is collective).
      std::vector<std::uint32_t> sample;
      for (std::uint32_t d = collective.rank() % 3; d < count; d += 3) sample.push_back(d);
      sample.push_back(1);
      part.take_names(sample, own, collective);
      for (const std::uint32_t a : sample) {
        for (const std::uint32_t b : sample) {
          const std::string at = " of " + std::to_string(a) + ", " + std::to_string(b);
          if (part.relation(a, b) != whole.relation(a, b)) wrong.push_back("relation" + at);
          if (part.url_evidence(a, b) != whole.url_evidence(a, b)) wrong.push_back("url_evidence" + at);
          if (part.moved(a, b) != whole.moved(a, b)) wrong.push_back("moved" + at);
          if (part.required(options, a, b) != whole.required(options, a, b)) wrong.push_back("required" + at);
          if (whole.moved(a, b) && part.moved_place(a, b) != whole.moved_place(a, b)) wrong.push_back("moved_place" + at);
        }
      }
      part.forget_taken();
      for (const std::uint32_t d : sample) {
        if (part.has(d) != (d >= first && d < end)) wrong.push_back("has after forget_taken " + std::to_string(d));
      }
      const std::lock_guard lock(mutex);
      for (const std::string& w : wrong) failures.push_back("process " + std::to_string(collective.rank()) + ": " + w);
    });
    CHECK(failures.empty());
    for (std::size_t f = 0; f < std::min<std::size_t>(failures.size(), 10); ++f) MESSAGE(failures[f]);
  }
}
