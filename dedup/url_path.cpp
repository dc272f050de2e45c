/// @file url_path.cpp
/// @brief The part of a URL after its host.
#include "dedup/url_path.h"

namespace canon::dedup {

std::string_view after_host(std::string_view url) {
  const std::size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return url;
  const std::size_t root = url.find('/', scheme + 3);
  return root == std::string_view::npos ? std::string_view{} : url.substr(root);
}

}  // namespace canon::dedup
