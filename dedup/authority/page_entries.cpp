/// @file page_entries.cpp
/// @brief defined_terms(), listed_entries() and the checks that one page covers another's.
#include "dedup/authority/page_entries.h"

#include <algorithm>
#include <string_view>

#include <xxhash.h>

namespace canon::dedup {

std::vector<std::string> defined_terms(std::span<const std::string> dt_ids) {
  std::vector<std::string> terms;
  for (const std::string& id : dt_ids) {
    if (id.empty()) continue;
    std::string term = id;
    for (char& c : term) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    terms.push_back(std::move(term));
  }
  std::sort(terms.begin(), terms.end());
  terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
  return terms;
}

std::vector<std::uint32_t> listed_entries(std::span<const std::string> link_targets) {
  std::vector<std::uint32_t> entries;
  entries.reserve(link_targets.size());
  for (const std::string_view target : link_targets) {
    const std::size_t hash_at = std::min(target.find('#'), target.size());
    // A place in another page (a source line, a section elsewhere) says where, not what.
    if (hash_at != 0 && hash_at < target.size()) continue;
    std::string_view path = target.substr(0, hash_at);
    path = path.substr(0, std::min(path.find('?'), path.size()));
    while (!path.empty() && path.back() == '/') path.remove_suffix(1);
    const std::size_t slash = path.rfind('/');
    const std::string_view last = slash == std::string_view::npos ? path : path.substr(slash + 1);
    std::string entry(last);
    entry.append(target.substr(hash_at));
    if (entry.empty() || entry == "#") continue;
    entries.push_back(static_cast<std::uint32_t>(XXH3_64bits(entry.data(), entry.size())));
  }
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  if (entries.size() > kMaxListedEntries) entries.resize(kMaxListedEntries);
  return entries;
}

bool entries_covered(std::span<const std::uint32_t> page, std::span<const std::uint32_t> authoritative) {
  const bool sampled = authoritative.size() >= kMaxListedEntries;
  std::size_t compared = 0, missing = 0;
  for (const std::uint32_t entry : page) {
    if (sampled && entry > authoritative.back()) break;  // beyond what the sample tells (page is sorted)
    ++compared;
    if (!std::binary_search(authoritative.begin(), authoritative.end(), entry)) ++missing;
  }
  return missing < kMaxMissingEntries &&
         static_cast<double>(missing) <= kMaxMissingShare * static_cast<double>(compared);
}

bool definitions_covered(std::span<const std::string> page, std::span<const std::string> authoritative) {
  return std::includes(authoritative.begin(), authoritative.end(), page.begin(), page.end());
}

}  // namespace canon::dedup
