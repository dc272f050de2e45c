/// @file test_synth_copies.cpp
/// @brief The copies `canon synth` makes of a generated 200-page site: they differ from their
/// original only by segments of nouns in the main text (rate, length, words from the noun list);
/// their links reach what the original's reach, and only the original links to them; the noun
/// lists in WordNet's format, and the real WordNet list when installed.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/synth.h"
#include "eval/wordnet.h"
#include "html/html_extract.h"
#include "urls/url.h"
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
using canon::testing::up_to_root;

namespace {

constexpr const char* kBase = "http://localhost/";

/// The words of kTinyNouns' nouns.
const std::set<std::string> kTinyNounWords{"quokka", "narwhal", "tusk",     "axolotl", "blue",
                                           "whale",  "calf",    "pangolin", "okapi"};

canon::html::ExtractedPage extract(const fs::path& site, const std::string& path) {
  auto url = canon::urls::file_url(kBase, path);
  REQUIRE(url.ok());
  return canon::html::extract_page(read(site / path), url.value());
}

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

/// The site path of an in-site URL ("" for other sites); "d/" is "d/index.html".
std::string path_of_url(std::string url) {
  if (!url.starts_with(kBase)) return "";
  url = url.substr(std::string(kBase).size());
  url = url.substr(0, url.find('?'));
  if (url.empty() || url.ends_with('/')) url += "index.html";
  return url;
}

}  // namespace

TEST_CASE("synth: copies differ from their original only by noun segments in the main text") {
  const Fixture& f = fixture();
  for (const double ratio : {0.05, 0.2}) {
    CAPTURE(ratio);
    SynthOptions options =
        f.options("segments-" + std::to_string(static_cast<int>(ratio * 100)), 5);
    options.segment_ratio = ratio;
    options.dup_ratio = 0.5;
    const auto report = synth(options);
    const json truth = truth_of(options.out_dir);
    std::uint64_t words = 0, segments = 0, inserted = 0;
    std::map<std::size_t, std::size_t> lengths;
    for (const auto& cluster : truth["clusters"]) {
      if (cluster.size() < 2) continue;
      const auto original = extract(f.source, cluster[0]);
      const auto original_words = split_words(original.main_text);
      for (std::size_t c = 1; c < cluster.size(); ++c) {
        CAPTURE(cluster[c].get<std::string>());
        const auto copy = extract(options.out_dir, cluster[c]);
        CHECK(copy.title == original.title);  // the template is untouched
        // Align: the copy's words are the original's, in order, with runs of nouns between.
        std::size_t next = 0;
        std::size_t run = 0;
        for (const std::string& word : split_words(copy.main_text)) {
          if (next < original_words.size() && word == original_words[next]) {
            if (run > 0) ++lengths[run];
            run = 0;
            ++next;
            continue;
          }
          CHECK_MESSAGE(kTinyNounWords.contains(word), word);
          CHECK(next > 0);  // segments follow a word
          if (run == 0) ++segments;
          ++run;
          ++inserted;
        }
        if (run > 0) ++lengths[run];
        CHECK(next == original_words.size());
        words += original_words.size();
      }
    }
    CHECK(report.words == words);
    CHECK(report.segments == segments);
    CHECK(report.inserted_words == inserted);
    REQUIRE(words > 10000);
    // Segments per word: binomial, standard deviation < 0.004 here.
    CHECK(std::abs(static_cast<double>(segments) / static_cast<double>(words) - ratio) < 0.012);
    // Lengths 1..3, each about a third.
    CHECK(lengths.size() == 3);
    CHECK(lengths.begin()->first == 1);
    CHECK(lengths.rbegin()->first == 3);
    for (const auto& [length, n] : lengths) CHECK(static_cast<double>(n) > segments / 3.0 * 0.75);
  }
}

TEST_CASE(
    "synth: copies' links reach what the original's reach; only the original links to a copy") {
  const Fixture& f = fixture();
  SynthOptions options = f.options("links", 3);
  options.dup_ratio = 1.0;  // every eligible page, the <base href> one included
  synth(options);
  const json truth = truth_of(options.out_dir);
  const auto out_files = tree(options.out_dir);

  std::map<std::string, std::string> original_of;  // copy URL -> original path
  for (const auto& cluster : truth["clusters"]) {
    for (std::size_t c = 1; c < cluster.size(); ++c) {
      original_of[canon::urls::file_url(kBase, cluster[c].get<std::string>()).value()] =
          cluster[0];
    }
  }
  REQUIRE(original_of.size() > 198);

  for (const auto& cluster : truth["clusters"]) {
    if (cluster.size() < 2) continue;
    const std::string original_path = cluster[0];
    const std::string original_url = canon::urls::file_url(kBase, original_path).value();
    std::vector<std::string> expected;
    for (const auto& link : extract(f.source, original_path).links) expected.push_back(link.url);
    REQUIRE_FALSE(expected.empty());
    for (std::size_t c = 1; c < cluster.size(); ++c) {
      const std::string copy_path = cluster[c];
      CAPTURE(copy_path);
      const std::string copy_url = canon::urls::file_url(kBase, copy_path).value();
      // Links to the page itself ("#top") stay on the copy; all others reach the original's
      // targets.
      std::vector<std::string> links;
      for (const auto& link : extract(options.out_dir, copy_path).links) {
        links.push_back(link.url == copy_url ? original_url : link.url);
        const std::string target = path_of_url(link.url);
        if (!target.empty()) CHECK_MESSAGE(out_files.contains(target), link.url);
      }
      CHECK(links == expected);
      // The relative stylesheet still resolves to the site's style.css.
      if (out_files.at(original_path).find("style.css") != std::string::npos) {
        CHECK(out_files.at(copy_path).find("\"" + up_to_root(copy_path) + "style.css\"") !=
              std::string::npos);
      }
    }
  }

  // In-links to copies: exactly one, from their original.
  std::map<std::string, int> in_links;
  for (const auto& [path, bytes] : out_files) {
    if (!path.ends_with(".html") || bytes.empty()) continue;
    const std::string url = canon::urls::file_url(kBase, path).value();
    for (const auto& link : extract(options.out_dir, path).links) {
      const std::string target =
          canon::urls::strip_index_page(link.url);  // as the pipeline does
      auto it = original_of.find(target);
      if (it == original_of.end() || target == url) continue;  // self-links are no in-links
      CHECK_MESSAGE(it->second == path, (target + " linked from " + path));
      ++in_links[target];
    }
  }
  for (const auto& [url, original] : original_of) {
    CAPTURE(url);
    CHECK(in_links[url] == 1);
  }
  // The original's main text did not change (its version links are page chrome).
  CHECK(extract(options.out_dir, "sec0/page1.html").main_text ==
        extract(f.source, "sec0/page1.html").main_text);
}

TEST_CASE("noun lists: WordNet's format, header skipped, multi-word nouns split") {
  TempDir dir;
  auto tiny = canon::eval::read_noun_list(dir.write("n.txt", kTinyNouns));
  REQUIRE(tiny.ok());
  REQUIRE(tiny->nouns.size() == 6);
  CHECK(tiny->nouns[0] == std::vector<std::string>{"quokka"});
  CHECK(tiny->nouns[1] == std::vector<std::string>{"narwhal", "tusk"});
  CHECK(tiny->nouns[3] == std::vector<std::string>{"blue", "whale", "calf"});
  CHECK(tiny->nouns[5] == std::vector<std::string>{"okapi"});
  auto empty = canon::eval::read_noun_list(dir.write("empty.txt", "  header only\n\n"));
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.status().message().find("holds no noun") != std::string::npos);
}

TEST_CASE("noun lists: the real WordNet index, when wordnet-base is installed") {
  if (!fs::exists(canon::eval::kWordnetNounIndex)) {
    MESSAGE("skipped: " << canon::eval::kWordnetNounIndex
                        << " is missing (apt-get install wordnet-base)");
    return;
  }
  auto wordnet = canon::eval::read_noun_list();
  REQUIRE(wordnet.ok());
  CHECK(wordnet->nouns.size() > 80000);
  std::set<std::string> words;
  bool eye_doctor = false;
  for (const auto& noun : wordnet->nouns) {
    eye_doctor = eye_doctor || noun == std::vector<std::string>{"eye", "doctor"};
    for (const std::string& w : noun) {
      CHECK_FALSE(w.empty());
      if (w.find_first_of("_ \t") != std::string::npos) CHECK_MESSAGE(false, w);
      words.insert(w);
    }
  }
  CHECK(eye_doctor);
  CHECK_FALSE(words.contains("LICENSEE,"));  // the licence header is not a noun

  // A synth run with it inserts WordNet words only.
  const Fixture& f = fixture();
  SynthOptions options = f.options("wordnet", 9);
  options.noun_list = canon::eval::kWordnetNounIndex;
  options.dup_ratio = 0.1;
  options.segment_ratio = 0.2;
  synth(options);
  const json truth = truth_of(options.out_dir);
  std::size_t checked = 0;
  for (const auto& cluster : truth["clusters"]) {
    if (cluster.size() < 2) continue;
    const auto original = split_words(extract(f.source, cluster[0]).main_text);
    const std::set<std::string> original_words(original.begin(), original.end());
    for (const std::string& w : split_words(extract(options.out_dir, cluster[1]).main_text)) {
      if (original_words.contains(w)) continue;
      CHECK_MESSAGE(words.contains(w), w);
      ++checked;
    }
  }
  CHECK(checked > 100);
}
