/// @file diversity_queries.cpp
/// @brief The queries of `canon eval diversity`: read from a query file, or drawn reproducibly
/// from the titles and headings of an index's pages.
///
/// Sampling keeps its own word rule, stop list and site-name stripping, so that a seed draws the
/// same queries whatever the indexer's tokenizer does.
#include "eval/diversity.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/file_io.h"
#include "common/utf8.h"
#include "eval/synth.h"
#include "html/html_extract.h"
#include "html/page_encoding.h"
#include "indexer/records/pages_jsonl.h"

namespace canon::eval {
namespace fs = std::filesystem;
namespace {

// Query words keep their own word rule and stop list rather than dedup::tokenize and
// dedup::is_stop_word: those split other words ("install_data" whole, "can" and "will" kept,
// "between" and "during" dropped) in 7 % of python3.11's titles and headings and 11 % of
// postgres 15's, which would draw other queries than docs/evaluation.md's tables were run with.

/// Words too common to make a query of their own.
const std::unordered_set<std::string>& stop_words() {
  static const std::unordered_set<std::string> kWords{
      "a",    "about", "an",   "and",  "are",   "as",    "at",   "be",   "but",  "by",
      "can",  "do",    "does", "for",  "from",  "has",   "have", "how",  "i",    "if",
      "in",   "into",  "is",   "it",   "its",   "more",  "no",   "not",  "of",   "on",
      "or",   "other", "our",  "so",   "some",  "than",  "that", "the",  "their", "then",
      "there", "these", "this", "to",  "up",    "using", "was",  "we",   "what", "when",
      "where", "which", "while", "who", "why",  "will",  "with", "you",  "your"};
  return kWords;
}

/// Whether the code point is a letter or digit for query words: ASCII letters and digits, and
/// non-ASCII code points outside the punctuation and symbol blocks (Latin-1's ¶ § « », general
/// punctuation, arrows, mathematical and technical symbols, box drawing, dingbats, CJK
/// punctuation, variation selectors and specials).
bool is_word_code_point(char32_t c) {
  if (c < 0x80) return std::isalnum(static_cast<int>(c)) != 0;
  if (c < 0xC0) return c == 0xAA || c == 0xB5 || c == 0xBA;  // ª µ º
  if (c == 0xD7 || c == 0xF7) return false;                    // × ÷
  if (c >= 0x2000 && c <= 0x2BFF) return false;
  if (c >= 0x3000 && c <= 0x303F) return false;
  if (c >= 0xFE00 && c <= 0xFE6F) return false;
  if (c >= 0xFF00 && c <= 0xFF0F) return false;
  if (c >= 0xFFF0 && c <= 0xFFFF) return false;
  return true;
}

/// The query words of a title or heading: runs of letters and digits (is_word_code_point),
/// ASCII lower-cased, without stop words, one-letter words and numbers.
std::vector<std::string> query_words(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  const auto flush = [&] {
    bool digits = true;
    for (char& c : word) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (!std::isdigit(static_cast<unsigned char>(c))) digits = false;
    }
    if (word.size() > 1 && !digits && !stop_words().contains(word)) words.push_back(word);
    word.clear();
  };
  for (std::size_t i = 0; i < text.size();) {
    const Utf8Char c = decode_utf8(text, i);
    if (c.valid && is_word_code_point(c.code_point)) {
      word.append(text, i, c.length);
    } else if (!word.empty()) {
      flush();
    }
    i += c.length;
  }
  if (!word.empty()) flush();
  return words;
}

/// Separators between a page's own title and the site's name.
constexpr std::string_view kTitleSeparators[] = {" \xE2\x80\x94 ", " \xE2\x80\x93 ", " | ",
                                                 " - ", " :: "};

/// The part of `title` after its last separator, or "" when it has none.
std::string title_suffix(const std::string& title) {
  std::size_t best = std::string::npos, length = 0;
  for (std::string_view sep : kTitleSeparators) {
    const std::size_t at = title.rfind(sep);
    if (at != std::string::npos && (best == std::string::npos || at > best)) {
      best = at;
      length = sep.size();
    }
  }
  return best == std::string::npos ? "" : title.substr(best + length);
}

/// `titles` without the site name: a suffix after a separator that a quarter of the titles
/// (and at least two) end with.
std::vector<std::string> strip_site_name(std::vector<std::string> titles) {
  std::map<std::string, std::size_t> counts;
  for (const std::string& title : titles) {
    if (std::string suffix = title_suffix(title); !suffix.empty()) ++counts[suffix];
  }
  std::string site_name;
  std::size_t best = 0;
  for (const auto& [suffix, count] : counts) {
    if (count > best) best = count, site_name = suffix;
  }
  if (best < 2 || best * 4 < titles.size()) return titles;
  for (std::string& title : titles) {
    if (title_suffix(title) == site_name) {
      title.resize(title.size() - site_name.size());
      for (std::string_view sep : kTitleSeparators) {
        if (title.ends_with(sep)) {
          title.resize(title.size() - sep.size());
          break;
        }
      }
    }
  }
  return titles;
}

}  // namespace

Result<std::vector<std::string>> read_queries(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return Status::error("cannot read the query file '" + path.string() + "'");
  std::vector<std::string> queries;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    const std::size_t end = line.find_last_not_of(" \t");
    queries.push_back(line.substr(start, end - start + 1));
  }
  if (queries.empty()) return Status::error("the query file '" + path.string() + "' has no query");
  return queries;
}

Result<std::vector<std::string>> sample_queries(const fs::path& index_dir, const fs::path& site_dir,
                                                std::size_t count, std::uint64_t seed) {
  auto lines = indexer::read_page_lines(index_dir);
  if (!lines.ok()) return lines.status();
  std::vector<std::string> titles;
  std::vector<std::pair<std::string, std::string>> pages;  // (path, url) of indexed pages
  for (const indexer::PageLine& line : lines.value()) {
    if (line.status != indexer::PageStatus::kIndexed) continue;
    titles.push_back(line.title.value_or(""));
    pages.emplace_back(line.path, line.url);
  }
  // Phrases: titles, then headings, each once.
  std::vector<std::vector<std::string>> phrases;
  std::set<std::vector<std::string>> seen;
  const auto add = [&](const std::string& text) {
    std::vector<std::string> words = query_words(text);
    if (!words.empty() && seen.insert(words).second) phrases.push_back(std::move(words));
  };
  for (const std::string& title : strip_site_name(titles)) add(title);
  if (!site_dir.empty()) {
    for (const auto& [path, url] : pages) {
      auto html = read_file(site_dir / path);
      if (!html.ok()) {
        return Status::error("cannot read page '" + path + "' of the site '" + site_dir.string() +
                             "' (is it the site the index was built from?)");
      }
      if (!html::check_page_bytes(html.value()).ok()) continue;
      auto decoded = html::decode_page(std::move(html.value()));
      if (!decoded.ok()) continue;
      for (const std::string& heading : html::extract_page(decoded->utf8, url).headings) add(heading);
    }
  }
  if (phrases.empty()) {
    return Status::error("no page title or heading of '" + index_dir.string() +
                         "' has a word to make a query of");
  }
  // A seeded partial Fisher-Yates shuffle of the phrases; 1-3 consecutive words of each.
  Random random(seed);
  std::vector<std::size_t> order(phrases.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::vector<std::string> queries;
  std::unordered_set<std::string> taken;
  for (std::size_t i = 0; i < order.size() && queries.size() < count; ++i) {
    std::swap(order[i], order[i + random.below(order.size() - i)]);
    const std::vector<std::string>& words = phrases[order[i]];
    const std::size_t length = random.between(1, std::min<std::size_t>(3, words.size()));
    const std::size_t start = random.below(words.size() - length + 1);
    std::string query;
    for (std::size_t w = start; w < start + length; ++w) query += (query.empty() ? "" : " ") + words[w];
    if (taken.insert(query).second) queries.push_back(std::move(query));
  }
  return queries;
}

}  // namespace canon::eval
