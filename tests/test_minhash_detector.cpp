/// @file test_minhash_detector.cpp
/// @brief The "minhash" detector on hand-made cases, plus the make_detector registry.
#include <doctest/doctest.h>

#include <atomic>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "dedup/detectors/detector.h"
#include "dedup/detectors/minhash_detector.h"
#include "dedup/detectors/registry.h"
#include "support/detector_fixtures.h"

using namespace canon::dedup;
using canon::testing::clusters_of;
using canon::testing::similarity;
using canon::testing::documents;
using canon::testing::words;

namespace {

const SimilarPair* find_pair(const Clusters& c, std::uint32_t a, std::uint32_t b) {
  for (const SimilarPair& p : c.pairs) {
    if (p.a == a && p.b == b) return &p;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("a copy with small edits is found; exact Jaccard reported") {
  const std::string article =
      "The municipal library extends its opening hours during the examination period. "
      "Students can borrow up to twelve books at a time and reserve study rooms online. "
      "The reading room on the second floor stays open until midnight from Monday to "
      "Friday, while the archive keeps its usual schedule. Visitors are asked to bring a "
      "valid card and to respect the quiet zones marked on every floor of the building. "
      "Lockers are available near the entrance for bags and coats.";
  std::string edited = article;
  edited.replace(edited.find("twelve"), 6, "fifteen");
  edited.replace(edited.find("midnight"), 8, "eleven o'clock");
  const std::vector<std::string> texts = {article, words(0, 80), edited};
  MinhashDetector detector(DedupOptions{});
  const std::vector<DedupDocument> docs = documents(texts);
  const Clusters c = find_clusters(detector, docs);
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1, 0});
  const SimilarPair* p = find_pair(c, 0, 2);
  REQUIRE(p != nullptr);
  CHECK(p->similarity >= 0.5);
  CHECK(p->similarity < 1.0);
  CHECK(similarity(detector, docs, 0, 2) == p->similarity);
  CHECK(similarity(detector, docs, 2, 0) == p->similarity);
  CHECK(similarity(detector, docs, 0, 1) == 0.0);
  CHECK(c.candidates_examined >= c.pairs.size());
}

TEST_CASE("shared boilerplate alone does not merge different pages") {
  const std::string boilerplate =
      "This website uses cookies to improve your experience and by continuing to browse the "
      "site you agree to our use of cookies as described in the privacy policy. ";
  const std::vector<std::string> texts = {boilerplate + words(0, 60, "alpha"),
                                          boilerplate + words(0, 60, "beta")};
  MinhashDetector detector(DedupOptions{});
  const std::vector<DedupDocument> docs = documents(texts);
  const Clusters c = find_clusters(detector, docs);
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1});
  CHECK(c.pairs.empty());
  CHECK(similarity(detector, docs, 0, 1) > 0.0);
  CHECK(similarity(detector, docs, 0, 1) < 0.5);
}

TEST_CASE("empty and tiny documents") {
  const std::vector<std::string> texts = {
      "",           // 0: empty: never clustered
      "  ...  ",    // 1: no words: never clustered, even with the other empty one
      "Hello",      // 2
      "hello!",     // 3: same word as 2
      "Goodbye",    // 4: a different tiny text
      "two words",  // 5
      "Two, Words", // 6: same words as 5
      "words two",  // 7: same words, other order: a different tiny text
  };
  MinhashDetector detector(DedupOptions{});
  const std::vector<DedupDocument> docs = documents(texts);
  const Clusters c = find_clusters(detector, docs);
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1, 2, 2, 4, 5, 5, 7});
  CHECK(similarity(detector, docs, 0, 1) == 0.0);
  CHECK(similarity(detector, docs, 0, 0) == 0.0);
  CHECK(similarity(detector, docs, 2, 3) == 1.0);
  CHECK(similarity(detector, docs, 5, 7) == 0.0);
  // No documents at all.
  CHECK(find_clusters(detector, {}).cluster_of.empty());
}

TEST_CASE("clusters chain: A~B and B~C merge A and C even though A and C differ") {
  // Overlapping windows of distinct words: J(A,B) = J(B,C) = 58/138, J(A,C) = 18/178 (below
  // the default threshold 0.2).
  const std::vector<std::string> texts = {words(0, 100), words(40, 140), words(80, 180)};
  MinhashDetector detector(DedupOptions{});
  const std::vector<DedupDocument> docs = documents(texts);
  const Clusters c = find_clusters(detector, docs);
  CHECK(similarity(detector, docs, 0, 1) == doctest::Approx(58.0 / 138));
  CHECK(similarity(detector, docs, 1, 2) == doctest::Approx(58.0 / 138));
  CHECK(similarity(detector, docs, 0, 2) == doctest::Approx(18.0 / 178));
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 0, 0});  // single linkage
  CHECK(find_pair(c, 0, 1) != nullptr);
  CHECK(find_pair(c, 1, 2) != nullptr);
  CHECK(find_pair(c, 0, 2) == nullptr);  // only verified pairs are reported
}

// The thread count, the reported pairs against compare() and empty documents: the contract
// suite over every detector (test_detector_contract.cpp).

TEST_CASE("verified pairs are ordered, above the threshold, and build cluster ids") {
  const std::vector<std::string> texts = {words(0, 50), words(100, 150), words(0, 50),
                                          words(100, 149), words(200, 230)};
  MinhashDetector detector(DedupOptions{});
  const std::vector<DedupDocument> docs = documents(texts);
  const Clusters c = find_clusters(detector, docs);
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1, 0, 1, 4});
  for (const SimilarPair& p : c.pairs) {
    CHECK(p.a < p.b);
    CHECK(p.similarity >= 0.5);
    CHECK(p.similarity == similarity(detector, docs, p.a, p.b));
  }
  // A later run replaces the remembered documents.
  // The texts must outlive the documents (DedupDocument holds views; a temporary list here
  // was a use-after-free that AddressSanitizer caught).
  const std::vector<std::string> later_texts = {"one two three", "one two three"};
  const std::vector<DedupDocument> later = documents(later_texts);
  find_clusters(detector, later);
  CHECK(similarity(detector, later, 0, 1) == 1.0);
}

TEST_CASE("streaming: small state, each needed document loaded once, never-added is a singleton") {
  // Families of edited copies, plus exact copies (settled without loading) and unrelated pages.
  std::mt19937_64 rng(11);
  std::vector<std::string> texts;
  for (int family = 0; family < 20; ++family) {
    std::vector<std::string> base(120);
    for (auto& w : base) w = "f" + std::to_string(rng() % 3000);
    for (int member = 0; member < 3; ++member) {
      std::string text;
      for (const auto& w : base) text += (rng() % 25 == 0 ? "x" + std::to_string(rng()) : w) + " ";
      texts.push_back(text);
    }
    texts.push_back(texts.back());  // an exact copy of the last member
  }
  texts.push_back(words(0, 200, "lonely"));
  const std::vector<DedupDocument> docs = documents(texts);
  const auto n = static_cast<std::uint32_t>(docs.size());

  MinhashDetector detector(DedupOptions{});
  CHECK(detector.state_bytes_per_document() <= 1024);
  detector.reset(n);
  for (std::uint32_t i = 0; i + 1 < n; ++i) detector.add(i, docs[i]);  // the last is never added
  std::vector<std::atomic<int>> loads(n);
  const DocumentLoader counting = [&](std::uint32_t d, const auto& use) {
    ++loads[d];
    use(docs[d]);
  };
  const Clusters c = detector.find_clusters(counting);
  CHECK(c.cluster_of.back() == n - 1);
  for (std::uint32_t d = 0; d < n; ++d) {
    CAPTURE(d);
    CHECK(loads[d] <= 1);
    if (d + 1 < n) CHECK(c.cluster_of[d] == d / 4 * 4);  // each family is one cluster
  }
  CHECK(loads[n - 1] == 0);
  // The same clusters and values as the in-memory helper, which adds every document.
  MinhashDetector all(DedupOptions{});
  const Clusters reference = find_clusters(all, std::span(docs).first(n - 1));
  REQUIRE(reference.pairs.size() == c.pairs.size());
  for (std::size_t i = 0; i < c.pairs.size(); ++i) {
    CHECK(c.pairs[i].similarity == reference.pairs[i].similarity);
  }
  // An exact copy needs no load at all.
  const std::pair<std::uint32_t, std::uint32_t> copy{2, 3};
  for (auto& l : loads) l = 0;
  CHECK(detector.compare(std::span(&copy, 1), counting).front().similarity == 1.0);
  CHECK(loads[2] == 0);
  CHECK(loads[3] == 0);
  // Pairs find_clusters measured are not loaded again; a pair it never measured (two families
  // apart: not an LSH candidate) is.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> verified;
  for (const SimilarPair& p : c.pairs) verified.emplace_back(p.b, p.a);
  const std::vector<Comparison> again = detector.compare(verified, counting);
  for (std::size_t i = 0; i < verified.size(); ++i) {
    CHECK(again[i].similarity == c.pairs[i].similarity);
    CHECK(again[i].near_duplicate);
  }
  for (std::uint32_t d = 0; d < n; ++d) CHECK(loads[d] == 0);
  const std::pair<std::uint32_t, std::uint32_t> strangers{0, 9};
  CHECK_FALSE(detector.compare(std::span(&strangers, 1), counting).front().near_duplicate);
  CHECK(loads[0] == 1);
  CHECK(loads[9] == 1);
}

TEST_CASE("name rule: equal titles need the copy threshold at mirrored paths, else 0.95; related 0.5 at mirrored paths; other subjects never") {
  // Jaccard of words(0, 100) and words(s, s + 100) is (98 - s) / (98 + s) over 3-word
  // shingles: s = 30 gives 68/128 = 0.53; 45 gives 53/143 = 0.37 (between the default threshold
  // 0.3 and 0.5); 59 gives 39/157 = 0.25 (between the copy threshold 0.15 and 0.3); 72 gives
  // 26/170 = 0.153; 80 gives 18/178 = 0.10.
  const std::string mirrored = "http://h/mirror/docs/a.html", same_stem = "http://h/print/a.html",
                    release = "http://h/docs/v2.1/a.html", elsewhere = "http://h/b.html";
  struct Case {
    std::string comment;
    std::string title_a, title_b, url_b;
    int shift;  // second text starts this many words later
    bool merged;
  };
  const Case cases[] = {
      {"equal titles (case and spacing aside), mirrored, J 0.37", "Drop View", "drop  view", mirrored, 45, true},
      {"equal titles, same file name, need 0.95: J 0.53", "Drop View", "Drop View", same_stem, 30, false},
      // A C and a C++ page of one item, std:: and std::experimental:: share up to 0.91.
      {"equal titles, same file name, need 0.95: J 0.90", "Drop View", "Drop View", same_stem, 5, false},
      {"equal titles, same file name, J 0.96: one page under two names", "Drop View", "Drop View",
       same_stem, 2, true},
      {"equal titles, a release's copy, J 0.37", "Drop View", "Drop View", release, 45, true},
      // Below the threshold LSH is tuned to: a copy that keeps its name needs copy_threshold.
      {"equal titles, mirrored, J 0.25", "Drop View", "Drop View", mirrored, 59, true},
      {"equal titles, a release's copy, J 0.25", "Drop View", "Drop View", release, 59, true},
      {"equal titles, mirrored, J 0.153", "Drop View", "Drop View", mirrored, 72, true},
      {"equal titles, mirrored, J 0.10: below the copy threshold", "Drop View", "Drop View", mirrored, 80, false},
      {"no title on one side, mirrored, J 0.25: an unknown name needs the threshold", "Drop View", "", mirrored,
       59, false},
      {"equal titles at another file name need 0.95: J 0.53", "Drop View", "Drop View", elsewhere, 30, false},
      // Other punctuation, the same words: a renamed page, which needs renamed_threshold.
      {"same words, other punctuation, J 0.53", "C keywords: if", "C keywords, if", mirrored, 30, false},
      {"no title on one side, mirrored, J 0.37", "Drop View", "", mirrored, 45, true},
      {"related titles need 0.5: J 0.37", "Install", "Install (printable version)", mirrored, 45, false},
      {"related titles need 0.5: J 0.53", "Install", "Install (printable version)", mirrored, 30, true},
      {"related titles, same file name, need 0.95: J 0.53", "Install", "Install (printable version)", same_stem,
       30, false},
      {"related titles at another file name never: J 0.53", "Install", "Install (printable version)",
       elsewhere, 30, false},
      {"different titles never, even at J 0.53", "DROP TEXT SEARCH PARSER",
       "DROP TEXT SEARCH TEMPLATE", mirrored, 30, false},
  };
  for (const Case& c : cases) {
    INFO(c.comment);
    const std::string a = words(0, 100), b = words(c.shift, c.shift + 100);
    const std::vector<DedupDocument> docs = {{"http://h/docs/a.html", c.title_a, a}, {c.url_b, c.title_b, b}};
    for (bool exact : {false, true}) {
      CAPTURE(exact);
      const Clusters got = exact ? clusters_of(std::move(*make_detector("exact", {}).value()), docs)
                                 : clusters_of(MinhashDetector(DedupOptions{}), docs);
      CHECK((got.cluster_of[1] == 0) == c.merged);
    }
    DedupOptions off;
    off.title_rule = false;
    const double jaccard = static_cast<double>(98 - c.shift) / (98 + c.shift);
    CHECK((clusters_of(MinhashDetector(off), docs).cluster_of[1] == 0) == (jaccard >= off.threshold));
  }
}

TEST_CASE("make_detector and detector_names") {
  CHECK(detector_names().front() == "minhash");  // all names: test_exact_detector.cpp
  auto made = make_detector("minhash", DedupOptions{});
  REQUIRE(made.ok());
  CHECK(made.value()->name() == "minhash");
  auto unknown = make_detector("nosuch", DedupOptions{});
  REQUIRE(!unknown.ok());
  CHECK(unknown.status().message().starts_with("unknown detector 'nosuch' (choose from: minhash"));
  DedupOptions bad;
  bad.shingle_size = 0;
  CHECK(!make_detector("minhash", bad).ok());
  bad = {};
  bad.num_hashes = 0;
  CHECK(!make_detector("minhash", bad).ok());
  bad = {};
  bad.threshold = 1.5;
  CHECK(!make_detector("minhash", bad).ok());
}

TEST_CASE("a candidate group larger than the measuring budget: the same pairs, measured block by block") {
  // 40 edits of one text: every pair is a candidate measured exactly, one connected group.
  std::mt19937_64 rng(11);
  std::vector<std::string> base(120);
  for (auto& w : base) w = "v" + std::to_string(rng() % 5000);
  std::vector<std::string> texts;
  for (int member = 0; member < 40; ++member) {
    std::string text;
    for (const auto& w : base) text += (rng() % 12 == 0 ? "x" + std::to_string(rng()) : w) + " ";
    texts.push_back(text);
  }
  const std::vector<DedupDocument> docs = documents(texts);
  const auto run = [&](std::size_t budget, std::size_t& loads) {
    DedupOptions options;
    options.discount_boilerplate = false;
    options.measure_budget_shingles = budget;
    MinhashDetector detector(options);
    detector.reset(static_cast<std::uint32_t>(docs.size()));
    for (std::uint32_t i = 0; i < docs.size(); ++i) detector.add(i, docs[i]);
    std::atomic<std::size_t> count{0};
    const DocumentLoader load = [&](std::uint32_t d, const std::function<void(const DedupDocument&)>& use) {
      ++count;
      use(docs[d]);
    };
    Clusters c = detector.find_clusters(load);
    loads = count;
    return c;
  };
  std::size_t whole_loads = 0, block_loads = 0;
  const Clusters whole = run(DedupOptions{}.measure_budget_shingles, whole_loads);
  const Clusters blocks = run(250, block_loads);  // ~118 shingles a page: one page per block
  CHECK(whole.cluster_of == std::vector<std::uint32_t>(40, 0));
  CHECK(whole.pairs.size() > 400);
  CHECK(whole_loads == 40);               // the group's pages, once each
  CAPTURE(block_loads);
  CHECK(block_loads > whole_loads);       // each page once per block it meets
  CHECK(block_loads <= 40 + 40 * 39 / 2);  // at most once per pair besides
  CHECK(blocks.cluster_of == whole.cluster_of);
  REQUIRE(blocks.pairs.size() == whole.pairs.size());
  for (std::size_t i = 0; i < whole.pairs.size(); ++i) {
    CHECK(blocks.pairs[i].a == whole.pairs[i].a);
    CHECK(blocks.pairs[i].b == whole.pairs[i].b);
    CHECK(blocks.pairs[i].similarity == whole.pairs[i].similarity);
  }
}

TEST_CASE("moved pages: the same item at a parallel path, measured by coverage with the place masked") {
  // std's page of a trait repeats core's (its crate in the text) and lists more implementors:
  // Jaccard 100/180 = 0.56, below renamed_threshold; containment of core's page in std's, the
  // crate masked, 1. Both detectors agree; without the name rule the pair is measured by Jaccard.
  const canon::testing::MovedSite site = canon::testing::moved_site(80, 0, SiteNames::kMinPlaceTreePaths);
  const std::vector<DedupDocument> docs = site.documents();
  for (bool exact : {false, true}) {
    CAPTURE(exact);
    const Clusters got = exact ? clusters_of(std::move(*make_detector("exact", {}).value()), docs)
                               : clusters_of(MinhashDetector(DedupOptions{}), docs);
    CHECK(got.cluster_of[1] == 0);
    const SimilarPair* pair = find_pair(got, 0, 1);
    REQUIRE(pair != nullptr);
    CHECK(pair->similarity == doctest::Approx(1.0));
    for (std::uint32_t d = 2; d < docs.size(); ++d) CHECK(got.cluster_of[d] == d);
    // compare() gives the same measure and verdict.
    auto detector = std::move(make_detector(exact ? "exact" : "minhash", {}).value());
    (void)find_clusters(*detector, docs);
    // compare() judges its first page against its second: core's page is covered by std's, std's
    // (80 implementors more) is not covered by core's, so only std's may stand for core's.
    const Comparison core_in_std = canon::testing::comparison(*detector, docs, 1, 0);
    CHECK(core_in_std.near_duplicate);
    CHECK(core_in_std.similarity == doctest::Approx(1.0));
    const Comparison std_in_core = canon::testing::comparison(*detector, docs, 0, 1);
    CHECK_FALSE(std_in_core.near_duplicate);
    CHECK(std_in_core.similarity < DedupOptions{}.renamed_threshold);
  }
  DedupOptions off;
  off.title_rule = false;
  off.threshold = 0.85;
  CHECK(clusters_of(MinhashDetector(off), docs).cluster_of[1] == 1);
}

TEST_CASE("moved pages that cite the same place first need only the threshold; other places, moved_threshold") {
  // The two pages cover each other at about 0.84 (as in the case below), under a moved_threshold
  // of 0.9: the same definition cited first (a source line; a range cited by where it starts)
  // keeps them together; two definitions, or one page citing none, leave them to moved_threshold.
  struct Case {
    std::string std_cites, core_cites;
    bool together;
  };
  const std::string source = "http://h/src/core/cmp.rs.html#";
  for (const Case& c : {Case{source + "10", source + "10", true}, Case{source + "10-20", source + "10", true},
                        Case{source + "10-20", source + "10-25", true}, Case{source + "10", source + "11", false},
                        Case{source + "10", "", false}, Case{"", "", false},
                        Case{"http://h/src/std/cmp.rs.html#10", source + "10", false}}) {
    canon::testing::MovedSite site = canon::testing::moved_site(20, 20, SiteNames::kMinPlaceTreePaths);
    site.cited.assign(site.texts.size(), "");
    site.cited[0] = c.std_cites;
    site.cited[1] = c.core_cites;
    const std::vector<DedupDocument> docs = site.documents();
    DedupOptions options;
    options.moved_threshold = 0.9;
    for (bool exact : {false, true}) {
      CAPTURE(exact);
      CAPTURE(c.std_cites);
      CAPTURE(c.core_cites);
      const Clusters got = exact ? clusters_of(std::move(*make_detector("exact", options).value()), docs)
                                 : clusters_of(MinhashDetector(options), docs);
      CHECK((got.cluster_of[1] == 0) == c.together);
    }
  }
}

TEST_CASE("moved pages need moved_threshold of coverage, apart from renamed_threshold") {
  // Each page has 20 words of its own beside the 100 they share (an item page whose other copy
  // shows another stability line or renders a literal otherwise): each is covered by the
  // other at about 0.84, the place masked. Whether that is enough is moved_threshold's to say;
  // renamed_threshold, which names that differ in common words need, plays no part.
  const canon::testing::MovedSite site = canon::testing::moved_site(20, 20, SiteNames::kMinPlaceTreePaths);
  const std::vector<DedupDocument> docs = site.documents();
  struct Case {
    double moved_threshold, renamed_threshold;
    bool together;
  };
  for (const Case c : {Case{0.8, 0.85, true}, Case{0.8, 0.99, true}, Case{0.9, 0.85, false}, Case{0.9, 0.5, false}}) {
    DedupOptions options;
    options.moved_threshold = c.moved_threshold;
    options.renamed_threshold = c.renamed_threshold;
    for (bool exact : {false, true}) {
      CAPTURE(exact);
      CAPTURE(c.moved_threshold);
      CAPTURE(c.renamed_threshold);
      const Clusters got = exact ? clusters_of(std::move(*make_detector("exact", options).value()), docs)
                                 : clusters_of(MinhashDetector(options), docs);
      CHECK((got.cluster_of[1] == 0) == c.together);
      if (const SimilarPair* pair = find_pair(got, 0, 1); c.together) {
        REQUIRE(pair != nullptr);
        CHECK(pair->similarity > 0.8);
        CHECK(pair->similarity < 0.9);
      }
    }
  }
}

TEST_CASE("a page whose whole text the site repeats is compared on all its shingles with its copies") {
  // An include rendered as a page of its own (Sphinx's `includes/wasm-notavail.html`): its one
  // sentence is on twenty module pages, so every shingle of it is the site's boilerplate and it
  // has no text of its own. A copy of it below a prefix, two words inserted, is still its copy;
  // a page of the same name there whose text is another repeated sentence is not.
  const std::string notice = "availability this module does not work or is not available on these platforms ";
  const std::string other = "deprecated since version two this module is kept only for old programs to run ";
  std::vector<std::string> texts, titles, urls;
  for (int m = 0; m < 20; ++m) {
    texts.push_back(canon::testing::words(100 * m, 100 * m + 60, "m") + notice + other);
    titles.push_back("Module " + std::to_string(m));
    urls.push_back("http://h/lib/mod" + std::to_string(m) + ".html");
  }
  const std::uint32_t stub = 20, copy = 21, different = 22;
  texts.push_back(notice);
  texts.push_back("availability this module does not work extra words or is not available on these platforms ");
  texts.push_back(other);
  for (int i = 0; i < 3; ++i) titles.push_back("Notice");
  urls.push_back("http://h/includes/notice.html");
  urls.push_back("http://h/mirror/includes/notice.html");
  urls.push_back("http://h/print/includes/notice.html");
  std::vector<DedupDocument> docs;
  for (std::size_t d = 0; d < texts.size(); ++d) docs.push_back({urls[d], titles[d], texts[d]});
  MinhashDetector detector{DedupOptions{}};
  const Clusters got = find_clusters(detector, docs);
  CHECK(got.cluster_of[copy] == got.cluster_of[stub]);
  CHECK(got.cluster_of[different] != got.cluster_of[stub]);
  const SimilarPair* pair = find_pair(got, stub, copy);
  REQUIRE(pair != nullptr);
  CHECK(pair->similarity > 0.5);  // on all shingles, the inserted words costing a few
  CHECK(pair->similarity < 1.0);
  // compare() measures the same way.
  const Comparison again = canon::testing::comparison(detector, docs, copy, stub);
  CHECK(again.near_duplicate);
  CHECK(again.similarity == doctest::Approx(pair->similarity));
  // Without the site's boilerplate left out, nothing changes for them: the pair as it is.
  DedupOptions keep;
  keep.discount_boilerplate = false;
  CHECK(clusters_of(MinhashDetector(keep), docs).cluster_of[copy] == stub);
}
