/// @file page_entries.h
/// @brief What a page defines and what it lists, as the parser derives them from its markup, and
/// whether one page's cover another's: facts the authority rule reads of every page, kept in
/// each page's record from the parse on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace canon::dedup {

/// The items a page defines, from the id attributes of its definition-list terms (<dt id>):
/// lowercased (releases of one site write "term-AOT" and "term-aot"), sorted, without repeats
/// or empty ones. Anchors, not text: a copy's text may change, its markup keeps them. Pure.
std::vector<std::string> defined_terms(std::span<const std::string> dt_ids);

/// True when every term of `page` is one of `authoritative`'s: the authoritative page defines
/// everything the page does (it may define more). Both as defined_terms() gives.
bool definitions_covered(std::span<const std::string> page, std::span<const std::string> authoritative);

/// What a page lists, from the href of each link of its main content (ExtractedPage's
/// main_link_targets): each linked page's last path segment (`struct.Context.html`,
/// `trait.Wake.html`) and each place in the page itself (`#method.map`), so that the same entry
/// in parallel trees (`std/task/` and `core/task/`) or in a copy below a prefix is the same; a
/// place in another page (`cmp.rs.html#287-300`, a source line) says where, not what, and is
/// left out. Hashed to 32 bits; sorted, without repeats; at most kMaxListedEntries, the smallest
/// hashes (a page that lists more keeps a uniform sample, whose largest hash bounds what it can
/// tell). Pure.
std::vector<std::uint32_t> listed_entries(std::span<const std::string> link_targets);

/// How many entries listed_entries() keeps.
inline constexpr std::size_t kMaxListedEntries = 1024;

/// A page is not served by one that lacks a substantial part of what it lists: at least this
/// many of its entries, or more than this share of them (docs/dedup.md, "Moved pages": of the
/// std/core/alloc same-item pairs of rust-doc, 98.3 % have a page missing less than both from the
/// other; std's module `task` misses 2 of 15 entries in core's (`Wake`), x86_64's intrinsics
/// index 82 in x86's).
inline constexpr std::size_t kMaxMissingEntries = 8;
inline constexpr double kMaxMissingShare = 0.1;

/// True when `authoritative` lists what `page` lists but for an insubstantial part: fewer than
/// kMaxMissingEntries of its entries and at most kMaxMissingShare of them missing, as far as
/// the sample tells (an entry of `page` is compared when `authoritative` kept every entry or it
/// is no larger than the largest hash `authoritative` keeps). Both as listed_entries() gives.
bool entries_covered(std::span<const std::uint32_t> page, std::span<const std::uint32_t> authoritative);

}  // namespace canon::dedup
