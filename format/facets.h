/// @file facets.h
/// @brief The facets a reader narrows results by (docs/index-format.md, "Value slots"): the section
/// of the site a page is in, the release of a versioned site, the page's language. Each is a
/// value slot of the page's document, counted at search time by Xapian's match spies.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include <xapian.h>

namespace canon::index_format {

enum class Facet { kSection, kRelease, kLanguage };

/// Every facet, in the order results show them.
inline constexpr std::array<Facet, 3> kFacets = {Facet::kSection, Facet::kRelease, Facet::kLanguage};

/// Value slots of the facets.
inline constexpr Xapian::valueno kSectionSlot = 14;
inline constexpr Xapian::valueno kReleaseSlot = 15;
inline constexpr Xapian::valueno kLanguageSlot = 16;

Xapian::valueno facet_slot(Facet facet);
/// "section", "release", "language": the facet's name in JSON, URLs and the CLI.
std::string_view facet_name(Facet facet);
std::optional<Facet> parse_facet(std::string_view name);

/// A page's facet values ("" where it has none).
struct PageFacets {
  std::string section;
  std::string release;
  std::string language;
};

/// The facets of the page at URL path `url_path` whose <html lang> is `html_lang`: the release
/// is the first directory of the path that names a version ("0.50", "v2", "3.11.1": digits and
/// dots with at least one dot, or a 'v' before digits); the section, the first directory after
/// the release (and after a directory named for the page's language, as cppreference's en/), so
/// a page at a release's or the site's root has none; the language, the primary subtag of
/// `html_lang` lowercased ("en-US" -> "en").
PageFacets page_facets(std::string_view url_path, std::string_view html_lang);

}  // namespace canon::index_format
