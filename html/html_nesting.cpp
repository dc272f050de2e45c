/// @file html_nesting.cpp
/// @brief limit_nesting(): a tag scan with a model of HTML's stack of open elements.
#include "html/html_nesting.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace canon::html {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

using NameSet = std::unordered_set<std::string_view>;

/// Elements that never have content.
const NameSet kVoid = {"area",  "base",  "basefont", "bgsound", "br",    "col",    "embed",
                       "frame", "hr",    "image",    "img",     "input", "keygen", "link",
                       "meta",  "param", "source",   "track",   "wbr"};
/// Elements whose end tag a following sibling implies, or that the tree builder never nests
/// directly (html, head, body): not counted.
const NameSet kNotCounted = {"html",  "head",  "body", "p",       "li",       "dt",     "dd",
                             "option", "optgroup", "tr",   "td",      "th",       "thead",  "tbody",
                             "tfoot",  "caption",  "colgroup", "rb", "rt", "rtc", "rp"};
/// Elements whose text is not markup (raw text and RCDATA), outside SVG and MathML.
const NameSet kRawText = {"script", "style", "xmp", "iframe", "noembed", "noframes", "textarea", "title"};
/// HTML's formatting elements (the adoption agency's).
const NameSet kFormatting = {"a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike",
                             "strong", "tt", "u"};
/// Scope boundaries of "has an element in scope" (default scope, SVG's and MathML's
/// integration points included).
const NameSet kScopeBoundary = {"applet", "caption", "html", "table", "td", "th", "marquee", "object",
                                "template", "mi", "mo", "mn", "ms", "mtext", "annotation-xml",
                                "foreignobject", "desc", "title"};
/// HTML's "special" elements: an end tag of an ordinary element stops at them.
const NameSet kSpecial = {
    "address", "applet", "area", "article", "aside", "base", "basefont", "bgsound", "blockquote", "body",
    "br", "button", "caption", "center", "col", "colgroup", "dd", "details", "dir", "div", "dl", "dt",
    "embed", "fieldset", "figcaption", "figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3",
    "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "iframe", "img", "input", "keygen", "li",
    "link", "listing", "main", "marquee", "menu", "meta", "nav", "noembed", "noframes", "noscript",
    "object", "ol", "p", "param", "plaintext", "pre", "script", "search", "section", "select", "source",
    "style", "summary", "table", "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "title",
    "tr", "track", "ul", "wbr", "xmp", "mi", "mo", "mn", "ms", "mtext", "annotation-xml",
    "foreignobject", "desc"};
const NameSet kHeading = {"h1", "h2", "h3", "h4", "h5", "h6"};
/// Start tags that end SVG or MathML content (the tree builder's "breakout" list).
const NameSet kBreakout = {"b",  "big", "blockquote", "body", "br", "center", "code", "dd",   "div",   "dl",
                           "dt", "em",  "embed", "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i",
                           "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre", "ruby", "s",
                           "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var"};
/// Elements of SVG and MathML inside which HTML's rules apply again.
const NameSet kIntegrationPoint = {"foreignobject", "desc", "title", "mi", "mo", "mn", "ms", "mtext", "annotation-xml"};

/// What the model knows of a tag name, looked up once per name.
constexpr std::uint32_t kIsVoid = 1u << 0;
constexpr std::uint32_t kIsNotCounted = 1u << 1;
constexpr std::uint32_t kIsRawText = 1u << 2;
constexpr std::uint32_t kIsFormatting = 1u << 3;
constexpr std::uint32_t kIsScopeBoundary = 1u << 4;
constexpr std::uint32_t kIsSpecial = 1u << 5;
constexpr std::uint32_t kIsHeading = 1u << 6;
constexpr std::uint32_t kIsBreakout = 1u << 7;
constexpr std::uint32_t kIsIntegrationPoint = 1u << 8;
constexpr std::uint32_t kIsForeignRoot = 1u << 9;       ///< svg, math
constexpr std::uint32_t kClosesItsKind = 1u << 10;      ///< a, nobr, button
constexpr std::uint32_t kIsPlaintext = 1u << 11;
constexpr std::uint32_t kIsForm = 1u << 12;
constexpr std::uint32_t kIsListItem = 1u << 13;         ///< li
constexpr std::uint32_t kIsParagraph = 1u << 14;        ///< p

std::uint32_t flags_of(const std::string& name) {
  std::uint32_t flags = 0;
  const auto set = [&](const NameSet& names, std::uint32_t flag) { flags |= names.contains(name) ? flag : 0; };
  set(kVoid, kIsVoid);
  set(kNotCounted, kIsNotCounted);
  set(kRawText, kIsRawText);
  set(kFormatting, kIsFormatting);
  set(kScopeBoundary, kIsScopeBoundary);
  set(kSpecial, kIsSpecial);
  set(kHeading, kIsHeading);
  set(kBreakout, kIsBreakout);
  set(kIntegrationPoint, kIsIntegrationPoint);
  flags |= name == "svg" || name == "math" ? kIsForeignRoot : 0;
  flags |= name == "a" || name == "nobr" || name == "button" ? kClosesItsKind : 0;
  flags |= name == "plaintext" ? kIsPlaintext : 0;
  flags |= name == "form" ? kIsForm : 0;
  flags |= name == "li" ? kIsListItem : 0;
  flags |= name == "p" ? kIsParagraph : 0;
  return flags;
}

/// One entry of the model of the stack of open elements.
struct Open {
  std::uint32_t name;
  bool counted;
  /// Its start tag was removed (its end tag goes too).
  bool removed;
  /// Taken out of the stack by </form> while elements above it stay open.
  bool dead = false;
  /// An SVG or MathML element (not HTML).
  bool foreign = false;
};

/// The scan's state: the output (once something is removed), the stack model and its indexes.
class NestingScan {
public:
  NestingScan(std::string_view html, std::size_t max_depth) : html_(html), max_depth_(max_depth) {
    ul_ = intern("ul");
    ol_ = intern("ol");
    button_ = intern("button");
  }

  NestingLimited run() {
    std::size_t i = 0;
    while (i < html_.size()) {
      const std::size_t lt = html_.find('<', i);
      if (lt == std::string_view::npos) break;
      const std::size_t next = tag_at(lt);
      if (next == std::string_view::npos) break;
      i = next;
    }
    NestingLimited result;
    result.removed_tags = removed_tags_;
    result.deepest = deepest_;
    if (removed_tags_ > 0) {
      out_.append(html_.substr(copied_));
      result.html = std::move(out_);
    }
    return result;
  }

private:
  /// Handles the markup starting at html_[lt] == '<'; returns where scanning goes on, or npos
  /// when the rest of the page is not markup (an unclosed comment or tag, <plaintext>).
  std::size_t tag_at(std::size_t lt) {
    const std::string_view rest = html_.substr(lt);
    if (rest.starts_with("<!--")) {
      if (rest.starts_with("<!-->")) return lt + 5;
      if (rest.starts_with("<!--->")) return lt + 6;
      const std::size_t end = html_.find("-->", lt + 4);
      return end == std::string_view::npos ? end : end + 3;
    }
    if (rest.size() < 2) return std::string_view::npos;
    if (rest[1] == '!' || rest[1] == '?' || (rest[1] == '/' && rest.size() > 2 && !is_alpha(rest[2]))) {
      const std::size_t end = html_.find('>', lt + 2);  // doctype, bogus comment, </>
      return end == std::string_view::npos ? end : end + 1;
    }
    const bool end_tag = rest[1] == '/';
    const std::size_t name_start = lt + (end_tag ? 2 : 1);
    if (name_start >= html_.size() || !is_alpha(html_[name_start])) return lt + 1;  // a '<' of text
    std::size_t p = name_start;
    while (p < html_.size() && !is_space(html_[p]) && html_[p] != '/' && html_[p] != '>') ++p;
    std::string name(html_.substr(name_start, p - name_start));
    for (char& c : name) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    const std::size_t gt = tag_end(p);
    if (gt == std::string_view::npos) return gt;  // a tag cut by the end of the page
    const std::uint32_t id = intern(name);
    if (end_tag) {
      end_tag_named(id, lt, gt + 1);
      return gt + 1;
    }
    return start_tag_named(id, lt, gt + 1);
  }

  /// The '>' that ends the tag whose attributes start at `p` (quoted values may hold '>'), or
  /// npos.
  std::size_t tag_end(std::size_t p) const {
    const std::size_t n = html_.size();
    while (true) {
      while (p < n && (is_space(html_[p]) || html_[p] == '/')) ++p;
      if (p >= n) return std::string_view::npos;
      if (html_[p] == '>') return p;
      ++p;  // an attribute name (its first character may be '=')
      while (p < n && !is_space(html_[p]) && html_[p] != '/' && html_[p] != '>' && html_[p] != '=') ++p;
      while (p < n && is_space(html_[p])) ++p;
      if (p >= n || html_[p] != '=') continue;
      ++p;
      while (p < n && is_space(html_[p])) ++p;
      if (p < n && (html_[p] == '"' || html_[p] == '\'')) {
        const std::size_t close = html_.find(html_[p], p + 1);
        if (close == std::string_view::npos) return close;
        p = close + 1;
      } else {
        while (p < n && !is_space(html_[p]) && html_[p] != '>') ++p;
      }
    }
  }

  /// A start tag of name `id` spanning [begin, end); returns where scanning goes on.
  std::size_t start_tag_named(std::uint32_t id, std::size_t begin, std::size_t end) {
    const std::uint32_t flags = flags_[id];
    if (flags & kIsVoid) return end;
    if (flags & kIsPlaintext) return std::string_view::npos;
    if (foreign_ == 0 && (flags & kIsRawText)) return raw_text_end(names_[id], end);
    if ((flags & kIsBreakout) && in_foreign_content()) {
      // The tree builder leaves SVG/MathML: it pops to the nearest HTML element or integration point.
      std::size_t top = stack_.size();
      while (top > 0 && stack_[top - 1].foreign && !(flags_[stack_[top - 1].name] & kIsIntegrationPoint)) --top;
      pop_to(top);
    }
    // Start tags that close an open element of their kind first (so a page of unclosed <a>s or
    // headings stays flat, as the tree builder keeps it).
    if (flags & kClosesItsKind) close_formatting_or_top(id);
    if ((flags & kIsHeading) && !stack_.empty() && (flags_[stack_.back().name] & kIsHeading)) pop_to(stack_.size() - 1);
    const bool counted = !(flags & kIsNotCounted);
    const bool removed = counted && depth_ >= max_depth_;
    if (removed) remove(begin, end);
    push(Open{id, counted, removed});
    if (counted) deepest_ = std::max(deepest_, depth_ + removed_open_);
    return end;
  }

  /// An end tag of name `id` spanning [begin, end).
  void end_tag_named(std::uint32_t id, std::size_t begin, std::size_t end) {
    if (positions_[id].empty()) return;  // nothing to close
    const std::uint32_t flags = flags_[id];
    const std::size_t m = positions_[id].back();
    const std::size_t top = stack_.size() - 1;
    if (stack_[m].removed) remove(begin, end);
    if (flags & kIsFormatting) {
      if (m == top) {
        pop_to(m);
      }  // else: the adoption agency moves the elements above, keeping the depth; so does the model.
      return;
    }
    if (flags & kIsSpecial) {
      if (boundary_below_[top] > static_cast<std::ptrdiff_t>(m) || hidden_by_list_or_button(flags, m)) return;
      if ((flags & kIsForm) && m != top) {
        take_out(m);
      } else {
        pop_to(m);
      }
      return;
    }
    if (special_below_[top] > static_cast<std::ptrdiff_t>(m)) return;  // an ordinary end tag stops at a special element
    pop_to(m);
  }

  /// </li> looks no further than the nearest <ul>/<ol>, </p> than the nearest <button>.
  bool hidden_by_list_or_button(std::uint32_t flags, std::size_t m) const {
    const auto above = [&](std::uint32_t other) { return !positions_[other].empty() && positions_[other].back() > m; };
    if (flags & kIsListItem) return above(ul_) || above(ol_);
    if (flags & kIsParagraph) return above(button_);
    return false;
  }

  /// Before <a>, <nobr> or <button>: an open one of that kind is closed when it is the current
  /// element; otherwise the adoption agency keeps the depth, as does the model.
  void close_formatting_or_top(std::uint32_t id) {
    if (!positions_[id].empty() && positions_[id].back() == stack_.size() - 1) pop_to(stack_.size() - 1);
  }

  /// Skips the text of raw-text element `name` whose start tag ends at `from`: to the end of its
  /// end tag, or npos when it runs to the end of the page.
  std::size_t raw_text_end(const std::string& name, std::size_t from) const {
    for (std::size_t p = from;;) {
      p = html_.find("</", p);
      if (p == std::string_view::npos) return p;
      const std::size_t after = p + 2 + name.size();
      bool same = after <= html_.size();
      for (std::size_t k = 0; same && k < name.size(); ++k) {
        char c = html_[p + 2 + k];
        c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
        same = c == name[k];
      }
      if (same && (after == html_.size() || is_space(html_[after]) || html_[after] == '/' || html_[after] == '>')) {
        const std::size_t gt = tag_end(after);
        return gt == std::string_view::npos ? gt : gt + 1;
      }
      p += 2;
    }
  }

  std::uint32_t intern(const std::string& name) {
    const auto [it, inserted] = ids_.try_emplace(name, static_cast<std::uint32_t>(names_.size()));
    if (inserted) {
      names_.push_back(name);
      flags_.push_back(flags_of(name));
      positions_.emplace_back();
    }
    return it->second;
  }

  /// True when the current element is an SVG or MathML element other than an integration point.
  bool in_foreign_content() const {
    return !stack_.empty() && stack_.back().foreign && !(flags_[stack_.back().name] & kIsIntegrationPoint);
  }

  void push(Open open) {
    const std::uint32_t flags = flags_[open.name];
    open.foreign = (flags & kIsForeignRoot) || in_foreign_content();
    const std::ptrdiff_t index = static_cast<std::ptrdiff_t>(stack_.size());
    const std::ptrdiff_t below = stack_.empty() ? -1 : boundary_below_.back();
    const std::ptrdiff_t special = stack_.empty() ? -1 : special_below_.back();
    stack_.push_back(open);
    boundary_below_.push_back((flags & kIsScopeBoundary) ? index : below);
    special_below_.push_back((flags & kIsSpecial) ? index : special);
    positions_[open.name].push_back(static_cast<std::uint32_t>(index));
    if (flags & kIsForeignRoot) ++foreign_;
    count(open, +1);
  }

  /// Pops the model's stack down to index `m`, inclusive.
  void pop_to(std::size_t m) {
    while (stack_.size() > m) {
      const Open open = stack_.back();
      stack_.pop_back();
      boundary_below_.pop_back();
      special_below_.pop_back();
      if (open.dead) continue;
      positions_[open.name].pop_back();
      if (flags_[open.name] & kIsForeignRoot) --foreign_;
      count(open, -1);
    }
  }

  /// Takes entry `m` out of the stack, leaving the elements above it open (</form>).
  void take_out(std::size_t m) {
    Open& open = stack_[m];
    positions_[open.name].pop_back();
    count(open, -1);
    open.dead = true;
  }

  void count(const Open& open, int sign) {
    if (!open.counted) return;
    std::size_t& depth = open.removed ? removed_open_ : depth_;
    depth = sign > 0 ? depth + 1 : depth - 1;
  }

  /// Replaces html_[begin, end) with one space in the output.
  void remove(std::size_t begin, std::size_t end) {
    out_.append(html_.substr(copied_, begin - copied_)).push_back(' ');
    copied_ = end;
    ++removed_tags_;
  }

  std::string_view html_;
  std::size_t max_depth_;
  std::string out_;
  std::size_t copied_ = 0;
  std::size_t removed_tags_ = 0;
  std::size_t deepest_ = 0;
  /// Counted open elements whose start tag stayed, and those whose start tag was removed.
  std::size_t depth_ = 0;
  std::size_t removed_open_ = 0;
  /// Open SVG and MathML elements: inside them, no text is raw.
  std::size_t foreign_ = 0;
  std::vector<Open> stack_;
  /// Per stack entry: the index of the nearest scope boundary / special element at or below it
  /// (-1: none), so an end tag finds in O(1) whether one stands between it and its element.
  std::vector<std::ptrdiff_t> boundary_below_;
  std::vector<std::ptrdiff_t> special_below_;
  std::unordered_map<std::string, std::uint32_t> ids_;
  std::vector<std::string> names_;
  /// Per name: its NameFlags.
  std::vector<std::uint32_t> flags_;
  std::uint32_t ul_ = 0, ol_ = 0, button_ = 0;
  /// Per name: the stack indexes of its open elements, innermost last.
  std::vector<std::vector<std::uint32_t>> positions_;
};

}  // namespace

NestingLimited limit_nesting(std::string_view html, std::size_t max_depth) {
  assert(max_depth >= 1);
  return NestingScan(html, max_depth).run();
}

}  // namespace canon::html
