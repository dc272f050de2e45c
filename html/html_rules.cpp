/// @file html_rules.cpp
/// @brief The main-text element rules shared by the extractor and `canon synth`.
#include "html/html_rules.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>
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

/// `text` as generators make a section's id from its heading (docutils, rustdoc, GitHub): ASCII
/// letters and digits lowercased, every run of other bytes one '-', none at either end
/// ("File menu (Shell and Editor)" -> "file-menu-shell-and-editor").
void append_slug(std::string_view text, std::string& slug) {
  for (const char c : text) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alnum) {
      slug += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    } else if (!slug.empty() && slug.back() != '-') {
      slug += '-';
    }
  }
}

/// Whether `id` is the slug of the first heading below `node` (within its first kMaxLook
/// nodes): a section named after its heading ("editing-and-navigation"), whose words say what
/// it is about, not what it is.
bool id_names_own_heading(const GumboNode* node, std::string_view id) {
  constexpr int kMaxLook = 64;
  int looked = 0;
  const GumboNode* heading = nullptr;
  walk_tree(
      node,
      [&](const GumboNode* n) {
        if (heading != nullptr || ++looked > kMaxLook || n->type != GUMBO_NODE_ELEMENT) return false;
        if (heading_level(n) > 0) heading = n;
        return heading == nullptr;
      },
      [](const GumboNode*) {});
  if (heading == nullptr) return false;
  std::string slug;
  walk_tree(
      heading,
      [&](const GumboNode* n) {
        if (n->type == GUMBO_NODE_TEXT) append_slug(n->v.text.text, slug);
        return n->type == GUMBO_NODE_ELEMENT;
      },
      [](const GumboNode*) {});
  if (!slug.empty() && slug.back() == '-') slug.pop_back();
  return !slug.empty() && slug == id;
}

/// Navigation words mark chrome anywhere (like <nav>); banner words (like <header> and
/// <footer>) only outside the main content, where they are the site's, not the article's.
/// A word counts when it is one of these or, for the navigation ones marked *, starts with
/// it ("navheader", "navbar", "breadcrumbs") or ends with "sidebar"/"navbar"/"menu".
bool is_navigation_word(const std::string& w) {
  return w.starts_with("nav") || w.starts_with("breadcrumb") || w.ends_with("sidebar") || w.ends_with("navbar") ||
         w.ends_with("menu") || w == "related" || w == "toolbar" || w == "skiplink" || w == "pager" ||
         w == "pagination";
}

bool is_banner_word(const std::string& w) {
  return w == "header" || w == "footer" || w == "masthead" || w == "banner" || w == "copyright";
}

/// What the class and id of `node` name (is_navigation_word, is_banner_word). An id that is
/// the slug of the element's own heading names its subject, not its kind (id_names_own_heading:
/// Sphinx's section "editing-and-navigation" is content).
NamedChrome named_chrome(const GumboNode* node) {
  NamedChrome found = NamedChrome::kNone;
  for (const char* name : {"class", "id"}) {
    const char* value = attribute(node, name);
    if (value == nullptr) continue;
    const std::vector<std::string> words = name_words(value);
    const auto chrome_word = [](const std::string& w) { return is_navigation_word(w) || is_banner_word(w); };
    if (std::string_view(name) == "id" && std::any_of(words.begin(), words.end(), chrome_word) &&
        id_names_own_heading(node, value)) {
      continue;
    }
    for (const std::string& w : words) {
      if (is_navigation_word(w)) return NamedChrome::kNavigation;
      if (is_banner_word(w)) found = NamedChrome::kBanner;
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

int heading_level(const GumboNode* node) {
  if (node->type != GUMBO_NODE_ELEMENT) return 0;
  switch (node->v.element.tag) {
    case GUMBO_TAG_H1: return 1;
    case GUMBO_TAG_H2: return 2;
    case GUMBO_TAG_H3: return 3;
    case GUMBO_TAG_H4: return 4;
    case GUMBO_TAG_H5: return 5;
    case GUMBO_TAG_H6: return 6;
    default: return 0;
  }
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

/// Measures prose: the text a reader reads as sentences, not as labels. Text is cut into runs
/// at the edges of block elements (inline elements and links do not end a run); a run counts
/// with its bytes outside links (white space not counted) when it has at least kMinRunWords
/// words outside links. A menu, a navigation table or a row of links is labels of a word or
/// two each; a paragraph, a list item that says something, a code sample are prose.
class ProseMeter {
public:
  /// Measures below `root`; `is_chrome_element` says which elements to remember the prose of.
  template <class IsChrome>
  std::size_t measure(const GumboNode* root, const IsChrome& is_chrome_element) {
    std::vector<Prose> open;  // one per entered element or document, innermost last
    Prose done;
    const auto enter = [&](const GumboNode* node) {
      if (node->type == GUMBO_NODE_TEXT || node->type == GUMBO_NODE_CDATA) {
        if (link_depth_ == 0) add_to_run(node->v.text.text);
        return false;
      }
      if (node->type != GUMBO_NODE_ELEMENT && node->type != GUMBO_NODE_DOCUMENT) return false;
      if (is_never_text(node)) return false;
      if (is_element(node, GUMBO_TAG_A)) ++link_depth_;
      if (!open.empty() && separates_words(node)) end_run(open.back());
      open.push_back(Prose{0, heading_level(node) > 0});
      return true;
    };
    const auto leave = [&](const GumboNode* node) {
      if (separates_words(node) || open.size() == 1) end_run(open.back());
      const Prose prose = open.back();
      open.pop_back();
      if (is_element(node, GUMBO_TAG_A)) --link_depth_;
      if (is_chrome_element(node)) chrome_[node] = prose;
      if (open.empty()) {
        done = prose;
        return;
      }
      open.back().bytes += prose.bytes;
      open.back().has_heading = open.back().has_heading || prose.has_heading;
    };
    walk_tree(root, enter, leave);
    return done.bytes;
  }

  /// The prose below an element measured as chrome (zero for others).
  Prose of(const GumboNode* node) const {
    const auto found = chrome_.find(node);
    return found != chrome_.end() ? found->second : Prose{};
  }

private:
  static constexpr std::size_t kMinRunWords = 4;

  void add_to_run(std::string_view text) {
    for (const char c : text) {
      const bool space = is_html_space(c);
      if (!space) ++run_bytes_;
      if (!space && in_space_) ++run_words_;
      in_space_ = space;
    }
  }

  void end_run(Prose& into) {
    if (run_words_ >= kMinRunWords) into.bytes += run_bytes_;
    run_bytes_ = run_words_ = 0;
    in_space_ = true;
  }

  int link_depth_ = 0;
  std::size_t run_bytes_ = 0, run_words_ = 0;
  bool in_space_ = true;
  std::unordered_map<const GumboNode*, Prose> chrome_;
};

/// The prose of the content roots and of each chrome element below them, measured in one walk
/// before the main text's, so that a page costs linear time however deeply its chrome nests.
class ChromeProse {
public:
  explicit ChromeProse(const MainContent& content) {
    const auto chrome = [&](const GumboNode* node) { return is_chrome(node, content.inside_main_content); };
    for (const GumboNode* root : content.roots) page_bytes_ += meter_.measure(root, chrome);
  }

  /// The prose of every root together.
  std::size_t page_bytes() const { return page_bytes_; }

  /// The prose below chrome element `node`.
  Prose of(const GumboNode* node) const { return meter_.of(node); }

private:
  std::size_t page_bytes_ = 0;
  ProseMeter meter_;
};

/// Whether chrome element `node` holds the page's own content, which a markup mistake (a banner
/// or footer left unclosed, the content put inside a <header>) nested into it: a browser shows
/// that text in the page's flow, so it is walked, its own chrome judged again. Navigation and
/// banners hold links and labels; content is prose (ProseMeter). It holds the content when it
/// has at least kMinProseBytes of prose and half the page's, or a quarter of it and a heading.
bool holds_page_content(const GumboNode* node, const ChromeProse& page) {
  constexpr std::size_t kMinProseBytes = 200;
  const Prose prose = page.of(node);
  if (prose.bytes < kMinProseBytes) return false;
  const std::size_t page_bytes = page.page_bytes();
  return 2 * prose.bytes >= page_bytes || (prose.has_heading && 4 * prose.bytes >= page_bytes);
}

/// Walks one root; returns the prose of the chrome it left out.
std::size_t walk_below(const GumboNode* root, bool inside_main_content, const ChromeProse& page,
                       MainTextVisitor& visitor) {
  std::size_t left_out = 0;
  const auto enter = [&](const GumboNode* node) {
    if (node->type == GUMBO_NODE_TEXT || node->type == GUMBO_NODE_WHITESPACE || node->type == GUMBO_NODE_CDATA) {
      visitor.text(node);
      return false;
    }
    if (node->type != GUMBO_NODE_ELEMENT && node->type != GUMBO_NODE_DOCUMENT) return false;
    if (is_never_text(node)) return false;
    if (is_chrome(node, inside_main_content) && !holds_page_content(node, page)) {
      left_out += page.of(node).bytes;
      return false;
    }
    if (node->type == GUMBO_NODE_ELEMENT) visitor.element(node);
    if (separates_words(node)) visitor.word_break();
    return true;
  };
  const auto leave = [&](const GumboNode* node) {
    if (separates_words(node)) visitor.word_break();
    if (node->type == GUMBO_NODE_ELEMENT) visitor.end_element(node);
  };
  walk_tree(root, enter, leave);
  return left_out;
}

}  // namespace

MainTextProse walk_main_text(const GumboNode* root, MainTextVisitor& visitor) {
  const MainContent content = find_main_content(root);
  ChromeProse page(content);
  std::size_t left_out = 0;
  for (const GumboNode* node : content.roots) left_out += walk_below(node, content.inside_main_content, page, visitor);
  MainTextProse prose;
  prose.main = page.page_bytes() - left_out;
  prose.shown = page.page_bytes();  // the roots are the whole page, unless <main> or <article> chose some
  if (content.inside_main_content) prose.shown = ProseMeter().measure(root, [](const GumboNode*) { return false; });
  return prose;
}

}  // namespace canon::html
