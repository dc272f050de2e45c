/// @file html_extract.h
/// @brief What canon takes from one HTML page (gumbo-parser).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "html/html_nesting.h"
#include "html/page_sections.h"

namespace canon::html {

/// Bounds on what one page may cost (docs/reliability.md, "Limits"). Each default is well
/// above what the real documentation sites canon was measured on need (the largest page of
/// five Debian documentation packages: 5.7 MiB and 28,001 links, Javadoc's Uses of String).
struct PageLimits {
  /// Bytes of a page file read; the rest is not (the page is cut at a character boundary).
  std::size_t max_page_bytes = std::size_t{8} << 20;
  /// Element depth (limit_nesting): deeper start tags are removed, their text kept.
  std::size_t max_nesting = kDefaultMaxNesting;
  /// Links of a page followed, in document order.
  std::size_t max_links = 100'000;
  /// Bytes kept of the title, the main heading, each heading and each link's anchor text.
  std::size_t max_title_bytes = 1024;
  /// Bytes of an attribute canon reads: longer URLs (href, rel=canonical, refresh, base) and
  /// ids are ignored, longer meta descriptions and keywords cut.
  std::size_t max_attribute_bytes = 8192;
};

/// Crumbs kept of a breadcrumb trail (ExtractedPage::breadcrumbs).
inline constexpr std::size_t kMaxBreadcrumbs = 16;

/// A link found in the page.
struct PageLink {
  /// Absolute, normalised http(s) URL, fragment dropped.
  std::string url;
  /// The link's visible text, whitespace-collapsed.
  std::string anchor_text;
  /// rel="nofollow" on the link.
  bool nofollow = false;
  /// The href names a place in its page (a non-empty #fragment): a section, a member, a term.
  bool to_place = false;
};

/// Everything canon uses of a page. Text fields are UTF-8 with whitespace collapsed.
struct ExtractedPage {
  /// <title>, or the first heading of the main content when there is no title.
  std::string title;
  std::string meta_description;
  std::string meta_keywords;
  /// The lang attribute of <html> ("en", "de-CH"), as written; "" when it has none.
  std::string language;
  /// <meta name="robots"> says noindex (or none): not indexed, still part of the link graph.
  bool robots_noindex = false;
  /// <meta name="robots"> says nofollow (or none): the page's links are not followed.
  bool robots_nofollow = false;
  /// h1–h6 of the main content, in document order.
  std::vector<std::string> headings;
  /// The main content's sections (its headings and defined terms), with their anchors and
  /// where they are in main_text, in document order.
  std::vector<PageSection> sections;
  /// The heading a reader sees as the page's name, in this order: the main content's first
  /// <h1>; else the first <h1> outside navigation; else the first element outside navigation
  /// marked as a title (role="heading" aria-level="1", or a class "title" or "…-title", as
  /// Doxygen's <div class="title"> and many themes' "page-title"); else the main content's
  /// first heading; "" when the page has none. Pages that share a <title> (a generator's
  /// "Member List") usually differ here.
  std::string main_heading;
  /// The page's place in its site as the site shows it: the link texts of its first breadcrumb
  /// trail (an element whose aria-label or a class names a "breadcrumb", or a schema.org
  /// BreadcrumbList), at most kMaxBreadcrumbs, empty ones and rel=nofollow links ("View page
  /// source" beside a Sphinx theme's trail) left out; empty when it has none.
  std::vector<std::string> breadcrumbs;
  /// The id attributes of the main content's <dt> elements, in document order: the anchors of
  /// what a reference page defines (an API's classes and functions, a glossary's terms).
  std::vector<std::string> definition_ids;
  /// The href of each <a> of the main content, as written, in document order (at most
  /// PageLimits::max_links of them): what the page lists (a module's items, a class's members
  /// and implementors, a table's rows).
  std::vector<std::string> main_link_targets;
  /// The first link of the main content to a place in another page (an href with a fragment,
  /// not to the page itself), resolved, with its fragment: what a generated reference cites
  /// first, where its item is defined (rustdoc's source link comes first in its pages); ""
  /// when none.
  std::string cited_place;
  /// The main content's text: <main> (or role="main") when present, else <article>, else
  /// <body> without nav/header/footer/aside; never script/style/noscript/template text.
  std::string main_text;
  /// a[href] and area[href] of the whole page (template links included), resolved against
  /// <base href> and the page URL; links that are not http(s) (mailto:, javascript:) dropped.
  std::vector<PageLink> links;
  /// <link rel="canonical" href>, resolved.
  std::optional<std::string> canonical_url;
  /// <meta http-equiv="refresh" content="N; url=..."> target, resolved, when it names
  /// another URL than the page's own.
  std::optional<std::string> refresh_url;
  /// What the page's limits cut, one line each ("title: 2000000 bytes, the first 1024 kept"),
  /// for pages.jsonl's `cut`; empty for nearly every page.
  std::vector<std::string> cuts;
  /// What a reader of pages.jsonl should look at, one line each: a page whose main text holds
  /// under an eighth of the prose it shows (the rest taken for chrome); empty for nearly every page.
  std::vector<std::string> warnings;
};

/// Why a file is not a page canon can read, from its bytes as read (before decode_page of
/// html/page_encoding.h); the message goes into pages.jsonl as `reason`. Checks, in order:
/// empty (or only white space), binary (a NUL byte, unless a UTF-16 byte order mark starts the
/// bytes). Returns ok() for bytes to decode. A leading UTF-8 byte-order mark is allowed.
Status check_page_bytes(std::string_view bytes);

/// Parses `html` (UTF-8: decode_page's, after check_page_bytes) fetched from the absolute URL `page_url`,
/// within `limits` (all but max_page_bytes, which applies to reading the file). Never fails on
/// markup: gumbo repairs broken HTML as browsers do. Time and memory are linear in the page's
/// size (the depth gumbo builds is bounded by limits.max_nesting).
ExtractedPage extract_page(std::string_view html, std::string_view page_url, const PageLimits& limits = {});

}  // namespace canon::html
