/// @file site_links_by_owner.h
/// @brief Stage 3 of a partitioned build: redirects and the link graph worked out by parts, each
/// URL looked up by the process that owns it (docs/partitioned-build.md, "The link graph by
/// owner").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/collective.h"
#include "common/status.h"
#include "indexer/records/page_record.h"
#include "indexer/stages/site_links.h"

namespace canon::indexer {

/// The process that owns `url` in a run of `processes` processes: the one that knows which page
/// serves it and where that page redirects. The same on every process and machine (XXH3-64).
unsigned url_owner(std::string_view url, unsigned processes);

/// The URLs a process follows at once in link_pages_by_owner: ~200 bytes each while followed
/// (the query, the asks and answers), ~6.5 MB a round.
inline constexpr std::size_t kLinkTargetsPerRound = std::size_t{1} << 15;

/// Stage 3, first half, for any number of processes (one is the case P = 1): redirects, the link
/// graph and the pages records name besides their links. Each process reads of `records` and
/// `links` only its own files, [first, end) (the processes' ranges tile the files in rank order;
/// one may be empty):
/// - its parsed pages are told to their URLs' owners (url_owner): the file, its node (nodes are
///   numbered in file order, each process numbering its own from the counts before it) and
///   where it redirects;
/// - the URLs its pages link to and its redirect pages' URLs are resolved by their owners, a
///   redirect a round (one all_to_all_bytes a hop, kMaxRedirectHops at most): a link lands on a
///   file and its node, or nowhere; a redirect page is marked a redirect with its final URL, or
///   skipped when its redirects go round. The URLs linked to are followed `targets_per_round` at
///   a time, so that what the stage holds for them is 8 bytes a URL beside the run's URL table,
///   not the queries and messages of every one (the processes agree on the number of rounds);
/// - its rows of the graph are its pages' links through redirects, self-links and repeats
///   dropped; the texts it links with go, as text, to the process that owns the target file,
///   which gives its pages their inbound anchors (the texts other pages link to them with, a
///   link to a place naming its page too, and the names of their places: count_inbound_anchors);
/// - the pages its records name besides their links are found so too (canonical_page through
///   redirects, rule_page), and each redirect's landing is counted by the holder of the page it
///   lands on (redirects_in).
/// The graph stays in parts: each process returns the rows of its own nodes and their records,
/// and every process's range of nodes. The result does not depend on the number of processes,
/// bit for bit (tests/support/link_pages_oracle.h, the same in one loop over every record, is
/// what the tests hold it to). `anchor_texts` is the table links.anchor_texts refers to (the
/// texts this process's files link with, by id); the texts it receives that it does not hold are
/// appended to it, so that the inbound anchors of its records index it. Fails (kCorruption) when
/// a message does not decode or the ranges do not tile the files.
Result<SiteGraph> link_pages_by_owner(HeldRecords& records, std::uint32_t first, std::uint32_t end,
                                      const ParsedLinks& links, std::vector<std::string>& anchor_texts,
                                      const Collective& processes,
                                      std::size_t targets_per_round = kLinkTargetsPerRound);

}  // namespace canon::indexer
