/// @file index_format.cpp
/// @brief The unique URL term.
#include "indexer/index_format.h"

#include <xxhash.h>

#include <cstdio>

namespace canon::index_format {

std::string url_term(std::string_view url) {
  // Xapian's glass backend refuses terms over 245 bytes; omindex keeps URL terms to 240.
  constexpr std::size_t kMaxTermLength = 240;
  std::string term(kUrlPrefix);
  if (term.size() + url.size() <= kMaxTermLength) return term.append(url);
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(XXH3_64bits(url.data(), url.size())));
  term.append(url.substr(0, kMaxTermLength - term.size() - 16));
  return term.append(hash);
}

}  // namespace canon::index_format
