/// @file html_extract.cpp
/// @brief HTML extraction on top of gumbo's browser-grade parse tree.
#include "html/html_extract.h"

#include <gumbo.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <span>

#include "common/utf8.h"
#include "html/html_rules.h"
#include "urls/url.h"

namespace canon::html {
namespace {


/// Appends `text` to `out`, collapsing runs of white space to one space.
void append_collapsed(std::string& out, std::string_view text) {
  for (char c : text) {
    if (is_html_space(c)) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
}

std::string trimmed(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  std::size_t start = 0;
  while (start < s.size() && s[start] == ' ') ++start;
  return s.substr(start);
}

std::string collapsed(std::string_view text) {
  std::string out;
  append_collapsed(out, text);
  return trimmed(std::move(out));
}

/// All text below `node`, chrome included (for titles, headings and anchor texts).
void append_all_text(const GumboNode* root, std::string& out) {
  const auto separates = [](const GumboNode* node) { return node->type == GUMBO_NODE_ELEMENT && !is_inline(node); };
  html::walk_tree(
      root,
      [&](const GumboNode* node) {
        if (node->type == GUMBO_NODE_TEXT || node->type == GUMBO_NODE_WHITESPACE || node->type == GUMBO_NODE_CDATA) {
          append_collapsed(out, node->v.text.text);
          return false;
        }
        if (is_never_text(node) && !is_element(node, GUMBO_TAG_TITLE)) return false;
        if (separates(node)) append_collapsed(out, " ");
        return true;
      },
      [&](const GumboNode* node) {
        if (separates(node)) append_collapsed(out, " ");
      });
}

std::string all_text(const GumboNode* node) {
  std::string out;
  append_all_text(node, out);
  return trimmed(std::move(out));
}

/// Walks the whole tree once for the head-level facts: title, meta, base, canonical, links.
class PageScanner {
public:
  PageScanner(ExtractedPage& page, std::string page_url) : page_(page), page_url_(std::move(page_url)) {}

  void scan(const GumboNode* root) {
    // <base href> must be known before any link is resolved: find it first.
    std::vector<const GumboNode*> bases;
    find_outermost(root, [](const GumboNode* n) { return is_element(n, GUMBO_TAG_BASE) && attribute(n, "href"); }, bases);
    link_base_ = page_url_;
    if (!bases.empty()) {
      auto resolved = urls::resolve_url(page_url_, attribute(bases.front(), "href"));
      if (resolved.ok()) link_base_ = resolved.value();
    }
    html::walk_tree(
        root, [this](const GumboNode* node) { return enter(node); },
        [this](const GumboNode* node) {
          if (node->type != GUMBO_NODE_ELEMENT) return;
          no_heading_depth_ -= no_heading_.back() ? 1 : 0;
          no_heading_.pop_back();
        });
  }

private:
  /// One node of the walk: false when its children are not looked at.
  bool enter(const GumboNode* node) {
    if (node->type != GUMBO_NODE_ELEMENT) return true;
    switch (node->v.element.tag) {
      case GUMBO_TAG_TITLE:
        // Like document.title: an inline SVG's <title> is not the page's.
        if (page_.title.empty() && node->v.element.tag_namespace == GUMBO_NAMESPACE_HTML) {
          page_.title = all_text(node);
        }
        return false;
      case GUMBO_TAG_META:
        on_meta(node);
        return false;
      case GUMBO_TAG_LINK:
        on_link_element(node);
        return false;
      case GUMBO_TAG_A:
      case GUMBO_TAG_AREA:
        on_anchor(node);
        break;
      default:
        break;
    }
    if (page_.breadcrumbs.empty() && is_breadcrumb_trail(node)) on_breadcrumb_trail(node);
    // Navigation, asides and hidden text never hold the page's own heading; their links
    // still count.
    const bool no_heading = is_chrome(node, /*inside_main_content=*/true) || is_never_text(node);
    no_heading_.push_back(no_heading);
    no_heading_depth_ += no_heading ? 1 : 0;
    if (no_heading_depth_ == 0) note_heading_candidate(node);
    return true;
  }

  /// Whether `node` is a breadcrumb trail by the markup sites use for one: aria-label
  /// "Breadcrumb(s)" (WAI-ARIA's breadcrumb pattern), a class naming a breadcrumb (Bootstrap's
  /// and most themes' "breadcrumb", "breadcrumbs", "wy-breadcrumbs"), or schema.org's
  /// BreadcrumbList.
  static bool is_breadcrumb_trail(const GumboNode* node) {
    const auto names_breadcrumb = [](const char* value) {
      return value != nullptr && lower(value).find("breadcrumb") != std::string::npos;
    };
    return names_breadcrumb(attribute(node, "aria-label")) || names_breadcrumb(attribute(node, "class")) ||
           names_breadcrumb(attribute(node, "itemtype"));
  }

  /// The link texts of a breadcrumb trail, in order.
  void on_breadcrumb_trail(const GumboNode* trail) {
    std::vector<const GumboNode*> links;
    find_outermost(trail, [](const GumboNode* n) { return is_element(n, GUMBO_TAG_A); }, links);
    for (const GumboNode* link : links) {
      if (page_.breadcrumbs.size() == kMaxBreadcrumbs) break;
      // A crumb is a way up the site; a nofollow link beside the trail ("View page source") is not.
      if (const char* rel = attribute(link, "rel"); rel != nullptr && has_token(lower(rel), "nofollow")) continue;
      std::string text = all_text(link);
      if (!text.empty()) page_.breadcrumbs.push_back(std::move(text));
    }
  }

  /// Keeps the first <h1>, and the first element marked as a title, outside navigation and
  /// hidden text.
  void note_heading_candidate(const GumboNode* node) {
    if (node->v.element.tag == GUMBO_TAG_H1) {
      if (first_h1_.empty()) first_h1_ = all_text(node);
      return;
    }
    if (!first_marked_title_.empty() || !is_marked_title(node)) return;
    first_marked_title_ = all_text(node);
  }

  static bool is_marked_title(const GumboNode* node) {
    if (role_of(node) == "heading") {
      const char* level = attribute(node, "aria-level");
      return level != nullptr && std::string_view(level) == "1";
    }
    const char* classes = attribute(node, "class");
    return classes != nullptr && any_token(lower(classes), [](std::string_view token) {
             return token == "title" || (token.size() > 6 && token.ends_with("-title"));
           });
  }

public:
  /// The first <h1> outside navigation ("" when none).
  const std::string& first_h1() const { return first_h1_; }
  /// The first element outside navigation marked as a title ("" when none).
  const std::string& first_marked_title() const { return first_marked_title_; }
  /// What the page's relative links resolve against: <base href>, else the page's URL.
  const std::string& link_base() const { return link_base_; }

private:

  void on_meta(const GumboNode* node) {
    const char* content = attribute(node, "content");
    if (content == nullptr) return;
    if (const char* name = attribute(node, "name")) {
      const std::string key = lower(name);
      if (key == "description") page_.meta_description = collapsed(content);
      if (key == "keywords") page_.meta_keywords = collapsed(content);
      if (key == "robots") on_robots(lower(content));
    }
    if (const char* equiv = attribute(node, "http-equiv"); equiv && lower(equiv) == "refresh") {
      on_refresh(content);
    }
  }

  void on_robots(const std::string& content) {
    std::size_t start = 0;
    while (start <= content.size()) {
      std::size_t end = content.find(',', start);
      if (end == std::string::npos) end = content.size();
      const std::string token = collapsed(content.substr(start, end - start));
      if (token == "noindex" || token == "none") page_.robots_noindex = true;
      if (token == "nofollow" || token == "none") page_.robots_nofollow = true;
      start = end + 1;
    }
  }

  /// content="5; url=http://..." (also "0;URL='x'", "0, url=x" and "0; x"): HTML's shared
  /// declarative refresh steps, in which the "url=" prefix is optional.
  void on_refresh(std::string_view content) {
    std::size_t pos = 0;
    const auto skip_space = [&] {
      while (pos < content.size() && is_html_space(content[pos])) ++pos;
    };
    const auto at = [&](std::size_t i) { return i < content.size() ? content[i] : '\0'; };
    skip_space();
    const std::size_t delay_start = pos;
    while (std::isdigit(static_cast<unsigned char>(at(pos))) || at(pos) == '.') ++pos;
    if (pos == delay_start) return;  // no delay: not a refresh
    if (pos < content.size() && !is_html_space(at(pos)) && at(pos) != ';' && at(pos) != ',') {
      return;
    }
    skip_space();
    if (at(pos) == ';' || at(pos) == ',') ++pos;
    skip_space();
    if (lower(content.substr(pos, 3)) == "url") {
      std::size_t after = pos + 3;
      while (is_html_space(at(after))) ++after;
      if (at(after) == '=') {
        pos = after + 1;
        skip_space();
      }
    }
    std::string_view target = content.substr(pos);
    if (!target.empty() && (target.front() == '\'' || target.front() == '"')) {
      const char quote = target.front();
      target.remove_prefix(1);
      target = target.substr(0, target.find(quote));
    }
    if (collapsed(target).empty()) return;  // refreshes the page itself
    auto resolved = urls::resolve_url(link_base_, target);
    if (!resolved.ok()) return;
    auto self = urls::normalize_url(page_url_);
    if (self.ok() && urls::strip_index_page(self.value()) == urls::strip_index_page(resolved.value())) return;
    page_.refresh_url = resolved.value();
  }

  void on_link_element(const GumboNode* node) {
    const char* rel = attribute(node, "rel");
    const char* href = attribute(node, "href");
    if (rel == nullptr || href == nullptr || page_.canonical_url) return;
    if (!has_token(lower(rel), "canonical")) return;
    auto resolved = urls::resolve_url(link_base_, href);
    if (resolved.ok()) page_.canonical_url = resolved.value();
  }

  void on_anchor(const GumboNode* node) {
    const char* href = attribute(node, "href");
    if (href == nullptr) return;
    auto resolved = urls::resolve_url(link_base_, href);
    if (!resolved.ok()) return;  // mailto:, javascript:, malformed: not a page link
    PageLink link;
    link.url = std::move(resolved.value());
    const std::string_view written(href);
    const std::size_t hash = written.find('#');
    link.to_place = hash != std::string_view::npos && hash + 1 < written.size();
    link.anchor_text = all_text(node);
    if (const char* rel = attribute(node, "rel")) link.nofollow = has_token(lower(rel), "nofollow");
    page_.links.push_back(std::move(link));
  }

  /// Whether `match` holds for a token of the white-space-separated `list` (rel, class).
  template <class Match>
  static bool any_token(std::string_view list, const Match& match) {
    std::size_t start = 0;
    while (start < list.size()) {
      while (start < list.size() && is_html_space(list[start])) ++start;
      std::size_t end = start;
      while (end < list.size() && !is_html_space(list[end])) ++end;
      if (end > start && match(list.substr(start, end - start))) return true;
      start = end;
    }
    return false;
  }

  static bool has_token(std::string_view list, std::string_view token) {
    return any_token(list, [&](std::string_view t) { return t == token; });
  }

  ExtractedPage& page_;
  std::string page_url_;
  std::string link_base_;
  int no_heading_depth_ = 0;
  /// Per open element of the walk: whether it is one that holds no heading.
  std::vector<char> no_heading_;
  std::string first_h1_;
  std::string first_marked_title_;
};

/// Collects the main content's text, headings and <dt> ids (walk_main_text).
class ContentCollector : public html::MainTextVisitor {
public:
  explicit ContentCollector(ExtractedPage& page) : page_(page) {}

  void text(const GumboNode* node) override {
    append_collapsed(text_, node->v.text.text);
    sections_.text(node);
  }

  void end_element(const GumboNode* node) override { sections_.end_element(node, text_); }

  void element(const GumboNode* node) override {
    sections_.element(node, text_.size());
    if (const int level = heading_level(node); level > 0) {
      std::string heading = all_text(node);
      if (level == 1 && first_h1_.empty()) first_h1_ = heading;
      if (!heading.empty()) page_.headings.push_back(std::move(heading));
    }
    if (node->v.element.tag == GUMBO_TAG_DT) {
      const GumboAttribute* id = gumbo_get_attribute(&node->v.element.attributes, "id");
      if (id != nullptr && id->value[0] != '\0') page_.definition_ids.emplace_back(id->value);
    }
    if (node->v.element.tag == GUMBO_TAG_A) {
      const GumboAttribute* href = gumbo_get_attribute(&node->v.element.attributes, "href");
      if (href != nullptr && href->value[0] != '\0') page_.main_link_targets.emplace_back(href->value);
    }
  }

  void word_break() override { append_collapsed(text_, " "); }

  std::string take_text() { return trimmed(std::move(text_)); }
  std::vector<PageSection> take_sections() { return sections_.take(); }
  /// The main content's first <h1> ("" when none).
  const std::string& first_h1() const { return first_h1_; }

private:
  ExtractedPage& page_;
  std::string text_;
  std::string first_h1_;
  SectionFinder sections_;
};

/// A warning in `page.warnings` when its main text holds far less of its prose than a browser
/// shows (kMainShare): the rest was taken for navigation, banners or footers, which is either
/// what the page is (a page of links and short notes) or a template whose chrome holds the
/// content in a way chrome removal did not recognise. Pages with less than kMinShown bytes of
/// prose are not judged.
void warn_of_hidden_text(const MainTextProse& prose, ExtractedPage& page) {
  constexpr std::size_t kMinShown = 1000;
  constexpr std::size_t kMainShare = 8;  // main text under 1/8 of the prose shown
  if (prose.shown < kMinShown || prose.main * kMainShare >= prose.shown) return;
  page.warnings.push_back("main text: " + std::to_string(prose.main) + " of the " + std::to_string(prose.shown) +
                          " bytes of prose the page shows; the rest was taken for navigation, banners or footers");
}

}  // namespace

/// The memory of one gumbo parse. gumbo allocates every node, attribute, string and vector
/// separately (and grows its buffers by allocate-copy-free); with malloc, allocation and the
/// node-by-node gumbo_destroy_output took a fifth of canon's CPU on real documentation pages
/// (perf, python3.11-doc). Hand-written because it is a dozen lines over gumbo's own allocator
/// hooks: allocate bumps a pointer through 1 MiB blocks (a larger request gets memory of its
/// own), deallocate does nothing, and the end of a page takes everything back at once. Blocks
/// are kept for the next page, up to kKeptBlocks (most pages fit in two; a large page's blocks
/// go back to malloc, so that a thread does not hold the largest page's memory for the rest of
/// the run: 16 kept blocks were 28 MiB of python3.11-doc's peak with two threads). A parse's
/// peak is everything gumbo allocated for the page (a few times the page's size). One per
/// thread.
class ParseArena {
public:
  static void* allocate(void* userdata, std::size_t size) {
    return static_cast<ParseArena*>(userdata)->take(size);
  }
  static void deallocate(void*, void*) {}

  /// Releases the arena's memory (but its first block) when a page is done.
  class Scope {
  public:
    explicit Scope(ParseArena& arena) : arena_(arena) {}
    ~Scope() { arena_.reset(); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

  private:
    ParseArena& arena_;
  };

private:
  static constexpr std::size_t kBlockBytes = std::size_t{1} << 20;
  static constexpr std::size_t kKeptBlocks = 2;
  static constexpr std::size_t kAlign = alignof(std::max_align_t);

  void* take(std::size_t size) {
    size = (size + kAlign - 1) / kAlign * kAlign;
    if (size > kBlockBytes / 4) {
      large_.push_back(std::make_unique_for_overwrite<std::byte[]>(size));
      return large_.back().get();
    }
    if (current_ == blocks_.size() || used_ + size > kBlockBytes) {
      if (current_ < blocks_.size()) ++current_;  // the rest of a full block is left unused
      if (current_ == blocks_.size()) blocks_.push_back(std::make_unique_for_overwrite<std::byte[]>(kBlockBytes));
      used_ = 0;
    }
    void* p = blocks_[current_].get() + used_;
    used_ += size;
    return p;
  }

  void reset() {
    large_.clear();
    if (blocks_.size() > kKeptBlocks) blocks_.resize(kKeptBlocks);
    current_ = 0;
    used_ = 0;
  }

  std::vector<std::unique_ptr<std::byte[]>> blocks_;
  std::vector<std::unique_ptr<std::byte[]>> large_;  // requests over a quarter block
  std::size_t current_ = 0;  // the block being filled; blocks_.size() before the first request
  std::size_t used_ = 0;     // bytes taken from blocks_[current_]
};

Status check_page_bytes(std::string_view bytes) {
  std::string_view content = bytes;
  if (content.starts_with("\xEF\xBB\xBF")) content.remove_prefix(3);  // a BOM is not content
  if (std::all_of(content.begin(), content.end(), [](char c) { return is_html_space(c); })) {
    return Status::error("empty file");
  }
  // UTF-16 writes NUL bytes in every ASCII character; its byte order mark says it is text.
  const bool utf16 = bytes.starts_with("\xFF\xFE") || bytes.starts_with("\xFE\xFF");
  if (const std::size_t nul = bytes.find('\0'); nul != std::string_view::npos && !utf16) {
    return Status::error("binary content (NUL byte at offset " + std::to_string(nul) + ")");
  }
  return Status::ok_status();
}

namespace {

/// Cuts `text` to `max_bytes` at a character boundary; true when it was longer.
bool cut_text(std::string& text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return false;
  text.resize(utf8_prefix(text, max_bytes).size());
  return true;
}

/// Applies `limits` to what was taken from the page, noting each cut in page.cuts.
void apply_limits(ExtractedPage& page, const PageLimits& limits) {
  const auto note = [&](const std::string& what) { page.cuts.push_back(what); };
  const std::string title_bytes = std::to_string(limits.max_title_bytes);
  const std::string attribute_bytes = std::to_string(limits.max_attribute_bytes);
  if (const std::size_t size = page.title.size(); cut_text(page.title, limits.max_title_bytes)) {
    note("title: " + std::to_string(size) + " bytes, the first " + title_bytes + " kept");
  }
  std::size_t headings = cut_text(page.main_heading, limits.max_title_bytes) ? 1 : 0;
  for (std::string& heading : page.headings) headings += cut_text(heading, limits.max_title_bytes) ? 1 : 0;
  for (std::string& crumb : page.breadcrumbs) headings += cut_text(crumb, limits.max_title_bytes) ? 1 : 0;
  // A section's heading is one of `headings` (counted there) or a defined term; an anchor too
  // long to be an attribute canon reads is none.
  for (PageSection& section : page.sections) {
    cut_text(section.heading, limits.max_title_bytes);
    if (section.anchor.size() > limits.max_attribute_bytes) section.anchor.clear();
  }
  if (headings > 0) note("headings: " + std::to_string(headings) + " cut to " + title_bytes + " bytes");
  std::size_t meta = cut_text(page.meta_description, limits.max_attribute_bytes) ? 1 : 0;
  meta += cut_text(page.meta_keywords, limits.max_attribute_bytes) ? 1 : 0;
  if (meta > 0) note("meta: " + std::to_string(meta) + " cut to " + attribute_bytes + " bytes");
  if (page.language.size() > 64) page.language.clear();  // not a language tag

  const auto too_long = [&](const std::string& value) { return value.size() > limits.max_attribute_bytes; };
  std::size_t long_urls = std::erase_if(page.links, [&](const PageLink& link) { return too_long(link.url); });
  for (std::optional<std::string>* url : {&page.canonical_url, &page.refresh_url}) {
    if (*url && too_long(**url)) {
      url->reset();
      ++long_urls;
    }
  }
  if (long_urls > 0) note("urls: " + std::to_string(long_urls) + " longer than " + attribute_bytes + " bytes ignored");
  if (const std::size_t links = page.links.size(); links > limits.max_links) {
    page.links.resize(limits.max_links);
    note("links: " + std::to_string(links) + ", the first " + std::to_string(limits.max_links) + " followed");
  }
  std::size_t anchors = 0;
  for (PageLink& link : page.links) anchors += cut_text(link.anchor_text, limits.max_title_bytes) ? 1 : 0;
  if (anchors > 0) note("anchor texts: " + std::to_string(anchors) + " cut to " + title_bytes + " bytes");
  // The same limits as the links (whose cuts the notes above already record: these are a subset).
  std::erase_if(page.main_link_targets, too_long);
  if (page.main_link_targets.size() > limits.max_links) page.main_link_targets.resize(limits.max_links);
  if (const std::size_t ids = std::erase_if(page.definition_ids, too_long); ids > 0) {
    note("ids: " + std::to_string(ids) + " longer than " + attribute_bytes + " bytes ignored");
  }
}

/// The first of the main content's hrefs `targets` that names a place in another page, resolved
/// against `base`, with its fragment; "" when none. A link to a place in the page itself (also
/// written with the page's own address) is not another page's.
std::string first_cited_place(std::span<const std::string> targets, std::string_view base, std::string_view page_url) {
  auto self = urls::normalize_url(page_url);
  for (const std::string_view target : targets) {
    const std::size_t hash = target.find('#');
    if (hash == std::string_view::npos || hash == 0 || hash + 1 == target.size()) continue;
    auto page = urls::resolve_url(base, target.substr(0, hash));
    if (!page.ok()) continue;
    if (self.ok() && urls::strip_index_page(self.value()) == urls::strip_index_page(page.value())) continue;
    return page.value() + std::string(target.substr(hash));
  }
  return {};
}

}  // namespace

ExtractedPage extract_page(std::string_view html, std::string_view page_url, const PageLimits& limits) {
  if (html.starts_with("\xEF\xBB\xBF")) html.remove_prefix(3);
  ExtractedPage page;
  const NestingLimited nesting = limit_nesting(html, limits.max_nesting);
  if (nesting.removed_tags > 0) {
    html = nesting.html;
    page.cuts.push_back("nesting: elements " + std::to_string(nesting.deepest) + " deep, " +
                        std::to_string(nesting.removed_tags) + " tags deeper than " +
                        std::to_string(limits.max_nesting) + " removed");
  }
  thread_local ParseArena arena;
  GumboOptions options = kGumboDefaultOptions;
  options.allocator = &ParseArena::allocate;
  options.deallocator = &ParseArena::deallocate;
  options.userdata = &arena;
  options.max_errors = 0;  // canon never reads gumbo's parse errors: do not record them
  // The whole tree goes with the arena's reset at the end of this scope: no
  // gumbo_destroy_output, which would free it node by node.
  const ParseArena::Scope scope(arena);
  const GumboOutput* output = gumbo_parse_with_options(&options, html.data(), html.size());

  PageScanner scanner(page, std::string(page_url));
  scanner.scan(output->document);
  if (const char* lang = output->root->type == GUMBO_NODE_ELEMENT ? attribute(output->root, "lang") : nullptr) {
    page.language = collapsed(lang);
  }

  ContentCollector collector(page);
  const MainTextProse prose = html::walk_main_text(output->root, collector);
  page.main_text = collector.take_text();
  page.sections = collector.take_sections();
  warn_of_hidden_text(prose, page);
  for (const std::string* candidate : {&collector.first_h1(), &scanner.first_h1(), &scanner.first_marked_title()}) {
    if (page.main_heading.empty()) page.main_heading = *candidate;
  }
  if (page.main_heading.empty() && !page.headings.empty()) page.main_heading = page.headings.front();

  if (page.title.empty() && !page.headings.empty()) page.title = page.headings.front();
  apply_limits(page, limits);
  page.cited_place = first_cited_place(page.main_link_targets, scanner.link_base(), page_url);
  return page;
}

}  // namespace canon::html
