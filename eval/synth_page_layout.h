/// @file synth_page_layout.h
/// @brief Internal to `canon synth`: where a source page can be edited (its main text's word
/// ends, its relative links, where the original's version links go).
///
/// Shared by the page reader (synth.cpp), which lays out every eligible page, and the copy
/// maker (synth_copies.cpp), which splices into the offsets it finds.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace canon::eval::detail {

/// Where a page can be edited: all offsets are bytes of the source file.
struct PageLayout {
  /// main_text_word_ends() of the page.
  std::vector<std::size_t> word_ends;
  /// Where a copy's relative-link prefix goes: the start of each relative URL attribute value
  /// (or only of <base href> when the page has a relative one; nothing when it has an absolute
  /// one, since the page's other links then do not depend on where the page is).
  std::vector<std::size_t> link_starts;
  /// Where the original's links to its copies go: before </body>, else </html>, else the end.
  std::size_t versions_at = 0;
};

/// The layout of the page `html`, from one gumbo parse.
PageLayout layout_of(const std::string& html);

}  // namespace canon::eval::detail
