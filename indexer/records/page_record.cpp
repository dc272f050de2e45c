/// @file page_record.cpp
/// @brief Page statuses' text forms and URL interning.
#include "indexer/records/page_record.h"

#include <algorithm>
#include <array>
#include <utility>

#include "format/index_format.h"

namespace canon::indexer {
namespace {

constexpr std::array<std::pair<PageStatus, std::string_view>, 4> kStatusNames{{
    {PageStatus::kIndexed, "indexed"},
    {PageStatus::kDuplicate, "duplicate"},
    {PageStatus::kRedirect, "redirect"},
    {PageStatus::kSkipped, "skipped"},
}};

}  // namespace

std::string_view to_string(PageStatus status) {
  for (const auto& [value, name] : kStatusNames) {
    if (value == status) return name;
  }
  return "skipped";  // unreachable: every status is named above
}

std::optional<PageStatus> parse_page_status(std::string_view text) {
  for (const auto& [value, name] : kStatusNames) {
    if (name == text) return value;
  }
  return std::nullopt;
}

std::vector<std::uint32_t> UrlIds::ids(const std::vector<std::string>& urls) {
  std::vector<std::uint32_t> out;
  out.reserve(urls.size());
  const std::lock_guard lock(mutex_);
  for (const std::string& url : urls) out.push_back(ids_.emplace(url, static_cast<std::uint32_t>(ids_.size())).first->second);
  return out;
}

std::vector<std::string> UrlIds::urls() const {
  std::vector<std::string> out(ids_.size());
  for (const auto& [url, id] : ids_) out[id] = url;
  return out;
}

std::vector<std::string_view> UrlIds::views() const {
  std::vector<std::string_view> out(ids_.size());
  for (const auto& [url, id] : ids_) out[id] = url;
  return out;
}

std::vector<std::string> UrlIds::release() {
  std::vector<std::string> out(ids_.size());
  while (!ids_.empty()) {
    auto node = ids_.extract(ids_.begin());
    out[node.mapped()] = std::move(node.key());
  }
  ids_ = {};  // frees the buckets too
  return out;
}

std::uint32_t UrlIds::find(const std::string& url) const {
  const auto it = ids_.find(url);
  return it == ids_.end() ? kNoRecord : it->second;
}

std::string anchor_key(std::string_view anchor_text) {
  std::string words = index_format::words_as_written(anchor_text);
  if (static_cast<std::size_t>(std::count(words.begin(), words.end(), ' ')) + 1 > kMaxAnchorWords) return {};
  return words;
}

std::string place_key(std::string_view anchor_text) {
  std::string key = anchor_key(anchor_text);
  return key.empty() ? key : "#" + key;
}

std::vector<std::uint32_t> intern_anchor_keys(const std::vector<std::string>& keys, AnchorIds& ids) {
  std::vector<std::string> named;
  std::vector<std::string> names_of_places;
  for (const std::string& key : keys) {
    if (key.empty()) continue;
    named.push_back(key);
    if (is_place_key(key)) names_of_places.push_back(key.substr(1));
  }
  const std::vector<std::uint32_t> named_ids = ids.ids(named);
  ids.ids(names_of_places);  // interned too: link_pages counts them as names of the page
  std::vector<std::uint32_t> out(keys.size(), kNoRecord);
  for (std::size_t i = 0, next = 0; i < keys.size(); ++i) {
    if (!keys[i].empty()) out[i] = named_ids[next++];
  }
  return out;
}

}  // namespace canon::indexer
