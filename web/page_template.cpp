/// @file page_template.cpp
/// @brief Parsing and rendering the search page's template.
#include "web/page_template.h"

#include <algorithm>
#include <array>
#include <utility>

namespace canon::web {
namespace {

constexpr std::string_view kStandard =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<title>{{title}}</title>\n<style>{{style}}</style>\n</head>\n<body>\n"
    "<header>\n{{form}}</header>\n<main>\n{{results}}</main>\n</body>\n</html>\n";

}  // namespace

Result<PageTemplate> PageTemplate::parse(std::string_view text) {
  static constexpr std::array<std::pair<std::string_view, Slot>, 5> kSlots = {{{"title", Slot::kTitle},
                                                                              {"query", Slot::kQuery},
                                                                              {"style", Slot::kStyle},
                                                                              {"form", Slot::kForm},
                                                                              {"results", Slot::kResults}}};
  PageTemplate out;
  bool has_results = false;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t open = text.find("{{", pos);
    out.pieces_.push_back({Slot::kText, std::string(text.substr(pos, open - pos))});
    if (open == std::string_view::npos) break;
    const std::size_t close = text.find("}}", open + 2);
    if (close == std::string_view::npos) return Status::error("the template has a '{{' without '}}'");
    const std::string_view name = text.substr(open + 2, close - open - 2);
    const auto* slot = std::find_if(kSlots.begin(), kSlots.end(), [&](const auto& s) { return s.first == name; });
    if (slot == kSlots.end()) {
      return Status::error("the template has an unknown slot {{" + std::string(name) +
                           "}} (slots: {{title}} {{query}} {{style}} {{form}} {{results}})");
    }
    has_results = has_results || slot->second == Slot::kResults;
    out.pieces_.push_back({slot->second, ""});
    pos = close + 2;
  }
  if (!has_results) return Status::error("the template has no {{results}} slot");
  return out;
}

const PageTemplate& PageTemplate::standard() {
  static const PageTemplate page = std::move(parse(kStandard)).value();
  return page;
}

std::string PageTemplate::render(const PageSlots& slots) const {
  std::string out;
  for (const Piece& piece : pieces_) {
    switch (piece.slot) {
      case Slot::kText: out += piece.text; break;
      case Slot::kTitle: out += slots.title; break;
      case Slot::kQuery: out += slots.query; break;
      case Slot::kStyle: out += slots.style; break;
      case Slot::kForm: out += slots.form; break;
      case Slot::kResults: out += slots.results; break;
    }
  }
  return out;
}

}  // namespace canon::web
