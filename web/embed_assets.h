/// @file embed_assets.h
/// @brief The embeddable search box (web/embed/canon-search.js and .css), compiled into canon
/// so that `canon serve` serves it at /embed/ (docs/serving.md, "A box to embed").
#pragma once

#include <string_view>

namespace canon::web {

/// web/embed/canon-search.js: finds the elements marked data-canon-search (or its own place)
/// and puts a search box there that asks this server's /api/search as the reader types.
std::string_view embed_script();
/// web/embed/canon-search.css: the box's look.
std::string_view embed_stylesheet();

}  // namespace canon::web
