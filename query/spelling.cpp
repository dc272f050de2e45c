/// @file spelling.cpp
/// @brief Correcting a query's words one by one against the index's spelling table.
#include "query/spelling.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace canon::query {

namespace {

bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || static_cast<unsigned char>(c) >= 0x80;
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
/// A character of a word as Xapian cuts them: a letter, a digit or '_'.
bool is_word_char(char c) { return is_letter(c) || is_digit(c) || c == '_'; }

/// Whether the piece of `query` between white space around [begin, end) holds a field
/// (title:, path:/docs/, site:example.org): letters then one ':' (std::vector's '::' is not one).
bool in_field(const std::string& query, std::size_t begin, std::size_t end) {
  const std::size_t space_before = query.find_last_of(" \t", begin);
  const std::size_t first = space_before == std::string::npos ? 0 : space_before + 1;
  const std::size_t last = std::min(query.find_first_of(" \t", end), query.size());
  for (std::size_t colon = query.find(':', first); colon < last; colon = query.find(':', colon + 1)) {
    const bool single = (colon + 1 == query.size() || query[colon + 1] != ':') && (colon == 0 || query[colon - 1] != ':');
    if (single && colon > first && is_letter(query[colon - 1])) return true;
  }
  return false;
}

/// Whether the word query[begin, end) (a run of word characters) is one to correct: 3 bytes or
/// more, all letters (a code or an identifier is not a misspelt word: x86, u8, atomic_xchg,
/// _mm256_mask_cmpge_epi8_mask), not in a field (in_field: a filter's value is a path or a
/// host, not words), not an operator (AND, OR, NOT, XOR, NEAR, ADJ).
bool is_correctable_run(const std::string& query, std::size_t begin, std::size_t end) {
  if (end - begin < 3) return false;
  if (!std::all_of(query.begin() + static_cast<long>(begin), query.begin() + static_cast<long>(end), is_letter)) return false;
  if (in_field(query, begin, end)) return false;
  const std::string_view run(query.data() + begin, end - begin);
  return run != "AND" && run != "OR" && run != "NOT" && run != "XOR" && run != "NEAR" && run != "ADJ";
}

}  // namespace

std::string corrected_query_string(const Xapian::Database& db, const Xapian::Database& spelling,
                                   const Xapian::Stem& stemmer, const std::string& query) {
  std::string out;
  bool changed = false;
  std::size_t at = 0;  // query[0, at) is in `out`
  for (std::size_t begin = 0; begin < query.size();) {
    if (!is_word_char(query[begin])) {
      ++begin;
      continue;
    }
    std::size_t end = begin;
    while (end < query.size() && is_word_char(query[end])) ++end;
    if (is_correctable_run(query, begin, end)) {
      std::string word = query.substr(begin, end - begin);
      for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      const bool held = db.get_termfreq(word) > 0 || db.get_termfreq("Z" + stemmer(word)) > 0;
      const std::string suggestion = held ? std::string() : spelling.get_spelling_suggestion(word, 2);
      if (!suggestion.empty()) {
        out.append(query, at, begin - at).append(suggestion);
        at = end;
        changed = true;
      }
    }
    begin = end;
  }
  return changed ? out.append(query, at, std::string::npos) : std::string();
}

}  // namespace canon::query
