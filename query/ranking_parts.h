/// @file ranking_parts.h
/// @brief The parts a search adds to a page's BM25 weight: title matches, anchor text and the
/// static score (docs/ranking.md), with the term frequencies they are weighed by.
///
/// Internal to the searcher: Searcher::Rep::run (results.cpp) adds them to the parsed query,
/// and Searcher::Rep (searcher_rep.h) keeps the remote shards' frequencies between searches.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include <xapian.h>

#include "query/searcher.h"

namespace canon::query::detail {

/// Frequencies of terms over remote shards, kept between searches: a remote shard's
/// frequencies do not change while its connection is open (xapian-tcpsrv reads the revision it
/// opened), so they are forgotten when the shards are opened again (Searcher::Rep::shards_changed)
/// and, past kMostRemembered terms, all at once.
struct RememberedFrequencies {
  static constexpr std::size_t kMostRemembered = 1 << 16;
  std::unordered_map<std::string, Xapian::doccount> frequency;
};

/// Frequencies of terms in the database. Over remote shards, get_termfreq costs a round trip
/// per term and shard, while the statistics a match gathers carry the frequency of every term
/// of its query in one exchange per shard: so when the database has remote shards
/// (`remembered` given), the terms it does not hold yet are asked for at once (a match of their
/// OR that returns no document) and kept there; a search whose terms were all asked for before
/// makes no exchange. Else each is read when it is asked for.
class TermFrequencies {
public:
  TermFrequencies(const Xapian::Database& db, const std::vector<std::string>& terms,
                  RememberedFrequencies* remembered);
  Xapian::doccount operator()(const std::string& term) const;

private:
  const Xapian::Database& db_;
  RememberedFrequencies* remembered_;
};

/// The exact-title and exact-heading terms with_title_matches looks for (none when title_weight
/// is 0).
std::vector<std::string> title_match_terms(const SearchRequest& request);

/// `query` with title matches added (AND_MAYBE: they never make a page match): pages whose
/// titles hold the query's words rank above pages that only mention them (the query again with
/// title: as its default field, scaled by title_weight; alternates' titles are title terms of
/// their authoritative page), and a page whose whole title (or main heading) is the query, or a run of
/// its words (a title pasted with a word added), gets the weight BM25 gives that term in a page
/// of average length, whatever the page's length: large where few pages have that title, small
/// where many share it (a FixedWeightPostingSource filtered by the term, as anchors are: a long
/// page, such as a type with hundreds of methods, is not a worse match for its own name). So
/// does a page one of whose headings is the whole query of two or more words
/// (index_format::exact_heading_term): the page holding the section the query names. `exact` are title_match_terms(request); their frequencies are read through `frequency`.
Xapian::Query with_title_matches(Xapian::Query query, Xapian::QueryParser& parser, const SearchRequest& request,
                                 unsigned flags, const std::vector<std::string>& exact,
                                 const TermFrequencies& frequency, double documents);

/// One thing the anchor part of a query looks for (with_anchor_matches): the pages named
/// `name` (with its count terms), having a place named `place` when it is not empty; or, with
/// `name` empty, the pages having a place named `place`.
struct AnchorAsk {
  std::string name;
  std::string place;
};

/// What with_anchor_matches looks for, for `request` (nothing when anchor_weight is 0).
std::vector<AnchorAsk> anchor_asks(const SearchRequest& request);

/// Every term with_anchor_matches may read the frequency of for `asks`.
std::vector<std::string> anchor_terms(const std::vector<AnchorAsk>& asks);

/// `query` with anchor matches added (AND_MAYBE: they never make a page match). Each anchor term
/// the query makes adds anchor_weight * ln(N / termfreq) to the pages that have it: an inverse
/// document frequency alone, neither the term's wdf nor the page's length, since what other
/// pages call a page says nothing about how long it is. The terms: the whole query as a name
/// (caseless and as written), and for a query of several words the whole query as a place's name
/// ("os makedirs", from links written `os.makedirs()`) and each split of it into a name and a
/// place in the page so named ("Vec push": the page called `Vec` with a place called `push`);
/// a name counts again with each of its count terms (index_format::anchor_count_term). Runs of
/// the query are not names: a page called by one ("std filesystem path" in the pasted title of the
/// constructor page "std::filesystem::path::path") is not what the query names; nor is one word
/// a place's. The weights are given by FixedWeightPostingSources filtered by the terms, a stock
/// Xapian posting source that remote databases know too. `asks` are anchor_asks(request); the
/// terms' frequencies are read through `frequency`.
Xapian::Query with_anchor_matches(Xapian::Query query, const Xapian::Database& db, const SearchRequest& request,
                                  const std::vector<AnchorAsk>& asks, const TermFrequencies& frequency);

/// `query` plus the static score (AND_MAYBE: it ranks the text matches, never makes a page
/// match), scaled so that the best page's static part is static_weight; `bound` is the largest
/// static score of the database for the chosen kind.
Xapian::Query with_static_score(Xapian::Query query, const SearchRequest& request, double bound);

}  // namespace canon::query::detail
