/// @file findability.h
/// @brief `canon eval findability INDEX_DIR`: can every page still be found by its title, now
/// that near-duplicates are collapsed (docs/evaluation.md, "Findability")?
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "common/status.h"
#include "query/searcher.h"

namespace canon::eval {

/// One group of pages searched the same way.
struct FindabilityCount {
  std::size_t pages = 0;
  /// Pages whose search returned the page, or the page it was collapsed into, in the top k.
  std::size_t found = 0;
  double rate() const { return pages == 0 ? 1.0 : static_cast<double>(found) / static_cast<double>(pages); }
};

struct FindabilityResult {
  std::size_t k = 3;
  /// Indexed and duplicate pages whose title no other such page has: searched by their title.
  FindabilityCount unique_title;
  /// Pages that share their title with others and have a heading: searched by title and heading,
  /// when that query names at most k distinct indexed pages.
  FindabilityCount shared_title;
  /// The other shared-title pages: their title and heading name more than k indexed pages
  /// (three classes "Configuration" of three packages), which cannot all be in the top k.
  FindabilityCount shared_title_ambiguous;
  /// Pages that share their title and have no heading: not searched (nothing tells them apart).
  std::size_t shared_title_without_heading = 0;
  /// Of unique_title, the duplicates (found through the page they were collapsed into).
  FindabilityCount duplicates;
  /// Up to 20 pages that were not found: their path and the query.
  std::vector<std::pair<std::string, std::string>> missed;
};

/// `text` as a plain query, as a person would type a title: the characters QueryParser reads as
/// syntax (quotes, parentheses, '*', ':', a '+' or '-' that starts a word) become spaces and ASCII
/// letters are lowercased (so no word is read as AND/OR/NOT); everything else is kept.
std::string plain_query(const std::string& text);

/// The query for a page that shares its title: plain_query(title) followed by plain_query(heading)
/// when the heading has a word the title lacks ("DECLARE" + "DECLARE" is "declare"; "Index" +
/// "Index – P" is "index index – p").
std::string title_and_heading_query(const std::string& title, const std::string& heading);

/// Searches INDEX_DIR (a `canon index` output) for each indexed and duplicate page of its
/// pages.jsonl by plain_query(title), or title_and_heading_query when other pages share the
/// title, and counts the pages whose own URL or `authoritative` URL is among the top
/// k results, searching with `title_weight` (query::SearchRequest::title_weight). Fails when the
/// index cannot be opened or pages.jsonl cannot be read.
Result<FindabilityResult> evaluate_findability(const std::filesystem::path& index_dir, std::size_t k,
                                               double title_weight = query::kDefaultTitleWeight);

}  // namespace canon::eval
