/// @file sections.cpp
/// @brief Matching a query's words to a result's sections by their term positions.
#include "query/sections.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "format/index_format.h"

namespace canon::query {
namespace fmt = index_format;

namespace {

/// Index words sharing a stem looked at for one query word at most (the index's words that
/// start with the stem, in order): "file" meets "filename", "files", "filesystem" first.
constexpr std::size_t kMostFormsScanned = 64;

bool is_prefix_char(char c) { return c >= 'A' && c <= 'Z'; }

/// What one section holds of the query's words (matching_sections' order, best first).
struct SectionScore {
  std::size_t index = 0;
  bool heading_is_query = false;
  unsigned anchor_words = 0;
  unsigned heading_words_not_in_title = 0;
  unsigned heading_words = 0;
  unsigned section_words = 0;
  unsigned section_words_not_in_title = 0;
  unsigned occurrences = 0;
  Xapian::termpos heading_length = 0;

  /// The heading's words that are not the query's, when it holds one of the query's (else 0:
  /// the length of a heading without the query's words says nothing).
  long other_heading_words() const {
    return heading_words == 0 ? 0 : static_cast<long>(heading_length - std::min<Xapian::termpos>(heading_length, heading_words));
  }

  auto key() const {
    return std::make_tuple(heading_is_query, anchor_words, heading_words_not_in_title, heading_words, section_words,
                           -other_heading_words(),
                           occurrences, -static_cast<long>(index));
  }
};

}  // namespace

SectionQuery section_query(const Xapian::Database& db, std::string_view typed, const Xapian::Query& query,
                           const Xapian::QueryParser& parser, const Xapian::Stem& stemmer) {
  SectionQuery out{fmt::exact_words(typed), {}};
  std::vector<QueryWord>& words = out.words;
  for (auto it = query.get_unique_terms_begin(); it != query.get_unique_terms_end(); ++it) {
    if (words.size() == kMaxSectionWords) break;
    const std::string& term = *it;
    if (term.empty()) continue;
    std::set<std::string> forms;
    if (term[0] == 'Z' && term.size() > 1 && !is_prefix_char(term[1])) {
      // Forms the index does not hold would cost a read per hit for nothing (a stem is often
      // no word: "tutori").
      const std::string stem = term.substr(1);
      if (db.term_exists(stem)) forms.insert(stem);
      for (auto typed = parser.unstem_begin(term); typed != parser.unstem_end(term); ++typed) {
        if (db.term_exists(*typed)) forms.insert(*typed);
      }
      std::size_t scanned = 0;
      for (auto word = db.allterms_begin(stem); word != db.allterms_end(stem) && scanned < kMostFormsScanned;
           ++word, ++scanned) {
        if (stemmer(*word) == stem) forms.insert(*word);
      }
    } else if (!is_prefix_char(term[0])) {
      forms.insert(term);
    } else {
      continue;  // a field's or a filter's term
    }
    words.push_back(QueryWord{{forms.begin(), forms.end()}});
  }
  return out;
}

namespace {

/// The words of `text` as the index cuts them, lowercased.
std::set<std::string> words_of(std::string_view text) {
  std::set<std::string> out;
  const std::string words = fmt::exact_words(text);
  for (std::size_t start = 0; start < words.size();) {
    std::size_t end = words.find(' ', start);
    if (end == std::string::npos) end = words.size();
    out.insert(words.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

/// Whether `word` (one of its forms) is among `words`.
bool is_among(const std::set<std::string>& words, const QueryWord& word) {
  return std::any_of(word.forms.begin(), word.forms.end(), [&](const std::string& f) { return words.contains(f); });
}

/// How many of `words` are among the words of `anchor` ("asyncio.Queue.maxsize" holds asyncio,
/// queue and maxsize; "method.push" holds push): a generator names a member's anchor after it.
unsigned count_words_in(std::string_view anchor, const std::vector<QueryWord>& words) {
  const std::set<std::string> in = words_of(anchor);
  return static_cast<unsigned>(std::count_if(words.begin(), words.end(), [&](const QueryWord& w) { return is_among(in, w); }));
}

/// How many of `words` are not among `title_words` (words_of the title).
unsigned count_not_in_title(const std::set<std::string>& title_words, const std::vector<QueryWord>& words) {
  return static_cast<unsigned>(
      std::count_if(words.begin(), words.end(), [&](const QueryWord& w) { return !is_among(title_words, w); }));
}

/// Each section's score for `words`, from the words' `positions` in a document whose title's
/// words are `title_set`.
std::vector<SectionScore> score_sections(const DocumentPositions& positions, const std::set<std::string>& title_set,
                                         const std::vector<fmt::SectionView>& sections,
                                         const std::vector<QueryWord>& words) {
  std::vector<Xapian::termpos> starts;
  for (const fmt::SectionView& section : sections) starts.push_back(section.heading_start);
  std::vector<SectionScore> scores(sections.size());
  for (std::size_t i = 0; i < sections.size(); ++i) {
    scores[i].index = i;
    scores[i].heading_length = sections[i].body_start - std::min(sections[i].body_start, sections[i].heading_start);
  }
  for (std::size_t w = 0; w < words.size() && w < positions.size(); ++w) {
    const bool title_word = is_among(title_set, words[w]);
    std::vector<char> in_heading(sections.size(), 0), in_section(sections.size(), 0);
    for (const std::vector<Xapian::termpos>& form : positions[w]) {
      // Positions ascend, as the sections do: one walk over both. Positions before the first
      // section (the title, the headings list, text before any heading) are skipped.
      std::size_t k = 0;
      for (auto p = std::lower_bound(form.begin(), form.end(), starts.front()); p != form.end(); ++p) {
        while (k + 1 < starts.size() && starts[k + 1] <= *p) ++k;
        in_section[k] = 1;
        ++scores[k].occurrences;
        if (*p < sections[k].body_start) in_heading[k] = 1;
      }
    }
    for (std::size_t k = 0; k < sections.size(); ++k) {
      scores[k].section_words += in_section[k];
      scores[k].heading_words += in_heading[k];
      if (!title_word) {
        scores[k].heading_words_not_in_title += in_heading[k];
        scores[k].section_words_not_in_title += in_section[k];
      }
    }
  }
  return scores;
}

}  // namespace

std::vector<DocumentPositions> read_word_positions(const Xapian::Database& db, const std::vector<Xapian::docid>& docs,
                                                   const std::vector<std::optional<Xapian::termpos>>& from,
                                                   const SectionQuery& query) {
  std::vector<DocumentPositions> out(docs.size());
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < docs.size() && i < from.size(); ++i) {
    if (!from[i]) continue;
    order.push_back(i);
    for (const QueryWord& word : query.words) out[i].emplace_back(word.forms.size());
  }
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return docs[a] < docs[b]; });
  for (std::size_t w = 0; w < query.words.size(); ++w) {
    for (std::size_t f = 0; f < query.words[w].forms.size(); ++f) {
      const std::string& form = query.words[w].forms[f];
      // Which documents hold the form, from its posting list: a position list looked up for a
      // document without the form costs as much as one read.
      Xapian::PostingIterator post = db.postlist_begin(form);
      for (const std::size_t i : order) {
        post.skip_to(docs[i]);
        if (post == db.postlist_end(form)) break;
        if (*post != docs[i]) continue;
        const Xapian::PositionIterator end = db.positionlist_end(docs[i], form);
        Xapian::PositionIterator p = db.positionlist_begin(docs[i], form);
        if (p != end) p.skip_to(*from[i]);
        std::vector<Xapian::termpos>& kept = out[i][w][f];
        for (; p != end; ++p) kept.push_back(*p);
      }
    }
  }
  return out;
}

std::vector<SectionHit> matching_sections(const DocumentPositions& positions, std::string_view page_url,
                                          std::string_view title, const std::vector<fmt::SectionView>& sections,
                                          const SectionQuery& query, std::size_t most) {
  std::vector<SectionHit> hits;
  const std::vector<QueryWord>& words = query.words;
  if (words.empty() || sections.empty() || most == 0) return hits;
  const std::set<std::string> title_words = words_of(title);
  std::vector<SectionScore> scores = score_sections(positions, title_words, sections, words);
  std::erase_if(scores, [&](const SectionScore& s) { return sections[s.index].anchor.empty(); });
  // Sections whose heading holds a word the title does not are where the query points; failing
  // those, sections holding every such word; when the title holds every word, sections whose
  // heading holds them all (the page's own heading first: the fewest other words).
  const unsigned not_in_title = count_not_in_title(title_words, words);
  const bool pointed = std::any_of(scores.begin(), scores.end(),
                                   [](const SectionScore& s) { return s.heading_words_not_in_title > 0; });
  std::erase_if(scores, [&](const SectionScore& s) {
    if (pointed) return s.heading_words_not_in_title == 0;
    if (not_in_title > 0) return s.section_words_not_in_title < not_in_title;
    return s.heading_words < words.size();
  });
  // Read the anchor and heading of the sections that are left only (a reference page has
  // hundreds, few of which hold a query word).
  for (SectionScore& score : scores) {
    const fmt::SectionView& section = sections[score.index];
    score.heading_is_query = !query.text.empty() && fmt::exact_words(section.heading) == query.text;
    score.anchor_words = count_words_in(section.anchor, words);
  }
  const std::size_t shown = std::min(most, scores.size());
  std::partial_sort(scores.begin(), scores.begin() + static_cast<long>(shown), scores.end(),
                    [](const SectionScore& a, const SectionScore& b) { return a.key() > b.key(); });
  for (std::size_t i = 0; i < shown; ++i) {
    const fmt::SectionView& section = sections[scores[i].index];
    hits.push_back({section_url(page_url, section.anchor), std::string(section.heading)});
  }
  return hits;
}

std::string section_url(std::string_view page_url, std::string_view anchor) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string url(page_url.substr(0, page_url.find('#')));
  url += '#';
  for (const char c : anchor) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte == 0x7F || c == '"' || c == '<' || c == '>' || c == '`') {
      url += '%';
      url += kHex[byte >> 4];
      url += kHex[byte & 0xF];
    } else {
      url += c;
    }
  }
  return url;
}

}  // namespace canon::query
