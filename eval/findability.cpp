/// @file findability.cpp
/// @brief evaluate_findability: title searches over an index's own pages.
#include "eval/findability.h"

#include <fstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

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

Result<FindabilityResult> evaluate_findability(const std::filesystem::path& index_dir, std::size_t k,
                                               double title_weight) {
  struct Page {
    std::string path, url, authoritative, title, heading;
    bool duplicate = false;
  };
  std::ifstream in(index_dir / "pages.jsonl");
  if (!in) return Status::error("cannot read '" + (index_dir / "pages.jsonl").string() + "'");
  std::vector<Page> pages;
  std::unordered_map<std::string, std::size_t> title_count;
  std::string line;
  try {
    while (std::getline(in, line)) {
      const nlohmann::json r = nlohmann::json::parse(line);
      const std::string status = r.value("status", "");
      if (status != "indexed" && status != "duplicate") continue;
      Page p{r.value("path", ""), r.value("url", ""), r.value("authoritative", ""), r.value("title", ""),
             r.value("heading", ""), status == "duplicate"};
      ++title_count[plain_query(p.title)];
      pages.push_back(std::move(p));
    }
  } catch (const nlohmann::json::exception& e) {
    return Status::error("'" + (index_dir / "pages.jsonl").string() + "' is not canon's pages.jsonl: " + e.what());
  }
  auto searcher = query::Searcher::open(index_dir);
  if (!searcher.ok()) return searcher.status();
  FindabilityResult result;
  result.k = k;
  for (const Page& p : pages) {
    const std::string title = plain_query(p.title);
    const bool unique = title_count[title] == 1;
    if (!unique && p.heading.empty()) {
      ++result.shared_title_without_heading;
      continue;
    }
    const std::string text = unique ? title : plain_query(p.title + " " + p.heading);
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
    FindabilityCount& group = unique ? result.unique_title : result.shared_title;
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
