/// @file page_names.cpp
/// @brief name_words, SiteNames and the similarity the name rule requires.
#include "dedup/names/page_names.h"

#include <algorithm>
#include <cassert>
#include <iterator>
#include <limits>
#include <tuple>
#include <unordered_map>

#include <xxhash.h>

#include "dedup/authority/authority.h"
#include "dedup/detectors/detector_support.h"
#include "dedup/sketches/shingles.h"
#include "dedup/sketches/sorted_sets.h"
#include "dedup/sketches/tokenizer.h"
#include "dedup/names/url_path.h"

namespace canon::dedup {
namespace {

constexpr std::uint32_t kNumberBit = 0x80000000u;

/// Characters that make a name in code another name: "C" and "C++", "promise<_Res>" and
/// "promise<_Res&>", "X::X" and "X::~X", "operator=" and "operator==". A run of them is a word
/// of the name (tokenize() drops them).
constexpr std::string_view kOperatorChars = "&*+#~=!<>|%^[]";

std::vector<std::uint32_t> word_hashes(std::string_view text) {
  std::vector<std::uint32_t> words;
  const auto add_words = [&](std::string_view part) {
    for (const std::string& word : tokenize(part)) words.push_back(name_word_hash(word));
  };
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t run = std::min(text.find_first_of(kOperatorChars, at), text.size());
    add_words(text.substr(at, run - at));
    if (run == text.size()) break;
    const std::size_t end = std::min(text.find_first_not_of(kOperatorChars, run), text.size());
    // Seeded apart from words: "++" is no word tokenize() could give.
    words.push_back(static_cast<std::uint32_t>(XXH3_64bits_withSeed(text.data() + run, end - run, 1)) & ~kNumberBit);
    at = end;
  }
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

/// The first sentence of `text`, or its first `count` words if that is shorter (through the
/// end of the last of them). A sentence ends with a chunk between spaces that ends in '.', '!'
/// or '?': a copy with words added to its opening sentence keeps all of the original's words.
std::string_view opening_words(std::string_view text, std::size_t count) {
  // Chunk by chunk between spaces (no word spans white space), counting tokenize()'s words.
  std::size_t seen = 0, at = 0;
  while (at < text.size() && seen < count) {
    const std::size_t space = std::min(text.find(' ', at), text.size());
    seen += tokenize(text.substr(at, space - at)).size();
    const char last = space > at ? text[space - 1] : ' ';
    at = space + 1;
    if (last == '.' || last == '!' || last == '?') break;
  }
  return text.substr(0, std::min(at, text.size()));
}

/// `path` (starting with '/') without its directory segments that name a release
/// (release_in_segment()) before `query`, the offset where its query starts; those segments,
/// each after a '/', appended to `releases`.
std::string without_releases(std::string_view path, std::size_t query, std::string& releases) {
  std::string kept;
  kept.reserve(path.size());
  std::size_t at = 0;
  while (at < query) {
    const std::size_t next = path.find('/', at + 1);
    if (next >= query || release_in_segment(path.substr(at + 1, next - at - 1)).kind == 0) {
      kept.append(path.substr(at, std::min(next, query) - at));
    } else {
      releases.append(path.substr(at, next - at));
    }
    at = std::min(next, query);
  }
  kept.append(path.substr(query));
  return kept;
}

}  // namespace

std::uint32_t name_word_hash(std::string_view word) {
  const auto hash = static_cast<std::uint32_t>(XXH3_64bits(word.data(), word.size()));
  const bool number = !word.empty() && word.find_first_not_of("0123456789") == std::string_view::npos;
  return number ? hash | kNumberBit : hash & ~kNumberBit;
}

namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// PageName::cited of `place`: a range of numbers (`f.rs.html#110-139`, lines) is cited by
/// where it starts, as one page cites a definition's whole range and another its first line.
std::uint64_t cited_place_hash(std::string_view place, bool on_site) {
  if (place.empty()) return 0;
  bool line = false;
  if (const std::size_t hash = place.find('#'); hash != std::string_view::npos) {
    const std::string_view fragment = place.substr(hash + 1);
    const std::size_t dash = fragment.find('-');
    if (dash != std::string_view::npos && all_digits(fragment.substr(0, dash)) && all_digits(fragment.substr(dash + 1))) {
      place = place.substr(0, hash + 1 + dash);
      line = true;
    } else {
      line = all_digits(fragment);
    }
  }
  const std::uint64_t flags = 1 | (line && on_site ? PageName::kCitedLine : 0);
  return (XXH3_64bits(place.data(), place.size()) & ~std::uint64_t{3}) | flags;
}

}  // namespace

namespace {

template <class Int>
void put_ints(std::string& out, const std::vector<Int>& values) {
  codec::put_varint(out, values.size());
  for (const Int v : values) codec::put_varint(out, v);
}

template <class Int>
void get_ints(codec::Reader& in, std::vector<Int>& values) {
  values.resize(in.count());
  for (Int& v : values) {
    const std::uint64_t read = in.varint();
    if (read > std::numeric_limits<Int>::max()) in.mark_bad();
    v = static_cast<Int>(read);
  }
}

}  // namespace

void encode_page_name(const PageName& name, std::string& out) {
  for (const std::uint64_t hash :
       {name.title_text, name.heading_text, name.path, name.stem, name.section, name.cited, name.release}) {
    codec::put_fixed(out, hash, 8);
  }
  put_ints(out, name.title);
  put_ints(out, name.heading);
  put_ints(out, name.path_suffixes);
  out.push_back(name.heading_is_opening ? 1 : 0);
  put_ints(out, name.segments);
  put_ints(out, name.segment_words);
  put_ints(out, name.segment_word_end);
}

PageName decode_page_name(codec::Reader& in) {
  PageName name;
  decode_page_name(in, name);
  return name;
}

void decode_page_name(codec::Reader& in, PageName& name) {
  for (std::uint64_t* hash :
       {&name.title_text, &name.heading_text, &name.path, &name.stem, &name.section, &name.cited, &name.release}) {
    *hash = in.fixed(8);
  }
  get_ints(in, name.title);
  get_ints(in, name.heading);
  get_ints(in, name.path_suffixes);
  const std::uint64_t opening = in.fixed(1);
  if (opening > 1) in.mark_bad();
  name.heading_is_opening = opening == 1;
  get_ints(in, name.segments);
  get_ints(in, name.segment_words);
  get_ints(in, name.segment_word_end);
  // SiteNames reads segment_word_end[i] as an end into segment_words, one per segment.
  bool ends_fit = name.segment_word_end.size() == name.segments.size();
  for (std::size_t i = 0; ends_fit && i < name.segment_word_end.size(); ++i) {
    ends_fit = name.segment_word_end[i] <= name.segment_words.size() &&
               (i == 0 || name.segment_word_end[i - 1] <= name.segment_word_end[i]);
  }
  if (!ends_fit) in.mark_bad();
  if (!in.ok()) name = PageName{};
}

void EncodedPageNames::append_encoded(std::size_t document, std::string& out) const {
  if (names_[document].empty()) {
    encode_page_name(PageName{}, out);
  } else {
    out += names_[document];
  }
}

void EncodedPageNames::for_each(const std::function<void(const PageName&)>& each) const {
  PageName name;
  for (const std::string& bytes : names_) {
    if (bytes.empty()) {
      each(PageName{});
      continue;
    }
    codec::Reader in(bytes);
    decode_page_name(in, name);
    assert(in.ok() && in.at_end());
    each(name);
  }
}

std::size_t EncodedPageNames::held_bytes() const {
  std::size_t bytes = names_.capacity() * sizeof(std::string);
  for (const std::string& name : names_) bytes += name.capacity() > 15 ? name.capacity() + 1 : 0;
  return bytes;
}

PageName page_name(const DedupDocument& doc) {
  // A page is named by its title and, where many pages share the title, its main heading (the
  // name a reader sees: Doxygen's member lists put "std::vector< _Tp > Member List" there); a
  // page without a heading by the opening words of its text.
  const bool has_heading = !doc.main_heading.empty() || !doc.headings.empty();
  const std::string_view heading = !doc.main_heading.empty() ? doc.main_heading
                                   : !doc.headings.empty()   ? std::string_view(doc.headings.front())
                                                             : opening_words(doc.text, kOpeningWords);
  PageName name;
  name.title_text = text_hash(doc.title);
  name.heading_text = text_hash(heading);
  name.title = word_hashes(doc.title);
  name.heading = word_hashes(heading);
  name.heading_is_opening = !has_heading;
  std::string_view path = after_host(doc.url.substr(0, doc.url.find('#')));
  const std::size_t query = std::min(path.find('?'), path.size());
  if (const std::size_t slash = path.find('/', 1); slash != std::string_view::npos && slash + 1 < query) {
    name.section = XXH3_64bits(path.data(), slash) | 1;
  }
  // The path without the releases among its directories: a release's copy of a page mirrors it.
  std::string releases;
  const std::string unversioned = without_releases(path, query, releases);
  if (!releases.empty()) name.release = XXH3_64bits(releases.data(), releases.size()) | 1;
  path = unversioned;
  name.path = XXH3_64bits(path.data(), path.size());
  const std::size_t unversioned_query = std::min(path.find('?'), path.size());
  // Suffixes that name a page or directory below the site's root ("/" is every directory's).
  for (std::size_t slash = path.find('/', 1); slash != std::string_view::npos && slash + 1 < unversioned_query;
       slash = path.find('/', slash + 1)) {
    const std::string_view suffix = path.substr(slash);
    name.path_suffixes.push_back(XXH3_64bits(suffix.data(), suffix.size()));
  }
  std::sort(name.path_suffixes.begin(), name.path_suffixes.end());
  // A path ending in '/' names its directory's index page: its file name is empty.
  for (std::size_t at = 1; at <= unversioned_query && at <= path.size();) {
    const std::size_t end = std::min(path.find('/', at), unversioned_query);
    const std::string_view segment = path.substr(at, end - at);
    name.segments.push_back(XXH3_64bits(segment.data(), segment.size()));
    for (const std::string& word : tokenize(segment)) name.segment_words.push_back(name_word_hash(word));
    name.segment_word_end.push_back(static_cast<std::uint32_t>(name.segment_words.size()));
    at = end + 1;
  }
  const std::string_view stem = page_stem(doc.url);
  name.stem = XXH3_64bits(stem.data(), stem.size());
  // A line of one of the site's own pages (its source), not a numbered item elsewhere (a
  // defect report cppreference cites first on many classes' member pages).
  name.cited = cited_place_hash(doc.cited_place, origin_of(doc.cited_place) == origin_of(doc.url));
  return name;
}

SiteNames::SiteNames(std::span<const PageName> pages) {
  build([&](const std::function<void(const PageName&)>& each) {
    for (const PageName& page : pages) each(page);
  });
}

SiteNames::SiteNames(const EncodedPageNames& pages) {
  build([&](const std::function<void(const PageName&)>& each) { pages.for_each(each); });
}

std::vector<std::uint32_t> SiteNames::name_sequence(const PageName& page, bool generic_title, std::uint64_t& text) {
  // Titles many pages share say nothing of their own: those pages are named by title and
  // heading together.
  std::vector<std::uint32_t> name = page.title;
  text = page.title_text;
  if (generic_title && page.heading_text == 0) {
    name.clear();  // a title many pages share, and no heading or text: no name of its own
  } else if ((page.title_text == 0 && !page.heading_is_opening) || generic_title) {
    name.insert(name.end(), page.heading.begin(), page.heading.end());
    text = page.title_text ^ (page.heading_text * 0x9e3779b97f4a7c15ull);
  }
  return name;
}

void SiteNames::count_page(const PageName& page, bool generic_title, Counts& counts) {
  std::uint64_t text = 0;
  std::vector<std::uint32_t> name = name_sequence(page, generic_title, text);
  std::sort(name.begin(), name.end());
  name.erase(std::unique(name.begin(), name.end()), name.end());
  // Common words: in the names of many pages; of a top-level directory: counted per
  // (directory, word).
  if (!name.empty()) {
    ++counts.named;
    for (const std::uint32_t w : name) ++counts.word_pages[w];
    if (page.section != 0) {
      ++counts.section_named[page.section];
      for (const std::uint32_t w : name) {
        auto& [section, pages] = counts.section_word_pages[section_word(page.section, w)];
        section = page.section;
        ++pages;
      }
    }
  }
  // Pages whose paths are the same but for directory i share a key (the path with segment i
  // blanked); each two distinct directories i of one key hold one same path below them.
  const std::size_t depth = page.segments.size();
  std::vector<std::uint64_t> hashes;
  std::uint64_t prefix = 0;
  for (std::size_t i = 0; i + 1 < depth; ++i) {
    prefix = mix64(prefix ^ page.segments[i]);
    hashes.clear();
    for (std::size_t j = 0; j < depth; ++j) hashes.push_back(j == i ? 0 : page.segments[j]);
    hashes.push_back(i);
    const std::uint64_t key = XXH3_64bits(hashes.data(), hashes.size() * sizeof(std::uint64_t));
    counts.blanked.emplace_back(key, prefix);
    if (i < page.segment_word_end.size()) {
      const auto words = page.segment_words.begin();
      const bool says_place = std::any_of(words + (i == 0 ? 0 : page.segment_word_end[i - 1]), words + page.segment_word_end[i],
                                          [&](std::uint32_t w) { return std::binary_search(name.begin(), name.end(), w); });
      if (says_place) counts.named_blanked.emplace_back(key, prefix);
    }
  }
}

void SiteNames::count_parallel_pairs(std::span<const std::pair<std::uint64_t, std::uint64_t>> blanked,
                                     std::unordered_map<std::uint64_t, std::uint64_t>& pairs) {
  std::vector<std::uint64_t> prefixes;
  for (std::size_t g = 0, end = 0; g < blanked.size(); g = end) {
    while (end < blanked.size() && blanked[end].first == blanked[g].first) ++end;
    prefixes.clear();
    for (std::size_t m = g; m < end; ++m) prefixes.push_back(blanked[m].second);
    std::sort(prefixes.begin(), prefixes.end());
    prefixes.erase(std::unique(prefixes.begin(), prefixes.end()), prefixes.end());
    if (prefixes.size() < 2 || prefixes.size() > kMaxParallelGroup) continue;
    for (std::size_t x = 0; x < prefixes.size(); ++x) {
      for (std::size_t y = x + 1; y < prefixes.size(); ++y) ++pairs[directory_pair_key(prefixes[x], prefixes[y])];
    }
  }
}

void SiteNames::build(const PageVisit& pages) {
  std::unordered_map<std::uint64_t, std::size_t> title_pages;
  pages([&](const PageName& page) {
    if (page.title_text != 0) ++title_pages[page.title_text];
  });
  const auto generic = [&](const PageName& page) {
    return page.title_text != 0 && title_pages[page.title_text] >= kMinSitePages;
  };
  Counts counts;
  pages([&](const PageName& page) { count_page(page, generic(page), counts); });
  const std::uint64_t cutoff = std::max<std::uint64_t>(kMinSitePages, (counts.named * kCommonPercent + 99) / 100);
  for (const auto& [w, count] : counts.word_pages) {
    if (count >= cutoff) statistics_.common_words.insert(w);
  }
  for (const auto& [key, section_count] : counts.section_word_pages) {
    const auto& [section, count] = section_count;
    const std::uint64_t in_section = counts.section_named[section];
    if (in_section >= kMinSitePages && count >= kMinSitePages && count * 100 >= in_section * kSectionPercent) {
      statistics_.common_section_words.insert(key);
    }
  }
  const auto pair_counts = [](std::vector<std::pair<std::uint64_t, std::uint64_t>>& blanked) {
    std::sort(blanked.begin(), blanked.end());
    std::unordered_map<std::uint64_t, std::uint64_t> pairs;
    count_parallel_pairs(blanked, pairs);
    return pairs;
  };
  for (const auto& [key, count] : pair_counts(counts.blanked)) {
    if (count >= kMinPlaceTreePaths) statistics_.parallel_paths[key].paths = static_cast<std::uint32_t>(count);
  }
  for (const auto& [key, count] : pair_counts(counts.named_blanked)) {
    auto kept = statistics_.parallel_paths.find(key);
    if (count >= kMinNamedPlacePaths && kept != statistics_.parallel_paths.end())
      kept->second.named = static_cast<std::uint32_t>(count);
  }
  counts = Counts{};
  std::uint32_t d = 0;
  pages([&](const PageName& page) { add(d++, page, generic(page)); });
  held_ = d;
  mark_held_end();
}

void SiteNames::add(std::uint32_t d, const PageName& page, bool generic_title) {
  const auto at = [](std::size_t size) { return static_cast<std::uint32_t>(size); };
  document_.push_back(d);
  generic_title_.push_back(generic_title ? 1 : 0);
  urls_.push_back({page.path, page.stem, at(suffixes_.size()), at(suffixes_.size() + page.path_suffixes.size()),
                   at(segments_.size()), at(segments_.size() + page.segments.size()), page.cited, page.release});
  suffixes_.insert(suffixes_.end(), page.path_suffixes.begin(), page.path_suffixes.end());
  for (std::size_t i = 0; i < page.segments.size(); ++i) {
    const std::size_t first = segment_words_.size() + (i == 0 ? 0 : page.segment_word_end[i - 1]);
    segments_.push_back({page.segments[i], at(first), at(segment_words_.size() + page.segment_word_end[i])});
  }
  segment_words_.insert(segment_words_.end(), page.segment_words.begin(), page.segment_words.end());
  // Its name's words as a sorted set, then its subject: its words that are neither common nor
  // numbers, in their order and with their repeats ("unsigned long" is not "unsigned long long").
  Name n;
  const std::vector<std::uint32_t> sequence = name_sequence(page, generic_title, n.text);
  std::vector<std::uint32_t> set = sequence;
  std::sort(set.begin(), set.end());
  set.erase(std::unique(set.begin(), set.end()), set.end());
  n.words = at(words_.size());
  words_.insert(words_.end(), set.begin(), set.end());
  n.words_end = at(words_.size());
  n.subject = n.words_end;
  for (const std::uint32_t w : sequence) {
    if ((w & kNumberBit) == 0 && !statistics_.common(page.section, w)) words_.push_back(w);
  }
  n.end = at(words_.size());
  names_.push_back(n);
}

void SiteNames::forget_taken() {
  document_.resize(held_);
  names_.resize(held_);
  urls_.resize(held_);
  generic_title_.resize(held_);
  words_.resize(held_sizes_[0]);
  suffixes_.resize(held_sizes_[1]);
  segments_.resize(held_sizes_[2]);
  segment_words_.resize(held_sizes_[3]);
  slot_of_taken_.clear();
}

NameRelation SiteNames::relation(std::uint32_t a, std::uint32_t b) const {
  assert(has(a) && has(b));
  const Name &x = name_of(a), &y = name_of(b);
  const std::span<const std::uint32_t> wx = words(x), wy = words(y);
  if (wx.empty() || wy.empty()) return NameRelation::kUnknown;
  if (x.text == y.text) return NameRelation::kSame;
  // The same subject words: the names differ in common words and numbers only ("std::x" and
  // "std::experimental::x", "C keywords" and "C++ keywords": one word, other punctuation).
  const std::span<const std::uint32_t> sx = subject(x), sy = subject(y);
  if (std::equal(sx.begin(), sx.end(), sy.begin(), sy.end())) return NameRelation::kRenamed;
  // One name's words all in the other's, which adds words of its own ("(printable version)").
  if (wx.size() != wy.size() && (std::includes(wx.begin(), wx.end(), wy.begin(), wy.end()) ||
                                 std::includes(wy.begin(), wy.end(), wx.begin(), wx.end()))) {
    return NameRelation::kRelated;
  }
  return NameRelation::kDifferent;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> SiteNames::same_name_pairs(std::size_t neighbours) const {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> by_name;
  for (std::uint32_t k = 0; k < names_.size(); ++k) {
    if (names_[k].words_end > names_[k].words) by_name.emplace_back(names_[k].text, document_[k]);
  }
  std::sort(by_name.begin(), by_name.end());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (std::size_t g = 0, end = 0; g < by_name.size(); g = end) {
    while (end < by_name.size() && by_name[end].first == by_name[g].first) ++end;
    for (std::size_t x = g; x < end; ++x) {
      std::size_t paired = 0;
      for (std::size_t y = x + 1; y < end && paired < neighbours; ++y) {
        const std::uint32_t a = by_name[x].second, b = by_name[y].second;
        const UrlEvidence url = url_evidence(a, b);
        if (url != UrlEvidence::kMirrored && url != UrlEvidence::kOtherRelease) continue;
        pairs.emplace_back(a, b);  // a < b: sorted by d
        ++paired;
      }
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

UrlEvidence SiteNames::url_evidence(std::uint32_t a, std::uint32_t b) const {
  assert(has(a) && has(b));
  const Url &x = url_of(a), &y = url_of(b);
  const auto below = [&](const Url& outer, const Url& inner) {  // outer's path ends with inner's
    const auto first = suffixes_.begin() + static_cast<std::ptrdiff_t>(outer.suffixes);
    const auto last = suffixes_.begin() + static_cast<std::ptrdiff_t>(outer.end);
    return std::binary_search(first, last, inner.path);
  };
  if (x.path == y.path || below(x, y) || below(y, x)) return UrlEvidence::kMirrored;
  if (x.release != 0 && y.release != 0 && x.release != y.release) return UrlEvidence::kOtherRelease;
  return x.stem == y.stem ? UrlEvidence::kSameStem : UrlEvidence::kNone;
}

double required_similarity(const DedupOptions& options, NameRelation relation, UrlEvidence url) {
  if (!options.title_rule) return options.threshold;
  const double related = std::max(options.threshold, options.related_title_threshold);
  const double renamed = std::max(options.threshold, options.renamed_threshold);
  const double parallel = std::max(options.threshold, options.parallel_threshold);
  switch (relation) {
    case NameRelation::kSame:
      // A copy keeps its title; pages that only share a title (files named alike in two
      // directories, an index and its sub-index, a C and a C++ page of one name) have no more
      // than that in common.
      // Another release's page of the same name whose file has another name is the same
      // document renamed (a generator that numbers its files anew); what changed between the
      // releases is for the text to rule out only a different page altogether.
      if (url == UrlEvidence::kOtherRelease) return options.threshold;
      return url == UrlEvidence::kMirrored ? options.copy_threshold : parallel;
    case NameRelation::kUnknown: return url == UrlEvidence::kMirrored ? options.threshold : parallel;
    case NameRelation::kRelated:
      // Adding words to a name also names another item ("long long" / "unsigned long long",
      // "StackWalker" / "StackWalker.Option", "Uses of Class X" / "X"): only a mirrored path
      // tells a printable or old copy; the same file name in a parallel directory names the
      // parallel item as often ("std::experimental::optional" / "std::optional").
      switch (url) {
        case UrlEvidence::kMirrored: return related;
        case UrlEvidence::kSameStem:
        case UrlEvidence::kOtherRelease: return parallel;
        case UrlEvidence::kNone: break;
      }
      return std::numeric_limits<double>::infinity();
    case NameRelation::kRenamed: return renamed;
    case NameRelation::kDifferent: break;
  }
  return std::numeric_limits<double>::infinity();
}

}  // namespace canon::dedup
