/// @file dedup_document.h
/// @brief What a near-duplicate detector sees of a page (DedupDocument): the shared idea the page
/// store, the parse and every detector hand over, in a header of its own so that none of them
/// needs the detector interface for it.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace canon::dedup {

/// What a detector sees of a page. Views need only stay valid during the call they are passed
/// to (Detector::add, or a DocumentLoader's `use`). Only `mwo` reads the fields after `text`;
/// the others may be left empty.
struct DedupDocument {
  std::string_view url;
  std::string_view title;
  /// The page's main text (template removed).
  std::string_view text;
  /// h1-h6 of the main content, in document order.
  std::span<const std::string> headings = {};
  /// The heading a reader sees as the page's name (indexer's ExtractedPage::main_heading, e.g.
  /// Doxygen's <div class="title"> outside the main content); empty: the first of `headings`.
  std::string_view main_heading = {};
  /// <meta name="keywords"> and <meta name="description"> content.
  std::string_view meta_keywords = {};
  std::string_view meta_description = {};
  /// Visible texts of the page's links to its own host, and to other hosts (the caller decides
  /// which is which: dedup knows nothing of URLs).
  std::vector<std::string_view> same_site_anchors = {};
  std::vector<std::string_view> other_site_anchors = {};
  /// The place in another page the main content links to first, as an absolute URL with its
  /// fragment (the indexer's html::ExtractedPage::cited_place): where a generated reference
  /// says its item is defined. Empty: none.
  std::string_view cited_place = {};
};

}  // namespace canon::dedup
