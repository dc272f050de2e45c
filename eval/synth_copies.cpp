/// @file synth_copies.cpp
/// @brief The copies `canon synth` makes: their paths (free of the site's own), their bytes
/// (noun segments inserted after main-text words, relative links re-rooted) and the originals'
/// links to them.
///
/// Every edit is a splice into the source bytes at an offset the page's layout gives
/// (synth_page_layout.h), so the markup and the template of a copy stay byte for byte.
#include "eval/synth_copies.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/html_escape.h"
#include "common/percent_encoding.h"

namespace canon::eval::detail {
namespace {

/// "../" once per directory of `relative_path` ("a/b/c.html" gives "../../").
std::string up_to_root(std::string_view relative_path) {
  std::string out;
  for (char c : relative_path) {
    if (c == '/') out += "../";
  }
  return out;
}

std::string directory_of(const std::string& relative_path) {
  const std::size_t slash = relative_path.rfind('/');
  return slash == std::string::npos ? std::string() : relative_path.substr(0, slash + 1);
}

/// Two paths a server maps to one URL ("d/index.html" and "d/index.htm" are "d/").
std::string url_key(const std::string& relative_path) {
  const std::string dir = directory_of(relative_path);
  const std::string name = relative_path.substr(dir.size());
  return name == "index.html" || name == "index.htm" ? dir : relative_path;
}

struct CopyKind {
  const char* directory;
  const char* link_text;
};
constexpr CopyKind kCopyKinds[] = {
    {"mirror", "mirror"}, {"print", "printer-friendly version"}, {"archive", "archived copy"}};

/// A change to the source bytes: `erase` bytes at `at` replaced by `text`.
struct Splice {
  std::size_t at;
  std::size_t erase;
  std::string text;
};

/// The splice that makes the relative reference starting at `at` in a copy of the page at
/// `original_path` (one directory deeper, under a top-level directory) reach the same target:
/// back to the site root, then into the original's directory. Leading "./" and "../" of the
/// reference are folded into that path, so "../x.html" in "docs/a.html" becomes "../../x.html"
/// in "mirror/docs/a.html", not "../../docs/../x.html".
Splice reroot_link(const std::string& html, std::size_t at, const std::string& original_path) {
  std::vector<std::string> directories;
  for (std::size_t start = 0, slash; (slash = original_path.find('/', start)) != std::string::npos;
       start = slash + 1) {
    directories.push_back(original_path.substr(start, slash - start));
  }
  std::size_t end = at;
  for (;;) {
    if (html.compare(end, 3, "../") == 0 && !directories.empty()) {
      directories.pop_back();
      end += 3;
    } else if (html.compare(end, 2, "./") == 0) {
      end += 2;
    } else {
      break;
    }
  }
  std::string prefix = up_to_root(original_path) + "../";
  for (const std::string& directory : directories) prefix += percent_encode(directory, KeepInUrl::kPath) + "/";
  return {at, end - at, escape_html(prefix)};
}

}  // namespace

void PathRegistry::add(const std::string& path) {
  files_.insert(path);
  url_keys_.insert(url_key(path));
  for (std::size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    directories_.insert(path.substr(0, slash));
  }
}

bool PathRegistry::free(const std::string& path) const {
  if (files_.contains(path) || directories_.contains(path) ||
      url_keys_.contains(url_key(path))) {
    return false;
  }
  for (std::size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    if (files_.contains(path.substr(0, slash))) return false;
  }
  return true;
}

void plan_copies(std::vector<SourcePage>& pages, const std::vector<std::size_t>& chosen, std::uint64_t max_dups,
                 SynthOptions::CopyLayout layout, Random& random, PathRegistry& taken) {
  for (std::size_t index : chosen) {
    SourcePage& page = pages[index];
    const std::uint64_t count = random.between(1, max_dups);
    for (std::uint64_t c = 0; c < count; ++c) {
      const CopyKind& kind = kCopyKinds[c % std::size(kCopyKinds)];
      std::string directory = kind.directory;
      std::string link_text = kind.link_text;
      if (layout == SynthOptions::CopyLayout::kNumbered) {
        directory = "copies/" + std::to_string(c + 1);
        link_text = "copy " + std::to_string(c + 1);
      } else if (c >= std::size(kCopyKinds)) {
        directory += std::to_string(c / std::size(kCopyKinds) + 1);
        link_text += " " + std::to_string(c / std::size(kCopyKinds) + 1);
      }
      std::string path = directory + "/" + page.path;
      for (int variant = 2; !taken.free(path); ++variant) {
        path = directory + "-" + std::to_string(variant) + "/" + page.path;
      }
      taken.add(path);
      page.copies.push_back(path);
      page.copy_link_texts.push_back(link_text);
    }
  }
}

std::string make_copy(const SourcePage& page, const NounList& nouns, const SynthOptions& options,
                      Random& random, SynthReport& report) {
  const std::string& html = page.bytes;
  std::vector<Splice> splices;
  for (std::size_t at : page.layout.link_starts) {
    splices.push_back(reroot_link(html, at, page.path));
  }
  for (const std::size_t at : page.layout.word_ends) {
    ++report.words;
    if (!random.chance(options.segment_ratio)) continue;
    const std::uint64_t length = random.between(1, options.max_segment);
    std::string segment;
    std::uint64_t words = 0;
    while (words < length) {
      const auto& noun = nouns.nouns[random.below(nouns.nouns.size())];
      for (std::size_t w = 0; w < noun.size() && words < length; ++w, ++words) {
        segment += ' ';
        segment += escape_html(noun[w]);
      }
    }
    ++report.segments;
    report.inserted_words += length;
    splices.push_back({at, 0, std::move(segment)});
  }
  // Link values and text never overlap: the splices apply in offset order.
  std::stable_sort(splices.begin(), splices.end(),
                   [](const Splice& a, const Splice& b) { return a.at < b.at; });
  std::string out;
  out.reserve(html.size() + html.size() / 4);
  std::size_t done = 0;
  for (const Splice& splice : splices) {
    out.append(html, done, splice.at - done);
    out += splice.text;
    done = splice.at + splice.erase;
  }
  out.append(html, done, std::string::npos);
  return out;
}

std::string with_version_links(const SourcePage& page) {
  std::string nav =
      "<nav class=\"canon-synth-versions\" aria-label=\"Other versions of this page\">";
  for (std::size_t c = 0; c < page.copies.size(); ++c) {
    if (c > 0) nav += " | ";
    nav += "<a href=\"" + escape_html(up_to_root(page.path) + percent_encode(page.copies[c], KeepInUrl::kPath)) + "\">" +
           escape_html(page.copy_link_texts[c]) + "</a>";
  }
  nav += "</nav>\n";
  std::string out = page.bytes;
  out.insert(page.layout.versions_at, nav);
  return out;
}

}  // namespace canon::eval::detail
