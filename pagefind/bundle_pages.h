/// @file bundle_pages.h
/// @brief An index's authoritative pages as a Pagefind bundle holds them: read from the canon
/// index's Xapian documents, cut into their sections, and written as the HTML Pagefind indexes
/// (docs/pagefind.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <xapian.h>

#include "format/alternates.h"
#include "format/section_places.h"

namespace canon::pagefind {

/// A section of a page's main text: its heading and the text under it, up to the next section.
struct BundleSection {
  std::string anchor;
  std::string heading;
  std::string text;
};

/// A page of the bundle: what canon extracted of it (its main text, not the site's template),
/// its sections, the copies collapsed into it, and its facets and PageRank.
struct BundlePage {
  /// Site-relative ("/library/os.html") when under the index's base URL (bundle_url()).
  std::string url;
  std::string title;
  /// <html lang>'s primary subtag ("en"), "" when the page has none.
  std::string language;
  /// The page's section and release of the site (format/facets.h), "" when none.
  std::string section;
  std::string release;
  /// The main text before the first section.
  std::string lead;
  std::vector<BundleSection> sections;
  /// The cluster's other pages, most similar first, their URLs made as `url` is.
  std::vector<index_format::Alternate> alternates;
  /// The page's breadcrumb trail, outermost first (empty when it has none).
  std::vector<std::string> place;
  /// The cluster's PageRank (slot kStaticScoreSlot).
  double pagerank = 0.0;
};

/// `url` relative to the site's root ("/" + the rest) when it starts with `base_url` (which ends
/// in '/'), so that the bundle works wherever the site is hosted; else `url` as it is.
std::string bundle_url(std::string_view url, std::string_view base_url);

/// `text`, a page's main text as its index keeps it, cut at `sections` (decode_sections() of its
/// document): the text before the first section into `lead`, and each section with an anchor,
/// its heading and the text under it up to the next section, into `out`. The sections are found
/// by their term positions when `whole_text` (the text is all the index numbered: its words are
/// counted as the index counted them); in a text the index cut short, by their headings' text,
/// each after the one before. A section without an anchor is not shown and ends nothing here;
/// one past the text is left out.
void split_sections(std::string_view text, const std::vector<index_format::SectionView>& sections, bool whole_text,
                    std::string& lead, std::vector<BundleSection>& out);

/// The page of the Xapian document `doc` of a canon index whose pages are under `base_url`;
/// none for a duplicate indexed for query-time collapse (its cluster's authoritative page
/// stands for it, as in canon's own search).
std::optional<BundlePage> bundle_page(const Xapian::Document& doc, std::string_view base_url);

/// The HTML Pagefind indexes for `page` (every text escaped): the title as an <h1> and the
/// page's `title` meta, the lead and each section under an <h2> with the section's anchor as
/// its id (Pagefind's sub-results), the alternates' titles after the text (their words find
/// the page, as in canon's index), the alternates as JSON in the `canon_alternates` meta, the
/// place as `canon_place`, `section` and `release` filters, and `pagerank` as a sort key.
std::string bundle_page_html(const BundlePage& page);

}  // namespace canon::pagefind
