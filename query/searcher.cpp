/// @file searcher.cpp
/// @brief Xapian search over a canon index: opening it, reading its metadata, and search()
/// (the request's checks, retries when shards fail, the spelling correction).
///
/// A search itself runs in results.cpp (the query, its matches and hits), with the ranking
/// parts of ranking_parts.cpp and the snippets of snippets.cpp; Searcher::Rep, which they
/// share, is in searcher_rep.h.
#include "query/searcher.h"

#include "query/searcher_rep.h"
#include "query/spelling.h"
#include "query/title_suffix.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <xapian.h>

#include "format/index_format.h"
#include "query/wildcards.h"

namespace canon::query {
namespace fmt = canon::index_format;
namespace {

/// Xapian's parser silently repairs unbalanced quotes and brackets; a user who typed them
/// wants to know the query did not say what they meant.
Status check_balanced(const std::string& query) {
  int depth = 0;
  bool in_quotes = false;
  for (char c : query) {
    if (c == '"') in_quotes = !in_quotes;
    if (in_quotes) continue;
    if (c == '(') ++depth;
    if (c == ')' && --depth < 0)
      return Status::error("malformed query: ')' without a matching '('");
  }
  if (in_quotes) return Status::error("malformed query: a phrase is missing its closing '\"'");
  if (depth > 0) return Status::error("malformed query: '(' without a matching ')'");
  return Status::ok_status();
}

/// `path:/docs/` is a filter on omindex's directory terms: P/docs is on every page below /docs.
class PathFieldProcessor : public Xapian::FieldProcessor {
public:
  Xapian::Query operator()(const std::string& path) override {
    const std::string term = fmt::path_filter_term(path);
    return term.empty() ? Xapian::Query::MatchAll : Xapian::Query(term);
  }
};

/// The largest value a sortable_serialise'd slot holds (0 when no document has one): the
/// database's metadata `bound_key` when it has it, else the slot's own upper bound.
double slot_upper_bound(const Xapian::Database& db, Xapian::valueno slot, std::string_view bound_key) {
  std::string bound = db.get_metadata(std::string(bound_key));
  if (bound.empty()) bound = db.get_value_upper_bound(slot);
  return bound.empty() ? 0.0 : Xapian::sortable_unserialise(bound);
}

}  // namespace

Status Searcher::Rep::configure_on_answering_shards() {
  constexpr int kAttempts = 3;
  for (int attempt = 1;; ++attempt) {
    try {
      return configure();
    } catch (const Xapian::NetworkError&) {
      if (attempt == kAttempts || !shards.reconnect_after_failure()) throw;
      remote_frequencies.frequency.clear();
    }
  }
}

std::string Searcher::Rep::learn_title_suffix() const {
  constexpr Xapian::docid kTitleSample = 64;
  const Xapian::docid last = db().get_lastdocid();
  std::vector<Xapian::docid> ids;
  Xapian::PostingIterator post = db().postlist_begin("");
  for (Xapian::docid i = 0; i < kTitleSample && post != db().postlist_end(""); ++i) {
    post.skip_to(1 + static_cast<Xapian::docid>(static_cast<std::uint64_t>(last) * i / kTitleSample));
    if (post != db().postlist_end("") && (ids.empty() || ids.back() != *post)) ids.push_back(*post);
  }
  std::vector<std::string> titles;
  for (const Xapian::Document& doc : shards.documents(ids)) titles.push_back(fmt::data_field(doc.get_data(), fmt::kDataCaption));
  return repeated_title_suffix(titles);
}

Status Searcher::Rep::configure() {
  if (Status canon = fmt::check_canon_metadata(db(), index_dir); !canon.ok()) return canon;
  const std::string collapse = db().get_metadata(std::string(fmt::kCollapseMetadataKey));
  const std::optional<fmt::CollapseMode> mode = fmt::parse_collapse_mode(collapse);
  if (!mode) {
    return Status::corruption("the index at '" + index_dir.string() + "' has an unknown collapse mode '" +
                              collapse + "' (rebuild it with this version of canon)");
  }
  query_time_collapse = *mode == fmt::CollapseMode::kQueryTime;
  log_pagerank_bound = slot_upper_bound(db(), fmt::kStaticWeightSlot, fmt::kStaticWeightBoundKey);
  title_suffix = learn_title_suffix();
  pagerank_bound = slot_upper_bound(db(), fmt::kStaticScoreSlot, fmt::kStaticScoreBoundKey);
  configure_parser();
  return Status::ok_status();
}

void Searcher::Rep::configure_parser() {
  parser = Xapian::QueryParser();
  parser.set_database(db());
  parser.set_stemmer(stemmer);
  parser.set_stemming_strategy(Xapian::QueryParser::STEM_SOME);
  parser.set_default_op(Xapian::Query::OP_AND);
  parser.add_prefix("title", std::string(fmt::kTitlePrefix));
  parser.add_boolean_prefix("site", std::string(fmt::kHostPrefix));
  parser.add_boolean_prefix("host", std::string(fmt::kHostPrefix));
  parser.add_boolean_prefix("path", (new PathFieldProcessor)->release());
  parser.add_prefix(std::string(kWildcardField), (new WildcardExpander(db(), ""))->release());
  parser.add_prefix(std::string(kTitleWildcardField),
                    (new WildcardExpander(db(), std::string(fmt::kTitlePrefix)))->release());
}

Searcher::Searcher(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
Searcher::~Searcher() = default;

Result<std::unique_ptr<Searcher>> Searcher::open(const std::filesystem::path& index_dir, const ShardOptions& shard_options) {
  auto database = fmt::canon_database_path(index_dir);
  if (!database.ok()) return database.status();
  auto shards = ShardSet::open(database.value(), shard_options);
  if (!shards.ok()) return shards.status();
  try {
    auto rep = std::make_unique<Rep>(std::move(shards).value(), index_dir);
    if (Status configured = rep->configure_on_answering_shards(); !configured.ok()) return configured;
    return std::unique_ptr<Searcher>(new Searcher(std::move(rep)));
  } catch (const Xapian::Error& e) {
    return Status::corruption("cannot open the index at '" + database.value().string() +
                         "': " + e.get_description());
  }
}

std::size_t Searcher::document_count() const { return rep_->db().get_doccount(); }

bool Searcher::collapses_at_query_time() const { return rep_->query_time_collapse; }

Result<SearchResults> Searcher::Rep::with_correction(const SearchRequest& request, SearchResults results) {
  if (results.estimated_matches >= kFewMatches) return results;
  const Xapian::Database* spelling = shards.spelling_source();
  if (spelling == nullptr) return results;  // remote shards alone, and no spelling database given
  std::string corrected;
  try {
    corrected = corrected_query_string(db(), *spelling, stemmer, request.query);
  } catch (const Xapian::Error&) {
    return results;  // no correction to offer: the spelling table could not be read
  }
  if (corrected.empty()) return results;
  SearchRequest again = request;
  again.query = corrected;
  Result<SearchResults> better = results;
  try {
    better = run(again);
  } catch (const Xapian::NetworkError&) {
    return results;  // a shard failed meanwhile: the next search opens the shards again
  }
  if (!better.ok() || better->estimated_matches <= results.estimated_matches) return results;
  better->query = request.query;
  better->corrected_query = corrected;
  return better;
}

Result<SearchResults> Searcher::search(const SearchRequest& request) {
  if (!std::isfinite(request.static_weight) || request.static_weight < 0) {
    return Status::error("the static weight must be a number >= 0");
  }
  if (!std::isfinite(request.title_weight) || request.title_weight < 0) {
    return Status::error("the title weight must be a number >= 0");
  }
  if (!std::isfinite(request.anchor_weight) || request.anchor_weight < 0) {
    return Status::error("the anchor weight must be a number >= 0");
  }
  if (Status balanced = check_balanced(request.query); !balanced.ok()) return balanced;
  ShardSet& shards = rep_->shards;
  try {
    if (shards.refresh()) {
      if (Status changed = rep_->shards_changed(); !changed.ok()) return changed;
    }
    Result<SearchResults> results = [&]() -> Result<SearchResults> {
      try {
        return rep_->run(request);
      } catch (const Xapian::NetworkError&) {
        // A remote shard failed or timed out: search again on the shards that still answer.
        if (!shards.reconnect_after_failure()) throw;
        if (Status changed = rep_->shards_changed(); !changed.ok()) return changed;
        return rep_->run(request);
      }
    }();
    if (results.ok() && request.correct_spelling) results = rep_->with_correction(request, std::move(results).value());
    if (results.ok()) results.value().missing_shards = shards.missing();
    return results;
  } catch (const Xapian::QueryParserError& e) {
    return Status::error("malformed query: " + e.get_msg());
  } catch (const Xapian::NetworkError& e) {
    std::string names;
    for (const std::string& name : shards.missing()) names += (names.empty() ? "" : ", ") + name;
    return Status::io_error("no shard of the index answered" + (names.empty() ? "" : " (" + names + ")") +
                            ": " + e.get_description());
  } catch (const Xapian::Error& e) {
    return Status::io_error("search failed: " + e.get_description());
  }
}

}  // namespace canon::query
