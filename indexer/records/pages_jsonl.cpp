/// @file pages_jsonl.cpp
/// @brief pages.jsonl lines to and from PageLine, with nlohmann/json.
#include "indexer/records/pages_jsonl.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#include <nlohmann/json.hpp>

#include "format/index_format.h"

namespace canon::indexer {

std::string encode_page_line(const PageLine& page) {
  nlohmann::json j;  // an object's keys are kept sorted
  j["path"] = page.path;
  j["url"] = page.url;
  j["status"] = to_string(page.status);
  if (!page.reason.empty()) j["reason"] = page.reason;
  if (page.title) j["title"] = *page.title;
  if (!page.heading.empty()) j["heading"] = page.heading;
  if (page.pagerank) j["pagerank"] = *page.pagerank;
  if (page.cluster) {
    j["cluster"] = *page.cluster;
    j["cluster_pagerank"] = page.cluster_pagerank;
    j["authoritative"] = page.authoritative;
    j["authority_reason"] = page.authority_reason;
  }
  if (page.similarity) j["similarity"] = *page.similarity;
  if (page.redirect_to) j["redirect_to"] = *page.redirect_to;
  if (page.canonical) j["canonical"] = *page.canonical;
  if (page.url_rule) j["url_rule"] = *page.url_rule;
  if (page.indexed_for_query_time_collapse) j["indexed_for_query_time_collapse"] = true;
  if (!page.cut.empty()) j["cut"] = page.cut;
  if (!page.warnings.empty()) j["warnings"] = page.warnings;
  if (!page.record.empty()) j["record"] = page.record;
  if (!page.encoding.empty()) {
    j["encoding"] = page.encoding;
    j["encoding_source"] = page.encoding_source;
  }
  return j.dump();
}

Result<PageLine> decode_page_line(std::string_view line) {
  const nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Status::error("not a JSON object");
  const auto text = [&](const char* key) -> std::optional<std::string> {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
  };
  const auto number = [&](const char* key) -> std::optional<double> {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number()) return std::nullopt;
    return it->get<double>();
  };
  PageLine page;
  const auto path = text("path");
  const auto status_text = text("status");
  if (!path || !status_text) return Status::error("needs string \"path\" and \"status\"");
  const auto status = parse_page_status(*status_text);
  if (!status) return Status::error("unknown status \"" + *status_text + "\"");
  page.path = *path;
  page.status = *status;
  page.url = text("url").value_or("");
  page.reason = text("reason").value_or("");
  page.title = text("title");
  page.heading = text("heading").value_or("");
  page.pagerank = number("pagerank");
  if (const auto it = j.find("cluster"); it != j.end() && it->is_number_unsigned()) page.cluster = it->get<std::uint64_t>();
  page.cluster_pagerank = number("cluster_pagerank").value_or(0.0);
  page.authoritative = text("authoritative").value_or("");
  page.authority_reason = text("authority_reason").value_or("");
  page.similarity = number("similarity");
  page.redirect_to = text("redirect_to");
  page.canonical = text("canonical");
  page.url_rule = text("url_rule");
  const auto collapse = j.find("indexed_for_query_time_collapse");
  page.indexed_for_query_time_collapse = collapse != j.end() && collapse->is_boolean() && collapse->get<bool>();
  for (const auto& [key, list] : {std::pair{"cut", &page.cut}, std::pair{"warnings", &page.warnings}}) {
    const auto found = j.find(key);
    if (found == j.end() || !found->is_array()) continue;
    for (const auto& item : *found) {
      if (item.is_string()) list->push_back(item.get<std::string>());
    }
  }
  page.record = text("record").value_or("");
  page.encoding = text("encoding").value_or("");
  page.encoding_source = text("encoding_source").value_or("");
  if ((page.status == PageStatus::kIndexed || page.status == PageStatus::kDuplicate) &&
      (!page.cluster || !text("authoritative"))) {
    const char* article = page.status == PageStatus::kIndexed ? "an " : "a ";
    return Status::error(article + std::string(to_string(page.status)) + " page needs \"cluster\" and \"authoritative\"");
  }
  return page;
}

Result<std::vector<PageLine>> read_page_lines(const std::filesystem::path& index_dir) {
  if (Status index = index_format::check_canon_index(index_dir); !index.ok()) return index;
  const std::filesystem::path path = index_format::IndexLayout{index_dir}.pages();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return Status::error("the canon index '" + index_dir.string() + "' has no pages.jsonl (a view derived by `canon eval diversity` has none)");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::io_error("cannot read '" + path.string() + "': " + std::strerror(errno));
  std::vector<PageLine> pages;
  std::size_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty()) continue;
    auto page = decode_page_line(line);
    if (!page.ok()) return Status::error("'" + path.string() + "' line " + std::to_string(number) + ": " + page.status().message());
    pages.push_back(std::move(page.value()));
  }
  if (in.bad()) return Status::io_error("cannot read '" + path.string() + "': read error");
  return pages;
}

}  // namespace canon::indexer
