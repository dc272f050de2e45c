/// @file fuzz_html.cpp
/// @brief libFuzzer target: a page's bytes through the page check, the nesting limit and the
/// extractor (gumbo and canon's walks of its tree), with small limits so that every limit is met.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "html/html_extract.h"
#include "html/html_nesting.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto limited = canon::html::limit_nesting(bytes, 16);
  if (limited.removed_tags == 0 && !limited.html.empty()) __builtin_trap();  // html only when cut
  if (!canon::html::check_page_bytes(bytes).ok()) return 0;
  canon::html::PageLimits limits;
  limits.max_nesting = 64;
  limits.max_links = 50;
  limits.max_title_bytes = 64;
  limits.max_attribute_bytes = 256;
  const auto page = canon::html::extract_page(bytes, "http://localhost/dir/page.html", limits);
  if (page.title.size() > limits.max_title_bytes || page.links.size() > limits.max_links) __builtin_trap();
  return 0;
}
