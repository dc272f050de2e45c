/// @file results.cpp
/// @brief Running a search on the index's current database: the query with its ranking parts
/// and facet filters, its matches, their facet counts, and each hit with its snippet,
/// alternates and sections.
#include "query/searcher.h"

#include "query/searcher_rep.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "format/index_format.h"
#include "format/page_place.h"
#include "format/section_places.h"
#include "format/text_head.h"
#include "query/ranking_parts.h"
#include "query/snippets.h"
#include "query/title_suffix.h"
#include "query/wildcards.h"
#include "urls/url.h"

namespace canon::query {
namespace fmt = canon::index_format;
namespace {

/// A hit's document fields as the reader sees them.
void fill_hit(SearchHit& hit, const std::string& data, const Xapian::Document& doc, std::string_view title_suffix) {
  hit.url = fmt::data_field(data, fmt::kDataUrl);
  hit.title = fmt::data_field(data, fmt::kDataCaption);
  hit.short_title = without_suffix(hit.title, title_suffix);
  const std::string score = doc.get_value(fmt::kStaticScoreSlot);
  hit.pagerank = score.empty() ? 0.0 : Xapian::sortable_unserialise(score);
  hit.place = fmt::decode_place(fmt::data_field(data, fmt::kDataPlace));
  hit.place_from_breadcrumbs = !hit.place.empty();
  if (hit.place.empty()) hit.place = urls::url_directories(hit.url);
}

/// `query` narrowed to the pages with every facet value of `filters` (OP_VALUE_RANGE on the
/// facet's slot, which remote shards know too).
Xapian::Query with_filters(Xapian::Query query, const std::vector<FacetFilter>& filters) {
  for (const FacetFilter& filter : filters) {
    query = Xapian::Query(Xapian::Query::OP_FILTER, query,
                          Xapian::Query(Xapian::Query::OP_VALUE_RANGE, fmt::facet_slot(filter.facet), filter.value,
                                        filter.value));
  }
  return query;
}

/// A match spy per facet, counting its values over the matches of one Enquire.
class FacetSpies {
public:
  explicit FacetSpies(Xapian::Enquire& enquire) {
    for (fmt::Facet facet : fmt::kFacets) {
      spies_.push_back(std::make_unique<Xapian::ValueCountMatchSpy>(fmt::facet_slot(facet)));
      enquire.add_matchspy(spies_.back().get());
    }
  }

  /// The facets with two values or more, or filtered by `filters`, most matches first.
  std::vector<FacetCounts> counts(const std::vector<FacetFilter>& filters) const {
    std::vector<FacetCounts> out;
    for (std::size_t i = 0; i < fmt::kFacets.size(); ++i) {
      FacetCounts counts{fmt::kFacets[i], {}};
      for (auto it = spies_[i]->top_values_begin(kMostFacetValues); it != spies_[i]->top_values_end(kMostFacetValues); ++it) {
        counts.values.push_back({*it, it.get_termfreq()});
      }
      const bool filtered = std::any_of(filters.begin(), filters.end(), [&](const FacetFilter& f) { return f.facet == counts.facet; });
      if (counts.values.size() >= 2 || (filtered && !counts.values.empty())) out.push_back(std::move(counts));
    }
    return out;
  }

private:
  std::vector<std::unique_ptr<Xapian::ValueCountMatchSpy>> spies_;
};

}  // namespace

std::optional<FacetFilter> parse_facet_filter(std::string_view text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string_view::npos || equals + 1 == text.size()) return std::nullopt;
  const std::optional<fmt::Facet> facet = fmt::parse_facet(text.substr(0, equals));
  if (!facet) return std::nullopt;
  return FacetFilter{*facet, std::string(text.substr(equals + 1))};
}

Result<SearchResults> Searcher::Rep::run(const SearchRequest& request) {
  // CJK runs as the index has them: single characters and pairs (IndexWriter's term generator).
  const unsigned flags = Xapian::QueryParser::FLAG_DEFAULT | Xapian::QueryParser::FLAG_WILDCARD |
                         Xapian::QueryParser::FLAG_PURE_NOT | Xapian::QueryParser::FLAG_CJK_NGRAM;
  Xapian::Query query = parser.parse_query(rewrite_wildcards(request.query), flags);
  if (query.empty())
    return Status::error("the query has no searchable words: '" + request.query + "'");
  const HitExtras extras = hit_extras(request, flags, query);

  const std::vector<detail::AnchorAsk> asks = detail::anchor_asks(request);
  const std::vector<std::string> exact_titles = detail::title_match_terms(request);
  std::vector<std::string> counted = detail::anchor_terms(asks);
  counted.insert(counted.end(), exact_titles.begin(), exact_titles.end());
  const detail::TermFrequencies frequencies(db(), counted, shards.has_remote() ? &remote_frequencies : nullptr);
  query = detail::with_title_matches(query, parser, request, flags, exact_titles, frequencies,
                                     db().get_doccount());
  query = detail::with_anchor_matches(query, db(), request, asks, frequencies);
  const bool log_score = request.static_score == StaticScore::kLogPageRank;
  const double static_bound = log_score ? log_pagerank_bound : pagerank_bound;
  query = detail::with_static_score(query, request, static_bound);
  query = with_filters(query, request.filters);

  Xapian::Enquire enquire(db());
  enquire.set_query(query);
  std::optional<FacetSpies> spies;
  if (request.count_facets) spies.emplace(enquire);
  if (query_time_collapse) enquire.set_collapse_key(fmt::kClusterSlot);
  // Equal weights are ordered by URL, not by document id (which differ between an index
  // re-used by `canon index` and one built afresh); indexes without the slot keep id order.
  enquire.set_sort_by_relevance_then_value(fmt::kUrlSlot, false);
  // Over shards, every match is weighed (check_at_least: all documents): Xapian 1.4's pruning
  // of documents that cannot reach the page (operators decaying as the page fills) leaves out,
  // over several databases, documents one database keeps (docs/serving.md, measured there).
  // Weighing all of them gives the one database's results, and exact match counts.
  // Facets are counted over every match, so they too need every match weighed. So does a static
  // part scaled up (--static-score pagerank, or a static weight above the bound): Xapian 1.4
  // gives a scaled posting source the scaled minimum weight, which it compares with its
  // unscaled maximum, so it stops early and pages that belong on this page of results are lost.
  const bool scaled_up = request.static_weight > 0 && static_bound > 0 && request.static_weight / static_bound > 1;
  const Xapian::doccount check_at_least =
      shards.sharded() || request.count_facets || scaled_up ? db().get_doccount() : 0;
  const Xapian::MSet mset = enquire.get_mset(static_cast<Xapian::doccount>(request.offset),
                                             static_cast<Xapian::doccount>(request.limit), check_at_least);
  SearchResults results;
  results.query = request.query;
  results.offset = request.offset;
  results.collapse = std::string(
      fmt::to_string(query_time_collapse ? fmt::CollapseMode::kQueryTime : fmt::CollapseMode::kIndexTime));
  results.estimated_matches = mset.get_matches_estimated();
  results.matches_lower_bound = mset.get_matches_lower_bound();
  results.matches_upper_bound = mset.get_matches_upper_bound();
  results.hits = hits_of(mset, request, extras);
  if (spies) results.facets = spies->counts(request.filters);
  return results;
}

Xapian::Query Searcher::Rep::highlight_query(const SearchRequest& request, unsigned flags, const Xapian::Query& query) {
  // A word of the query is its term, or its stem with Omega's Z prefix (STEM_SOME).
  const auto is_stopword = [this](const std::string& term) {
    return (*stopper)(term) || (term.starts_with('Z') && (*stopper)(term.substr(1)));
  };
  if (std::none_of(query.get_unique_terms_begin(), query.get_unique_terms_end(), is_stopword)) return query;
  parser.set_stopper(stopper.get());
  Xapian::Query without;
  try {
    without = parser.parse_query(rewrite_wildcards(request.query), flags);
  } catch (...) {
    parser.set_stopper(nullptr);
    throw;
  }
  parser.set_stopper(nullptr);
  return without.empty() ? query : without;
}

Searcher::Rep::HitExtras Searcher::Rep::hit_extras(const SearchRequest& request, unsigned flags,
                                                    const Xapian::Query& query) {
  HitExtras extras;
  if (!request.with_snippets && request.sections == 0) return extras;
  const Xapian::Query highlighted = highlight_query(request, flags, query);
  if (request.sections > 0) extras.section_query = section_query(db(), request.query, highlighted, parser, stemmer);
  if (!request.with_snippets) return extras;
  extras.needles = detail::snippet_needles(highlighted, parser);
  Xapian::Enquire snippet_enquire(snippet_terms);
  snippet_enquire.set_query(highlighted);
  extras.snippet_set = snippet_enquire.get_mset(0, 0);
  return extras;
}

std::vector<SearchHit> Searcher::Rep::hits_of(const Xapian::MSet& mset, const SearchRequest& request,
                                              const HitExtras& extras) {
  std::vector<Xapian::docid> ids;
  for (auto it = mset.begin(); it != mset.end(); ++it) ids.push_back(*it);
  const std::vector<Xapian::Document> documents = shards.documents(ids);
  std::vector<SearchHit> hits;
  std::vector<Xapian::docid> shown_ids;  // the document each hit shows, for its sections
  std::vector<std::string> section_lines;
  std::size_t index = 0;
  for (auto it = mset.begin(); it != mset.end(); ++it, ++index) {
    Xapian::Document doc = documents[index];
    Xapian::docid shown = *it;
    std::string data = doc.get_data();
    SearchHit hit;
    hit.rank = it.get_rank() + 1;  // get_rank() already counts the offset
    hit.weight = it.get_weight();
    hit.percent = it.get_percent();
    // A duplicate won its cluster: show the authoritative page it names instead.
    if (const std::string authoritative = fmt::data_field(data, fmt::kDataAuthoritative);
        !authoritative.empty()) {
      const std::string term = fmt::url_term(authoritative);
      if (auto post = db().postlist_begin(term); post != db().postlist_end(term)) {
        hit.matched_url = fmt::data_field(data, fmt::kDataUrl);
        shown = *post;
        doc = db().get_document(shown);
        data = doc.get_data();
      }
    }
    fill_hit(hit, data, doc, title_suffix);
    if (request.with_snippets) {
      const std::string head = fmt::decode_text_head(doc.get_value(fmt::kTextHeadSlot)).value_or("");
      hit.snippet = detail::make_snippet(extras.snippet_set, head, doc, extras.needles, stemmer, request);
    }
    if (request.with_alternates)
      hit.alternates = fmt::decode_alternates(fmt::data_field(data, fmt::kDataAlternates));
    shown_ids.push_back(shown);
    if (request.sections > 0) section_lines.push_back(fmt::data_field(data, fmt::kDataSections));
    hits.push_back(std::move(hit));
  }
  if (request.sections > 0) add_sections(hits, shown_ids, section_lines, extras.section_query, request.sections);
  return hits;
}

void Searcher::Rep::add_sections(std::vector<SearchHit>& hits, const std::vector<Xapian::docid>& shown,
                                 const std::vector<std::string>& section_lines, const SectionQuery& query,
                                 std::size_t most) const {
  std::vector<std::vector<fmt::SectionView>> sections;  // views into section_lines
  std::vector<std::optional<Xapian::termpos>> from;
  for (const std::string& line : section_lines) {
    sections.push_back(fmt::decode_sections(line));
    from.push_back(sections.back().empty() ? std::nullopt : std::optional(sections.back().front().heading_start));
  }
  const std::vector<DocumentPositions> positions = read_word_positions(db(), shown, from, query);
  for (std::size_t i = 0; i < hits.size() && i < sections.size(); ++i)
    hits[i].sections = matching_sections(positions[i], hits[i].url, hits[i].title, sections[i], query, most);
}

}  // namespace canon::query
