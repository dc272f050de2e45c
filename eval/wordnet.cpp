/// @file wordnet.cpp
/// @brief Reading WordNet's noun index (and one-noun-per-line lists in the same format).
#include "eval/wordnet.h"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace canon::eval {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

}  // namespace

Result<NounList> read_noun_list(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::string message =
        "cannot read the noun list '" + path.string() + "': " + std::strerror(errno);
    if (path == kWordnetNounIndex)
      message += " (install wordnet-base: apt-get install wordnet-base)";
    return Status::error(message);
  }
  NounList list;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("  ")) continue;  // the licence header
    std::size_t start = 0;
    while (start < line.size() && is_space(line[start])) ++start;
    std::size_t end = start;
    while (end < line.size() && !is_space(line[end])) ++end;
    std::vector<std::string> words;
    for (std::size_t pos = start; pos < end;) {
      std::size_t stop = line.find('_', pos);
      if (stop == std::string::npos || stop > end) stop = end;
      if (stop > pos) words.push_back(line.substr(pos, stop - pos));
      pos = stop + 1;
    }
    if (!words.empty()) list.nouns.push_back(std::move(words));
  }
  if (in.bad())
    return Status::error("cannot read the noun list '" + path.string() + "': read error");
  if (list.nouns.empty())
    return Status::error("the noun list '" + path.string() + "' holds no noun");
  return list;
}

}  // namespace canon::eval
