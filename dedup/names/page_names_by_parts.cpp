/// @file page_names_by_parts.cpp
/// @brief SiteNames in a partitioned run: the site's statistics counted by their keys' owners,
/// each process holding its own pages' names and taking others' where a pair needs them.
///
/// Every exchange sends each key to the process that owns it (key mod P), as LSH's band keys
/// are (dedup/sketches/minhash.h): the owner sums a key's counts over all processes, and what it decides
/// (a common word, two directories of parallel trees) is small enough for every process to
/// keep. The records travel as fixed-size values (memcpy) between processes of one run.
#include <algorithm>
#include <cassert>
#include <cstring>
#include <iterator>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <xxhash.h>

#include "common/byte_codec.h"
#include "common/collective.h"
#include "dedup/names/page_names.h"
#include "dedup/sketches/document_holders.h"
#include "dedup/sketches/minhash.h"

namespace canon::dedup {
namespace {

template <class Record>
void put_record(std::string& out, const Record& record) {
  out.append(reinterpret_cast<const char*>(&record), sizeof record);
}

template <class Record, class Use>
void for_each_record(std::string_view bytes, const Use& use) {
  for (std::size_t at = 0; at + sizeof(Record) <= bytes.size(); at += sizeof(Record)) {
    Record record;
    std::memcpy(static_cast<void*>(&record), bytes.data() + at, sizeof record);  // values of plain fields
    use(record);
  }
}

/// A count of a key; `tag` travels with it (the same for every count of a key).
struct KeyCount {
  std::uint64_t key;
  std::uint64_t tag;
  std::uint64_t count;
};

/// Each key's counts summed over the processes, by the key's owner: what this process owns.
std::unordered_map<std::uint64_t, KeyCount> sum_by_owner(const std::vector<KeyCount>& mine,
                                                         const Collective& processes) {
  const unsigned count = processes.size();
  std::vector<std::string> to_each(count);
  for (const KeyCount& k : mine) put_record(to_each[k.key % count], k);
  std::unordered_map<std::uint64_t, KeyCount> owned;
  for (const std::string& theirs : processes.all_to_all_bytes(to_each)) {
    for_each_record<KeyCount>(theirs, [&](const KeyCount& k) {
      auto [it, inserted] = owned.emplace(k.key, k);
      if (!inserted) it->second.count += k.count;
    });
  }
  return owned;
}

/// The keys every process chose, on every process.
std::vector<std::uint64_t> gather_keys(const std::vector<std::uint64_t>& mine, const Collective& processes) {
  std::string bytes;
  for (const std::uint64_t key : mine) put_record(bytes, key);
  std::vector<std::uint64_t> all;
  for (const std::string& theirs : processes.all_gather_bytes(bytes)) {
    for_each_record<std::uint64_t>(theirs, [&](std::uint64_t key) { all.push_back(key); });
  }
  return all;
}

/// A name sent to another process: the document, whether its title is one many pages share,
/// then its PageName as encode_page_name() wrote it.
void put_name(std::string& out, std::uint32_t d, bool generic_title, const EncodedPageNames& pages,
              std::size_t index) {
  codec::put_fixed(out, d, 4);
  out.push_back(generic_title ? 1 : 0);
  pages.append_encoded(index, out);
}

}  // namespace

std::vector<std::pair<std::uint64_t, std::uint64_t>> SiteNames::parallel_pair_counts(
    std::vector<std::pair<std::uint64_t, std::uint64_t>>& blanked, std::uint64_t least, const Collective& processes) {
  const unsigned count = processes.size();
  std::vector<std::string> to_each(count);
  for (const auto& record : blanked) put_record(to_each[record.first % count], record);
  blanked = {};
  std::vector<std::pair<std::uint64_t, std::uint64_t>> owned_blanked;
  for (const std::string& theirs : processes.all_to_all_bytes(to_each)) {
    for_each_record<std::pair<std::uint64_t, std::uint64_t>>(theirs, [&](const auto& b) { owned_blanked.push_back(b); });
  }
  std::sort(owned_blanked.begin(), owned_blanked.end());
  std::unordered_map<std::uint64_t, std::uint64_t> pairs;
  count_parallel_pairs(owned_blanked, pairs);
  owned_blanked = {};
  std::vector<KeyCount> mine;
  for (const auto& [key, n] : pairs) mine.push_back({key, 0, n});
  std::vector<std::uint64_t> chosen;
  for (const auto& [key, k] : sum_by_owner(mine, processes)) {
    if (k.count >= least) {
      chosen.push_back(key);
      chosen.push_back(k.count);
    }
  }
  const std::vector<std::uint64_t> all = gather_keys(chosen, processes);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (std::size_t i = 0; i + 1 < all.size(); i += 2) out.emplace_back(all[i], all[i + 1]);
  return out;
}

std::vector<SiteNames::Holder> SiteNames::holders_of_parts(std::uint32_t first, std::uint32_t end,
                                                           const Collective& processes) {
  std::string mine;
  put_record(mine, first);
  put_record(mine, end);
  // The parts that hold documents, by their first (an empty part's first says nothing).
  const std::vector<std::string> all = processes.all_gather_bytes(mine);
  std::vector<Holder> holders;
  for (unsigned p = 0; p < processes.size(); ++p) {
    std::uint32_t part[2];
    std::memcpy(part, all[p].data(), sizeof part);
    if (part[0] < part[1]) holders.push_back({part[0], part[1], p});
  }
  std::sort(holders.begin(), holders.end());
  return holders;
}

std::unordered_map<std::uint64_t, std::uint64_t> SiteNames::site_title_pages(const EncodedPageNames& pages,
                                                                             const Collective& processes) {
  const unsigned count = processes.size();
  // Each title's pages counted by its owner, which answers each process with the totals of the
  // titles it counted, in the order it sent them.
  std::unordered_map<std::uint64_t, std::uint64_t> title_pages;
  pages.for_each([&](const PageName& page) {
    if (page.title_text != 0) ++title_pages[page.title_text];
  });
  std::vector<std::vector<std::uint64_t>> asked(count);
  std::vector<std::string> to_each(count);
  for (const auto& [title, pages_of_title] : title_pages) {
    asked[title % count].push_back(title);
    put_record(to_each[title % count], KeyCount{title, 0, pages_of_title});
  }
  std::vector<std::string> from_each = processes.all_to_all_bytes(to_each);
  std::unordered_map<std::uint64_t, std::uint64_t> title_total;
  for (const std::string& theirs : from_each) {
    for_each_record<KeyCount>(theirs, [&](const KeyCount& k) { title_total[k.key] += k.count; });
  }
  for (unsigned p = 0; p < count; ++p) {
    to_each[p].clear();
    for_each_record<KeyCount>(from_each[p], [&](const KeyCount& k) { put_record(to_each[p], title_total.at(k.key)); });
  }
  title_total.clear();
  from_each = processes.all_to_all_bytes(to_each);
  for (unsigned p = 0; p < count; ++p) {
    std::size_t k = 0;
    for_each_record<std::uint64_t>(from_each[p], [&](std::uint64_t total) { title_pages[asked[p][k++]] = total; });
  }
  return title_pages;
}

SiteNames::Statistics SiteNames::site_statistics(Counts& counts, const Collective& processes) {
  Statistics statistics;
  std::uint64_t named = 0;
  std::unordered_map<std::uint64_t, std::uint64_t> section_named;
  {
    std::string mine;
    put_record(mine, KeyCount{0, 0, counts.named});
    for (const auto& [section, n] : counts.section_named) put_record(mine, KeyCount{section, 1, n});
    for (const std::string& theirs : processes.all_gather_bytes(mine)) {
      for_each_record<KeyCount>(theirs, [&](const KeyCount& k) {
        if (k.tag == 0) named += k.count;
        else section_named[k.key] += k.count;
      });
    }
  }
  const std::uint64_t cutoff = std::max<std::uint64_t>(kMinSitePages, (named * kCommonPercent + 99) / 100);
  std::vector<KeyCount> mine;
  for (const auto& [w, n] : counts.word_pages) mine.push_back({w, 0, n});
  std::vector<std::uint64_t> chosen;
  for (const auto& [w, k] : sum_by_owner(mine, processes)) {
    if (k.count >= cutoff) chosen.push_back(w);
  }
  for (const std::uint64_t w : gather_keys(chosen, processes)) statistics.common_words.insert(static_cast<std::uint32_t>(w));
  mine.clear();
  chosen.clear();
  for (const auto& [key, section_count] : counts.section_word_pages) mine.push_back({key, section_count.first, section_count.second});
  for (const auto& [key, k] : sum_by_owner(mine, processes)) {
    const std::uint64_t in_section = section_named[k.tag];
    if (in_section >= kMinSitePages && k.count >= kMinSitePages && k.count * 100 >= in_section * kSectionPercent) {
      chosen.push_back(key);
    }
  }
  for (const std::uint64_t key : gather_keys(chosen, processes)) statistics.common_section_words.insert(key);
  // Parallel trees, and how many of their same paths have names that say their place.
  for (const auto& [key, paths] : parallel_pair_counts(counts.blanked, kMinPlaceTreePaths, processes))
    statistics.parallel_paths[key].paths = static_cast<std::uint32_t>(paths);
  for (const auto& [key, named_paths] : parallel_pair_counts(counts.named_blanked, kMinNamedPlacePaths, processes)) {
    if (auto kept = statistics.parallel_paths.find(key); kept != statistics.parallel_paths.end())
      kept->second.named = static_cast<std::uint32_t>(named_paths);
  }
  return statistics;
}

SiteNames SiteNames::of_part(const EncodedPageNames& pages, std::uint32_t first, const Collective& processes) {
  if (processes.size() == 1) {  // the site's statistics are this process's counts: no exchange
    SiteNames whole(pages);
    whole.first_ = first;
    whole.holders_ = holders_of_parts(first, static_cast<std::uint32_t>(first + pages.size()), processes);
    return whole;
  }
  SiteNames names;
  names.first_ = first;
  names.holders_ = holders_of_parts(first, static_cast<std::uint32_t>(first + pages.size()), processes);
  // 1. The titles many pages share.
  const std::unordered_map<std::uint64_t, std::uint64_t> title_pages = site_title_pages(pages, processes);
  const auto generic = [&](const PageName& page) {
    return page.title_text != 0 && title_pages.at(page.title_text) >= kMinSitePages;
  };
  // 2. The site's counts, summed by their keys' owners.
  {
    Counts counts;
    pages.for_each([&](const PageName& page) { count_page(page, generic(page), counts); });
    names.statistics_ = site_statistics(counts, processes);
  }
  // 3. This process's own names.
  std::uint32_t d = first;
  pages.for_each([&](const PageName& page) { names.add(d++, page, generic(page)); });
  names.held_ = static_cast<std::uint32_t>(pages.size());
  names.mark_held_end();
  return names;
}

unsigned SiteNames::holder(std::uint32_t d) const {
  const auto after = std::upper_bound(holders_.begin(), holders_.end(), d,
                                      [](std::uint32_t key, const Holder& h) { return key < h.first; });
  assert(after != holders_.begin() && d < std::prev(after)->end);
  return std::prev(after)->process;
}

void SiteNames::names_from_holders(std::span<const std::uint32_t> wanted, const EncodedPageNames& pages,
                                   const Collective& processes, const NameUse& use) const {
  const unsigned count = processes.size();
  std::vector<std::string> to_each(count);
  for (const std::uint32_t d : wanted) put_record(to_each[holder(d)], d);
  // The holders answer with the names asked of them, in the order asked.
  std::vector<std::string> asked = processes.all_to_all_bytes(to_each);
  for (unsigned p = 0; p < count; ++p) {
    to_each[p].clear();
    for_each_record<std::uint32_t>(asked[p], [&](std::uint32_t d) {
      assert(d - first_ < held_);
      put_name(to_each[p], d, generic_title_[d - first_] != 0, pages, d - first_);
    });
  }
  asked.clear();
  PageName name;
  for (const std::string& theirs : processes.all_to_all_bytes(to_each)) {
    codec::Reader in(theirs);
    while (in.ok() && !in.at_end()) {
      const auto d = static_cast<std::uint32_t>(in.fixed(4));
      const bool generic_title = in.fixed(1) != 0;
      decode_page_name(in, name);
      if (!in.ok()) break;
      use(d, name, generic_title);
    }
    assert(in.ok());
  }
}

void SiteNames::add_taken(std::uint32_t d, const PageName& page, bool generic_title) {
  add(d, page, generic_title);
  slot_of_taken_[d] = static_cast<std::uint32_t>(names_.size() - 1);
}

void SiteNames::take_names(std::span<const std::uint32_t> documents, const EncodedPageNames& pages,
                           const Collective& processes) {
  std::vector<std::uint32_t> wanted;
  for (const std::uint32_t d : documents) {
    if (!has(d)) wanted.push_back(d);
  }
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  names_from_holders(wanted, pages, processes,
                     [&](std::uint32_t d, const PageName& name, bool generic_title) { add_taken(d, name, generic_title); });
}

std::pair<std::vector<std::pair<std::uint32_t, std::uint32_t>>, std::vector<std::pair<std::uint32_t, std::uint32_t>>>
SiteNames::name_pairs(std::size_t neighbours, const EncodedPageNames& pages, const Collective& processes) const {
  const unsigned count = processes.size();
  if (count == 1) return {same_name_pairs(neighbours), moved_pairs(neighbours)};  // every name is here
  // 1. Each named page's name (kind 0), its file name and depth (kind 1: the groups
  // parallel_moved_pairs() pairs within), and its path and its path without each directory
  // (kind 2: the pages nested_moved_pairs() pairs), to the key's owner.
  struct Member {
    std::uint64_t key;
    std::uint32_t kind;
    std::uint32_t document;
  };
  std::vector<std::string> to_each(count);
  for (std::uint32_t k = 0; k < held_; ++k) {
    if (names_[k].words_end == names_[k].words) continue;
    put_record(to_each[names_[k].text % count], Member{names_[k].text, 0, first_ + k});
    const Url& url = urls_[k];
    const std::uint64_t depth = url.segments_end - url.segments;
    if (depth < 2) continue;
    const std::uint64_t place[2] = {segments_[url.segments_end - 1].hash, depth};
    const std::uint64_t key = XXH3_64bits(place, sizeof place);
    put_record(to_each[key % count], Member{key, 1, first_ + k});
    const std::uint64_t path = path_hash_without(url, kNoDirectory);
    put_record(to_each[path % count], Member{path, 2, first_ + k});
    for (std::size_t directory = 1; directory + 1 < depth; ++directory) {  // as nested_moved_pairs() looks
      const std::uint64_t without = path_hash_without(url, directory);
      put_record(to_each[without % count], Member{without, 2, first_ + k});
    }
  }
  std::vector<Member> members;
  for (const std::string& theirs : processes.all_to_all_bytes(to_each)) {
    for_each_record<Member>(theirs, [&](const Member& m) { members.push_back(m); });
  }
  std::sort(members.begin(), members.end(), [](const Member& x, const Member& y) {
    return std::tie(x.kind, x.key, x.document) < std::tie(y.kind, y.key, y.document);
  });
  // 2. The names of the pages of the groups of two or more (most names are a group of one),
  // taken from their holders into a table a kind, with the site's statistics: every page of a
  // group is in one table, as in the whole site's.
  std::unordered_map<std::uint32_t, unsigned> kinds_of;  // document -> bit per kind
  for (std::size_t g = 0, end = 0; g < members.size(); g = end) {
    while (end < members.size() && members[end].kind == members[g].kind && members[end].key == members[g].key) ++end;
    if (end - g < 2) continue;
    for (std::size_t m = g; m < end; ++m) kinds_of[members[m].document] |= 1u << members[m].kind;
  }
  members = {};
  std::vector<std::uint32_t> wanted;
  wanted.reserve(kinds_of.size());
  for (const auto& [d, kinds] : kinds_of) wanted.push_back(d);
  std::sort(wanted.begin(), wanted.end());
  SiteNames groups[3];
  for (SiteNames& group : groups) group.statistics_ = statistics_;
  names_from_holders(wanted, pages, processes, [&](std::uint32_t d, const PageName& name, bool generic_title) {
    for (unsigned kind = 0; kind < 3; ++kind) {
      if ((kinds_of.at(d) & (1u << kind)) != 0) groups[kind].add_taken(d, name, generic_title);
    }
  });
  kinds_of.clear();
  // 3. Each owner's pairs, on every process (a nested pair may be found by two owners).
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> found[3] = {
      groups[0].same_name_pairs(neighbours), groups[1].parallel_moved_pairs(neighbours), groups[2].nested_moved_pairs()};
  // 3. Each pair to the process holding its handling page.
  const DocumentHolders holders(first_, first_ + held_, processes);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> all[2];
  for (int kind = 0; kind < 3; ++kind) {
    std::vector<std::string> to_each(count);
    for (const auto& pair : found[kind]) put_record(to_each[holders.of(handling_page(pair.first, pair.second))], pair);
    for (const std::string& theirs : processes.all_to_all_bytes(to_each)) {
      for_each_record<std::pair<std::uint32_t, std::uint32_t>>(
          theirs, [&](const auto& pair) { all[std::min(kind, 1)].push_back(pair); });
    }
  }
  for (auto& pairs : all) {
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  }
  return {std::move(all[0]), std::move(all[1])};
}

}  // namespace canon::dedup
