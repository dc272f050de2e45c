/// @file findability.cpp
/// @brief evaluate_findability: title searches over an index's own pages.
#include "eval/findability.h"

#include <algorithm>
#include <sstream>
#include <unordered_set>
#include <unordered_map>


#include "format/index_format.h"
#include "indexer/records/pages_jsonl.h"
#include "query/searcher.h"

namespace canon::eval {

std::string plain_query(const std::string& text) {
  std::string query;
  for (const char c : text) {
    // What QueryParser reads as syntax: phrases, groups, love/hate, prefixes, wildcards.
    // A '+' or '-' inside or after a word ("libstdc++", "operator-") is part of the word.
    const bool word_start = query.empty() || query.back() == ' ';
    const bool syntax = c == '"' || c == '(' || c == ')' || c == '*' || c == ':' ||
                        ((c == '-' || c == '+') && word_start);
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (syntax || space) {
      if (!query.empty() && query.back() != ' ') query.push_back(' ');
    } else {
      query.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);  // no AND/OR/NOT
    }
  }
  while (!query.empty() && query.back() == ' ') query.pop_back();
  return query;
}

std::string title_and_heading_query(const std::string& title, const std::string& heading) {
  // The title, then the heading as written, when the heading says something the title does not:
  // a reader pastes both, and the heading's words stay together ("Index – P" after "Index —
  // Python 3.11 documentation" still reads "index p"). Words compare as the index reads them:
  // "Introduction¶" repeats "Introduction".
  const auto as_indexed = [](const std::string& word) { return index_format::exact_title_term(word); };
  const std::string title_query = plain_query(title);
  const std::string heading_query = plain_query(heading);
  std::unordered_set<std::string> title_words;
  std::istringstream title_in(title_query);
  for (std::string word; title_in >> word;) title_words.insert(as_indexed(word));
  bool says_more = false;
  std::istringstream heading_in(heading_query);
  for (std::string word; heading_in >> word;) says_more = says_more || !title_words.count(as_indexed(word));
  if (!says_more) return title_query;
  return title_query.empty() ? heading_query : title_query + " " + heading_query;
}

namespace {

/// An indexed or duplicate page of pages.jsonl, as findability searches for it.
struct Page {
  std::string path, url, authoritative, title, heading;
  bool duplicate = false;
};

/// The sorted, distinct words of `text` as the index compares titles (exact_title_term).
std::vector<std::string> title_words(const std::string& text) {
  std::vector<std::string> words;
  const std::string term = index_format::exact_title_term(text);
  std::istringstream in(term.empty() ? term : term.substr(index_format::kExactTitlePrefix.size()));
  for (std::string word; in >> word;) words.push_back(word);
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  return words;
}

/// Per page: how many distinct indexed pages its query names, that is the pages of its title
/// whose title and heading hold all of its own title's and heading's words (the 28 letter pages
/// of an index titled "Index" all hold the words of the one whose heading is just "Index"); 1
/// for a page whose title is its own.
std::vector<std::size_t> pages_named_alike(const std::vector<Page>& pages) {
  std::unordered_map<std::string, std::vector<std::size_t>> pages_of_title;
  for (std::size_t i = 0; i < pages.size(); ++i) pages_of_title[plain_query(pages[i].title)].push_back(i);
  std::vector<std::size_t> named_pages(pages.size(), 1);
  for (const auto& [title, members] : pages_of_title) {
    if (members.size() < 2) continue;
    std::vector<std::vector<std::string>> names;
    for (const std::size_t i : members) names.push_back(title_words(pages[i].title + " " + pages[i].heading));
    for (std::size_t a = 0; a < members.size(); ++a) {
      std::unordered_set<std::string> named;
      for (std::size_t b = 0; b < members.size(); ++b) {
        const Page& other = pages[members[b]];
        if (std::includes(names[b].begin(), names[b].end(), names[a].begin(), names[a].end())) {
          named.insert(other.duplicate ? other.authoritative : other.url);
        }
      }
      named_pages[members[a]] = named.size();
    }
  }
  return named_pages;
}

}  // namespace

Result<FindabilityResult> evaluate_findability(const std::filesystem::path& index_dir, std::size_t k,
                                               double title_weight) {
  auto lines = indexer::read_page_lines(index_dir);
  if (!lines.ok()) return lines.status();
  std::vector<Page> pages;
  std::unordered_map<std::string, std::size_t> title_count;
  for (indexer::PageLine& line : lines.value()) {
    const bool duplicate = line.status == indexer::PageStatus::kDuplicate;
    if (line.status != indexer::PageStatus::kIndexed && !duplicate) continue;
    Page p{std::move(line.path), std::move(line.url), std::move(line.authoritative), line.title.value_or(""),
           std::move(line.heading), duplicate};
    ++title_count[plain_query(p.title)];
    pages.push_back(std::move(p));
  }
  const std::vector<std::size_t> named_pages = pages_named_alike(pages);
  auto searcher = query::Searcher::open(index_dir);
  if (!searcher.ok()) return searcher.status();
  FindabilityResult result;
  result.k = k;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    const Page& p = pages[i];
    const std::string title = plain_query(p.title);
    const bool unique = title_count[title] == 1;
    if (!unique && p.heading.empty()) {
      ++result.shared_title_without_heading;
      continue;
    }
    const std::string text = unique ? title : title_and_heading_query(p.title, p.heading);
    if (text.find_first_not_of(' ') == std::string::npos) continue;
    query::SearchRequest request;
    request.query = text;
    request.limit = k;
    request.title_weight = title_weight;
    request.with_snippets = false;
    request.with_alternates = false;
    auto hits = searcher.value()->search(request);
    bool found = false;
    if (hits.ok()) {
      for (const query::SearchHit& hit : hits->hits) found = found || hit.url == p.url || hit.url == p.authoritative;
    }
    FindabilityCount& group = unique                            ? result.unique_title
                              : named_pages[i] <= k         ? result.shared_title
                                                              : result.shared_title_ambiguous;
    ++group.pages;
    group.found += found ? 1 : 0;
    if (unique && p.duplicate) {
      ++result.duplicates.pages;
      result.duplicates.found += found ? 1 : 0;
    }
    if (!found && result.missed.size() < 20) result.missed.emplace_back(p.path, text);
  }
  return result;
}

}  // namespace canon::eval
