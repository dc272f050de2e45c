/// @file page_names.cpp
/// @brief name_words, SiteNames and the similarity the name rule requires.
#include "dedup/page_names.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <unordered_map>

#include <xxhash.h>

#include "dedup/tokenizer.h"

namespace canon::dedup {
namespace {

constexpr std::uint32_t kNumberBit = 0x80000000u;

std::vector<std::uint32_t> word_hashes(std::string_view text) {
  std::vector<std::uint32_t> words;
  for (const std::string& word : tokenize(text)) {
    const auto hash = static_cast<std::uint32_t>(XXH3_64bits(word.data(), word.size()));
    const bool number = word.find_first_not_of("0123456789") == std::string::npos;
    words.push_back(number ? hash | kNumberBit : hash & ~kNumberBit);
  }
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  return words;
}

/// XXH3 of `text` lowercased (ASCII) with runs of white space as one space, trimmed; 0 when
/// nothing is left.
std::uint64_t text_hash(std::string_view text) {
  std::string folded;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
    if (space) {
      if (!folded.empty() && folded.back() != ' ') folded.push_back(' ');
    } else {
      folded.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
    }
  }
  while (!folded.empty() && folded.back() == ' ') folded.pop_back();
  if (folded.empty()) return 0;
  return XXH3_64bits(folded.data(), folded.size()) | 1;
}

}  // namespace

NameWords name_words(std::string_view title, std::string_view heading) {
  return {text_hash(title), text_hash(heading), word_hashes(title), word_hashes(heading)};
}

SiteNames::SiteNames(std::span<const NameWords> pages) {
  // Titles many pages share say nothing of their own: those pages are named by title and
  // heading together.
  std::unordered_map<std::uint64_t, std::size_t> title_pages;
  for (const NameWords& page : pages) {
    if (page.title_text != 0) ++title_pages[page.title_text];
  }
  const auto generic = [&](const NameWords& page) {
    return page.title_text != 0 && title_pages[page.title_text] >= kMinSitePages;
  };
  names_.reserve(pages.size());
  std::vector<std::uint32_t> name;
  for (const NameWords& page : pages) {
    Name n;
    name = page.title;
    n.text = page.title_text;
    if (page.title_text == 0 || generic(page)) {
      name.insert(name.end(), page.heading.begin(), page.heading.end());
      std::sort(name.begin(), name.end());
      name.erase(std::unique(name.begin(), name.end()), name.end());
      n.text = page.title_text ^ (page.heading_text * 0x9e3779b97f4a7c15ull);
    }
    n.words = words_.size();
    words_.insert(words_.end(), name.begin(), name.end());
    n.words_end = words_.size();
    names_.push_back(n);
  }
  // Common words: in the names of many pages.
  std::unordered_map<std::uint32_t, std::size_t> word_pages;
  std::size_t named = 0;
  for (const Name& n : names_) {
    named += n.words_end > n.words ? 1 : 0;
    for (const std::uint32_t w : words(n)) ++word_pages[w];
  }
  const std::size_t cutoff = std::max(kMinSitePages, (named + 99) / 100);
  // Each name's subject: its words that are neither common nor numbers, appended after all the
  // names (a name's word range and subject range need not be adjacent).
  for (Name& n : names_) {
    const std::size_t first = words_.size();
    for (std::size_t i = n.words; i < n.words_end; ++i) {
      const std::uint32_t w = words_[i];
      if ((w & kNumberBit) == 0 && word_pages[w] < cutoff) words_.push_back(w);
    }
    n.subject = first;
    n.end = words_.size();
  }
}

NameRelation SiteNames::relation(std::uint32_t a, std::uint32_t b) const {
  assert(a < names_.size() && b < names_.size());
  const Name &x = names_[a], &y = names_[b];
  const std::span<const std::uint32_t> wx = words(x), wy = words(y);
  if (wx.empty() || wy.empty()) return NameRelation::kUnknown;
  if (x.text == y.text) return NameRelation::kSame;
  // The same subject words: the names differ in common words and numbers only ("std::x" and
  // "std::experimental::x", "C keywords" and "C++ keywords": one word, other punctuation).
  const std::span<const std::uint32_t> sx = subject(x), sy = subject(y);
  if (std::equal(sx.begin(), sx.end(), sy.begin(), sy.end())) return NameRelation::kRenamed;
  // One name's words all in the other's, which adds words of its own ("(printable version)").
  if (std::includes(wx.begin(), wx.end(), wy.begin(), wy.end()) ||
      std::includes(wy.begin(), wy.end(), wx.begin(), wx.end())) {
    return NameRelation::kRelated;
  }
  return NameRelation::kDifferent;
}

double required_similarity(const DedupOptions& options, NameRelation relation) {
  if (!options.title_rule) return options.threshold;
  switch (relation) {
    case NameRelation::kSame:
    case NameRelation::kUnknown: return options.threshold;
    case NameRelation::kRelated: return std::max(options.threshold, options.related_title_threshold);
    case NameRelation::kRenamed: return std::max(options.threshold, options.renamed_threshold);
    case NameRelation::kDifferent: break;
  }
  return std::numeric_limits<double>::infinity();
}

}  // namespace canon::dedup
