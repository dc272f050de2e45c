/// @file searcher.cpp
/// @brief Xapian search over a canon index.
#include "query/searcher.h"

#include <nlohmann/json.hpp>
#include <xapian.h>

#include "indexer/index_format.h"

namespace canon::query {
namespace fmt = canon::index_format;
namespace {

/// Omega's document data: `key=value` lines.
std::string data_field(const std::string& data, std::string_view key) {
  std::size_t pos = 0;
  while (pos < data.size()) {
    std::size_t end = data.find('\n', pos);
    if (end == std::string::npos) end = data.size();
    const std::string_view line(data.data() + pos, end - pos);
    if (line.size() > key.size() && line.starts_with(key) && line[key.size()] == '=') {
      return std::string(line.substr(key.size() + 1));
    }
    pos = end + 1;
  }
  return {};
}

/// Xapian's parser silently repairs unbalanced quotes and brackets; a user who typed them
/// wants to know the query did not say what they meant.
Status check_balanced(const std::string& query) {
  int depth = 0;
  bool in_quotes = false;
  for (char c : query) {
    if (c == '"') in_quotes = !in_quotes;
    if (in_quotes) continue;
    if (c == '(') ++depth;
    if (c == ')' && --depth < 0) return Status::error("malformed query: ')' without a matching '('");
  }
  if (in_quotes) return Status::error("malformed query: a phrase is missing its closing '\"'");
  if (depth > 0) return Status::error("malformed query: '(' without a matching ')'");
  return Status::ok_status();
}

/// MSet::snippet() escapes &, <, > and " for HTML; canon's snippets are plain text (the web
/// front end escapes what it shows), so undo exactly those escapes.
std::string unescape_snippet(const std::string& html) {
  static constexpr std::pair<std::string_view, char> kEntities[] = {
      {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}};
  std::string out;
  out.reserve(html.size());
  for (std::size_t i = 0; i < html.size();) {
    bool replaced = false;
    if (html[i] == '&') {
      for (const auto& [entity, c] : kEntities) {
        if (html.compare(i, entity.size(), entity) == 0) {
          out += c;
          i += entity.size();
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += html[i++];
  }
  return out;
}

std::vector<Alternate> parse_alternates(const std::string& json_text) {
  std::vector<Alternate> out;
  const auto parsed = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_array()) return out;
  for (const auto& item : parsed) {
    if (!item.is_object()) continue;
    out.push_back({item.value("url", ""), item.value("title", ""), item.value("similarity", 0.0)});
  }
  return out;
}

}  // namespace

struct Searcher::Rep {
  Xapian::Database db;
  Xapian::Stem stemmer{fmt::kStemLanguage};
};

Searcher::Searcher(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
Searcher::~Searcher() = default;

Result<std::unique_ptr<Searcher>> Searcher::open(const std::filesystem::path& index_dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(index_dir, ec)) {
    return Status::error("index '" + index_dir.string() + "' does not exist (build it with `canon index`)");
  }
  const auto xapian_dir = index_dir / "xapian";
  if (!std::filesystem::is_directory(xapian_dir, ec)) {
    return Status::error("'" + index_dir.string() + "' is not a canon index (no xapian/ inside)");
  }
  try {
    auto rep = std::make_unique<Rep>();
    rep->db = Xapian::Database(xapian_dir.string());
    return std::unique_ptr<Searcher>(new Searcher(std::move(rep)));
  } catch (const Xapian::Error& e) {
    return Status::error("cannot open the index at '" + xapian_dir.string() + "': " + e.get_description());
  }
}

std::size_t Searcher::document_count() const { return rep_->db.get_doccount(); }

Result<SearchResults> Searcher::search(const SearchRequest& request) {
  if (Status balanced = check_balanced(request.query); !balanced.ok()) return balanced;
  try {
    Xapian::QueryParser parser;
    parser.set_database(rep_->db);
    parser.set_stemmer(rep_->stemmer);
    parser.set_stemming_strategy(Xapian::QueryParser::STEM_SOME);
    parser.set_default_op(Xapian::Query::OP_AND);
    parser.add_prefix("title", std::string(fmt::kTitlePrefix));
    parser.add_boolean_prefix("site", std::string(fmt::kHostPrefix));
    parser.add_boolean_prefix("host", std::string(fmt::kHostPrefix));
    const unsigned flags = Xapian::QueryParser::FLAG_DEFAULT | Xapian::QueryParser::FLAG_WILDCARD |
                           Xapian::QueryParser::FLAG_PURE_NOT;
    const Xapian::Query query = parser.parse_query(request.query, flags);
    if (query.empty()) return Status::error("the query has no searchable words: '" + request.query + "'");

    Xapian::Enquire enquire(rep_->db);
    enquire.set_query(query);
    const Xapian::MSet mset = enquire.get_mset(static_cast<Xapian::doccount>(request.offset),
                                               static_cast<Xapian::doccount>(request.limit));
    SearchResults results;
    results.query = request.query;
    results.offset = request.offset;
    results.estimated_matches = mset.get_matches_estimated();
    results.matches_lower_bound = mset.get_matches_lower_bound();
    results.matches_upper_bound = mset.get_matches_upper_bound();
    for (auto it = mset.begin(); it != mset.end(); ++it) {
      const Xapian::Document doc = it.get_document();
      const std::string data = doc.get_data();
      SearchHit hit;
      hit.rank = it.get_rank() + 1;  // get_rank() already counts the offset
      hit.url = data_field(data, fmt::kDataUrl);
      hit.title = data_field(data, fmt::kDataCaption);
      hit.weight = it.get_weight();
      hit.percent = it.get_percent();
      const std::string score = doc.get_value(fmt::kStaticScoreSlot);
      hit.pagerank = score.empty() ? 0.0 : Xapian::sortable_unserialise(score);
      hit.snippet = unescape_snippet(mset.snippet(data_field(data, fmt::kDataText), 240, rep_->stemmer,
                                 Xapian::MSet::SNIPPET_BACKGROUND_MODEL | Xapian::MSet::SNIPPET_EXHAUSTIVE,
                                 request.highlight_start, request.highlight_end, "..."));
      hit.alternates = parse_alternates(data_field(data, fmt::kDataAlternates));
      results.hits.push_back(std::move(hit));
    }
    return results;
  } catch (const Xapian::QueryParserError& e) {
    return Status::error("malformed query: " + e.get_msg());
  } catch (const Xapian::Error& e) {
    return Status::error("search failed: " + e.get_description());
  }
}

}  // namespace canon::query
