/// @file wildcards.cpp
/// @brief Rewriting a query's wildcards as fields, and expanding them against the database.
#include "query/wildcards.h"

#include <vector>

namespace canon::query {
namespace {

bool is_word_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x80 || (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || c == '_';
}

bool starts_token(std::string_view query, std::size_t at) {
  if (at == 0) return true;
  const char before = query[at - 1];
  return before == ' ' || before == '\t' || before == '\n' || before == '(' || before == '+' || before == '-';
}

bool ends_token(std::string_view query, std::size_t at) {
  return at == query.size() || query[at] == ' ' || query[at] == '\t' || query[at] == '\n' || query[at] == ')';
}

}  // namespace

std::string rewrite_wildcards(std::string_view query, bool default_is_title) {
  constexpr std::string_view kTitle = "title:";
  std::string out;
  out.reserve(query.size() + 32);
  bool quoted = false;
  std::size_t i = 0;
  while (i < query.size()) {
    if (query[i] == '"') {
      quoted = !quoted;
      out += query[i++];
      continue;
    }
    if (quoted || !starts_token(query, i)) {
      out += query[i++];
      continue;
    }
    const bool title = query.substr(i, kTitle.size()) == kTitle;
    const std::size_t word_start = title ? i + kTitle.size() : i;
    std::size_t word_end = word_start;
    while (word_end < query.size() && is_word_byte(query[word_end])) ++word_end;
    if (word_end > word_start && word_end < query.size() && query[word_end] == '*' &&
        ends_token(query, word_end + 1)) {
      out += title || default_is_title ? kTitleWildcardField : kWildcardField;
      out += ':';
      out.append(query.substr(word_start, word_end - word_start));
      i = word_end + 1;
      continue;
    }
    out += query[i++];
  }
  return out;
}

Xapian::Query WildcardExpander::operator()(const std::string& word) {
  const std::string stem_of_terms = prefix_ + Xapian::Unicode::tolower(word);
  std::vector<Xapian::Query> terms;
  for (auto term = db_.allterms_begin(stem_of_terms); term != db_.allterms_end(stem_of_terms); ++term) {
    terms.emplace_back(*term);
  }
  if (terms.empty()) return Xapian::Query();
  return Xapian::Query(Xapian::Query::OP_OR, terms.begin(), terms.end());
}

}  // namespace canon::query
