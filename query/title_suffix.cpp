/// @file title_suffix.cpp
/// @brief Learning a site's repeated title suffix.
#include "query/title_suffix.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>

namespace canon::query {
namespace {

/// Where a suffix may start: the separators sites put between a page's name and theirs.
constexpr std::array<std::string_view, 7> kSeparators = {" - ", " \xE2\x80\x93 ", " \xE2\x80\x94 ", " | ",
                                                         " \xC2\xB7 ", " :: ", " : "};

/// Every suffix of `title` starting at a separator, with words before it.
std::set<std::string_view> suffixes_of(std::string_view title) {
  std::set<std::string_view> out;
  const auto add = [&](std::size_t at) {
    if (at > 0 && title.find_first_not_of(' ') < at) out.insert(title.substr(at));
  };
  for (std::string_view separator : kSeparators) {
    for (std::size_t at = title.find(separator); at != std::string_view::npos; at = title.find(separator, at + 1)) add(at);
  }
  if (title.ends_with(")")) {
    for (std::size_t at = title.find(" ("); at != std::string_view::npos; at = title.find(" (", at + 1)) add(at);
  }
  return out;
}

}  // namespace

std::string repeated_title_suffix(std::span<const std::string> titles) {
  std::map<std::string_view, std::size_t> sharing;
  for (const std::string& title : titles) {
    for (std::string_view suffix : suffixes_of(title)) ++sharing[suffix];
  }
  std::string_view best;
  std::size_t best_count = 0;
  for (const auto& [suffix, count] : sharing) {
    if (count > best_count || (count == best_count && suffix.size() > best.size())) {
      best = suffix;
      best_count = count;
    }
  }
  if (best_count < kLeastTitlesSharing || 2 * best_count < titles.size()) return "";
  return std::string(best);
}

std::string without_suffix(std::string_view title, std::string_view suffix) {
  if (suffix.empty() || title.size() <= suffix.size() || !title.ends_with(suffix)) return std::string(title);
  std::string_view left = title.substr(0, title.size() - suffix.size());
  while (!left.empty() && left.back() == ' ') left.remove_suffix(1);
  return left.empty() ? std::string(title) : std::string(left);
}

}  // namespace canon::query
