/// @file bundle_pages.cpp
/// @brief Pages of a canon index as a Pagefind bundle holds them (bundle_pages.h).
#include "pagefind/bundle_pages.h"

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "common/html_escape.h"
#include "format/facets.h"
#include "format/index_format.h"
#include "format/page_place.h"
#include "format/text_head.h"
#include "format/text_tail.h"

namespace canon::pagefind {

namespace fmt = index_format;

std::string bundle_url(std::string_view url, std::string_view base_url) {
  if (base_url.empty() || base_url.back() != '/' || !url.starts_with(base_url)) return std::string(url);
  return "/" + std::string(url.substr(base_url.size()));
}

namespace {

/// The byte offset in `text` of the word at each of `positions` (ascending term positions of the
/// page's document), the text's words numbered as the index numbered them: the last word at
/// `end` - 1. Counted with a TermGenerator set as the index's (index_writer.cpp; stemming adds
/// no positions): the text a chunk of space-separated tokens at a time, a chunk holding a wanted
/// word again a token at a time (the index cut its text between words too, and got the same
/// positions). A position past the text gets text.size().
std::vector<std::size_t> word_offsets(std::string_view text, const std::vector<Xapian::termpos>& positions,
                                      Xapian::termpos end) {
  Xapian::TermGenerator terms;
  terms.set_flags(fmt::kTermGeneratorFlags);
  Xapian::Document scratch;
  terms.set_document(scratch);
  terms.index_text(Xapian::Utf8Iterator(text.data(), text.size()));
  const Xapian::termpos words = terms.get_termpos();
  std::vector<std::size_t> offsets(positions.size(), text.size());
  if (end < words + 1) return offsets;
  terms.set_termpos(end - words - 1);  // the position before the text's first word
  std::size_t next = 0;                // the first position not yet placed
  const auto index = [&](std::size_t from, std::size_t to) {
    terms.index_text(Xapian::Utf8Iterator(text.data() + from, to - from));
  };
  constexpr std::size_t kChunkTokens = 128;
  for (std::size_t at = 0; at < text.size() && next < positions.size();) {
    std::size_t chunk_end = at;
    for (std::size_t t = 0; t < kChunkTokens && chunk_end < text.size(); ++t) {
      chunk_end = text.find(' ', chunk_end + 1);
      if (chunk_end == std::string_view::npos) chunk_end = text.size();
    }
    const Xapian::termpos before = terms.get_termpos();
    index(at, chunk_end);
    if (positions[next] <= terms.get_termpos()) {
      terms.set_termpos(before);  // again, a token at a time
      for (std::size_t token = at; token < chunk_end;) {
        std::size_t token_end = text.find(' ', token + 1);
        if (token_end == std::string_view::npos || token_end > chunk_end) token_end = chunk_end;
        index(token, token_end);
        const std::size_t word = text[token] == ' ' ? token + 1 : token;  // a token starts at its space
        while (next < positions.size() && positions[next] <= terms.get_termpos()) offsets[next++] = word;
        token = token_end;
      }
    }
    at = chunk_end;
  }
  return offsets;
}

void trim_spaces(std::string& s) {
  const std::size_t begin = s.find_first_not_of(' ');
  const std::size_t end = s.find_last_not_of(' ');
  s = begin == std::string::npos ? "" : s.substr(begin, end - begin + 1);
}

}  // namespace

void split_sections(std::string_view text, const std::vector<fmt::SectionView>& sections, bool whole_text,
                    std::string& lead, std::vector<BundleSection>& out) {
  out.clear();
  lead.clear();
  if (sections.empty()) {
    lead = text;
    trim_spaces(lead);
    return;
  }
  // Where each section's heading and body start, then where the text ends.
  std::vector<Xapian::termpos> positions;
  for (const fmt::SectionView& section : sections) positions.insert(positions.end(), {section.heading_start, section.body_start});
  const Xapian::termpos end = sections.back().heading_start;
  std::vector<std::size_t> offsets;
  if (whole_text) offsets = word_offsets(text, positions, end);
  std::size_t at = 0;  // where the text not yet given to a section starts
  std::string* open = &lead;
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const fmt::SectionView& section = sections[i];
    if (section.anchor.empty() || section.heading.empty()) continue;
    std::size_t begin = 0, body = 0;
    if (whole_text) {
      // The body from the heading's end: a token without words after it (a dash) is the body's.
      begin = offsets[2 * i];
      body = text.substr(std::min(begin, text.size())).starts_with(section.heading) ? begin + section.heading.size()
                                                                                    : offsets[2 * i + 1];
    } else {  // the text was cut: its words are not numbered from its start; found by heading
      begin = text.find(section.heading, at);
      body = begin == std::string_view::npos ? begin : begin + section.heading.size();
    }
    if (begin == std::string_view::npos || begin < at || begin >= text.size()) continue;
    open->append(text.substr(at, begin - at));
    out.push_back({std::string(section.anchor), std::string(section.heading), ""});
    open = &out.back().text;
    at = std::max(begin, std::min(body, text.size()));
  }
  open->append(text.substr(at));
  trim_spaces(lead);
  for (BundleSection& section : out) trim_spaces(section.text);
}

namespace {

/// The page's main text as the index keeps it: its head, then its tail (when it has one).
std::string main_text(const Xapian::Document& doc) {
  std::string text = fmt::decode_text_head(doc.get_value(fmt::kTextHeadSlot)).value_or("");
  const std::string tail = doc.get_value(fmt::kTextTailSlot);
  if (!tail.empty()) text += fmt::decode_text_tail(tail).value_or("");
  return text;
}

}  // namespace

std::optional<BundlePage> bundle_page(const Xapian::Document& doc, std::string_view base_url) {
  const std::string data = doc.get_data();
  if (!fmt::data_field(data, fmt::kDataAuthoritative).empty()) return std::nullopt;
  BundlePage page;
  page.url = bundle_url(fmt::data_field(data, fmt::kDataUrl), base_url);
  page.title = fmt::data_field(data, fmt::kDataCaption);
  page.language = doc.get_value(fmt::kLanguageSlot);
  page.section = doc.get_value(fmt::kSectionSlot);
  page.release = doc.get_value(fmt::kReleaseSlot);
  const std::string sections_line = fmt::data_field(data, fmt::kDataSections);
  const std::string text = main_text(doc);
  // A text the index cut (at kTextHeadBytes + kTextTailBytes, on a character boundary) holds
  // fewer words than its positions count.
  const bool whole_text = text.size() + 8 < fmt::kTextHeadBytes + fmt::kTextTailBytes;
  split_sections(text, fmt::decode_sections(sections_line), whole_text, page.lead, page.sections);
  page.alternates = fmt::decode_alternates(fmt::data_field(data, fmt::kDataAlternates));
  for (fmt::Alternate& alternate : page.alternates) alternate.url = bundle_url(alternate.url, base_url);
  page.place = fmt::decode_place(fmt::data_field(data, fmt::kDataPlace));
  if (const std::string score = doc.get_value(fmt::kStaticScoreSlot); !score.empty())
    page.pagerank = Xapian::sortable_unserialise(score);
  return page;
}

namespace {

/// A hidden element carrying one of Pagefind's per-page attributes (`data-pagefind-meta` and
/// the like) with `value` as its text.
void add_hidden(std::string& html, std::string_view attribute, std::string_view name, std::string_view value) {
  html += "<span hidden ";
  html += attribute;
  html += "=\"";
  html += escape_html(name);
  html += "\">";
  html += escape_html(value);
  html += "</span>\n";
}

/// `value` as JSON text, bytes that are not UTF-8 replaced (a page's title may hold them).
std::string json_text(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string bundle_page_html(const BundlePage& page) {
  std::string html = "<!DOCTYPE html>\n<html";
  if (!page.language.empty()) html += " lang=\"" + escape_html(page.language) + "\"";
  html += "><head><meta charset=\"utf-8\"><title>" + escape_html(page.title) + "</title></head><body>\n";
  html += "<main data-pagefind-body>\n<h1 data-pagefind-meta=\"title\">" + escape_html(page.title) + "</h1>\n";
  if (!page.lead.empty()) html += "<p>" + escape_html(page.lead) + "</p>\n";
  for (const BundleSection& section : page.sections) {
    html += "<h2 id=\"" + escape_html(section.anchor) + "\">" + escape_html(section.heading) + "</h2>\n";
    if (!section.text.empty()) html += "<p>" + escape_html(section.text) + "</p>\n";
  }
  if (!page.alternates.empty()) {
    // The copies' titles are words of the page in canon's index too (docs/index-format.md).
    html += "<p data-pagefind-weight=\"0.5\">";
    for (const fmt::Alternate& alternate : page.alternates) html += escape_html(alternate.title) + ". ";
    html += "</p>\n";
  }
  html += "</main>\n";
  if (!page.alternates.empty()) {
    nlohmann::json alternates = nlohmann::json::array();
    for (const fmt::Alternate& a : page.alternates)
      alternates.push_back({{"url", a.url}, {"title", a.title}, {"similarity", a.similarity}});
    add_hidden(html, "data-pagefind-meta", "canon_alternates", json_text(alternates));
  }
  if (!page.place.empty()) add_hidden(html, "data-pagefind-meta", "canon_place", json_text(nlohmann::json(page.place)));
  if (!page.section.empty()) add_hidden(html, "data-pagefind-filter", "section", page.section);
  if (!page.release.empty()) add_hidden(html, "data-pagefind-filter", "release", page.release);
  char rank[32];
  std::snprintf(rank, sizeof rank, "%.9g", page.pagerank);
  add_hidden(html, "data-pagefind-sort", "pagerank", rank);
  html += "</body></html>\n";
  return html;
}

}  // namespace canon::pagefind
