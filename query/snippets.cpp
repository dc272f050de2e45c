/// @file snippets.cpp
/// @brief Snippets: the region of a page's text with the most query words, and the passage
/// Xapian chooses in it.
///
/// The searcher finds the region itself and gives Xapian only that to choose the passage from,
/// which bounds the cost of MSet::snippet on long pages (docs/benchmarks-search.md).
#include "query/snippets.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

#include "common/utf8.h"
#include "format/index_format.h"
#include "format/text_tail.h"

namespace canon::query::detail {
namespace fmt = canon::index_format;
namespace {

/// Bytes of page text a snippet aims for.
constexpr std::size_t kSnippetLength = 240;
/// Bytes of text around the densest matches that Xapian chooses the snippet from: with
/// SNIPPET_EXHAUSTIVE it weighs every window of the text it is given, at about 0.1-0.2 us per
/// byte, so giving it a whole 16 KiB page text cost several ms per hit (docs/benchmarks-search.md).
constexpr std::size_t kSnippetRegion = 640;
/// Of those, at most this many bytes come before the first match of the densest window (the
/// region starts at a sentence start there if it can, else after a space).
constexpr std::size_t kSnippetLead = 160;
/// Occurrences of one needle looked at (the first ones) when choosing the region.
constexpr std::size_t kMaxNeedleHits = 64;

/// MSet::snippet() escapes &, <, > and " for HTML; canon's snippets are plain text (the web
/// front end escapes what it shows), so undo exactly those escapes.
std::string unescape_snippet(const std::string& html) {
  static constexpr std::pair<std::string_view, char> kEntities[] = {
      {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}};
  std::string out;
  out.reserve(html.size());
  for (std::size_t i = 0; i < html.size();) {
    bool replaced = false;
    if (html[i] == '&') {
      for (const auto& [entity, c] : kEntities) {
        if (html.compare(i, entity.size(), entity) == 0) {
          out += c;
          i += entity.size();
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += html[i++];
  }
  return out;
}

/// The start of `text`, at most `max_bytes` long, cut after a whole word, with "..." when cut:
/// the snippet of a page the query's words are not in (e.g. they matched its title only).
std::string leading_text(const std::string& text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t end = utf8_char_start(text, max_bytes);
  if (const std::size_t space = text.rfind(' ', end); space != std::string::npos && space > 0)
    end = space;
  return text.substr(0, end) + "...";
}

/// ASCII lower case (faster than std::tolower, which goes through the locale per byte).
char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// True when a sentence starts at `offset` of `text`: its start, or after ". ", "! " or "? ".
bool starts_sentence(const std::string& text, std::size_t offset) {
  if (offset == 0) return true;
  if (offset < 2 || text[offset - 1] != ' ') return false;
  const char end = text[offset - 2];
  return end == '.' || end == '!' || end == '?';
}

bool is_word_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x80 || std::isalnum(u) || c == '_';
}

/// Whether `word` starts with a Chinese, Japanese or Korean character: its words are not cut
/// apart by spaces, and the index has every character of a run as a term of its own
/// (IndexWriter's n-gram mode), so such a needle may start anywhere in a run.
bool starts_cjk(std::string_view word) {
  if (word.empty()) return false;
  const char32_t c = decode_utf8(word, 0).code_point;
  return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0xFF00 && c <= 0xFFEF) || (c >= 0x20000 && c <= 0x3FFFF);
}

/// [begin, end) of the part of `text` around the kSnippetLength bytes holding the most
/// different needles (then the most occurrences, then the earliest), or nothing when no
/// needle starts a word of the text (a CJK needle may start anywhere). ASCII case is ignored.
/// Both ends are character boundaries.
std::optional<std::pair<std::size_t, std::size_t>> snippet_region(
    const std::string& text, const std::vector<std::string>& needles) {
  std::string lower = text;
  for (char& c : lower) c = ascii_lower(c);
  std::vector<std::pair<std::size_t, std::size_t>> hits;  // (offset, needle)
  for (std::size_t n = 0; n < needles.size(); ++n) {
    std::size_t found = 0;
    const bool anywhere = starts_cjk(needles[n]);
    for (std::size_t pos = lower.find(needles[n]);
         pos != std::string::npos && found < kMaxNeedleHits;
         pos = lower.find(needles[n], pos + 1)) {
      if (pos > 0 && is_word_byte(lower[pos - 1]) && !anywhere) continue;
      hits.emplace_back(pos, n);
      ++found;
    }
  }
  if (hits.empty()) return std::nullopt;
  std::sort(hits.begin(), hits.end());
  std::size_t best_offset = 0, best_distinct = 0, best_count = 0;
  std::vector<char> seen(needles.size());
  for (std::size_t i = 0; i < hits.size(); ++i) {
    std::fill(seen.begin(), seen.end(), 0);
    std::size_t distinct = 0, count = 0;
    for (std::size_t j = i; j < hits.size() && hits[j].first < hits[i].first + kSnippetLength;
         ++j, ++count) {
      if (!seen[hits[j].second]) seen[hits[j].second] = 1, ++distinct;
    }
    if (distinct > best_distinct || (distinct == best_distinct && count > best_count)) {
      best_offset = hits[i].first;
      best_distinct = distinct;
      best_count = count;
    }
  }
  // Begin at the last sentence start in the kSnippetLead bytes before the window, else after
  // a space there; end after a whole word.
  std::size_t begin = best_offset > kSnippetLead ? best_offset - kSnippetLead : 0;
  if (begin > 0) {
    std::size_t start = best_offset;
    while (start > begin && !starts_sentence(text, start)) --start;
    if (start == begin && !starts_sentence(text, start)) {
      const std::size_t space = text.find(' ', begin);
      start = space != std::string::npos && space < best_offset ? space + 1 : best_offset;
    }
    begin = start;
  }
  std::size_t end = std::min(text.size(), begin + kSnippetRegion);
  if (end < text.size()) {
    const std::size_t space = text.rfind(' ', end);
    end = space != std::string::npos && space > best_offset ? space : utf8_char_start(text, end);
  }
  return std::make_pair(begin, end);
}

/// The passage of `text`'s region [begin, end) Xapian chooses for the MSet's query (matches
/// wrapped in the highlight markers, "..." where text was left out); empty when none of the
/// region's words match.
std::string passage(const Xapian::MSet& mset, const std::string& text, std::size_t begin, std::size_t end,
                    const Xapian::Stem& stemmer, const SearchRequest& request) {
  constexpr unsigned kFlags =
      Xapian::MSet::SNIPPET_EXHAUSTIVE | Xapian::MSet::SNIPPET_EMPTY_WITHOUT_MATCH | Xapian::MSet::SNIPPET_CJK_NGRAM;
  std::string snippet = unescape_snippet(mset.snippet(text.substr(begin, end - begin), kSnippetLength, stemmer, kFlags,
                                                      request.highlight_start, request.highlight_end, "..."));
  if (snippet.empty()) return snippet;
  // Xapian marks a cut with "..." except before a sentence start; it cannot know that the
  // region's own start and end are cuts of the page's text.
  if (!snippet.starts_with("...") && !starts_sentence(text, begin)) snippet.insert(0, "...");
  if (end < text.size() && !snippet.ends_with("...")) snippet += "...";
  return snippet;
}

/// Bytes of a page's text tail inflated at a time while looking for the query's words in it.
constexpr std::size_t kTailPiece = 32 * 1024;

/// The first passage (passage()) of `doc`'s text tail that holds a word of the query, read a
/// piece at a time and appended to `text` (the head), so that a match near the start of a long
/// tail costs its first pieces only; "" when none does.
std::string passage_in_tail(const Xapian::MSet& mset, std::string& text, const Xapian::Document& doc,
                            const std::vector<std::string>& needles, const Xapian::Stem& stemmer,
                            const SearchRequest& request) {
  const std::string bytes = doc.get_value(fmt::kTextTailSlot);
  fmt::TextTailReader tail(bytes);
  for (std::size_t searched = text.size(); tail.append(text, kTailPiece); searched = text.size()) {
    // The new piece, and the region's length before it: a window may start there.
    const std::size_t from = searched > kSnippetRegion ? utf8_char_start(text, searched - kSnippetRegion) : 0;
    const auto region = snippet_region(text.substr(from), needles);
    if (!region) continue;
    std::string found = passage(mset, text, from + region->first, from + region->second, stemmer, request);
    if (!found.empty()) return found;
  }
  return {};
}

}  // namespace

std::vector<std::string> snippet_needles(const Xapian::Query& query,
                                         const Xapian::QueryParser& parser) {
  std::vector<std::string> needles;
  const auto add = [&needles](std::string word) {
    for (char& c : word) c = ascii_lower(c);
    if (!word.empty() && std::find(needles.begin(), needles.end(), word) == needles.end())
      needles.push_back(word);
  };
  for (auto it = query.get_unique_terms_begin(); it != query.get_unique_terms_end(); ++it) {
    const std::string& term = *it;
    std::size_t prefix = 0;
    while (prefix < term.size() && std::isupper(static_cast<unsigned char>(term[prefix]))) ++prefix;
    const std::string_view field(term.data(), prefix);
    if (field != "" && field != "Z" && field != fmt::kTitlePrefix && field != "ZS" &&
        field != fmt::kKeywordPrefix && field != "ZK") {
      continue;
    }
    add(term.substr(prefix));
    for (auto typed = parser.unstem_begin(term); typed != parser.unstem_end(term); ++typed)
      add(*typed);
  }
  return needles;
}

std::string make_snippet(const Xapian::MSet& mset, std::string text, const Xapian::Document& doc,
                         const std::vector<std::string>& needles, const Xapian::Stem& stemmer,
                         const SearchRequest& request) {
  const bool head_cut = text.size() + 4 > fmt::kTextHeadBytes;  // cut at kTextHeadBytes: a tail follows
  const std::optional<std::pair<std::size_t, std::size_t>> region = snippet_region(text, needles);
  std::string snippet = region ? passage(mset, text, region->first, region->second, stemmer, request) : std::string();
  if (snippet.empty() && head_cut) snippet = passage_in_tail(mset, text, doc, needles, stemmer, request);
  if (!snippet.empty()) return snippet;
  // Without a needle in the text (the words matched elsewhere, or a wildcard matched), Xapian
  // may still find a match at the start of the text.
  snippet = passage(mset, text, 0, utf8_char_start(text, std::min(text.size(), kSnippetRegion)), stemmer, request);
  return snippet.empty() ? leading_text(text, kSnippetLength) : snippet;
}

}  // namespace canon::query::detail
