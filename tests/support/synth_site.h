/// @file synth_site.h
/// @brief What the `canon synth` tests share (test_synth*.cpp): a generated 200-page source site
/// and a tiny noun list in WordNet's format, built once; a synth run; an output directory's files
/// and its truth.json.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/synth.h"
#include "support/temp_dir.h"

namespace canon::testing {

/// WordNet's format, header included; no noun shares a word with the generated pages.
inline constexpr const char* kTinyNouns =
    "  1 This software and database is being provided to you, the LICENSEE, by  \n"
    "  2 Princeton University under the following license.  \n"
    "quokka n 1 1 @ 1 0 01234567  \n"
    "narwhal_tusk n 1 1 @ 1 0 01234568  \n"
    "axolotl n 1 1 @ 1 0 01234569  \n"
    "blue_whale_calf n 1 1 @ 1 0 01234570  \n"
    "pangolin n 1 1 @ 1 0 01234571  \n"
    "\n"
    "okapi\n";

/// "../" for each directory of `path`: from its page up to the site's root.
inline std::string up_to_root(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == '/') out += "../";
  }
  return out;
}

/// The directory part of `path`, with its trailing '/' ("" at the root).
inline std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

/// An href from the page at `from` to the page at `to`, written in one of the ways sites do.
inline std::string href(const std::string& from, const std::string& to, unsigned style) {
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
inline std::vector<std::string> write_source_site(const TempDir& dir, const std::string& root) {
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
  std::filesystem::path source;
  std::filesystem::path nouns;
  std::vector<std::string> eligible;
  Fixture() {
    eligible = write_source_site(dir, "source");
    source = dir.path() / "source";
    nouns = dir.write("nouns.txt", kTinyNouns);
  }
  canon::eval::SynthOptions options(const std::string& out, std::uint64_t seed = 1) const {
    canon::eval::SynthOptions o;
    o.source_dir = source;
    o.out_dir = dir.path() / out;
    o.seed = seed;
    o.noun_list = nouns;
    return o;
  }
};

inline const Fixture& fixture() {
  static const Fixture f;
  return f;
}

inline canon::eval::SynthReport synth(const canon::eval::SynthOptions& options) {
  auto report = canon::eval::synthesize_site(options);
  REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.status().message()));
  return report.value();
}

/// The bytes of the file at `path` ("" when it cannot be read).
inline std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

/// Every file below `dir` with its content, by '/'-separated relative path.
inline std::map<std::string, std::string> tree(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file())
      files[std::filesystem::relative(entry.path(), dir).generic_string()] = read(entry.path());
  }
  return files;
}

/// The truth.json of the synth output in `out`.
inline nlohmann::json truth_of(const std::filesystem::path& out) {
  return nlohmann::json::parse(read(out / "truth.json"));
}

}  // namespace canon::testing
