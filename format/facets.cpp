/// @file facets.cpp
/// @brief A page's facet values from its URL path and language.
#include "format/facets.h"

#include <algorithm>
#include <vector>

namespace canon::index_format {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// Whether a directory name names a release: "0.50", "3.11.1", "v2", "v1.4".
bool names_release(std::string_view name) {
  const bool v = name.starts_with('v') || name.starts_with('V');
  if (v) name.remove_prefix(1);
  if (name.empty() || !is_digit(name.front()) || !is_digit(name.back())) return false;
  if (!std::all_of(name.begin(), name.end(), [](char c) { return is_digit(c) || c == '.'; })) return false;
  return v || name.find('.') != std::string_view::npos;
}

}  // namespace

Xapian::valueno facet_slot(Facet facet) {
  switch (facet) {
    case Facet::kSection: return kSectionSlot;
    case Facet::kRelease: return kReleaseSlot;
    case Facet::kLanguage: return kLanguageSlot;
  }
  return kSectionSlot;
}

std::string_view facet_name(Facet facet) {
  switch (facet) {
    case Facet::kSection: return "section";
    case Facet::kRelease: return "release";
    case Facet::kLanguage: return "language";
  }
  return "";
}

std::optional<Facet> parse_facet(std::string_view name) {
  for (Facet facet : kFacets) {
    if (facet_name(facet) == name) return facet;
  }
  return std::nullopt;
}

PageFacets page_facets(std::string_view url_path, std::string_view html_lang) {
  PageFacets facets;
  std::vector<std::string_view> directories;  // every part of the path but the last
  for (std::size_t start = url_path.starts_with('/') ? 1 : 0; start <= url_path.size();) {
    const std::size_t slash = url_path.find('/', start);
    if (slash == std::string_view::npos) break;
    if (slash > start) directories.push_back(url_path.substr(start, slash - start));
    start = slash + 1;
  }
  std::size_t next = 0;
  for (std::size_t i = 0; i < directories.size(); ++i) {
    if (names_release(directories[i])) {
      facets.release = std::string(directories[i]);
      next = i + 1;
      break;
    }
  }
  const std::string_view primary = html_lang.substr(0, html_lang.find_first_of("-_"));
  if (primary.size() >= 2 && primary.size() <= 8 &&
      std::all_of(primary.begin(), primary.end(), [](char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; })) {
    for (char c : primary) facets.language += static_cast<char>(c | 0x20);
  }
  // A directory named for the page's language (cppreference's en/) holds the site, not a section.
  if (next < directories.size() && !facets.language.empty() && directories[next] == facets.language) ++next;
  if (next < directories.size()) facets.section = std::string(directories[next]);
  return facets;
}

}  // namespace canon::index_format
