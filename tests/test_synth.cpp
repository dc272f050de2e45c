/// @file test_synth.cpp
/// @brief `canon synth` on a generated 200-page site: reproducibility, the share of copied
/// pages and copies per page, the inserted segments (rate, length, words from the noun list),
/// truth.json, links of copies and in-links to them, the safety rules, the real WordNet list
/// when installed, and synth → index → eval end to end.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "eval/metrics.h"
#include "eval/synth.h"
#include "eval/truth.h"
#include "eval/wordnet.h"
#include "html/html_extract.h"
#include "indexer/pipeline.h"
#include "urls/url.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
using canon::eval::SynthOptions;
using canon::testing::TempDir;
using nlohmann::json;

namespace {

constexpr const char* kBase = "http://localhost/";

/// WordNet's format, header included; no noun shares a word with the generated pages.
constexpr const char* kTinyNouns =
    "  1 This software and database is being provided to you, the LICENSEE, by  \n"
    "  2 Princeton University under the following license.  \n"
    "quokka n 1 1 @ 1 0 01234567  \n"
    "narwhal_tusk n 1 1 @ 1 0 01234568  \n"
    "axolotl n 1 1 @ 1 0 01234569  \n"
    "blue_whale_calf n 1 1 @ 1 0 01234570  \n"
    "pangolin n 1 1 @ 1 0 01234571  \n"
    "\n"
    "okapi\n";
const std::set<std::string> kTinyNounWords{"quokka", "narwhal", "tusk",     "axolotl", "blue",
                                           "whale",  "calf",    "pangolin", "okapi"};

std::string up_to_root(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == '/') out += "../";
  }
  return out;
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

/// An href from the page at `from` to the page at `to`, written in one of the ways sites do.
std::string href(const std::string& from, const std::string& to, unsigned style) {
  if (directory_of(from) == directory_of(to)) {
    const std::string name = to.substr(directory_of(to).size());
    return style % 2 == 0 ? name : "./" + name;
  }
  return up_to_root(from) + to;
}

/// The 200-page source site: index.html, 4 sections of 49 pages (some one level deeper), a page
/// with a relative <base href>, a redirect and an empty page. Each content page has ~150 random
/// words (w0..w2999) in its main content (<main>, or in sec3 a DocBook-style body between
/// class-named navigation), inline markup, a template, relative, fragment, query and
/// external links. Returns the paths of the eligible (copyable) pages.
std::vector<std::string> write_source_site(const TempDir& dir, const std::string& root) {
  std::mt19937 gen(7);
  const auto words = [&](int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += (i > 0 ? " " : "") + ("w" + std::to_string(gen() % 3000));
    return out;
  };
  std::vector<std::string> pages;
  for (int s = 0; s < 4; ++s) {
    for (int i = 0; i < 49; ++i) {
      pages.push_back("sec" + std::to_string(s) + "/" + (i % 7 == 3 ? "deep/" : "") + "page" +
                      std::to_string(i) + ".html");
    }
  }
  for (std::size_t p = 0; p < pages.size(); ++p) {
    const std::string& path = pages[p];
    const std::string up = up_to_root(path);
    const std::string title = "Page " + std::to_string(p);
    const std::string& to1 = pages[gen() % pages.size()];
    const std::string& to2 = pages[gen() % pages.size()];
    // sec3 is laid out like DocBook's HTML (postgresql-doc): no <main>, and chrome that only
    // its class names as such, with words of its own that synth must not edit.
    const bool docbook = path.starts_with("sec3/");
    const std::string open_main =
        docbook ? "<div class=\"navheader\"><p>" + words(8) + "</p></div>\n<div class=\"sect1\">"
                : "<main>";
    const std::string close_main =
        docbook ? "</div>\n<div class=\"navfooter\"><p>" + words(8) + "</p></div>" : "</main>";
    std::string html =
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + title +
        "</title>\n<link rel=\"stylesheet\" href=\"" + up + "style.css\"></head>\n<body>\n" +
        "<header><a href=\"" + up + "index.html\">Home</a></header>\n<nav><a href='" + up +
        "index.html?from=nav'>Start</a> <a href=\"" + href(path, pages[0], p) +
        "\">First</a></nav>\n" + open_main + "<h1 id=\"top\">" + title + "</h1>\n<p>" + words(60) +
        "</p>\n<p>" + words(20) + " <a href=\"" + href(path, to1, p) + "\">" + words(2) + "</a> " +
        words(20) + " <b>bo</b>ld Fish &amp; chips <em>" + words(1) +
        "</em> <a href=\"#top\">top</a> <a href=mailto:x@example.org>mail</a></p>\n<ul><li>" +
        words(15) + "</li><li><a href=\"" + href(path, to2, p + 1) + "\">" + words(1) +
        "</a></li></ul>\n<pre>" + words(20) + "</pre>\n<img src=\"" + up +
        "img/logo.png\" alt=\"\">" +
        close_main + "\n<footer>Footer text <a href=\"https://example.org/\">elsewhere</a></footer>\n" +
        "</body>\n</html>\n";
    dir.write(root + "/" + path, html);
  }
  // An empty <base href> names the page itself: its links move with it.
  std::string index =
      "<html><head><base href=\"\"><title>Home</title></head><body><main><h1>Home</h1><p>" +
      words(40) + "</p><ul>";
  for (const std::string& path : pages)
    index += "<li><a href=\"" + path + "\">" + path + "</a></li>";
  index += "<li><a href=\"sec1/based.html\">based</a></li></ul></main></body></html>\n";
  dir.write(root + "/index.html", index);
  dir.write(root + "/sec1/based.html",
            "<html><head><base href=\"../sec2/\"><title>Based</title></head><body><main><p>" +
                words(80) +
                " <a href=\"page4.html\">four</a> <a "
                "href=\"../index.html\">home</a></p></main></body></html>\n");
  dir.write(root + "/sec2/redirect.html",
            "<html><head><meta http-equiv=\"refresh\" content=\"0; "
            "url=../index.html\"></head><body><p>Moved</p></body></html>\n");
  dir.write(root + "/sec3/empty.html", "");
  dir.write(root + "/style.css", "body { margin: 0 }\n");
  pages.push_back("index.html");
  pages.push_back("sec1/based.html");
  std::sort(pages.begin(), pages.end());
  return pages;
}

/// A generated source site and the tiny noun list, shared by the test cases.
struct Fixture {
  TempDir dir;
  fs::path source;
  fs::path nouns;
  std::vector<std::string> eligible;
  Fixture() {
    eligible = write_source_site(dir, "source");
    source = dir.path() / "source";
    nouns = dir.write("nouns.txt", kTinyNouns);
  }
  SynthOptions options(const std::string& out, std::uint64_t seed = 1) const {
    SynthOptions o;
    o.source_dir = source;
    o.out_dir = dir.path() / out;
    o.seed = seed;
    o.noun_list = nouns;
    return o;
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

canon::eval::SynthReport synth(const SynthOptions& options) {
  auto report = canon::eval::synthesize_site(options);
  REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.status().message()));
  return report.value();
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

/// Every file below `dir` with its content, by '/'-separated relative path.
std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file())
      files[fs::relative(entry.path(), dir).generic_string()] = read(entry.path());
  }
  return files;
}

json truth_of(const fs::path& out) { return json::parse(read(out / "truth.json")); }

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
