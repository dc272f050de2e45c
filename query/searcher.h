/// @file searcher.h
/// @brief Searching a canon index: ranked results, each with its collapsed alternates.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

namespace canon::query {

/// A page collapsed into a result.
struct Alternate {
  std::string url;
  std::string title;
  double similarity = 0.0;
};

/// One ranked result.
struct SearchHit {
  /// 1-based rank over the whole result list (offset included).
  std::size_t rank = 0;
  std::string url;
  std::string title;
  /// The best passage for the query; matches are wrapped in the highlight markers.
  std::string snippet;
  /// Xapian's relevance weight and percentage.
  double weight = 0.0;
  int percent = 0;
  /// The page's cluster PageRank (the static score stored at index time).
  double pagerank = 0.0;
  std::vector<Alternate> alternates;
};

/// A page of results.
struct SearchResults {
  std::string query;
  /// Xapian's estimate of all matches, and its bounds.
  std::size_t estimated_matches = 0;
  std::size_t matches_lower_bound = 0;
  std::size_t matches_upper_bound = 0;
  std::size_t offset = 0;
  std::vector<SearchHit> hits;
};

/// What search() is asked for.
struct SearchRequest {
  std::string query;
  std::size_t offset = 0;
  std::size_t limit = 10;
  /// Wrapped around query matches in snippets (e.g. ANSI bold on a terminal, "" for none).
  std::string highlight_start;
  std::string highlight_end;
};

/// An open canon index. Not thread-safe: use one Searcher per thread.
class Searcher {
public:
  /// Opens INDEX_DIR (the directory `canon index --out` wrote). Fails with a clear message
  /// when it is missing or is not a readable canon index.
  static Result<std::unique_ptr<Searcher>> open(const std::filesystem::path& index_dir);
  ~Searcher();

  /// Runs `request.query` in Xapian QueryParser syntax (phrases, AND/OR/NOT, +/-, title:,
  /// site:, wildcards). Fails on a malformed query (unbalanced quotes or parentheses, a syntax
  /// error) or one with no searchable terms.
  Result<SearchResults> search(const SearchRequest& request);

  /// Number of documents in the index.
  std::size_t document_count() const;

private:
  struct Rep;
  explicit Searcher(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace canon::query
