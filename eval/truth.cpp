/// @file truth.cpp
/// @brief Reading and checking truth.json, pages.jsonl and pairs.tsv.
#include "eval/truth.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unordered_set>

#include "common/file_io.h"
#include "format/index_format.h"

namespace canon::eval {
namespace fs = std::filesystem;
namespace {

Result<std::string> read_whole(const fs::path& path, const std::string& what) {
  auto bytes = canon::read_file(path);
  if (!bytes.ok()) return Status::error("cannot read " + what + " '" + path.string() + "': " + bytes.status().message());
  return bytes;
}

std::string where(const fs::path& path, std::size_t line) {
  return "'" + path.string() + "' line " + std::to_string(line) + ": ";
}

}  // namespace

Status check_truth(const Truth& truth) {
  std::unordered_set<std::string> seen;
  if (!truth.names.empty() && truth.names.size() != truth.clusters.size()) {
    return Status::error("\"names\" has " + std::to_string(truth.names.size()) + " counts for " +
                         std::to_string(truth.clusters.size()) + " clusters");
  }
  for (std::size_t c = 0; c < truth.clusters.size(); ++c) {
    if (truth.clusters[c].empty())
      return Status::error("cluster " + std::to_string(c) + " is empty");
    if (truth.names_of(c) < 1 || truth.names_of(c) > truth.clusters[c].size()) {
      return Status::error("cluster " + std::to_string(c) + " has " + std::to_string(truth.names_of(c)) +
                           " names for " + std::to_string(truth.clusters[c].size()) + " pages");
    }
    for (const std::string& path : truth.clusters[c]) {
      if (path.empty()) return Status::error("cluster " + std::to_string(c) + " has an empty path");
      if (!seen.insert(path).second)
        return Status::error("page '" + path + "' is in more than one cluster");
    }
  }
  return Status::ok_status();
}

nlohmann::json clusters_json(const Truth& truth) {
  nlohmann::json clusters = nlohmann::json::array();
  for (const auto& cluster : truth.clusters) clusters.push_back(cluster);
  return clusters;
}

Result<Truth> read_truth(const fs::path& path) {
  auto text = read_whole(path, "truth file");
  if (!text.ok()) return text.status();
  return parse_truth(text.value(), path.string());
}

Result<Truth> parse_truth(std::string_view text, const std::string& name) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded())
    return Status::error("truth file '" + name + "' is not valid JSON");
  const std::string bad = "truth file '" + name + "': ";
  if (!j.is_object() || !j.contains("clusters") || !j["clusters"].is_array()) {
    return Status::error(bad + "expected an object with a \"clusters\" array");
  }
  Truth truth;
  for (const nlohmann::json& cluster : j["clusters"]) {
    if (!cluster.is_array()) return Status::error(bad + "every cluster must be an array of paths");
    std::vector<std::string> members;
    for (const nlohmann::json& member : cluster) {
      if (!member.is_string())
        return Status::error(bad + "every cluster member must be a path string");
      members.push_back(member.get<std::string>());
    }
    truth.clusters.push_back(std::move(members));
  }
  if (j.contains("names")) {
    if (!j["names"].is_array()) return Status::error(bad + "\"names\" must be an array of counts");
    for (const nlohmann::json& count : j["names"]) {
      if (!count.is_number_unsigned()) return Status::error(bad + "\"names\" must be an array of counts");
      truth.names.push_back(count.get<std::size_t>());
    }
  }
  if (Status s = check_truth(truth); !s.ok()) return Status::error(bad + s.message());
  return truth;
}

Result<IndexVerdict> read_index_verdict(const fs::path& index_dir) {
  std::error_code ec;
  IndexVerdict verdict;
  auto pages = indexer::read_page_lines(index_dir);
  if (!pages.ok()) return pages.status();
  verdict.pages = std::move(pages.value());

  const fs::path pairs_path = index_format::IndexLayout{index_dir}.pairs();
  if (!fs::exists(pairs_path, ec)) return verdict;
  auto text = read_whole(pairs_path, "pairs file");
  if (!text.ok()) return text.status();
  std::vector<IndexPair> pairs;
  std::istringstream lines(text.value());
  std::size_t number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (line.empty()) continue;
    const std::size_t tab1 = line.find('\t');
    const std::size_t tab2 = tab1 == std::string::npos ? tab1 : line.find('\t', tab1 + 1);
    if (tab2 == std::string::npos || line.find('\t', tab2 + 1) != std::string::npos) {
      return Status::error(where(pairs_path, number) + "expected URL<TAB>URL<TAB>similarity");
    }
    IndexPair pair{line.substr(0, tab1), line.substr(tab1 + 1, tab2 - tab1 - 1), 0.0};
    const char* first = line.data() + tab2 + 1;
    const char* last = line.data() + line.size();
    const auto [end, error] = std::from_chars(first, last, pair.similarity);
    if (error != std::errc() || end != last || pair.url_a.empty() || pair.url_b.empty()) {
      return Status::error(where(pairs_path, number) + "expected URL<TAB>URL<TAB>similarity");
    }
    pairs.push_back(std::move(pair));
  }
  verdict.pairs = std::move(pairs);
  return verdict;
}

}  // namespace canon::eval
