/// @file fuzz_url.cpp
/// @brief libFuzzer target: URL resolution and normalisation (uriparser and canon's rules).
/// The input is a base and a reference separated by the first newline; a URL that resolves
/// must normalise to itself (normalisation is idempotent).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "urls/url.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  const std::string_view base = newline == std::string_view::npos ? "http://localhost/dir/page.html" : input.substr(0, newline);
  const std::string_view reference = newline == std::string_view::npos ? input : input.substr(newline + 1);
  auto normal = canon::urls::normalize_url(input);
  if (normal.ok()) {
    auto again = canon::urls::normalize_url(normal.value());
    if (!again.ok() || again.value() != normal.value()) __builtin_trap();
  }
  auto resolved = canon::urls::resolve_url(base, reference);
  if (resolved.ok()) {
    (void)canon::urls::strip_index_page(resolved.value());
    (void)canon::urls::url_host(resolved.value());
    (void)canon::urls::url_path(resolved.value());
  }
  (void)canon::urls::file_url("http://localhost/", reference);
  return 0;
}
