/// @file searcher_rep.h
/// @brief Searcher::Rep: what an open index keeps between searches, shared by the files the
/// searcher is made of.
///
/// searcher.cpp opens the index and configures it, and answers search() (retries over shards,
/// spelling correction); results.cpp runs a query on it and makes its hits (snippets.cpp,
/// sections.h); ranking_parts.h adds the title, anchor and static parts to the query.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <xapian.h>

#include "common/status.h"
#include "format/index_format.h"
#include "query/ranking_parts.h"
#include "query/searcher.h"
#include "query/sections.h"
#include "query/shard_set.h"
#include "query/stopwords.h"

namespace canon::query {

struct Searcher::Rep {
  Rep(ShardSet opened, std::filesystem::path index_dir) : shards(std::move(opened)), index_dir(std::move(index_dir)) {}
  /// The index's database, or the shards of it that answer.
  ShardSet shards;
  /// Where the index was opened from, for messages.
  std::filesystem::path index_dir;
  Xapian::Stem stemmer{index_format::kStemLanguage};
  Xapian::QueryParser parser;
  /// Set on `parser` only while the query is parsed again for its highlights (highlight_query).
  std::unique_ptr<Xapian::SimpleStopper> stopper = english_stopper();
  bool query_time_collapse = false;
  /// Upper bounds of the static score slots, for scaling them to SearchRequest::static_weight.
  double log_pagerank_bound = 0.0;
  double pagerank_bound = 0.0;

  /// An empty database: the MSet of a query over it knows the query's terms and weighs them
  /// all alike, for make_snippet().
  Xapian::Database snippet_terms{std::string(), Xapian::DB_BACKEND_INMEMORY};
  /// The anchor and title terms' frequencies over remote shards (TermFrequencies).
  detail::RememberedFrequencies remote_frequencies;

  const Xapian::Database& db() const { return shards.database(); }
  /// After the shards were opened again (a new version of the index may be among them): the
  /// index's metadata read again (configure()), the frequencies kept for the old ones forgotten.
  /// Throws Xapian::Error.
  Status shards_changed() {
    remote_frequencies.frequency.clear();
    return configure_on_answering_shards();
  }
  /// configure(); when a remote shard fails meanwhile (it reads metadata and documents), again
  /// on the shards that still answer, a few times. Throws Xapian::NetworkError when they keep
  /// failing or none answers.
  Status configure_on_answering_shards();
  /// The suffix the site repeats on its titles (title_suffix.h), learnt from kTitleSample
  /// documents spread over the database. Throws Xapian::Error.
  std::string learn_title_suffix() const;
  std::string title_suffix;
  /// Reads the index's metadata (the collapse mode, the static scores' bounds); configures the
  /// parser for the database. Throws Xapian::Error.
  Status configure();
  /// Sets the parser up for the current database (again when the shards that answer change).
  void configure_parser();
  /// `request` on the current database (search() checks the request first). Throws
  /// Xapian::Error.
  Result<SearchResults> run(const SearchRequest& request);
  /// `results` of `request`, or those of its spelling correction when it has more matches
  /// (SearchRequest::correct_spelling).
  Result<SearchResults> with_correction(const SearchRequest& request, SearchResults results);
  /// What a snippet highlights of `request`'s `query` (parsed with `flags`): the query without
  /// its stopwords (Xapian's QueryParser keeps them in phrases), or the whole query when it is
  /// nothing but stopwords. Throws Xapian::Error.
  Xapian::Query highlight_query(const SearchRequest& request, unsigned flags, const Xapian::Query& query);
  /// What every hit of a search is given besides its page's data: the snippet's needles and the
  /// MSet that weighs them (make_snippet), and the words sections are matched on.
  struct HitExtras {
    Xapian::MSet snippet_set;
    std::vector<std::string> needles;
    SectionQuery section_query;
  };
  /// The extras `request` asks for, from its parsed `query`.
  HitExtras hit_extras(const SearchRequest& request, unsigned flags, const Xapian::Query& query);
  /// The hits of `mset`, each with its page's fields, snippet, alternates and sections.
  std::vector<SearchHit> hits_of(const Xapian::MSet& mset, const SearchRequest& request, const HitExtras& extras);
  /// Up to `most` sections matching `query` for each of `hits`, which show documents `shown`
  /// whose data's sections lines are `section_lines`: the words' positions read for all hits at
  /// once (read_word_positions). Throws Xapian::Error.
  void add_sections(std::vector<SearchHit>& hits, const std::vector<Xapian::docid>& shown,
                    const std::vector<std::string>& section_lines, const SectionQuery& query, std::size_t most) const;
};

}  // namespace canon::query
