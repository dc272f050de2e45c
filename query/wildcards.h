/// @file wildcards.h
/// @brief Prefix queries (`back*`) expanded against the whole index before the match, so that
/// they rank alike on one database and on shards (docs/serving.md).
///
/// Xapian 1.4 expands a wildcard (Query::OP_WILDCARD) inside each database it searches, with
/// that database's own term statistics: over shards, a prefix query weighs pages by each
/// shard's frequencies and ranks them otherwise than the same index in one database. Even an
/// explicit OP_SYNONYM of the expanded terms is not enough: Xapian estimates the synonym's
/// frequency from the terms each shard has, so a shard without one of them weighs it otherwise.
/// The OP_OR of the expanded terms is weighed term by term with the statistics of all the
/// shards, the same on one database and on any split of it. (OP_MAX, a page scored as its
/// best-matching expansion, would be the closer to a synonym, but Xapian 1.4.22 crashes on it
/// over several databases.) QueryParser has no hook for its wildcards, so the query's wildcard
/// words are written, before parsing, as values of a field whose FieldProcessor
/// (WildcardExpander) expands them.
#pragma once

#include <string>
#include <string_view>

#include <xapian.h>

namespace canon::query {

/// The fields rewrite_wildcards() writes: a word of the default field, a word of title:.
inline constexpr std::string_view kWildcardField = "canonwildcard";
inline constexpr std::string_view kTitleWildcardField = "canontitlewildcard";

/// `query` with each wildcard outside double quotes written as a field: `back*` as
/// `canonwildcard:back` (`canontitlewildcard:back` when `default_is_title`: the query parsed
/// with title: as its default field), `title:back*` as `canontitlewildcard:back`. A wildcard is
/// a word of letters, digits and '_' (any non-ASCII byte counts as a letter) that ends in '*',
/// begins the query or follows a space, '(', '+' or '-', and is followed by the end, a space or
/// ')'. Everything else is left as it is (and so to QueryParser's own wildcards).
std::string rewrite_wildcards(std::string_view query, bool default_is_title = false);

/// The field processor of kWildcardField (prefix "") or kTitleWildcardField (title prefix):
/// the OP_OR of the database's terms that begin with the prefix and the word in lower case, as
/// OP_WILDCARD would expand it (no limit on their number); Query() when there is none.
class WildcardExpander : public Xapian::FieldProcessor {
public:
  WildcardExpander(Xapian::Database db, std::string prefix) : db_(std::move(db)), prefix_(std::move(prefix)) {}
  Xapian::Query operator()(const std::string& word) override;

private:
  Xapian::Database db_;
  std::string prefix_;
};

}  // namespace canon::query
