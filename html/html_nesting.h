/// @file html_nesting.h
/// @brief Bounding how deep a page's elements nest, on its bytes, before gumbo builds the tree.
///
/// gumbo builds whatever depth a page asks for, and its tree construction walks the stack of
/// open elements for most tags (the "in scope" checks), so its time grows with depth × tags: a
/// page of 200,000 nested <div>s took 96 s to parse (and then overflowed the stack of a
/// recursive walk). Browsers bound the depth (Chromium's parser makes elements deeper than 512
/// siblings). canon bounds it before parsing: a light scan of the tags keeps a model of the
/// stack of open elements and removes the start tags that would open an element deeper than
/// the limit, with their end tags. Hand-written because no packaged library exposes a bounded
/// HTML tree builder (gumbo 0.10 has no depth option); the scan errs towards counting too deep,
/// never too shallow, so gumbo's tree stays within a small multiple of the limit
/// (tests/test_html_nesting.cpp checks that against gumbo itself).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace canon::html {

/// Chromium's limit on element depth, and canon's default (docs/reliability.md, "Limits").
inline constexpr std::size_t kDefaultMaxNesting = 512;

/// A page after limit_nesting().
struct NestingLimited {
  /// The page with every removed tag replaced by one space (so that words on either side stay
  /// apart); empty when nothing was removed (use the original then).
  std::string html;
  /// Start and end tags removed.
  std::size_t removed_tags = 0;
  /// The deepest nesting the scan saw (in its count of elements; see limit_nesting).
  std::size_t deepest = 0;
};

/// `html` with the start tags that would open an element deeper than `max_depth` removed, and
/// the end tags that close them. The depth counted is the number of open elements other than
/// void elements (<br>, <img>, ...) and those whose end tag HTML lets a sibling imply (<p>,
/// <li>, <td>, <tr>, <option>, ...; they cannot nest without a counted element between). End
/// tags close what HTML's tree builder closes: an end tag with no matching open element, or
/// one hidden behind a table cell or similar boundary, closes nothing; a misnested formatting
/// end tag (</b> over a <div>) leaves the count as the adoption agency leaves the tree; </form>
/// closes only the form. Comments, doctypes and the text of <script>, <style>, <title>,
/// <textarea> and the other raw-text elements are skipped; <plaintext> ends the scan. Text and
/// attributes are never changed. Linear in the page's size. REQUIRES: max_depth >= 1.
NestingLimited limit_nesting(std::string_view html, std::size_t max_depth = kDefaultMaxNesting);

}  // namespace canon::html
