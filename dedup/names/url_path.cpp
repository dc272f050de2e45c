/// @file url_path.cpp
/// @brief The part of a URL after its host.
#include "dedup/names/url_path.h"

#include <algorithm>

namespace canon::dedup {

std::string_view after_host(std::string_view url) {
  const std::size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return url;
  const std::size_t root = url.find('/', scheme + 3);
  return root == std::string_view::npos ? std::string_view{} : url.substr(root);
}

std::string_view origin_of(std::string_view url) { return url.substr(0, url.size() - after_host(url).size()); }

std::string_view path_of(std::string_view url) {
  url = after_host(url);
  return url.substr(0, std::min(url.find('?'), url.find('#')));
}

}  // namespace canon::dedup
