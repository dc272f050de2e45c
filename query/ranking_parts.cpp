/// @file ranking_parts.cpp
/// @brief Title matches, anchor text and the static score added to a search's query, each as
/// an AND_MAYBE part that ranks the query's matches without making a page match.
#include "query/ranking_parts.h"

#include <cmath>
#include <utility>

#include "format/index_format.h"
#include "query/wildcards.h"

namespace canon::query::detail {
namespace fmt = canon::index_format;
namespace {

/// `query` AND_MAYBE `part`, as one AND_MAYBE when `query` is one already: every optional part
/// of the query (title, exact title, anchors, static score) then sits on the right of a single
/// AND_MAYBE over the parsed query, never on the right of an AND_MAYBE whose left holds another
/// one. Xapian 1.4 loses matches when an AND_MAYBE decays to an AND while its right side is
/// parked on a later match (AndMaybePostList::next skips to max(lhead, rhead) + 1); nested, an
/// inner AND_MAYBE running out of right-side matches drops the outer one's left maximum under
/// the page's lowest weight while the outer right side is parked ahead, and the top page
/// depended on --limit. The weights are the same sums.
Xapian::Query and_maybe(const Xapian::Query& query, const Xapian::Query& part) {
  if (query.get_type() != Xapian::Query::OP_AND_MAYBE) return Xapian::Query(Xapian::Query::OP_AND_MAYBE, query, part);
  std::vector<Xapian::Query> parts;
  for (std::size_t i = 0; i < query.get_num_subqueries(); ++i) parts.push_back(query.get_subquery(i));
  parts.push_back(part);
  return Xapian::Query(Xapian::Query::OP_AND_MAYBE, parts.begin(), parts.end());
}

}  // namespace

TermFrequencies::TermFrequencies(const Xapian::Database& db, const std::vector<std::string>& terms,
                                 RememberedFrequencies* remembered)
    : db_(db), remembered_(remembered) {
  if (remembered == nullptr) return;
  std::vector<Xapian::Query> unknown;
  for (const std::string& term : terms) {
    if (!remembered->frequency.contains(term)) unknown.emplace_back(term);
  }
  if (unknown.empty()) return;
  if (remembered->frequency.size() + unknown.size() > RememberedFrequencies::kMostRemembered) {
    remembered->frequency.clear();
    unknown.assign(terms.begin(), terms.end());
  }
  Xapian::Enquire enquire(db);
  enquire.set_query(Xapian::Query(Xapian::Query::OP_OR, unknown.begin(), unknown.end()));
  const Xapian::MSet statistics = enquire.get_mset(0, 0);
  for (const std::string& term : terms) {
    if (!remembered->frequency.contains(term)) remembered->frequency.emplace(term, statistics.get_termfreq(term));
  }
}

Xapian::doccount TermFrequencies::operator()(const std::string& term) const {
  if (remembered_ != nullptr) {
    if (const auto found = remembered_->frequency.find(term); found != remembered_->frequency.end()) return found->second;
  }
  return db_.get_termfreq(term);
}

std::vector<std::string> title_match_terms(const SearchRequest& request) {
  if (request.title_weight <= 0) return {};
  std::vector<std::string> terms = fmt::exact_title_terms_within(request.query);
  // A heading of several words names a section ("Reading and Writing Files"); one word is a
  // name, which titles and anchors weigh (a class's member heading `is_signed` is not the page
  // named is_signed).
  if (fmt::exact_words(request.query).find(' ') != std::string::npos) {
    terms.push_back(fmt::exact_heading_term(request.query));
  }
  return terms;
}

Xapian::Query with_title_matches(Xapian::Query query, Xapian::QueryParser& parser, const SearchRequest& request,
                                 unsigned flags, const std::vector<std::string>& exact,
                                 const TermFrequencies& frequency, double documents) {
  if (request.title_weight <= 0) return query;
  const Xapian::Query in_titles =
      parser.parse_query(rewrite_wildcards(request.query, true), flags, std::string(fmt::kTitlePrefix));
  if (!in_titles.empty()) {
    query = and_maybe(query, Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, in_titles, request.title_weight));
  }
  std::vector<Xapian::Query> weighed;
  for (const std::string& term : exact) {
    const double pages = frequency(term);
    if (pages == 0) continue;
    // BM25's idf (Xapian's BM25Weight), which is the weight of a term met once in a page of
    // average length.
    const double weight = std::log((documents - pages + 0.5) / (pages + 0.5));
    if (weight <= 0) continue;
    weighed.emplace_back(Xapian::Query::OP_FILTER,
                         Xapian::Query((new Xapian::FixedWeightPostingSource(weight))->release()), Xapian::Query(term));
  }
  if (!weighed.empty()) {
    query = and_maybe(query, Xapian::Query(Xapian::Query::OP_OR, weighed.begin(), weighed.end()));
  }
  return query;
}

std::vector<AnchorAsk> anchor_asks(const SearchRequest& request) {
  std::vector<AnchorAsk> asks;
  const std::string words = fmt::exact_words(request.query);
  if (request.anchor_weight <= 0 || words.empty()) return asks;
  asks.push_back({fmt::exact_anchor_term(request.query), ""});
  asks.push_back({fmt::cased_anchor_term(request.query), ""});
  if (words.find(' ') != std::string::npos) asks.push_back({"", fmt::place_name_term(words)});
  for (std::size_t space = words.find(' '); space != std::string::npos; space = words.find(' ', space + 1)) {
    asks.push_back({fmt::exact_anchor_term(words.substr(0, space)), fmt::place_name_term(words.substr(space + 1))});
  }
  return asks;
}

std::vector<std::string> anchor_terms(const std::vector<AnchorAsk>& asks) {
  std::vector<std::string> terms;
  for (const AnchorAsk& ask : asks) {
    if (!ask.place.empty()) terms.push_back(ask.place);
    if (ask.name.empty()) continue;
    terms.push_back(ask.name);
    for (unsigned level = 1; level <= fmt::kAnchorCountLevels; ++level) terms.push_back(fmt::anchor_count_term(ask.name, level));
  }
  return terms;
}

Xapian::Query with_anchor_matches(Xapian::Query query, const Xapian::Database& db, const SearchRequest& request,
                                  const std::vector<AnchorAsk>& asks, const TermFrequencies& frequency) {
  if (asks.empty()) return query;
  const double documents = db.get_doccount();
  const auto idf = [&](const std::string& term) {
    const Xapian::doccount f = frequency(term);
    return f == 0 ? 0.0 : std::log(documents / f);
  };
  std::vector<Xapian::Query> weighed;
  // Gives `weight` (times the anchor weight) to the pages `filter` matches, when it is positive.
  const auto add = [&](double weight, Xapian::Query filter) {
    if (weight <= 0) return;
    weighed.emplace_back(Xapian::Query::OP_FILTER,
                         Xapian::Query((new Xapian::FixedWeightPostingSource(request.anchor_weight * weight))->release()),
                         std::move(filter));
  };
  for (const AnchorAsk& ask : asks) {
    const double place_weight = ask.place.empty() ? 0.0 : idf(ask.place);
    if (ask.name.empty()) {
      add(place_weight, Xapian::Query(ask.place));
      continue;
    }
    if (!ask.place.empty() && place_weight <= 0) continue;  // no page has that place
    // The name term and its count terms, up to the first level no page has, each with its idf
    // (the name term with the place's too), ANDed with the place when there is one.
    for (unsigned level = 0; level <= fmt::kAnchorCountLevels; ++level) {
      const std::string term = level == 0 ? ask.name : fmt::anchor_count_term(ask.name, level);
      if (frequency(term) == 0) break;  // no page at this level, nor at any higher one
      Xapian::Query filter(term);
      if (!ask.place.empty()) filter = Xapian::Query(Xapian::Query::OP_AND, filter, Xapian::Query(ask.place));
      add(idf(term) + (level == 0 ? place_weight : 0.0), std::move(filter));
    }
  }
  if (weighed.empty()) return query;
  return and_maybe(query, Xapian::Query(Xapian::Query::OP_OR, weighed.begin(), weighed.end()));
}

Xapian::Query with_static_score(Xapian::Query query, const SearchRequest& request, double bound) {
  if (request.static_weight <= 0 || bound <= 0) return query;
  const bool log_score = request.static_score == StaticScore::kLogPageRank;
  auto* source = new Xapian::ValueWeightPostingSource(log_score ? fmt::kStaticWeightSlot : fmt::kStaticScoreSlot);
  const Xapian::Query static_part(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query(source->release()),
                                  request.static_weight / bound);
  return and_maybe(query, static_part);
}

}  // namespace canon::query::detail
