/// @file index_writer.cpp
/// @brief Xapian documents in Omega's layout.
#include "indexer/stages/index_writer.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <unordered_map>

#include <xapian.h>
#include <xxhash.h>

#include "common/utf8.h"
#include "format/index_format.h"
#include "format/facets.h"
#include "format/page_place.h"
#include "format/section_places.h"
#include "format/text_head.h"
#include "format/text_tail.h"
#include "urls/url.h"

namespace canon::indexer {
namespace fmt = canon::index_format;

struct IndexWriter::Rep {
  Xapian::WritableDatabase db;
  WriterOptions options;
  /// URL of each hashed (cut) URL term added, to refuse a second URL with the same term.
  std::unordered_map<std::string, std::string> hashed_url_terms;
  /// set_static_score_bound's argument, written by finish().
  std::optional<double> static_score_bound;
  /// Changes since the last commit.
  unsigned pending_changes = 0;
  Status status = Status::ok_status();
};

void IndexWriter::count_change() {
  if (rep_->options.documents_per_commit == 0 || ++rep_->pending_changes < rep_->options.documents_per_commit) return;
  rep_->db.commit();
  rep_->pending_changes = 0;
}

IndexWriter::IndexWriter(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
IndexWriter::~IndexWriter() = default;

Result<std::unique_ptr<IndexWriter>> IndexWriter::create(const std::string& path,
                                                         WriterOptions options) {
  try {
    auto rep = std::make_unique<Rep>();
    rep->options = options;
    rep->db = Xapian::WritableDatabase(path, Xapian::DB_CREATE_OR_OVERWRITE | Xapian::DB_NO_SYNC);
    rep->db.set_metadata(
        std::string(fmt::kCollapseMetadataKey),
        std::string(fmt::to_string(options.collapse)));
    return std::unique_ptr<IndexWriter>(new IndexWriter(std::move(rep)));
  } catch (const Xapian::Error& e) {
    return Status::io_error("cannot create Xapian database at '" + path + "': " + e.get_description());
  }
}

Result<std::unique_ptr<IndexWriter>> IndexWriter::open(const std::string& path, WriterOptions options) {
  try {
    auto rep = std::make_unique<Rep>();
    rep->options = options;
    rep->db = Xapian::WritableDatabase(path, Xapian::DB_OPEN);
    const std::string collapse = rep->db.get_metadata(std::string(fmt::kCollapseMetadataKey));
    if (collapse != fmt::to_string(options.collapse)) {
      return Status::failed_precondition("the Xapian database at '" + path + "' collapses at '" + collapse +
                                         "', not '" + std::string(fmt::to_string(options.collapse)) + "'");
    }
    return std::unique_ptr<IndexWriter>(new IndexWriter(std::move(rep)));
  } catch (const Xapian::Error& e) {
    return Status::io_error("cannot open the Xapian database at '" + path + "': " + e.get_description());
  }
}

namespace {

/// This thread's TermGenerator: one per thread, because a TermGenerator is not thread-safe and
/// building one (with its stemmer) for every page would cost more than reusing it.
Xapian::TermGenerator& term_generator() {
  thread_local Xapian::TermGenerator terms = [] {
    Xapian::TermGenerator generator;
    generator.set_stemmer(Xapian::Stem(std::string(fmt::kStemLanguage)));
    generator.set_stemming_strategy(Xapian::TermGenerator::STEM_SOME);
    // CJK runs as n-grams, so that a word inside a longer run is found; the searcher parses
    // queries the same way.
    generator.set_flags(fmt::kTermGeneratorFlags);
    return generator;
  }();
  return terms;
}

/// Where the alternates' titles are indexed in a document: after anything its own fields use.
constexpr Xapian::termpos kAlternateTitlesPosition = 10'000'000;

/// Sections a document records at most (a generated reference's page of a type with thousands
/// of members keeps its first ones; the last recorded runs to the end of the text).
constexpr std::size_t kMaxSections = 4096;

/// Indexes `text` at the generator's next positions, as one index_text() call would (it is cut
/// only where a section's heading starts or ends, between words), and returns where the words
/// of each of `sections` (offsets into `text`) are, then where the text ends; none when no
/// section has an anchor.
std::vector<fmt::SectionPlace> index_text_by_section(Xapian::TermGenerator& terms, std::string_view text,
                                                     std::span<const html::PageSection> sections) {
  std::vector<fmt::SectionPlace> places;
  std::size_t done = 0;
  const auto index_up_to = [&](std::size_t end) {
    end = std::clamp(end, done, text.size());
    terms.index_text(Xapian::Utf8Iterator(text.data() + done, end - done));
    done = end;
  };
  bool anchored = false;
  for (const html::PageSection& section : sections.first(std::min(sections.size(), kMaxSections))) {
    index_up_to(section.text_begin);
    fmt::SectionPlace place{section.anchor, section.anchor.empty() ? "" : section.heading, terms.get_termpos() + 1, 0};
    index_up_to(section.text_end);
    place.body_start = terms.get_termpos() + 1;
    anchored = anchored || !place.anchor.empty();
    places.push_back(std::move(place));
  }
  index_up_to(text.size());
  if (!anchored) return {};
  // The end of the text, as a section without anchor: the last section ends there, before the
  // alternates' titles.
  places.push_back({"", "", terms.get_termpos() + 1, terms.get_termpos() + 1});
  return places;
}

}  // namespace

std::string IndexWriter::prepare(const PageContent& page) {
  Xapian::Document doc;
  Xapian::TermGenerator& terms = term_generator();
  terms.set_document(doc);
  terms.set_termpos(0);
  // Title words are searchable both with the S prefix (title:) and as body words, weighted
  // up as omindex does; then the other fields, each after a gap so phrases do not span them.
  terms.index_text(page.title, 1, std::string(fmt::kTitlePrefix));
  terms.index_text(page.title, 5);
  const std::string exact_title = fmt::exact_title_term(page.title);
  if (!exact_title.empty()) doc.add_term(exact_title);
  terms.increase_termpos(100);
  terms.index_text(page.meta_keywords);
  terms.index_text(page.meta_keywords, 1, std::string(fmt::kKeywordPrefix));
  terms.increase_termpos(100);
  terms.index_text(page.meta_description);
  for (const std::string& heading : page.headings) {
    terms.increase_termpos(100);
    terms.index_text(heading, 2);
  }
  if (!page.main_heading.empty() &&
      std::find(page.headings.begin(), page.headings.end(), page.main_heading) == page.headings.end()) {
    terms.increase_termpos(100);
    terms.index_text(page.main_heading, 2);
  }
  // The name the reader sees on the page is part of its title: a search for it matches it
  // whole, as a title does, and its words are title words (Doxygen's pages all have the
  // <title> "Member List"; the class they list is in the heading).
  if (std::string exact = fmt::exact_title_term(page.main_heading); !exact.empty() && exact != exact_title) {
    doc.add_term(exact);
    terms.increase_termpos(100);
    terms.index_text(page.main_heading, 1, std::string(fmt::kTitlePrefix));
  }
  terms.increase_termpos(100);
  const std::vector<fmt::SectionPlace> sections = index_text_by_section(terms, page.main_text, page.sections);
  for (const html::PageSection& section : std::span(page.sections).first(std::min(page.sections.size(), kMaxSections))) {
    if (std::string term = fmt::exact_heading_term(section.heading); !term.empty()) doc.add_boolean_term(term);
  }

  doc.add_boolean_term(fmt::url_term(page.url));
  doc.add_boolean_term(fmt::hash_long_term(std::string(fmt::kHostPrefix) + urls::url_host(page.url)));
  for (const std::string& term : fmt::path_terms(urls::url_path(page.url))) doc.add_boolean_term(term);
  doc.add_boolean_term(std::string(fmt::kMimeTypePrefix) + "text/html");
  doc.add_value(fmt::kUrlSlot, page.url);
  const fmt::PageFacets facets = fmt::page_facets(urls::url_path(page.url), page.language);
  for (const auto& [slot, value] : {std::pair{fmt::kSectionSlot, &facets.section}, std::pair{fmt::kReleaseSlot, &facets.release},
                                    std::pair{fmt::kLanguageSlot, &facets.language}}) {
    if (!value->empty()) doc.add_value(slot, *value);
  }

  if (page.file) {
    doc.add_value(fmt::kLastModifiedSlot, fmt::last_modified_value(static_cast<time_t>(page.file->mtime_seconds())));
    doc.add_value(fmt::kSizeSlot, Xapian::sortable_serialise(static_cast<double>(page.file->size)));
  }
  std::string data;
  fmt::add_data_line(data, fmt::kDataUrl, page.url);
  fmt::add_data_line(data, fmt::kDataCaption, page.title);
  fmt::add_data_line(data, fmt::kDataSample,
                utf8_prefix(page.meta_description.empty() ? page.main_text : page.meta_description, 300));
  fmt::add_data_line(data, fmt::kDataType, "text/html");
  if (page.file) {
    fmt::add_data_line(data, fmt::kDataModtime, std::to_string(page.file->mtime_seconds()));
    fmt::add_data_line(data, fmt::kDataSize, std::to_string(page.file->size));
  }
  if (!page.place.empty()) fmt::add_data_line(data, fmt::kDataPlace, fmt::encode_place(page.place));
  if (!sections.empty()) fmt::add_data_line(data, fmt::kDataSections, fmt::encode_sections(sections));
  // The text MSet::snippet() picks the best passage from: its head (read for every hit, kept out
  // of the data Xapian inflates) and the rest, to a cap, that a search reads only when the words
  // are not in the head.
  const std::string_view head = utf8_prefix(page.main_text, fmt::kTextHeadBytes);
  if (!head.empty()) doc.add_value(fmt::kTextHeadSlot, fmt::encode_text_head(head));
  if (head.size() < page.main_text.size()) {
    doc.add_value(fmt::kTextTailSlot,
                  fmt::encode_text_tail(utf8_prefix(std::string_view(page.main_text).substr(head.size()), fmt::kTextTailBytes)));
  }
  doc.set_data(data);
  return doc.serialise();
}

namespace {

/// Document data `data` with the value of each `key=` line in `values` replaced, lines kept in
/// their order.
std::string replace_data_values(std::string_view data, const std::vector<std::pair<std::string_view, std::string>>& values) {
  std::string out;
  out.reserve(data.size());
  std::size_t pos = 0;
  while (pos < data.size()) {
    std::size_t end = data.find('\n', pos);
    if (end == std::string_view::npos) end = data.size();
    const std::string_view line = data.substr(pos, end - pos);
    bool replaced = false;
    for (const auto& [key, value] : values) {
      if (fmt::is_data_line_of(line, key)) {
        fmt::add_data_line(out, key, value);
        replaced = true;
        break;
      }
    }
    if (!replaced) out.append(line).push_back('\n');
    pos = end + 1;
  }
  return out;
}

}  // namespace

Result<std::string> IndexWriter::restamp(const std::string& prepared, const FileStamp& file) {
  try {
    Xapian::Document doc = Xapian::Document::unserialise(prepared);
    doc.add_value(fmt::kLastModifiedSlot, fmt::last_modified_value(static_cast<time_t>(file.mtime_seconds())));
    doc.add_value(fmt::kSizeSlot, Xapian::sortable_serialise(static_cast<double>(file.size)));
    doc.set_data(replace_data_values(doc.get_data(), {{fmt::kDataModtime, std::to_string(file.mtime_seconds())},
                                                      {fmt::kDataSize, std::to_string(file.size)}}));
    return doc.serialise();
  } catch (const Xapian::Error& e) {
    return Status::corruption("a stored document is damaged: " + e.get_description());
  }
}

/// Refuses a second URL whose (cut and hashed) unique term equals an earlier URL's.
Status IndexWriter::check_unique_term(const std::string& unique_term, const std::string& url) {
  if (unique_term.size() != fmt::kMaxBooleanTermLength) return Status::ok_status();
  auto [it, inserted] = rep_->hashed_url_terms.emplace(unique_term, url);
  if (inserted || it->second == url) return Status::ok_status();
  rep_->status = Status::error("cannot index " + url + ": its hashed URL term is the same as " + it->second + "'s");
  return rep_->status;
}

namespace {

/// The anchor terms of a document with inbound anchors `anchors`: for each text its cased term,
/// for the texts alike but for case one caseless term, which counts all their pages ("HashMap"
/// and "hashmap"), each with its count terms (index_format::anchor_count_term); and a place term
/// for each of `places`. Sorted.
std::vector<std::string> anchor_terms(const std::vector<AnchorName>& anchors, const std::vector<std::string>& places) {
  std::vector<std::string> terms;
  std::map<std::string, std::uint32_t> caseless_pages;
  const auto add = [&terms](const std::string& term, std::uint32_t pages) {
    terms.push_back(term);
    for (unsigned level = 1; level <= fmt::anchor_count_levels(pages); ++level) {
      terms.push_back(fmt::anchor_count_term(term, level));
    }
  };
  for (const AnchorName& anchor : anchors) {
    const std::string cased = fmt::cased_anchor_term(anchor.text);
    if (cased.empty()) continue;
    add(cased, anchor.pages);
    caseless_pages[fmt::exact_anchor_term(anchor.text)] += anchor.pages;
  }
  for (const auto& [caseless, pages] : caseless_pages) add(caseless, pages);
  for (const std::string& place : places) {
    if (std::string term = fmt::place_name_term(place); !term.empty()) terms.push_back(std::move(term));
  }
  std::sort(terms.begin(), terms.end());
  terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
  return terms;
}

/// Whether `fields` puts its alternates' titles among the document's terms.
bool indexes_alternate_titles(const ClusterFields& fields, const WriterOptions& options) {
  return !fields.alternates.empty() && options.collapse == CollapseMode::kIndexTime;
}

/// The static weight of slot kStaticWeightSlot for a cluster PageRank.
double static_weight(double cluster_pagerank, const WriterOptions& options) {
  return std::log1p(options.pagerank_scale * std::max(cluster_pagerank, 0.0));
}

/// Gives `doc` its cluster fields' values: the static score and weight and the cluster id.
void set_cluster_values(Xapian::Document& doc, const ClusterFields& fields, const WriterOptions& options) {
  doc.add_value(fmt::kStaticScoreSlot, Xapian::sortable_serialise(fields.cluster_pagerank));
  doc.add_value(fmt::kClusterSlot, fmt::cluster_value(fields.cluster_id));
  doc.add_value(fmt::kStaticWeightSlot, Xapian::sortable_serialise(static_weight(fields.cluster_pagerank, options)));
}

/// `prepared_data` (the data prepare() wrote) with the cluster fields' lines: the alternates and
/// the authoritative page.
std::string with_cluster_lines(std::string prepared_data, const ClusterFields& fields) {
  if (!fields.alternates.empty()) {
    fmt::add_data_line(prepared_data, fmt::kDataAlternates, fmt::encode_alternates(fields.alternates));
  }
  if (!fields.authoritative_url.empty()) fmt::add_data_line(prepared_data, fmt::kDataAuthoritative, fields.authoritative_url);
  return prepared_data;
}

/// Gives `doc` its cluster fields' values and data (after `prepared_data`). The data is set only
/// when it differs: a document read from a database whose data is set again has its data
/// rewritten (for most documents, 16 KiB of text).
void set_cluster_values_and_data(Xapian::Document& doc, std::string prepared_data, const ClusterFields& fields,
                                 const WriterOptions& options) {
  set_cluster_values(doc, fields, options);
  std::string data = with_cluster_lines(std::move(prepared_data), fields);
  if (doc.get_data() != data) doc.set_data(data);
}

/// Document data without the lines set_cluster_values_and_data appends: the data prepare() wrote.
std::string without_cluster_lines(const std::string& data) {
  std::size_t line = 0;
  while (line < data.size()) {
    const std::string_view rest = std::string_view(data).substr(line);
    for (const std::string_view key : {fmt::kDataAlternates, fmt::kDataAuthoritative}) {
      if (fmt::is_data_line_of(rest, key)) return data.substr(0, line);
    }
    const std::size_t end = data.find('\n', line);
    if (end == std::string::npos) break;
    line = end + 1;
  }
  return data;
}

/// Gives `doc` its static score, cluster id, alternates and authoritative page.
void add_cluster_fields(Xapian::Document& doc, const ClusterFields& fields, const WriterOptions& options) {
  // A collapsed page stays findable by its own title through the page that stands for it:
  // each alternate's title is searchable on this document, as a title and as text, after a gap
  // so that no phrase spans two titles (docs/index-format.md, "Document data").
  if (indexes_alternate_titles(fields, options)) {
    Xapian::TermGenerator& terms = term_generator();
    terms.set_document(doc);
    terms.set_termpos(kAlternateTitlesPosition);
    for (const fmt::Alternate& alt : fields.alternates) {
      terms.index_text(alt.title, 1, std::string(fmt::kTitlePrefix));
      terms.index_text(alt.title, 5);  // weighted as the page's own title: another name of it
      if (std::string exact = fmt::exact_title_term(alt.title); !exact.empty()) doc.add_term(exact);
      terms.increase_termpos(100);
    }
  }
  // Boolean terms (wdf 0): search weighs them itself, and they leave the document's length, and
  // so the BM25 weight of its words, as it was.
  for (const std::string& term : anchor_terms(fields.anchors, fields.places)) doc.add_boolean_term(term);
  set_cluster_values_and_data(doc, doc.get_data(), fields, options);
}

}  // namespace

std::uint64_t IndexWriter::terms_source(std::string_view url, std::uint64_t content_hash) {
  return XXH3_64bits_withSeed(url.data(), url.size(), content_hash);
}

DocumentDigests IndexWriter::digests(std::uint64_t terms_source, const FileStamp& file, const ClusterFields& fields,
                                     const WriterOptions& options) {
  DocumentDigests digests;
  std::string titles;
  if (indexes_alternate_titles(fields, options)) {
    for (const fmt::Alternate& alt : fields.alternates) titles.append(alt.title).push_back('\0');
  }
  for (const std::string& term : anchor_terms(fields.anchors, fields.places)) titles.append(term).push_back('\0');
  digests.terms = XXH3_64bits_withSeed(titles.data(), titles.size(), terms_source);
  // Everything prepare() takes from the file's stamp and set_cluster_values_and_data writes.
  std::string values = std::to_string(file.size) + ' ' + std::to_string(file.mtime_seconds()) + ' ';
  values += fmt::to_string(options.collapse);
  values.push_back('\0');
  values += Xapian::sortable_serialise(fields.cluster_pagerank);
  values.push_back('\0');
  values += Xapian::sortable_serialise(static_weight(fields.cluster_pagerank, options));
  values.push_back('\0');
  values += fmt::cluster_value(fields.cluster_id);
  values.push_back('\0');
  values += fmt::encode_alternates(fields.alternates);
  values.push_back('\0');
  values += fields.authoritative_url;
  digests.fields = XXH3_64bits(values.data(), values.size());
  // What the data alone is written from: the stamp's lines and the cluster lines.
  std::string data = std::to_string(file.size) + ' ' + std::to_string(file.mtime_seconds()) + '\0';
  data += fmt::encode_alternates(fields.alternates);
  data.push_back('\0');
  data += fields.authoritative_url;
  digests.data = XXH3_64bits(data.data(), data.size());
  return digests;
}

Status IndexWriter::replace(DocumentId id, const std::string& url, const std::string& prepared,
                            const ClusterFields& fields) {
  if (!rep_->status.ok()) return rep_->status;
  try {
    Xapian::Document doc = Xapian::Document::unserialise(prepared);
    add_cluster_fields(doc, fields, rep_->options);
    rep_->db.replace_document(id, doc);
    count_change();
  } catch (const Xapian::Error& e) {
    rep_->status = Status::io_error("cannot index " + url + ": " + e.get_description());
  }
  return rep_->status;
}

Status IndexWriter::update_fields(DocumentId id, const std::string& url, const std::string* prepared,
                                  const ClusterFields& fields, bool data_changed) {
  if (!rep_->status.ok()) return rep_->status;
  try {
    // A document read from the database it is replaced in: Xapian writes only what was
    // modified (here its values and data), not its terms and positions.
    Xapian::Document doc = rep_->db.get_document(id);
    std::string prepared_data;
    if (prepared != nullptr) {
      const Xapian::Document fresh = Xapian::Document::unserialise(*prepared);
      for (auto value = fresh.values_begin(); value != fresh.values_end(); ++value) {
        doc.add_value(value.get_valueno(), *value);
      }
      prepared_data = fresh.get_data();
    } else if (!data_changed) {  // values only: the data is not read
      set_cluster_values(doc, fields, rep_->options);
      rep_->db.replace_document(id, doc);
      count_change();
      return rep_->status;
    } else {
      prepared_data = without_cluster_lines(doc.get_data());
    }
    set_cluster_values_and_data(doc, std::move(prepared_data), fields, rep_->options);
    rep_->db.replace_document(id, doc);
    count_change();
  } catch (const Xapian::Error& e) {
    rep_->status = Status::io_error("cannot update " + url + ": " + e.get_description());
  }
  return rep_->status;
}

Status IndexWriter::remove(DocumentId id) {
  if (!rep_->status.ok()) return rep_->status;
  try {
    rep_->db.delete_document(id);
    count_change();
  } catch (const Xapian::Error& e) {
    rep_->status = Status::io_error("cannot remove document " + std::to_string(id) + ": " + e.get_description());
  }
  return rep_->status;
}

void IndexWriter::set_static_score_bound(double max_cluster_pagerank) { rep_->static_score_bound = max_cluster_pagerank; }

Result<DocumentId> IndexWriter::add(const std::string& url, const std::string& prepared, const ClusterFields& fields) {
  if (!rep_->status.ok()) return rep_->status;
  if (Status unique = check_unique_term(fmt::url_term(url), url); !unique.ok()) return unique;
  try {
    Xapian::Document doc = Xapian::Document::unserialise(prepared);
    add_cluster_fields(doc, fields, rep_->options);
    const Xapian::docid id = rep_->db.add_document(doc);
    count_change();
    return id;
  } catch (const Xapian::Error& e) {
    rep_->status = Status::io_error("cannot index " + url + ": " + e.get_description());
    return rep_->status;
  }
}

Status IndexWriter::add(const IndexedPage& page) {
  if (!rep_->status.ok()) return rep_->status;
  const std::string unique_term = fmt::url_term(page.url);
  if (Status unique = check_unique_term(unique_term, page.url); !unique.ok()) return unique;
  try {
    Xapian::Document doc = Xapian::Document::unserialise(prepare(page));
    add_cluster_fields(doc, page, rep_->options);
    rep_->db.replace_document(unique_term, doc);
    count_change();
  } catch (const Xapian::Error& e) {
    rep_->status = Status::io_error("cannot index " + page.url + ": " + e.get_description());
  }
  return rep_->status;
}

Status IndexWriter::finish() {
  if (!rep_->status.ok()) return rep_->status;
  try {
    if (rep_->static_score_bound) {
      const double bound = std::max(*rep_->static_score_bound, 0.0);
      rep_->db.set_metadata(std::string(fmt::kStaticScoreBoundKey), Xapian::sortable_serialise(bound));
      rep_->db.set_metadata(std::string(fmt::kStaticWeightBoundKey),
                            Xapian::sortable_serialise(static_weight(bound, rep_->options)));
    }
    rep_->db.commit();
    rep_->db.close();
  } catch (const Xapian::Error& e) {
    rep_->status = Status::io_error("cannot commit the Xapian database: " + e.get_description());
  }
  return rep_->status;
}

Status merge_databases(std::span<const std::string> sources, const std::string& destination) {
  try {
    Xapian::Database all;
    for (const std::string& source : sources) all.add_database(Xapian::Database(source));
    // Documents are renumbered source after source, in order (Xapian's default for compact).
    // One pass over every source's postings, not DBCOMPACT_MULTIPASS (which merges the postlists
    // two sources at a time through temporary tables, log2(sources) passes): on the 100k site's
    // index split 16, 60 and 600 ways the one pass took 0.5, 0.45 and 0.4 of the multipass time
    // (docs/benchmarks.md, "Merging the chunk databases in one pass").
    all.compact(destination);
    return Status::ok_status();
  } catch (const Xapian::Error& e) {
    return Status::io_error("cannot merge the Xapian databases into '" + destination + "': " + e.get_description());
  }
}

namespace {

/// Whether term `t` is a word to suggest (sync_spelling).
bool is_spelling_word(const std::string& t) {
  if (t.size() < 2 || t.size() > kMaxSpellingBytes) return false;
  const auto first = static_cast<unsigned char>(t[0]);
  if (first >= 'A' && first <= 'Z') return false;  // a prefixed term (Omega's prefixes are capitals)
  if (first >= 0xE2) return false;                  // CJK and other symbols from U+2000: n-grams, not words
  return std::any_of(t.begin(), t.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || static_cast<unsigned char>(c) >= 0x80;
  });
}

}  // namespace

Status sync_spelling(const std::string& path) {
  try {
    Xapian::WritableDatabase db(path, Xapian::DB_OPEN);
    // Both lists are in byte order: walk them side by side, each word's frequency brought to
    // its document frequency (0 for a word no longer a term, or not a word).
    Xapian::TermIterator have = db.spellings_begin();
    Xapian::TermIterator want = db.allterms_begin();
    while (have != db.spellings_end() || want != db.allterms_end()) {
      const bool from_have = want == db.allterms_end() || (have != db.spellings_end() && *have <= *want);
      const bool from_want = have == db.spellings_end() || (want != db.allterms_end() && *want <= *have);
      const std::string word = from_have ? *have : *want;
      const Xapian::termcount had = from_have ? have.get_termfreq() : 0;
      const Xapian::termcount wanted = from_want && is_spelling_word(word) ? want.get_termfreq() : 0;
      if (wanted > had) db.add_spelling(word, wanted - had);
      if (wanted < had) db.remove_spelling(word, had - wanted);
      if (from_have) ++have;
      if (from_want) ++want;
    }
    db.commit();
    return Status::ok_status();
  } catch (const Xapian::Error& e) {
    return Status::io_error("cannot write the spelling table of '" + path + "': " + e.get_description());
  }
}

}  // namespace canon::indexer
