/// @file page_sections.h
/// @brief The sections of a page's main text: where each heading (or defined term) starts and
/// the anchor a link to it names, found during the extractor's one walk of the main text.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <gumbo.h>

namespace canon::html {

/// A place in the main text a reader can be sent to: a heading (h1-h6) or a term a definition
/// list defines (<dt id>, Sphinx's API entries), with the text it shows.
struct PageSection {
  /// The id a link `PAGE#anchor` lands on; "" when the heading has none (it still ends the
  /// section before it).
  std::string anchor;
  /// The heading's text, white space collapsed, without a trailing permalink sign (¶ § #).
  std::string heading;
  /// Byte offsets in the main text: the heading's text is [text_begin, text_end), the section's
  /// body runs from text_end to the next section's text_begin (or the end of the text).
  std::size_t text_begin = 0;
  std::size_t text_end = 0;
};

/// Follows walk_main_text's events (element, end_element, text) and collects the sections. A
/// heading's anchor is the first of: its own id; the first id (or <a name>) of an <a> or <span>
/// inside it (MediaWiki's <span class="mw-headline" id>); the id of its nearest enclosing
/// element that has one, when no heading came before it inside that element (Sphinx's and
/// DocBook's sections, rustdoc's and Javadoc's member sections); the id of an element opened
/// right before it, with no text between (Doxygen's <a id></a><h2>). Generators put the
/// anchors of their sections in one of these four places; the rules name no generator.
class SectionFinder {
public:
  /// An element of the main text starts; `offset` is the main text's length so far.
  void element(const GumboNode* node, std::size_t offset);
  /// The element ends (after its children); `text` is the main text so far.
  void end_element(const GumboNode* node, std::string_view text);
  /// A text node of the main text.
  void text(const GumboNode* node);
  /// The sections found, in document order.
  std::vector<PageSection> take() { return std::move(sections_); }

private:
  void start_heading(const GumboNode* node, std::size_t offset);
  std::string enclosing_anchor(const GumboNode* node);

  /// Elements inside which a heading has started.
  std::unordered_set<const GumboNode*> holds_heading_;
  /// The id of the last element opened since the last text outside headings and the last heading.
  std::string before_id_;
  /// The heading being read, and its section so far.
  const GumboNode* heading_ = nullptr;
  PageSection open_;
  std::string own_id_, inner_id_, enclosing_id_, before_heading_id_;
  std::vector<PageSection> sections_;
};

}  // namespace canon::html
