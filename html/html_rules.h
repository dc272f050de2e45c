/// @file html_rules.h
/// @brief Which parts of a gumbo parse tree are a page's main text, and the one walk of them
/// (walk_main_text), shared by the extractor (html_extract.cpp) and the near-duplicate site
/// generator (eval/synth_page_layout.cpp), so that the words `canon synth` edits are exactly the words the
/// detector reads.
///
/// The rules (docs/design.md, "Parse"): the main content is the outermost <main>/role=main
/// elements, else the outermost <article>s, else the whole document; below it, text inside
/// never-text elements (script, style, template, hidden, ...) and page chrome (navigation,
/// asides, banners and footers outside the main content: by tag, ARIA role or class/id words)
/// is skipped; inline elements (<b>, <a>, <code>, ...) do not end a word, other elements do.
/// All functions are pure and thread-safe; nodes are borrowed from a live GumboOutput.
#pragma once

#include <gumbo.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace canon::html {

/// True for HTML's ASCII white space (space, tab, LF, CR, FF).
inline bool is_html_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

/// `s` lowercased byte by byte (ASCII; HTML's attribute keywords are case-insensitive).
std::string lower(std::string_view s);

/// The value of attribute `name` of element `node`, or null. REQUIRES: node is an element.
const char* attribute(const GumboNode* node, const char* name);

/// True when `node` is an element with tag `tag`.
bool is_element(const GumboNode* node, GumboTag tag);

/// The lowercased `role` attribute of element `node` ("" when it has none).
std::string role_of(const GumboNode* node);

/// The children of an element, template or document node; empty for other nodes.
std::span<GumboNode* const> children_of(const GumboNode* node);

/// True for nodes whose text is never content: script, style, noscript, template, head,
/// title, and elements with the `hidden` attribute.
bool is_never_text(const GumboNode* node);

/// True for page chrome: navigation and asides anywhere, banners and footers outside the main
/// content (by tag, ARIA role, or the words of a class or id such as "navheader", "sidebar",
/// "footer"). <html>, <body>, <main> and <article> are never chrome.
bool is_chrome(const GumboNode* node, bool inside_main_content);

/// 1 to 6 for the headings h1-h6, 0 for any other node.
int heading_level(const GumboNode* node);

/// True for inline elements, which do not separate words. REQUIRES: node is an element.
bool is_inline(const GumboNode* node);

/// Walks the tree below `root` (itself included) in document order, without recursion (how
/// deep a tree is is the page author's choice): `enter(node)` before a node's children, which
/// are skipped when it returns false; `leave(node)` after them, for each node entered.
template <class Enter, class Leave>
void walk_tree(const GumboNode* root, Enter&& enter, Leave&& leave) {
  struct Frame {
    const GumboNode* node;
    std::size_t next_child;
  };
  if (!enter(root)) return;
  std::vector<Frame> open = {{root, 0}};
  while (!open.empty()) {
    const GumboNode* node = open.back().node;
    const std::span<GumboNode* const> children = children_of(node);
    if (open.back().next_child < children.size()) {
      const GumboNode* child = children[open.back().next_child++];
      if (enter(child)) open.push_back({child, 0});
    } else {
      open.pop_back();
      leave(node);
    }
  }
}

/// Appends the outermost nodes below `node` (itself included) for which `match` holds, in
/// document order; does not look inside a matching node.
template <class Match>
void find_outermost(const GumboNode* node, const Match& match, std::vector<const GumboNode*>& out) {
  walk_tree(
      node,
      [&](const GumboNode* n) {
        if (!match(n)) return true;
        out.push_back(n);
        return false;
      },
      [](const GumboNode*) {});
}

/// Where a page's main text is: the roots to walk, in document order, and whether they are
/// marked-up main content (<main>, role=main, <article>) rather than the whole document.
struct MainContent {
  std::vector<const GumboNode*> roots;
  bool inside_main_content = false;
};

/// The main content of the tree rooted at `root` (the <html> element or the document).
MainContent find_main_content(const GumboNode* root);

/// What walk_main_text() reports of a page's main text, in document order.
class MainTextVisitor {
public:
  virtual ~MainTextVisitor() = default;
  /// A text, white-space or CDATA node of the main text: its words are node->v.text.text.
  virtual void text(const GumboNode* node) = 0;
  /// An element of the main text, before its children (headings, <dt> ids).
  virtual void element(const GumboNode* /*node*/) {}
  /// The end of an element element() reported, after its children.
  virtual void end_element(const GumboNode* /*node*/) {}
  /// A word boundary: an element that is not inline starts or ends here.
  virtual void word_break() = 0;
};

/// A page's prose below an element: the bytes (white space not counted) of its runs of text
/// of at least four words outside links, and whether it holds a heading (h1-h6). Navigation
/// is links and labels; content is sentences.
struct Prose {
  std::size_t bytes = 0;
  bool has_heading = false;
};

/// How much prose a page shows and how much of it is its main text (walk_main_text).
struct MainTextProse {
  std::size_t main = 0;   ///< in the main text
  std::size_t shown = 0;  ///< in the whole page, chrome and all
};

/// The one walk of a page's main text, shared by the extractor (the text it indexes) and
/// `canon synth` (where it inserts words), so that both read the same words: the roots of
/// find_main_content(root) in order, skipping never-text elements and chrome with everything
/// below them, comments and processing nodes ignored. A chrome element that holds the page's
/// content (at least 200 bytes of Prose and half the roots' prose, or a quarter and a heading:
/// a banner or footer left unclosed around the page, as browsers forgive) is walked as content,
/// the chrome inside it judged again, so that a template's mistake never hides the page's text.
/// Inline elements do not end a word, other elements do (a break before and after their
/// children); nothing else separates the roots. Returns the page's prose and its main text's.
MainTextProse walk_main_text(const GumboNode* root, MainTextVisitor& visitor);

}  // namespace canon::html
