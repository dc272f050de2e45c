/// @file index_writer.cpp
/// @brief Xapian documents in Omega's layout.
#include "indexer/index_writer.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <nlohmann/json.hpp>
#include <xapian.h>

#include "indexer/index_format.h"
#include "indexer/url.h"

namespace canon::indexer {
namespace fmt = canon::index_format;
namespace {

/// Omega's document data is `key=value` lines: values must not contain a newline.
void add_data_line(std::string& data, std::string_view key, std::string_view value) {
  data.append(key).append("=");
  for (char c : value) data += (c == '\n' || c == '\r') ? ' ' : c;
  data += '\n';
}

/// The first `max_bytes` of `text`, cut at a UTF-8 character boundary.
std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

}  // namespace

struct IndexWriter::Rep {
  Xapian::WritableDatabase db;
  Xapian::TermGenerator terms;
  WriterOptions options;
  /// URL of each hashed (cut) URL term added, to refuse a second URL with the same term.
  std::unordered_map<std::string, std::string> hashed_url_terms;
  Status status = Status::ok_status();
};

IndexWriter::IndexWriter(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
IndexWriter::~IndexWriter() = default;

Result<std::unique_ptr<IndexWriter>> IndexWriter::create(const std::string& path,
                                                         WriterOptions options) {
  try {
    auto rep = std::make_unique<Rep>();
    rep->options = options;
    rep->db = Xapian::WritableDatabase(path, Xapian::DB_CREATE_OR_OVERWRITE);
    rep->db.set_metadata(
        std::string(fmt::kCollapseMetadataKey),
        std::string(options.collapse == CollapseMode::kQueryTime ? fmt::kCollapseAtQueryTime
                                                                 : fmt::kCollapseAtIndexTime));
    rep->terms.set_stemmer(Xapian::Stem(fmt::kStemLanguage));
    rep->terms.set_stemming_strategy(Xapian::TermGenerator::STEM_SOME);
    return std::unique_ptr<IndexWriter>(new IndexWriter(std::move(rep)));
  } catch (const Xapian::Error& e) {
    return Status::error("cannot create Xapian database at '" + path + "': " + e.get_description());
  }
}

Status IndexWriter::add(const IndexedPage& page) {
  if (!rep_->status.ok()) return rep_->status;
  try {
    Xapian::Document doc;
    Xapian::TermGenerator& terms = rep_->terms;
    terms.set_document(doc);
    // Title words are searchable both with the S prefix (title:) and as body words, weighted
    // up as omindex does; then the other fields, each after a gap so phrases do not span them.
    terms.index_text(page.title, 1, std::string(fmt::kTitlePrefix));
    terms.index_text(page.title, 5);
    terms.increase_termpos(100);
    terms.index_text(page.meta_keywords);
    terms.index_text(page.meta_keywords, 1, std::string(fmt::kKeywordPrefix));
    terms.increase_termpos(100);
    terms.index_text(page.meta_description);
    for (const std::string& heading : page.headings) {
      terms.increase_termpos(100);
      terms.index_text(heading, 2);
    }
    terms.increase_termpos(100);
    terms.index_text(page.main_text);

    const std::string unique_term = fmt::url_term(page.url);
    if (unique_term.size() == fmt::kMaxBooleanTermLength) {
      auto [it, inserted] = rep_->hashed_url_terms.emplace(unique_term, page.url);
      if (!inserted && it->second != page.url) {
        rep_->status = Status::error("cannot index " + page.url +
                                     ": its hashed URL term is the same as " + it->second + "'s");
        return rep_->status;
      }
    }
    doc.add_boolean_term(unique_term);
    doc.add_boolean_term(fmt::hash_long_term(std::string(fmt::kHostPrefix) + url_host(page.url)));
    for (const std::string& term : fmt::path_terms(url_path(page.url))) doc.add_boolean_term(term);
    doc.add_boolean_term(std::string(fmt::kMimeTypePrefix) + "text/html");

    doc.add_value(fmt::kStaticScoreSlot, Xapian::sortable_serialise(page.cluster_pagerank));
    doc.add_value(fmt::kClusterSlot, fmt::cluster_value(page.cluster_id));
    const double static_weight =
        std::log1p(rep_->options.pagerank_scale * std::max(page.cluster_pagerank, 0.0));
    doc.add_value(fmt::kStaticWeightSlot, Xapian::sortable_serialise(static_weight));
    struct stat file_stat {};
    const bool have_file =
        !page.source_file.empty() && ::stat(page.source_file.c_str(), &file_stat) == 0;
    if (have_file) {
      doc.add_value(fmt::kLastModifiedSlot, fmt::last_modified_value(file_stat.st_mtime));
      doc.add_value(fmt::kSizeSlot,
                    Xapian::sortable_serialise(static_cast<double>(file_stat.st_size)));
    }

    nlohmann::json alternates = nlohmann::json::array();
    for (const AlternateRecord& alt : page.alternates) {
      alternates.push_back(
          {{"url", alt.url}, {"title", alt.title}, {"similarity", alt.similarity}});
    }
    std::string data;
    add_data_line(data, fmt::kDataUrl, page.url);
    add_data_line(data, fmt::kDataCaption, page.title);
    add_data_line(
        data, fmt::kDataSample,
        utf8_prefix(page.meta_description.empty() ? page.main_text : page.meta_description, 300));
    add_data_line(data, fmt::kDataType, "text/html");
    if (have_file) {
      add_data_line(data, fmt::kDataModtime,
                    std::to_string(static_cast<long long>(file_stat.st_mtime)));
      add_data_line(data, fmt::kDataSize,
                    std::to_string(static_cast<long long>(file_stat.st_size)));
    }
    add_data_line(data, fmt::kDataAlternates, alternates.dump());
    if (!page.authoritative_url.empty())
      add_data_line(data, fmt::kDataAuthoritative, page.authoritative_url);
    // The text MSet::snippet() picks the best passage from; capped to keep documents small.
    add_data_line(data, fmt::kDataText, utf8_prefix(page.main_text, 16 * 1024));
    doc.set_data(data);

    rep_->db.replace_document(unique_term, doc);
  } catch (const Xapian::Error& e) {
    rep_->status = Status::error("cannot index " + page.url + ": " + e.get_description());
  }
  return rep_->status;
}

Status IndexWriter::finish() {
  if (!rep_->status.ok()) return rep_->status;
  try {
    rep_->db.commit();
    rep_->db.close();
  } catch (const Xapian::Error& e) {
    rep_->status = Status::error("cannot commit the Xapian database: " + e.get_description());
  }
  return rep_->status;
}

}  // namespace canon::indexer
