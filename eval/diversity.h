/// @file diversity.h
/// @brief `canon eval diversity`: how many distinct near-duplicate clusters the top k results
/// show with no collapsing, with query-time collapse and with canon's index-time collapse
/// (docs/evaluation.md, "canon eval diversity", has the exact definitions).
///
/// The metric functions take a ranking as the cluster label of each result, best first, and
/// the relevance of the query as the relevant clusters with their sizes: each cluster is one
/// subtopic, and every page of a relevant cluster is relevant to it (and to nothing else).
/// Empty denominators follow metrics.h: a score whose denominator is zero is 1 (nothing to
/// find), except Dup@k, a rate of waste, which is 0 for an empty ranking.
///
/// evaluate_diversity() runs the queries on the three views of one site. It takes an index
/// built with `canon index --no-collapse`, which holds every page with its cluster id and
/// authoritative page, and derives the two others from it in a temporary directory: the
/// uncollapsed view (the same documents, searched without a collapse key) and the index-time
/// view (only the authoritative pages: the documents `canon index` writes by default).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace canon::eval {

/// α of α-nDCG: the gain of a result falls by this factor for each higher result of its cluster.
inline constexpr double kDefaultAlpha = 0.5;

/// The relevant clusters of one query (its subtopics), each with its number of pages (>= 1):
/// the pages an ideal ranking could show for it.
struct QueryRelevance {
  std::unordered_map<std::uint64_t, std::size_t> cluster_sizes;
};

/// Share of the top k (of the results there are, if fewer) whose cluster is that of a higher
/// result; 0 for an empty ranking.
double dup_at_k(std::span<const std::uint64_t> ranking, std::size_t k);

/// Number of distinct clusters in the top k.
std::size_t distinct_at_k(std::span<const std::uint64_t> ranking, std::size_t k);

/// Relevant clusters in the top k / min(k, relevant clusters): the share of the clusters a top
/// k could show that it does show. 1 when there is no relevant cluster.
double cluster_recall_at_k(std::span<const std::uint64_t> ranking, const QueryRelevance& relevance,
                           std::size_t k);

/// α-nDCG@k (Clarke et al., SIGIR 2008) with each cluster as a subtopic: the result at rank r
/// (1-based) gains (1 - α)^m when its cluster is relevant and m higher results share its
/// cluster, else 0; DCG = Σ gain / log2(1 + r) over the top k, divided by the DCG of the ideal
/// ranking. Because a page covers exactly one subtopic, the ideal is exact (not the usual greedy
/// approximation): the k largest gains over all relevant pages, i.e. one page of every relevant
/// cluster, then second pages, and so on. 1 when there is no relevant cluster.
/// REQUIRES: 0 <= alpha <= 1.
double alpha_ndcg_at_k(std::span<const std::uint64_t> ranking, const QueryRelevance& relevance,
                       std::size_t k, double alpha = kDefaultAlpha);

/// The four scores of one ranking (or their means over queries).
struct DiversityScores {
  double dup = 0.0;
  double distinct = 0.0;
  double cluster_recall = 0.0;
  double alpha_ndcg = 0.0;
};

DiversityScores score_ranking(std::span<const std::uint64_t> ranking,
                              const QueryRelevance& relevance, std::size_t k,
                              double alpha = kDefaultAlpha);

/// Reads a query file: one query per line in `canon search` syntax; blank lines and lines
/// starting with '#' are skipped. Fails when the file cannot be read or holds no query.
Result<std::vector<std::string>> read_queries(const std::filesystem::path& path);

/// Draws up to `count` distinct queries, reproducibly for a seed, from the titles of the
/// index's authoritative pages (pages.jsonl; a site-name suffix shared by many titles, such as
/// " — Python 3.11 documentation", is dropped) and, when `site_dir` is not empty, the h1–h6
/// headings of those pages' main content (read from the site). Each query is 1 to 3 consecutive
/// words (lower case, stop words and numbers dropped) of one title or heading, chosen
/// uniformly. Fails when pages.jsonl cannot be read or no title or heading has a usable word.
Result<std::vector<std::string>> sample_queries(const std::filesystem::path& index_dir,
                                                const std::filesystem::path& site_dir,
                                                std::size_t count, std::uint64_t seed);

/// What `canon eval diversity` can be told.
struct DiversityOptions {
  /// An index built with `canon index --no-collapse`.
  std::filesystem::path index_dir;
  /// The queries; see read_queries() and sample_queries().
  std::vector<std::string> queries;
  /// Cut-off rank. REQUIRES: >= 1.
  std::size_t k = 10;
  double alpha = kDefaultAlpha;
  /// When set, truth.json of a `canon synth` site: its true clusters are the subtopics.
  /// Otherwise the index's detected clusters (pages.jsonl `cluster`) are.
  std::optional<std::filesystem::path> truth_path;
  /// Where the derived views are built (a directory that is created and removed again);
  /// empty: a fresh directory under the system's temporary directory.
  std::filesystem::path work_dir;
};

/// The results of one collapse mode.
struct ModeDiversity {
  /// "none", "query" or "index".
  std::string mode;
  /// Documents in the database searched, and its size once compacted (as `xapian-compact`
  /// writes it, so the three sizes do not depend on how each database was written).
  std::size_t documents = 0;
  std::uint64_t index_bytes = 0;
  /// Means over the scored queries.
  DiversityScores mean;
};

/// Everything `canon eval diversity` reports.
struct DiversityEvaluation {
  std::size_t k = 10;
  double alpha = kDefaultAlpha;
  /// "truth" or "detected": which clusters are the subtopics.
  std::string subtopics;
  std::vector<std::string> queries;
  /// Queries with at least one match (the others have nothing to rank and are not averaged).
  std::size_t scored_queries = 0;
  /// Mean number of relevant clusters per scored query.
  double mean_relevant_clusters = 0.0;
  /// none, query, index, in that order.
  std::vector<ModeDiversity> modes;
};

/// Runs every query on the three views and scores the top k of each. The relevant clusters of a
/// query are the clusters of all pages that match it without collapsing (docs/evaluation.md
/// says why). Fails when the index is not a `--no-collapse` index, a query is malformed (the
/// message names it), the truth does not describe the indexed site, or the derived views
/// cannot be written. REQUIRES: options.k >= 1, 0 <= options.alpha <= 1.
Result<DiversityEvaluation> evaluate_diversity(const DiversityOptions& options);

/// {"k", "alpha", "subtopics", "queries": count, "scored_queries", "mean_relevant_clusters",
///  "modes": [{"mode", "documents", "index_bytes", "dup_at_k", "distinct_at_k",
///  "cluster_recall_at_k", "alpha_ndcg_at_k"}], "query_list": [...]}.
nlohmann::json to_json(const DiversityEvaluation& evaluation);

/// A small aligned table of the same numbers, for the terminal.
std::string render_text(const DiversityEvaluation& evaluation);

}  // namespace canon::eval
