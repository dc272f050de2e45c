/// @file test_mwo_detector.cpp
/// @brief Field-weighted term vectors, the weighted join against an all-pairs oracle, and the
/// "mwo" detector on hand-made pages.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <xxhash.h>

#include "dedup/detectors/mwo_detector.h"
#include "support/detector_fixtures.h"

using namespace canon::dedup;
using canon::testing::clusters_of;
using canon::testing::similarity;

namespace {

double weight_of(const std::vector<WeightedTerm>& v, const std::string& term) {
  const std::uint64_t h = XXH3_64bits(term.data(), term.size());
  for (const WeightedTerm& t : v) {
    if (t.term == h) return t.weight;
  }
  return 0.0;
}

/// A page of a documentation site: a template (navigation anchors, a footer link to another
/// site) around its own title, headings and text.
struct Page {
  std::string url, title, text;
  std::vector<std::string> headings = {};
  std::vector<std::string_view> same_site = {}, other_site = {};
  DedupDocument doc() const {
    DedupDocument d{url, title, text};
    d.headings = headings;
    d.same_site_anchors = same_site;
    d.other_site_anchors = other_site;
    return d;
  }
};

const std::vector<std::string_view> kNavigation = {"Home", "Installation guide", "Tutorial",
                                                   "Reference manual", "Release notes",
                                                   "Previous", "Next", "Up"};
const std::vector<std::string_view> kFooter = {"Hosted by Example Cloud"};

std::vector<DedupDocument> documents(const std::vector<Page>& pages) {
  std::vector<DedupDocument> docs;
  for (const Page& p : pages) docs.push_back(p.doc());
  return docs;
}

}  // namespace

TEST_CASE("mwo_term_vector: field weights, stop words, stems, normalised to sum 1") {
  DedupDocument doc{"http://example.org/guide/install.html", "Installing", "Run the installer."};
  const std::vector<std::string> headings = {"Requirements"};
  doc.headings = headings;
  doc.meta_keywords = "setup";
  doc.meta_description = "How to set up";
  doc.same_site_anchors = {"Home"};
  doc.other_site_anchors = {"Mirror"};
  const std::vector<WeightedTerm> v = mwo_term_vector(doc);
  // URL path: guid, instal, html (2 each; scheme and host dropped); title: instal (2);
  // heading: requir (2); anchors: home (1), mirror (0.5); keywords: setup (3); description:
  // set (3), "how" and "to" are stop words; text: run (1), instal (1), "the" dropped.
  const double total = 2 + 2 + 2 + 2 + 2 + 1 + 0.5 + 3 + 3 + 1 + 1;
  CHECK(weight_of(v, "guid") == doctest::Approx(2 / total));
  CHECK(weight_of(v, "instal") == doctest::Approx(5 / total));
  CHECK(weight_of(v, "requir") == doctest::Approx(2 / total));
  CHECK(weight_of(v, "home") == doctest::Approx(1 / total));
  CHECK(weight_of(v, "mirror") == doctest::Approx(0.5 / total));
  CHECK(weight_of(v, "setup") == doctest::Approx(3 / total));
  CHECK(weight_of(v, "set") == doctest::Approx(3 / total));
  CHECK(weight_of(v, "run") == doctest::Approx(1 / total));
  CHECK(weight_of(v, "example") == 0.0);
  CHECK(weight_of(v, "http") == 0.0);
  CHECK(weight_of(v, "the") == 0.0);
  double sum = 0.0;
  for (const WeightedTerm& t : v) sum += t.weight;
  CHECK(sum == doctest::Approx(1.0));
  CHECK(std::is_sorted(v.begin(), v.end(), [](auto& a, auto& b) { return a.term < b.term; }));
  CHECK(mwo_term_vector(DedupDocument{}).empty());
}

TEST_CASE("weighted_overlap_join finds exactly the pairs of an all-pairs loop") {
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> unit(0.05, 1.0);
  for (int round = 0; round < 20; ++round) {
    // Families of term vectors: a base with jittered weights and a few terms swapped.
    std::vector<std::vector<WeightedTerm>> vectors;
    const std::uint64_t universe = 10 + rng() % 60;
    for (int family = 0; family < 10; ++family) {
      std::vector<std::uint64_t> base(1 + rng() % 15);
      for (auto& t : base) t = rng() % universe;
      for (int member = 0; member < 4; ++member) {
        std::vector<WeightedTerm> v;
        for (std::uint64_t t : base) {
          if (rng() % 6 == 0) t = rng() % universe;
          v.push_back({t, member == 0 ? 1.0 : unit(rng)});
        }
        std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.term < b.term; });
        std::vector<WeightedTerm> merged;
        double total = 0.0;
        for (const WeightedTerm& w : v) {
          total += w.weight;
          if (!merged.empty() && merged.back().term == w.term) {
            merged.back().weight += w.weight;
          } else {
            merged.push_back(w);
          }
        }
        for (WeightedTerm& w : merged) w.weight /= total;
        vectors.push_back(merged);
      }
    }
    vectors.push_back(vectors[0]);  // an exact copy: overlap 1
    vectors.push_back({});
    const std::vector<WeightedRecord> records = order_weighted_by_frequency(vectors);
    for (const double t : {0.2, 0.5, 0.7, 0.8, 0.95, 1.0}) {
      std::vector<SimilarPair> oracle;
      for (std::uint32_t a = 0; a < records.size(); ++a) {
        for (std::uint32_t b = a + 1; b < records.size(); ++b) {
          const double o = weighted_overlap(records[a], records[b]);
          if (o >= t) oracle.push_back({a, b, o});
        }
      }
      for (const unsigned threads : {1u, 3u}) {
        CAPTURE(round);
        CAPTURE(t);
        const JoinResult join = weighted_overlap_join(records, t, threads);
        REQUIRE(join.pairs.size() == oracle.size());
        for (std::size_t i = 0; i < oracle.size(); ++i) {
          CHECK(join.pairs[i].a == oracle[i].a);
          CHECK(join.pairs[i].b == oracle[i].b);
          CHECK(join.pairs[i].similarity == oracle[i].similarity);
        }
        CHECK(join.candidates >= join.pairs.size());
      }
    }
  }
}

TEST_CASE("mwo: a mirrored copy is found; pages sharing the template are not") {
  const std::string install_text =
      "To install Larder download the package for your distribution and run the installer. "
      "The installer asks for the directory of the pantry database and creates it when it "
      "does not exist. Shell completions for bash and zsh are installed with the package.";
  const std::string tutorial_text =
      "This tutorial walks through a first inventory: adding shelves, recording items with "
      "their expiry dates, and printing a shopping list of everything that runs out soon.";
  std::vector<Page> pages(5);
  pages[0] = {"http://localhost/docs/install.html", "Installing Larder", install_text,
              {"Requirements", "Shell completions"}, kNavigation, kFooter};
  pages[1] = {"http://localhost/docs/tutorial.html", "Larder tutorial", tutorial_text,
              {"A first inventory"}, kNavigation, kFooter};
  // A mirror: same template and content under another path, one word changed.
  std::string edited = install_text;
  edited.replace(edited.find("creates"), 7, "makes");
  pages[2] = {"http://localhost/mirror/docs/install.html", "Installing Larder", edited,
              {"Requirements", "Shell completions"}, kNavigation, kFooter};
  pages[3] = {"http://localhost/docs/news.html", "News", "Larder 2.0 is out.", {}, kNavigation,
              kFooter};
  // A printer-friendly copy without the template: its missing anchor text weighs as much as a
  // sentence of content, which the method accepts (docs/dedup-detectors.md, "mwo").
  pages[4] = {"http://localhost/print/install.html", "Installing Larder", install_text,
              {"Requirements", "Shell completions"}};
  MwoDetector detector(DedupOptions{});
  const std::vector<DedupDocument> docs = documents(pages);
  const Clusters c = find_clusters(detector, docs);
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1, 0, 3, 4});
  REQUIRE(c.pairs.size() == 1);
  CHECK(c.pairs[0].similarity >= 0.8);
  CHECK(c.pairs[0].similarity < 1.0);
  CHECK(similarity(detector, docs, 2, 0) == c.pairs[0].similarity);
  CHECK(similarity(detector, docs, 0, 1) > 0.0);  // the template is shared
  CHECK(similarity(detector, docs, 0, 1) < 0.5);
  CHECK(similarity(detector, docs, 1, 3) < 0.8);  // even for a short page, mostly template
  CHECK(similarity(detector, docs, 0, 4) > 0.6);
  CHECK(similarity(detector, docs, 0, 4) < 0.8);
}

TEST_CASE("mwo: empty and tiny pages") {
  std::vector<Page> pages(5);
  pages[0] = {"", "", ""};                                // no terms at all
  pages[1] = {"http://localhost/", "", "the and of"};    // only stop words, empty path
  pages[2] = {"", "", "Hello"};
  pages[3] = {"", "", "hello!"};
  pages[4] = {"", "", "Goodbye"};
  MwoDetector detector(DedupOptions{});
  const std::vector<DedupDocument> docs = documents(pages);
  const Clusters c = find_clusters(detector, docs);
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1, 2, 2, 4});
  CHECK(similarity(detector, docs, 0, 1) == 0.0);
  CHECK(similarity(detector, docs, 2, 3) == 1.0);
  CHECK(find_clusters(detector, {}).cluster_of.empty());
}

TEST_CASE("mwo: the detector equals the all-pairs oracle; threads; --threshold") {
  std::mt19937_64 rng(4);
  std::vector<Page> pages;
  for (int family = 0; family < 15; ++family) {
    std::vector<std::string> base(5 + rng() % 30);
    for (auto& w : base) w = "v" + std::to_string(rng() % 80);
    for (int member = 0; member < 4; ++member) {
      Page p;
      p.url = "http://localhost/f" + std::to_string(family) + "/m" + std::to_string(member);
      p.title = "title" + std::to_string(family);
      for (const auto& w : base) {
        p.text += (rng() % 10 == 0 ? "x" + std::to_string(rng() % 80) : w) + " ";
      }
      if (rng() % 2) p.same_site = kNavigation;
      pages.push_back(p);
    }
  }
  pages.push_back(Page{});
  for (const double t : {0.5, 0.8, 0.9}) {
    DedupOptions options;
    options.mwo_threshold = t;
    Clusters one;
    for (const unsigned threads : {1u, 4u}) {
      options.threads = threads;
      MwoDetector detector(options);
      const std::vector<DedupDocument> docs = documents(pages);
      const Clusters c = find_clusters(detector, docs);
      std::vector<std::pair<std::uint32_t, std::uint32_t>> oracle;
      for (std::uint32_t a = 0; a < pages.size(); ++a) {
        for (std::uint32_t b = a + 1; b < pages.size(); ++b) {
          if (similarity(detector, docs, a, b) >= t) oracle.emplace_back(a, b);
        }
      }
      CAPTURE(t);
      REQUIRE(c.pairs.size() == oracle.size());
      for (std::size_t i = 0; i < oracle.size(); ++i) {
        CHECK(c.pairs[i].a == oracle[i].first);
        CHECK(c.pairs[i].b == oracle[i].second);
      }
      if (threads == 1) one = c;
      CHECK(c.cluster_of == one.cluster_of);
      CHECK(c.candidates_examined == one.candidates_examined);
      if (t == 0.8) CHECK(!c.pairs.empty());
    }
  }
  DedupOptions explicit_threshold;
  explicit_threshold.threshold = 1.0;
  explicit_threshold.threshold_explicit = true;
  const Clusters strict = clusters_of(MwoDetector(explicit_threshold), documents(pages));
  for (const SimilarPair& p : strict.pairs) CHECK(p.similarity == doctest::Approx(1.0));
}
