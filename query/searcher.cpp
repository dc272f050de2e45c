/// @file searcher.cpp
/// @brief Xapian search over a canon index.
#include "query/searcher.h"

#include "query/spelling.h"
#include "query/stopwords.h"
#include "query/title_suffix.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <unordered_map>
#include <utility>

#include <xapian.h>

#include "common/utf8.h"
#include "format/index_format.h"
#include "format/page_place.h"
#include "format/section_places.h"
#include "format/text_head.h"
#include "format/text_tail.h"
#include "query/wildcards.h"
#include "urls/url.h"

namespace canon::query {
namespace fmt = canon::index_format;
namespace {

/// Bytes of page text a snippet aims for.
constexpr std::size_t kSnippetLength = 240;
/// Bytes of text around the densest matches that Xapian chooses the snippet from: with
/// SNIPPET_EXHAUSTIVE it weighs every window of the text it is given, at about 0.1-0.2 us per
/// byte, so giving it a whole 16 KiB page text cost several ms per hit (docs/benchmarks-search.md).
constexpr std::size_t kSnippetRegion = 640;
/// Of those, at most this many bytes come before the first match of the densest window (the
/// region starts at a sentence start there if it can, else after a space).
constexpr std::size_t kSnippetLead = 160;
/// Occurrences of one needle looked at (the first ones) when choosing the region.
constexpr std::size_t kMaxNeedleHits = 64;

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

/// `path:/docs/` is a filter on omindex's directory terms: P/docs is on every page below /docs.
class PathFieldProcessor : public Xapian::FieldProcessor {
public:
  Xapian::Query operator()(const std::string& path) override {
    const std::string term = fmt::path_filter_term(path);
    return term.empty() ? Xapian::Query::MatchAll : Xapian::Query(term);
  }
};

/// The start of `text`, at most `max_bytes` long, cut after a whole word, with "..." when cut:
/// the snippet of a page the query's words are not in (e.g. they matched its title only).
std::string leading_text(const std::string& text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t end = utf8_char_start(text, max_bytes);
  if (const std::size_t space = text.rfind(' ', end); space != std::string::npos && space > 0)
    end = space;
  return text.substr(0, end) + "...";
}

/// ASCII lower case (faster than std::tolower, which goes through the locale per byte).
char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// True when a sentence starts at `offset` of `text`: its start, or after ". ", "! " or "? ".
bool starts_sentence(const std::string& text, std::size_t offset) {
  if (offset == 0) return true;
  if (offset < 2 || text[offset - 1] != ' ') return false;
  const char end = text[offset - 2];
  return end == '.' || end == '!' || end == '?';
}

bool is_word_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x80 || std::isalnum(u) || c == '_';
}

/// Whether `word` starts with a Chinese, Japanese or Korean character: its words are not cut
/// apart by spaces, and the index has every character of a run as a term of its own
/// (IndexWriter's n-gram mode), so such a needle may start anywhere in a run.
bool starts_cjk(std::string_view word) {
  if (word.empty()) return false;
  const char32_t c = decode_utf8(word, 0).code_point;
  return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0xFF00 && c <= 0xFFEF) || (c >= 0x20000 && c <= 0x3FFFF);
}

/// Lower-case words whose occurrences in a page's text show where it matches `query`: each
/// text term without its field prefix (a stem is nearly always a prefix of its words) and the
/// words the user typed for it. Boolean filter terms (site:, path:...) are not in the text.
std::vector<std::string> snippet_needles(const Xapian::Query& query,
                                         const Xapian::QueryParser& parser) {
  std::vector<std::string> needles;
  const auto add = [&needles](std::string word) {
    for (char& c : word) c = ascii_lower(c);
    if (!word.empty() && std::find(needles.begin(), needles.end(), word) == needles.end())
      needles.push_back(word);
  };
  for (auto it = query.get_unique_terms_begin(); it != query.get_unique_terms_end(); ++it) {
    const std::string& term = *it;
    std::size_t prefix = 0;
    while (prefix < term.size() && std::isupper(static_cast<unsigned char>(term[prefix]))) ++prefix;
    const std::string_view field(term.data(), prefix);
    if (field != "" && field != "Z" && field != fmt::kTitlePrefix && field != "ZS" &&
        field != fmt::kKeywordPrefix && field != "ZK") {
      continue;
    }
    add(term.substr(prefix));
    for (auto typed = parser.unstem_begin(term); typed != parser.unstem_end(term); ++typed)
      add(*typed);
  }
  return needles;
}

/// [begin, end) of the part of `text` around the kSnippetLength bytes holding the most
/// different needles (then the most occurrences, then the earliest), or nothing when no
/// needle starts a word of the text (a CJK needle may start anywhere). ASCII case is ignored.
/// Both ends are character boundaries.
std::optional<std::pair<std::size_t, std::size_t>> snippet_region(
    const std::string& text, const std::vector<std::string>& needles) {
  std::string lower = text;
  for (char& c : lower) c = ascii_lower(c);
  std::vector<std::pair<std::size_t, std::size_t>> hits;  // (offset, needle)
  for (std::size_t n = 0; n < needles.size(); ++n) {
    std::size_t found = 0;
    const bool anywhere = starts_cjk(needles[n]);
    for (std::size_t pos = lower.find(needles[n]);
         pos != std::string::npos && found < kMaxNeedleHits;
         pos = lower.find(needles[n], pos + 1)) {
      if (pos > 0 && is_word_byte(lower[pos - 1]) && !anywhere) continue;
      hits.emplace_back(pos, n);
      ++found;
    }
  }
  if (hits.empty()) return std::nullopt;
  std::sort(hits.begin(), hits.end());
  std::size_t best_offset = 0, best_distinct = 0, best_count = 0;
  std::vector<char> seen(needles.size());
  for (std::size_t i = 0; i < hits.size(); ++i) {
    std::fill(seen.begin(), seen.end(), 0);
    std::size_t distinct = 0, count = 0;
    for (std::size_t j = i; j < hits.size() && hits[j].first < hits[i].first + kSnippetLength;
         ++j, ++count) {
      if (!seen[hits[j].second]) seen[hits[j].second] = 1, ++distinct;
    }
    if (distinct > best_distinct || (distinct == best_distinct && count > best_count)) {
      best_offset = hits[i].first;
      best_distinct = distinct;
      best_count = count;
    }
  }
  // Begin at the last sentence start in the kSnippetLead bytes before the window, else after
  // a space there; end after a whole word.
  std::size_t begin = best_offset > kSnippetLead ? best_offset - kSnippetLead : 0;
  if (begin > 0) {
    std::size_t start = best_offset;
    while (start > begin && !starts_sentence(text, start)) --start;
    if (start == begin && !starts_sentence(text, start)) {
      const std::size_t space = text.find(' ', begin);
      start = space != std::string::npos && space < best_offset ? space + 1 : best_offset;
    }
    begin = start;
  }
  std::size_t end = std::min(text.size(), begin + kSnippetRegion);
  if (end < text.size()) {
    const std::size_t space = text.rfind(' ', end);
    end = space != std::string::npos && space > best_offset ? space : utf8_char_start(text, end);
  }
  return std::make_pair(begin, end);
}

/// The passage of `text`'s region [begin, end) Xapian chooses for the MSet's query (matches
/// wrapped in the highlight markers, "..." where text was left out); empty when none of the
/// region's words match.
std::string passage(const Xapian::MSet& mset, const std::string& text, std::size_t begin, std::size_t end,
                    const Xapian::Stem& stemmer, const SearchRequest& request) {
  constexpr unsigned kFlags =
      Xapian::MSet::SNIPPET_EXHAUSTIVE | Xapian::MSet::SNIPPET_EMPTY_WITHOUT_MATCH | Xapian::MSet::SNIPPET_CJK_NGRAM;
  std::string snippet = unescape_snippet(mset.snippet(text.substr(begin, end - begin), kSnippetLength, stemmer, kFlags,
                                                      request.highlight_start, request.highlight_end, "..."));
  if (snippet.empty()) return snippet;
  // Xapian marks a cut with "..." except before a sentence start; it cannot know that the
  // region's own start and end are cuts of the page's text.
  if (!snippet.starts_with("...") && !starts_sentence(text, begin)) snippet.insert(0, "...");
  if (end < text.size() && !snippet.ends_with("...")) snippet += "...";
  return snippet;
}

/// Bytes of a page's text tail inflated at a time while looking for the query's words in it.
constexpr std::size_t kTailPiece = 32 * 1024;

/// The first passage (passage()) of `doc`'s text tail that holds a word of the query, read a
/// piece at a time and appended to `text` (the head), so that a match near the start of a long
/// tail costs its first pieces only; "" when none does.
std::string passage_in_tail(const Xapian::MSet& mset, std::string& text, const Xapian::Document& doc,
                            const std::vector<std::string>& needles, const Xapian::Stem& stemmer,
                            const SearchRequest& request) {
  const std::string bytes = doc.get_value(fmt::kTextTailSlot);
  fmt::TextTailReader tail(bytes);
  for (std::size_t searched = text.size(); tail.append(text, kTailPiece); searched = text.size()) {
    // The new piece, and the region's length before it: a window may start there.
    const std::size_t from = searched > kSnippetRegion ? utf8_char_start(text, searched - kSnippetRegion) : 0;
    const auto region = snippet_region(text.substr(from), needles);
    if (!region) continue;
    std::string found = passage(mset, text, from + region->first, from + region->second, stemmer, request);
    if (!found.empty()) return found;
  }
  return {};
}

/// The best passage of `text` for the MSet's query; the start of the text when none of its
/// words match. `text` is the head of the page's text (`doc`'s kTextHeadSlot); when no needle is
/// in it, or the region it has them in holds no word of the query (a needle inside another word:
/// `turtle` of `turtledemo`), the rest of the text (`doc`'s kTextTailSlot, read only then and
/// only as far as the first passage with a word of the query: passage_in_tail) is searched too.
/// Xapian picks the passage (MSet::snippet, exhaustively) from the region snippet_region()
/// finds, which bounds its cost on long pages. `mset` is the query's MSet over
/// an empty database (Searcher::Rep::snippet_terms): every query term weighs the same, so the
/// passage does not depend on term statistics, which differ between one database and its shards.
std::string make_snippet(const Xapian::MSet& mset, std::string text, const Xapian::Document& doc,
                         const std::vector<std::string>& needles, const Xapian::Stem& stemmer,
                         const SearchRequest& request) {
  const bool head_cut = text.size() + 4 > fmt::kTextHeadBytes;  // cut at kTextHeadBytes: a tail follows
  const std::optional<std::pair<std::size_t, std::size_t>> region = snippet_region(text, needles);
  std::string snippet = region ? passage(mset, text, region->first, region->second, stemmer, request) : std::string();
  if (snippet.empty() && head_cut) snippet = passage_in_tail(mset, text, doc, needles, stemmer, request);
  if (!snippet.empty()) return snippet;
  // Without a needle in the text (the words matched elsewhere, or a wildcard matched), Xapian
  // may still find a match at the start of the text.
  snippet = passage(mset, text, 0, utf8_char_start(text, std::min(text.size(), kSnippetRegion)), stemmer, request);
  return snippet.empty() ? leading_text(text, kSnippetLength) : snippet;
}

/// The largest value a sortable_serialise'd slot holds (0 when no document has one): the
/// database's metadata `bound_key` when it has it, else the slot's own upper bound.
double slot_upper_bound(const Xapian::Database& db, Xapian::valueno slot, std::string_view bound_key) {
  std::string bound = db.get_metadata(std::string(bound_key));
  if (bound.empty()) bound = db.get_value_upper_bound(slot);
  return bound.empty() ? 0.0 : Xapian::sortable_unserialise(bound);
}

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
  Xapian::doccount operator()(const std::string& term) const {
    if (remembered_ != nullptr) {
      if (const auto found = remembered_->frequency.find(term); found != remembered_->frequency.end()) return found->second;
    }
    return db_.get_termfreq(term);
  }

private:
  const Xapian::Database& db_;
  RememberedFrequencies* remembered_;
};

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

/// The exact-title and exact-heading terms with_title_matches looks for (none when title_weight
/// is 0).
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

/// One thing the anchor part of a query looks for (with_anchor_matches): the pages named
/// `name` (with its count terms), having a place named `place` when it is not empty; or, with
/// `name` empty, the pages having a place named `place`.
struct AnchorAsk {
  std::string name;
  std::string place;
};

/// What with_anchor_matches looks for, for `request` (nothing when anchor_weight is 0).
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

/// Every term with_anchor_matches may read the frequency of for `asks`.
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

/// `query` plus the static score (AND_MAYBE: it ranks the text matches, never makes a page
/// match), scaled so that the best page's static part is static_weight; `bound` is the largest
/// static score of the database for the chosen kind.
Xapian::Query with_static_score(Xapian::Query query, const SearchRequest& request, double bound) {
  if (request.static_weight <= 0 || bound <= 0) return query;
  const bool log_score = request.static_score == StaticScore::kLogPageRank;
  auto* source = new Xapian::ValueWeightPostingSource(log_score ? fmt::kStaticWeightSlot : fmt::kStaticScoreSlot);
  const Xapian::Query static_part(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query(source->release()),
                                  request.static_weight / bound);
  return and_maybe(query, static_part);
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

struct Searcher::Rep {
  Rep(ShardSet opened, std::filesystem::path index_dir) : shards(std::move(opened)), index_dir(std::move(index_dir)) {}
  /// The index's database, or the shards of it that answer.
  ShardSet shards;
  /// Where the index was opened from, for messages.
  std::filesystem::path index_dir;
  Xapian::Stem stemmer{fmt::kStemLanguage};
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
  RememberedFrequencies remote_frequencies;

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
  Status configure_on_answering_shards() {
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
  /// The suffix the site repeats on its titles (title_suffix.h), learnt from kTitleSample
  /// documents spread over the database. Throws Xapian::Error.
  std::string learn_title_suffix() const {
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

  Xapian::Query highlight_query(const SearchRequest& request, unsigned flags, const Xapian::Query& query) {
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
};

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

Result<SearchResults> Searcher::Rep::run(const SearchRequest& request) {
  // CJK runs as the index has them: single characters and pairs (IndexWriter's term generator).
  const unsigned flags = Xapian::QueryParser::FLAG_DEFAULT | Xapian::QueryParser::FLAG_WILDCARD |
                         Xapian::QueryParser::FLAG_PURE_NOT | Xapian::QueryParser::FLAG_CJK_NGRAM;
  Xapian::Query query = parser.parse_query(rewrite_wildcards(request.query), flags);
  if (query.empty())
    return Status::error("the query has no searchable words: '" + request.query + "'");
  const HitExtras extras = hit_extras(request, flags, query);

  const std::vector<AnchorAsk> asks = anchor_asks(request);
  const std::vector<std::string> exact_titles = title_match_terms(request);
  std::vector<std::string> counted = anchor_terms(asks);
  counted.insert(counted.end(), exact_titles.begin(), exact_titles.end());
  const TermFrequencies frequencies(db(), counted, shards.has_remote() ? &remote_frequencies : nullptr);
  query = with_title_matches(query, parser, request, flags, exact_titles, frequencies, db().get_doccount());
  query = with_anchor_matches(query, db(), request, asks, frequencies);
  const bool log_score = request.static_score == StaticScore::kLogPageRank;
  const double static_bound = log_score ? log_pagerank_bound : pagerank_bound;
  query = with_static_score(query, request, static_bound);
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

Searcher::Rep::HitExtras Searcher::Rep::hit_extras(const SearchRequest& request, unsigned flags,
                                                    const Xapian::Query& query) {
  HitExtras extras;
  if (!request.with_snippets && request.sections == 0) return extras;
  const Xapian::Query highlighted = highlight_query(request, flags, query);
  if (request.sections > 0) extras.section_query = section_query(db(), request.query, highlighted, parser, stemmer);
  if (!request.with_snippets) return extras;
  extras.needles = snippet_needles(highlighted, parser);
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
      hit.snippet = make_snippet(extras.snippet_set, head, doc, extras.needles, stemmer, request);
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

std::optional<FacetFilter> parse_facet_filter(std::string_view text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string_view::npos || equals + 1 == text.size()) return std::nullopt;
  const std::optional<fmt::Facet> facet = fmt::parse_facet(text.substr(0, equals));
  if (!facet) return std::nullopt;
  return FacetFilter{*facet, std::string(text.substr(equals + 1))};
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
