/// @file page_sections.cpp
/// @brief SectionFinder: a page's sections and their anchors.
#include "html/page_sections.h"

#include <array>

#include "html/html_rules.h"

namespace canon::html {
namespace {

/// The id of `node` (or the name of an <a>), "" when it has none.
std::string id_of(const GumboNode* node) {
  const char* id = attribute(node, "id");
  if ((id == nullptr || *id == '\0') && node->v.element.tag == GUMBO_TAG_A) id = attribute(node, "name");
  return id == nullptr ? std::string() : std::string(id);
}

/// Whether `node` starts a section: a heading, or a <dt> with an id (a defined term).
bool starts_section(const GumboNode* node) {
  return heading_level(node) > 0 || (node->v.element.tag == GUMBO_TAG_DT && !id_of(node).empty());
}

/// `text` without leading and trailing spaces and trailing permalink signs (Sphinx's "¶",
/// rustdoc's "§", "#", "🔗").
std::string heading_text(std::string_view text) {
  static constexpr std::array<std::string_view, 5> kSigns = {" ", "\xC2\xB6", "\xC2\xA7", "#", "\xF0\x9F\x94\x97"};
  for (bool stripped = true; stripped && !text.empty();) {
    stripped = false;
    for (std::string_view sign : kSigns) {
      if (text.ends_with(sign)) {
        text.remove_suffix(sign.size());
        stripped = true;
      }
    }
  }
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  return std::string(text);
}

}  // namespace

void SectionFinder::element(const GumboNode* node, std::size_t offset) {
  if (heading_ != nullptr) {
    const GumboTag tag = node->v.element.tag;
    if (inner_id_.empty() && (tag == GUMBO_TAG_A || tag == GUMBO_TAG_SPAN)) inner_id_ = id_of(node);
    return;
  }
  if (starts_section(node)) {
    start_heading(node, offset);
    return;
  }
  if (std::string id = id_of(node); !id.empty()) before_id_ = std::move(id);
}

void SectionFinder::start_heading(const GumboNode* node, std::size_t offset) {
  heading_ = node;
  own_id_ = id_of(node);
  inner_id_.clear();
  enclosing_id_ = enclosing_anchor(node);
  before_heading_id_ = std::move(before_id_);
  before_id_.clear();
  open_ = PageSection{};
  open_.text_begin = offset;
}

/// The id of the nearest element enclosing `node` that has one, when no heading started inside
/// it before `node`; marks every element enclosing `node` as holding a heading.
std::string SectionFinder::enclosing_anchor(const GumboNode* node) {
  std::string anchor;
  bool looking = true;
  for (const GumboNode* up = node->parent; up != nullptr && up->type == GUMBO_NODE_ELEMENT; up = up->parent) {
    // One that held a heading already: so do all around it, and none is this heading's anchor.
    if (!holds_heading_.insert(up).second) break;
    if (looking) {
      anchor = id_of(up);
      looking = anchor.empty();
    }
  }
  return anchor;
}

void SectionFinder::end_element(const GumboNode* node, std::string_view text) {
  if (node != heading_) return;
  heading_ = nullptr;
  open_.text_end = text.size();
  open_.heading = heading_text(text.substr(open_.text_begin));
  for (std::string* id : {&own_id_, &inner_id_, &enclosing_id_, &before_heading_id_}) {
    if (open_.anchor.empty()) open_.anchor = std::move(*id);
  }
  sections_.push_back(std::move(open_));
}

void SectionFinder::text(const GumboNode* node) {
  if (heading_ != nullptr || before_id_.empty() || node->type == GUMBO_NODE_WHITESPACE) return;
  for (const char* c = node->v.text.text; *c != '\0'; ++c) {
    if (!is_html_space(*c)) {
      before_id_.clear();
      return;
    }
  }
}

}  // namespace canon::html
