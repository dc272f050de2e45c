/// @file page_template.h
/// @brief The search page's template: HTML with named slots that canon fills (`canon serve
/// --template FILE`; Omega's templates are the model). The default template is canon's own page.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace canon::web {

/// What canon puts in a template's slots, each already HTML (escaped where it holds text).
struct PageSlots {
  /// "QUERY — canon search", or "canon search" (for <title>).
  std::string title;
  /// The query as typed, escaped (for an attribute or text).
  std::string query;
  /// canon's stylesheet (for a <style> element).
  std::string style;
  /// The search form (GET /search, field q).
  std::string form;
  /// The results: count, "did you mean", results with sections and alternates, pager; or the
  /// error, the start page, "No results".
  std::string results;
};

/// A page template: text with slots written `{{name}}`, name one of title, query, style, form,
/// results (PageSlots). Immutable; thread-safe.
class PageTemplate {
public:
  /// The template of `text`. Fails, naming it, on a slot of another name or an unclosed `{{`,
  /// and when there is no {{results}} slot (a page without its results).
  static Result<PageTemplate> parse(std::string_view text);
  /// canon's own page: <title>, the stylesheet, a header with the form, the results in <main>.
  static const PageTemplate& standard();

  /// The page, each slot replaced by its text.
  std::string render(const PageSlots& slots) const;

private:
  enum class Slot { kText, kTitle, kQuery, kStyle, kForm, kResults };
  struct Piece {
    Slot slot = Slot::kText;
    std::string text;  ///< for kText
  };
  std::vector<Piece> pieces_;
};

}  // namespace canon::web
