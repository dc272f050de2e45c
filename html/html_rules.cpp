/// @file html_rules.cpp
/// @brief The main-text element rules shared by the extractor and `canon synth`.
#include "html/html_rules.h"

#include <cctype>
#include <string_view>

namespace canon::html {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

namespace {

/// What a class or id names, for elements that are chrome by convention rather than by tag
/// or role (generators without HTML5 semantics: DocBook's div.navheader/div.navfooter,
/// Sphinx's div.related and div.sphinxsidebar, Javadoc's div.topNav, countless themes).
enum class NamedChrome { kNone, kNavigation, kBanner };

/// The words of a class or id value: split at spaces, '-' and '_', and between a lower-case
/// letter and an upper-case one (topNav -> top, nav), lowercased.
std::vector<std::string> name_words(std::string_view value) {
  std::vector<std::string> words(1);
  for (std::size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    const bool upper = c >= 'A' && c <= 'Z';
    const bool camel_break = upper && i > 0 && value[i - 1] >= 'a' && value[i - 1] <= 'z';
    if (is_html_space(c) || c == '-' || c == '_' || camel_break) {
      if (!words.back().empty()) words.emplace_back();
      if (!camel_break) continue;
    }
    words.back() += upper ? static_cast<char>(c - 'A' + 'a') : c;
  }
  if (words.back().empty()) words.pop_back();
  return words;
}

/// Navigation words mark chrome anywhere (like <nav>); banner words (like <header> and
/// <footer>) only outside the main content, where they are the site's, not the article's.
/// A word counts when it is one of these or, for the navigation ones marked *, starts with
/// it ("navheader", "navbar", "breadcrumbs") or ends with "sidebar"/"navbar"/"menu".
NamedChrome named_chrome(const GumboNode* node) {
  NamedChrome found = NamedChrome::kNone;
  for (const char* name : {"class", "id"}) {
    const char* value = attribute(node, name);
    if (value == nullptr) continue;
    for (const std::string& w : name_words(value)) {
      if (w.starts_with("nav") || w.starts_with("breadcrumb") || w.ends_with("sidebar") ||
          w.ends_with("navbar") || w.ends_with("menu") || w == "related" || w == "toolbar" ||
          w == "skiplink" || w == "pager" || w == "pagination") {
        return NamedChrome::kNavigation;
      }
      if (w == "header" || w == "footer" || w == "masthead" || w == "banner" ||
          w == "copyright") {
        found = NamedChrome::kBanner;
      }
    }
  }
  return found;
}

/// <main> or role=main.
bool is_main(const GumboNode* node) {
  return is_element(node, GUMBO_TAG_MAIN) || (node->type == GUMBO_NODE_ELEMENT && role_of(node) == "main");
}

}  // namespace

const char* attribute(const GumboNode* node, const char* name) {
  const GumboAttribute* attr = gumbo_get_attribute(&node->v.element.attributes, name);
  return attr != nullptr ? attr->value : nullptr;
}

bool is_element(const GumboNode* node, GumboTag tag) {
  return node->type == GUMBO_NODE_ELEMENT && node->v.element.tag == tag;
}

std::string role_of(const GumboNode* node) {
  const char* role = attribute(node, "role");
  return role != nullptr ? lower(role) : std::string();
}

/// Elements whose text is never content.
bool is_never_text(const GumboNode* node) {
  if (node->type == GUMBO_NODE_TEMPLATE) return true;
  if (node->type != GUMBO_NODE_ELEMENT) return false;
  switch (node->v.element.tag) {
    case GUMBO_TAG_SCRIPT:
    case GUMBO_TAG_STYLE:
    case GUMBO_TAG_NOSCRIPT:
    case GUMBO_TAG_TEMPLATE:
    case GUMBO_TAG_HEAD:
    case GUMBO_TAG_TITLE:
      return true;
    default:
      return attribute(node, "hidden") != nullptr;
  }
}

/// Page chrome: navigation, asides, and (outside an article or main) banners and footers, by
/// tag, by ARIA role, or by class/id words (named_chrome).
bool is_chrome(const GumboNode* node, bool inside_main_content) {
  if (node->type != GUMBO_NODE_ELEMENT) return false;
  const std::string role = role_of(node);
  if (role == "navigation" || role == "complementary" || role == "search") return true;
  switch (node->v.element.tag) {
    case GUMBO_TAG_NAV:
    case GUMBO_TAG_ASIDE:
      return true;
    case GUMBO_TAG_HEADER:
    case GUMBO_TAG_FOOTER:
      return !inside_main_content;
    case GUMBO_TAG_BODY:
    case GUMBO_TAG_HTML:
    case GUMBO_TAG_MAIN:
    case GUMBO_TAG_ARTICLE:
      return false;  // a class on these never makes the whole page chrome
    default:
      break;
  }
  if (!inside_main_content && (role == "banner" || role == "contentinfo")) return true;
  switch (named_chrome(node)) {
    case NamedChrome::kNavigation:
      return true;
    case NamedChrome::kBanner:
      return !inside_main_content;
    case NamedChrome::kNone:
      return false;
  }
  return false;
}

/// Inline elements do not separate words; everything else does.
bool is_inline(const GumboNode* node) {
  switch (node->v.element.tag) {
    case GUMBO_TAG_A: case GUMBO_TAG_ABBR: case GUMBO_TAG_B: case GUMBO_TAG_BDI:
    case GUMBO_TAG_BDO: case GUMBO_TAG_CITE: case GUMBO_TAG_CODE: case GUMBO_TAG_DATA:
    case GUMBO_TAG_DFN: case GUMBO_TAG_EM: case GUMBO_TAG_FONT: case GUMBO_TAG_I:
    case GUMBO_TAG_KBD: case GUMBO_TAG_MARK: case GUMBO_TAG_Q: case GUMBO_TAG_S:
    case GUMBO_TAG_SAMP: case GUMBO_TAG_SMALL: case GUMBO_TAG_SPAN: case GUMBO_TAG_STRONG:
    case GUMBO_TAG_SUB: case GUMBO_TAG_SUP: case GUMBO_TAG_TIME: case GUMBO_TAG_TT:
    case GUMBO_TAG_U: case GUMBO_TAG_VAR:
      return true;
    default:
      return false;
  }
}

std::span<GumboNode* const> children_of(const GumboNode* node) {
  const GumboVector* kids = nullptr;
  if (node->type == GUMBO_NODE_ELEMENT || node->type == GUMBO_NODE_TEMPLATE) {
    kids = &node->v.element.children;
  } else if (node->type == GUMBO_NODE_DOCUMENT) {
    kids = &node->v.document.children;
  }
  if (kids == nullptr) return {};
  return {reinterpret_cast<GumboNode* const*>(kids->data), kids->length};
}

MainContent find_main_content(const GumboNode* root) {
  MainContent content;
  find_outermost(root, is_main, content.roots);
  if (content.roots.empty()) {
    find_outermost(root, [](const GumboNode* n) { return is_element(n, GUMBO_TAG_ARTICLE); }, content.roots);
  }
  content.inside_main_content = !content.roots.empty();
  if (content.roots.empty()) content.roots.push_back(root);
  return content;
}

namespace {

bool separates_words(const GumboNode* node) { return node->type == GUMBO_NODE_ELEMENT && !is_inline(node); }

void walk_below(const GumboNode* root, bool inside_main_content, MainTextVisitor& visitor) {
  const auto enter = [&](const GumboNode* node) {
    if (node->type == GUMBO_NODE_TEXT || node->type == GUMBO_NODE_WHITESPACE || node->type == GUMBO_NODE_CDATA) {
      visitor.text(node);
      return false;
    }
    if (node->type != GUMBO_NODE_ELEMENT && node->type != GUMBO_NODE_DOCUMENT) return false;
    if (is_never_text(node) || is_chrome(node, inside_main_content)) return false;
    if (node->type == GUMBO_NODE_ELEMENT) visitor.element(node);
    if (separates_words(node)) visitor.word_break();
    return true;
  };
  const auto leave = [&](const GumboNode* node) {
    if (separates_words(node)) visitor.word_break();
  };
  walk_tree(root, enter, leave);
}

}  // namespace

void walk_main_text(const GumboNode* root, MainTextVisitor& visitor) {
  const MainContent content = find_main_content(root);
  for (const GumboNode* node : content.roots) walk_below(node, content.inside_main_content, visitor);
}

}  // namespace canon::html
