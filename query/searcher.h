/// @file searcher.h
/// @brief Searching a canon index: ranked results, each with its collapsed alternates.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "common/status.h"
#include "format/alternates.h"
#include "format/facets.h"
#include "query/sections.h"
#include "query/shard_set.h"

namespace canon::query {

/// A page collapsed into a result (its URL, title and similarity to the result).
using Alternate = index_format::Alternate;

/// One ranked result.
struct SearchHit {
  /// 1-based rank over the whole result list (offset included).
  std::size_t rank = 0;
  std::string url;
  std::string title;
  /// The title without the suffix the site repeats on its pages' titles (" — Python 3.11.2
  /// documentation"; query/title_suffix.h): what a result shows. The title itself otherwise.
  std::string short_title;
  /// The best passage for the query; matches are wrapped in the highlight markers.
  std::string snippet;
  /// Xapian's relevance weight and percentage.
  double weight = 0.0;
  int percent = 0;
  /// The page's cluster PageRank (the static score stored at index time).
  double pagerank = 0.0;
  /// Where the page is in its site, outermost first, to tell pages of one name apart: its
  /// breadcrumb trail when it has one, else the directories of its URL ("java.base", "java",
  /// "util"). Empty for a page at the root without a trail.
  std::vector<std::string> place;
  /// True when `place` is the page's breadcrumb trail, false when it comes from its URL.
  bool place_from_breadcrumbs = false;
  std::vector<Alternate> alternates;
  /// The page's sections holding the query's words, best first (at most
  /// SearchRequest::sections; query/sections.h): where in the page to go.
  std::vector<SectionHit> sections;
  /// Query-time collapse only: when the cluster's best-matching page is one of its duplicates,
  /// that page's URL (the hit itself always shows the cluster's authoritative page, whose
  /// alternates include it). Empty otherwise.
  std::string matched_url;
};

/// A facet's value and the number of matches that have it.
struct FacetCount {
  std::string value;
  std::size_t count = 0;
};

/// The values of one facet among a search's matches, most matches first (at most
/// kMostFacetValues).
struct FacetCounts {
  index_format::Facet facet = index_format::Facet::kSection;
  std::vector<FacetCount> values;
};

inline constexpr std::size_t kMostFacetValues = 20;

/// A filter on a facet: only pages whose `facet` is `value`.
struct FacetFilter {
  index_format::Facet facet = index_format::Facet::kSection;
  std::string value;
};

/// The filter written `FACET=VALUE` ("section=library", "release=0.50"), or nothing when `text`
/// names no facet or has no value.
std::optional<FacetFilter> parse_facet_filter(std::string_view text);

/// A page of results.
struct SearchResults {
  std::string query;
  /// Xapian's estimate of all matches, and its bounds.
  std::size_t estimated_matches = 0;
  std::size_t matches_lower_bound = 0;
  std::size_t matches_upper_bound = 0;
  std::size_t offset = 0;
  std::vector<SearchHit> hits;
  /// How the index collapses near-duplicates: "index" or "query" (docs/index-format.md).
  std::string collapse;
  /// Shards of a sharded index that did not answer (ShardAddress::name): the results are those
  /// of the other shards. Empty when every shard answered, and for an index in one database.
  std::vector<std::string> missing_shards;
  /// With SearchRequest::count_facets: each facet whose values among all the matches are two or
  /// more, or that a filter of the request narrows, in index_format::kFacets' order.
  std::vector<FacetCounts> facets;
  /// The query these are the results of when search() corrected the spelling of `query`
  /// (SearchRequest::correct_spelling); empty when they are `query`'s own.
  std::string corrected_query;

  /// True when the number of matches is known exactly, not an estimate.
  bool matches_exact() const {
    return matches_lower_bound == matches_upper_bound && matches_upper_bound == estimated_matches;
  }
};

/// Which stored static score search adds to BM25 (docs/ranking.md, "Static score in search").
enum class StaticScore {
  /// ln(1 + N * cluster PageRank), value slot 12: the default.
  kLogPageRank,
  /// The cluster PageRank itself, value slot 10 (very skewed: only hub pages get much).
  kPageRank,
};

/// Default of SearchRequest::static_weight, chosen by the measurement in docs/ranking.md.
inline constexpr double kDefaultStaticWeight = 0.15;

/// Default of SearchRequest::title_weight, chosen by the findability measurement in
/// docs/ranking.md ("Title matches").
inline constexpr double kDefaultTitleWeight = 0.1;

/// Default of SearchRequest::anchor_weight, chosen by the known-item measurement in
/// docs/ranking.md ("Anchor text").
inline constexpr double kDefaultAnchorWeight = 1.0;

/// Default of SearchRequest::sections: a result shows its three best sections, as Pagefind's
/// sub-results do.
inline constexpr std::size_t kDefaultSections = 3;

/// What search() is asked for.
struct SearchRequest {
  std::string query;
  std::size_t offset = 0;
  std::size_t limit = 10;
  /// Wrapped around query matches in snippets (e.g. ANSI bold on a terminal, "" for none).
  std::string highlight_start;
  std::string highlight_end;
  /// The most the static score can add to a page's BM25 weight: the page with the highest
  /// static score gets exactly this much, others proportionally less. 0 ranks by BM25 alone.
  /// REQUIRES: finite and >= 0 (search() fails otherwise).
  double static_weight = kDefaultStaticWeight;
  StaticScore static_score = StaticScore::kLogPageRank;
  /// How much a match of the query's words in a page's title (or an alternate's title) adds:
  /// the query is also run on titles alone, its BM25 weight scaled by this and added to the
  /// pages that match anyway. A page named by the query ranks above pages that only mention
  /// its words; a page whose whole title is the query's words (index_format::exact_title_term)
  /// gets that term's BM25 weight too. 0 turns both off. REQUIRES: finite and >= 0 (search()
  /// fails otherwise).
  double title_weight = kDefaultTitleWeight;
  /// How much a page that other pages link to with the query's words as the link's whole text
  /// gets (docs/ranking.md, "Anchor text"): anchor_weight * ln(N / termfreq) for each anchor
  /// term of the query it has (caseless, as written, and one per doubling of the pages that link
  /// so). 0 turns it off. REQUIRES: finite and >= 0 (search() fails otherwise).
  double anchor_weight = kDefaultAnchorWeight;
  /// Whether hits carry their snippet and their alternates (turning them off only saves time;
  /// for benchmarks and callers that do not show them).
  bool with_snippets = true;
  bool with_alternates = true;
  /// Only pages with every one of these facet values (a reader's clicked filters).
  std::vector<FacetFilter> filters;
  /// Count the facets' values over every match (SearchResults::facets, with Xapian's match
  /// spies): every match is then weighed, not only those that can reach this page of results.
  bool count_facets = false;
  /// Sections shown under each hit at most (0: none; matching_sections in query/sections.h).
  std::size_t sections = kDefaultSections;
  /// "Did you mean": when the query has fewer than kFewMatches matches and has words the index
  /// does not hold, each is replaced by the index's nearest word (Xapian's spelling table, which
  /// `canon index` fills from the indexed pages' words); when that query has more matches, its
  /// results are returned instead, with SearchResults::corrected_query set.
  bool correct_spelling = true;
};

/// Fewer matches than this, and search() tries a spelling correction (SearchRequest::correct_spelling).
inline constexpr std::size_t kFewMatches = 10;

/// An open canon index. Not thread-safe: use one Searcher per thread.
class Searcher {
public:
  /// Opens INDEX_DIR (the directory `canon index --out` or `canon shard --out` wrote), or a stub
  /// file listing the shards of an index (local and remote: shard_set.h, docs/serving.md).
  /// Fails with a clear message when it is missing, is not a readable canon index, or none of
  /// its shards answers; shards that do not answer are left out and tried again later.
  static Result<std::unique_ptr<Searcher>> open(const std::filesystem::path& index_dir,
                                                const ShardOptions& shard_options = {});
  ~Searcher();

  /// Runs `request.query` in Xapian QueryParser syntax (phrases, AND/OR/NOT, +/-, title:,
  /// site:/host:, path:, wildcards), ranked by BM25 plus the static score. In an index built
  /// for query-time collapse, each near-duplicate cluster appears once: at the rank of its
  /// best-matching member, shown as its authoritative page. Fails on a malformed query
  /// (unbalanced quotes or parentheses, a syntax error), one with no searchable terms, or an
  /// invalid static_weight, title_weight or anchor_weight.
  Result<SearchResults> search(const SearchRequest& request);

  /// Number of documents in the index (in a query-time-collapse index, duplicates included).
  std::size_t document_count() const;

  /// True when the index was built with `canon index --no-collapse`.
  bool collapses_at_query_time() const;

private:
  struct Rep;
  explicit Searcher(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace canon::query
