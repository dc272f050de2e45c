/// @file html_escape.h
/// @brief Text made safe for HTML: the one escaping function of canon's HTML writers (the
/// search page, canon synth's generated pages).
#pragma once

#include <string>
#include <string_view>

namespace canon {

/// `text` made safe for HTML text and double- or single-quoted attribute values: & < > " '
/// become entities; C0 control characters other than tab, newline and carriage return, and
/// DEL, are dropped (they are not allowed in HTML). Invalid UTF-8 passes through (browsers
/// show U+FFFD; it cannot form markup).
std::string escape_html(std::string_view text);

}  // namespace canon
