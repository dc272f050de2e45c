/// @file synth_page_layout.cpp
/// @brief Where `canon synth` may edit a page: the word ends of its main content (from the
/// extractor's own walk) and its relative links, as offsets gumbo reports into the source bytes.
///
/// Kept apart from the copy maker so that the HTML reading (the one gumbo parse of a page) is in
/// one place: copies only splice at the offsets found here.
#include "eval/synth_page_layout.h"

#include <gumbo.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "eval/synth.h"
#include "html/html_extract.h"
#include "html/html_rules.h"

namespace canon::eval {
namespace {

// The main text is walked by the extractor's own walk (html::walk_main_text), so that
// the words edited are the words the detector reads.
using html::attribute;
using html::children_of;
using html::find_outermost;
using html::is_element;
using html::is_html_space;

/// Byte offset of `p` in the buffer starting at `base`.
std::size_t offset_in(const char* base, const char* p) {
  return static_cast<std::size_t>(p - base);
}

/// Finds the word ends of the main content in the source bytes, from the extractor's own walk.
class WordFinder : public html::MainTextVisitor {
public:
  WordFinder(const char* base, std::vector<std::size_t>& word_ends)
      : base_(base), word_ends_(word_ends) {}

  void text(const GumboNode* node) override {
    if (node->type == GUMBO_NODE_WHITESPACE) return end_word();
    const GumboStringPiece& source = node->v.text.original_text;
    // A CDATA section, or text whose source holds markup gumbo kept as text, is read but not
    // edited: its words are not the source bytes.
    if (node->type == GUMBO_NODE_CDATA || std::memchr(source.data, '<', source.length) != nullptr) {
      return unedited(node->v.text.text);
    }
    const std::size_t begin = offset_in(base_, source.data);
    for (std::size_t i = 0; i < source.length; ++i) {
      if (is_html_space(source.data[i])) {
        end_word();
      } else {
        last_ = begin + i + 1;
      }
    }
  }

  void word_break() override { end_word(); }

  /// Ends the last word; call after the walk.
  void end_word() {
    if (last_ != kNone) word_ends_.push_back(last_);
    last_ = kNone;
  }

private:
  /// Text not edited: a word running on into it gets no end here (the extractor's word goes on),
  /// nor do its own words; a word it ends, or that starts in it and runs on, ends as usual.
  void unedited(std::string_view text) {
    if (text.empty()) return;  // the words on either side are one
    if (is_html_space(text.front())) end_word();
    last_ = kNone;
  }

  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  const char* base_;
  std::vector<std::size_t>& word_ends_;
  std::size_t last_ = kNone;  // just after the current word's last byte
};

/// True for a URL reference that is a relative path: not empty, no scheme, not "/...",
/// "//...", "#..." or "?...". Such references change target when the page moves.
bool is_relative_path_reference(std::string_view ref) {
  while (!ref.empty() && is_html_space(ref.front())) ref.remove_prefix(1);
  if (ref.empty() || ref.front() == '/' || ref.front() == '#' || ref.front() == '?' ||
      ref.front() == '\\') {
    return false;
  }
  if (std::isalpha(static_cast<unsigned char>(ref.front()))) {
    for (std::size_t i = 1; i < ref.size(); ++i) {
      const char c = ref[i];
      if (c == ':') return false;  // a scheme
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.') break;
    }
  }
  return true;
}

bool is_url_attribute(const GumboNode* element, std::string_view name) {
  if (name == "href" || name == "src" || name == "action" || name == "formaction" ||
      name == "poster" || name == "cite") {
    return true;
  }
  return name == "data" && element->v.element.tag == GUMBO_TAG_OBJECT;
}

/// Offset of the first character of `attr`'s value after its quote and leading white space.
std::size_t value_start(const GumboAttribute* attr, const char* base) {
  const GumboStringPiece& v = attr->original_value;
  std::size_t i = 0;
  if (v.length > 0 && (v.data[0] == '"' || v.data[0] == '\'')) ++i;
  while (i < v.length && is_html_space(v.data[i])) ++i;
  return offset_in(base, v.data) + i;
}

void collect_links(const GumboNode* root, const char* base, std::vector<std::size_t>& out) {
  const auto enter = [&](const GumboNode* node) {
    if (node->type == GUMBO_NODE_ELEMENT || node->type == GUMBO_NODE_TEMPLATE) {
      const GumboVector& attrs = node->v.element.attributes;
      for (unsigned i = 0; i < attrs.length; ++i) {
        const auto* attr = static_cast<const GumboAttribute*>(attrs.data[i]);
        if (attr->original_value.length == 0 || !is_url_attribute(node, attr->name)) continue;
        if (is_relative_path_reference(attr->value)) out.push_back(value_start(attr, base));
      }
    }
    return true;
  };
  html::walk_tree(root, enter, [](const GumboNode*) {});
}

}  // namespace

namespace detail {

PageLayout layout_of(const std::string& html) {
  PageLayout layout;
  const char* base = html.data();
  std::unique_ptr<GumboOutput, void (*)(GumboOutput*)> output(
      gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size()),
      [](GumboOutput* o) { gumbo_destroy_output(&kGumboDefaultOptions, o); });

  WordFinder words(base, layout.word_ends);
  html::walk_main_text(output->root, words);
  words.end_word();

  // Links: a <base href> decides how the others resolve (an empty one names the page itself).
  std::vector<const GumboNode*> bases;
  find_outermost(
      output->root,
      [](const GumboNode* n) {
        const char* href = is_element(n, GUMBO_TAG_BASE) ? attribute(n, "href") : nullptr;
        return href != nullptr &&
               std::string_view(href).find_first_not_of(" \t\n\r\f") != std::string_view::npos;
      },
      bases);
  if (!bases.empty()) {
    const GumboAttribute* href = gumbo_get_attribute(&bases.front()->v.element.attributes, "href");
    if (href->original_value.length > 0 && is_relative_path_reference(href->value)) {
      layout.link_starts.push_back(value_start(href, base));
    }
  } else {
    collect_links(output->document, base, layout.link_starts);
    // Elements gumbo re-creates (misnested formatting) share their source attributes.
    std::sort(layout.link_starts.begin(), layout.link_starts.end());
    layout.link_starts.erase(std::unique(layout.link_starts.begin(), layout.link_starts.end()),
                             layout.link_starts.end());
  }

  layout.versions_at = html.size();
  const GumboNode* html_element = output->root;
  for (const GumboNode* child : children_of(html_element)) {
    if (is_element(child, GUMBO_TAG_BODY) && child->v.element.original_end_tag.length > 0) {
      layout.versions_at = offset_in(base, child->v.element.original_end_tag.data);
      return layout;
    }
  }
  if (html_element->v.element.original_end_tag.length > 0) {
    layout.versions_at = offset_in(base, html_element->v.element.original_end_tag.data);
  }
  return layout;
}

}  // namespace detail

std::vector<std::size_t> main_text_word_ends(const std::string& html) {
  return detail::layout_of(html).word_ends;
}

}  // namespace canon::eval
