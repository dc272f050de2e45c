/// @file test_synth.cpp
/// @brief `canon synth` on a generated 200-page site: reproducibility, the share of copied
/// pages and copies per page, truth.json (source pages with one main text one true cluster), the
/// safety rules, and synth → index → eval end to end. What a copy is (its inserted segments, its
/// links, the noun lists): test_synth_copies.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/metrics.h"
#include "eval/synth.h"
#include "eval/truth.h"
#include "indexer/pipeline.h"
#include "support/synth_site.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
using canon::eval::SynthOptions;
using canon::testing::TempDir;
using nlohmann::json;

using canon::testing::Fixture;
using canon::testing::fixture;
using canon::testing::kTinyNouns;
using canon::testing::read;
using canon::testing::synth;
using canon::testing::tree;
using canon::testing::truth_of;

TEST_CASE("synth: byte-identical output for a seed, different output for another seed") {
  const Fixture& f = fixture();
  synth(f.options("seed1-a", 1));
  synth(f.options("seed1-b", 1));
  synth(f.options("seed2", 2));
  const auto a = tree(f.dir.path() / "seed1-a");
  CHECK(a == tree(f.dir.path() / "seed1-b"));
  const auto other = tree(f.dir.path() / "seed2");
  CHECK(a != other);
  CHECK(truth_of(f.dir.path() / "seed1-a")["clusters"] !=
        truth_of(f.dir.path() / "seed2")["clusters"]);
  CHECK(a.at("style.css") == "body { margin: 0 }\n");  // other files are copied
  CHECK(a.at("sec3/empty.html").empty());
}

TEST_CASE("synth: share of copied pages, copies per page, truth.json") {
  const Fixture& f = fixture();
  const fs::path out = f.dir.path() / "ratio";
  const auto report = synth(f.options("ratio", 11));
  const json truth = truth_of(out);

  // Parameters and seed are recorded.
  CHECK(truth["generator"] == "canon synth");
  CHECK(truth["seed"] == 11);
  CHECK(truth["parameters"]["dup_ratio"] == 0.3);
  CHECK(truth["parameters"]["max_dups"] == 3);
  CHECK(truth["parameters"]["segment_ratio"] == 0.05);
  CHECK(truth["parameters"]["max_segment"] == 3);

  // 198 eligible pages (not the redirect, not the empty page): round(0.3 × 198) = 59 originals.
  CHECK(report.eligible == f.eligible.size());
  CHECK(report.eligible == 198);
  CHECK(report.originals == 59);
  std::map<std::size_t, std::size_t> copies_per_original;
  std::set<std::string> in_truth;
  std::size_t copies = 0;
  for (const auto& cluster : truth["clusters"]) {
    REQUIRE(cluster.size() >= 1);
    const std::string original = cluster[0];
    CHECK(fs::exists(f.source / original));  // originals first: they come from the source
    for (const auto& member : cluster) {
      CHECK(in_truth.insert(member.get<std::string>()).second);  // exactly one cluster
      CHECK(fs::is_regular_file(out / member.get<std::string>()));
    }
    if (cluster.size() == 1) continue;
    ++copies_per_original[cluster.size() - 1];
    CHECK(std::find(f.eligible.begin(), f.eligible.end(), original) != f.eligible.end());
    const char* prefixes[] = {"mirror/", "print/", "archive/"};
    for (std::size_t c = 1; c < cluster.size(); ++c) {
      CHECK(cluster[c] == prefixes[c - 1] + original);
      CHECK_FALSE(fs::exists(f.source / cluster[c].get<std::string>()));
      ++copies;
    }
  }
  CHECK(copies == report.copies);
  std::size_t originals = 0;
  for (const auto& [count, n] : copies_per_original) {
    CHECK(count >= 1);
    CHECK(count <= 3);
    originals += n;
  }
  CHECK(originals == 59);
  CHECK(copies_per_original.size() == 3);  // 1, 2 and 3 copies all occur (P(miss) < 1e-10)
  CHECK(copies > 59 * 1.5);                // mean 2 (binomial spread ±0.2 per original)
  CHECK(copies < 59 * 2.5);

  // Every page of the output site is in the truth; truth.json is not a page.
  std::set<std::string> on_disk;
  for (const auto& [path, bytes] : tree(out)) {
    if (path.ends_with(".html") || path.ends_with(".htm")) on_disk.insert(path);
  }
  CHECK(on_disk == in_truth);
  CHECK(report.pages == on_disk.size());
  CHECK(report.truth_path == fs::weakly_canonical(out) / "truth.json");

  // The other ratios: none and all.
  SynthOptions none = f.options("ratio-none");
  none.dup_ratio = 0.0;
  CHECK(synth(none).copies == 0);
  SynthOptions all = f.options("ratio-all");
  all.dup_ratio = 1.0;
  all.max_dups = 1;
  const auto every = synth(all);
  CHECK(every.originals == 198);
  CHECK(every.copies == 198);
}

TEST_CASE("synth: bad input and what it may replace") {
  const Fixture& f = fixture();
  SynthOptions options = f.options("safety");
  synth(options);
  synth(options);  // its own earlier output is replaced

  f.dir.write("precious/notes.txt", "mine");
  auto refused = canon::eval::synthesize_site(f.options("precious"));
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message().find("not written by canon synth") != std::string::npos);
  CHECK(read(f.dir.path() / "precious/notes.txt") == "mine");

  auto inside = canon::eval::synthesize_site(f.options("source/out"));
  REQUIRE_FALSE(inside.ok());
  CHECK(inside.status().message().find("overlap") != std::string::npos);

  SynthOptions missing_source = f.options("nowhere");
  missing_source.source_dir = f.dir.path() / "no-such-site";
  CHECK_FALSE(canon::eval::synthesize_site(missing_source).ok());

  SynthOptions missing_nouns = f.options("no-nouns");
  missing_nouns.noun_list = f.dir.path() / "no-such-nouns";
  auto no_nouns = canon::eval::synthesize_site(missing_nouns);
  REQUIRE_FALSE(no_nouns.ok());
  CHECK(no_nouns.status().message().find("cannot read the noun list") != std::string::npos);
  CHECK_FALSE(fs::exists(f.dir.path() / "no-nouns"));

  SynthOptions bad = f.options("bad");
  bad.dup_ratio = 1.5;
  CHECK_FALSE(canon::eval::synthesize_site(bad).ok());
  bad = f.options("bad");
  bad.max_dups = 0;
  CHECK_FALSE(canon::eval::synthesize_site(bad).ok());
  bad = f.options("bad");
  bad.max_segment = 0;
  CHECK_FALSE(canon::eval::synthesize_site(bad).ok());
}

TEST_CASE("synth → index → eval: high recall at segment ratio 0.05") {
  const Fixture& f = fixture();
  SynthOptions options = f.options("e2e", 21);
  options.segment_ratio = 0.05;
  synth(options);
  canon::indexer::IndexOptions index;
  index.site_dir = options.out_dir;
  index.out_dir = f.dir.path() / "e2e-index";
  index.show_progress = false;
  auto summary = canon::indexer::index_site(index);
  REQUIRE_MESSAGE(summary.ok(), (summary.ok() ? "" : summary.status().message()));
  CHECK(fs::exists(index.out_dir / "pairs.tsv"));

  auto truth = canon::eval::read_truth(options.out_dir / "truth.json");
  REQUIRE(truth.ok());
  auto verdict = canon::eval::read_index_verdict(index.out_dir);
  REQUIRE(verdict.ok());
  auto e = canon::eval::evaluate_dedup(truth.value(), verdict.value());
  REQUIRE_MESSAGE(e.ok(), (e.ok() ? "" : e.status().message()));
  MESSAGE(canon::eval::render_text(e.value()));
  CHECK(e->pages == 200 + e->copies);
  REQUIRE(e->before_union_find);
  CHECK(e->before_union_find->precision() >= 0.95);
  // Each copy is found as a near-duplicate of its original (mirror/x, print/x beside x). Two
  // copies of one original, side by side in parallel directories, need 0.95 (the name rule:
  // nothing says one is the other's copy), so some of those pairs are joined by union-find only.
  std::set<std::pair<std::string, std::string>> found;
  {
    std::ifstream pairs(index.out_dir / "pairs.tsv");
    std::string a, b, similarity;
    while (std::getline(pairs, a, '\t') && std::getline(pairs, b, '\t') && std::getline(pairs, similarity)) {
      found.insert({a, b});
      found.insert({b, a});
    }
  }
  std::size_t copies = 0, copies_found = 0;
  for (const auto& cluster : truth->clusters) {
    for (std::size_t i = 1; i < cluster.size(); ++i) {
      ++copies;
      copies_found += found.contains({"http://localhost/" + cluster[0], "http://localhost/" + cluster[i]}) ? 1 : 0;
    }
  }
  CHECK(copies == e->copies);
  CHECK(copies_found >= copies * 95 / 100);
  CHECK(e->after_union_find.recall() >= 0.95);
  CHECK(e->after_union_find.precision() >= 0.95);
  CHECK(e->page_counts.sensitivity() >= 0.95);
  CHECK(e->page_counts.specificity() >= 0.95);
  CHECK(e->authority.found_accuracy() >= 0.9);  // originals have the in-links
}

TEST_CASE("synth: source pages with the same main text are one true cluster, with the copies of each") {
  TempDir dir;
  const auto words = [](int first, int n) {
    std::string text;
    for (int w = first; w < first + n; ++w) text += (text.empty() ? "w" : " w") + std::to_string(w);
    return text;
  };
  const std::string page = "<html><head><title>Main Page</title></head><body><main><p>" + words(0, 60) +
                           "</p></main></body></html>\n";
  dir.write("source/index.html", page);
  dir.write("source/Main_Page.html", page);  // the same page saved under another name
  dir.write("source/other.html", "<html><head><title>Other</title></head><body><main><p>" + words(100, 70) +
                                     "</p></main></body></html>\n");
  SynthOptions o;
  o.source_dir = dir.path() / "source";
  o.out_dir = dir.path() / "out";
  o.noun_list = dir.write("nouns.txt", kTinyNouns);
  o.dup_ratio = 1.0;
  o.max_dups = 1;
  const auto report = synth(o);
  CHECK(report.source_duplicates == 1);
  const json truth = truth_of(o.out_dir);
  CHECK(truth["stats"]["source_duplicates"] == 1);
  bool together = false;
  for (const auto& cluster : truth["clusters"]) {
    const auto members = cluster.get<std::vector<std::string>>();
    const bool has_index = std::find(members.begin(), members.end(), "index.html") != members.end();
    const bool has_main = std::find(members.begin(), members.end(), "Main_Page.html") != members.end();
    CHECK(has_index == has_main);  // never apart
    if (has_index) {
      together = true;
      CHECK(members.size() == 4);  // both names first, then a copy of each
      CHECK(members[0] == "Main_Page.html");
      CHECK(members[1] == "index.html");
    }
  }
  CHECK(together);
  // "names": how many of each cluster's first members are the source's own pages.
  const auto clusters = truth["clusters"].get<std::vector<std::vector<std::string>>>();
  const auto names = truth["names"].get<std::vector<std::size_t>>();
  REQUIRE(names.size() == clusters.size());
  for (std::size_t c = 0; c < clusters.size(); ++c) CHECK(names[c] == (clusters[c][0] == "Main_Page.html" ? 2u : 1u));
  const auto read = canon::eval::read_truth(o.out_dir / "truth.json");
  REQUIRE(read.ok());
  CHECK(read.value().names == names);
}
