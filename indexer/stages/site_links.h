/// @file site_links.h
/// @brief Stage 3 of `canon index`: redirect pages resolved and the link graph over the rest.
/// Works on page records alone (no files, no Xapian), so it is tested on hand-made records.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/collective.h"
#include "common/status.h"
#include "indexer/partitioned/record_holders.h"
#include "indexer/records/page_record.h"
#include "ranking/out_link_rows.h"

namespace canon::indexer::detail {
class RecordParts;  // record_holders.h
}

namespace canon::indexer {

/// Redirects followed from one URL at most: a longer chain lands nowhere.
inline constexpr int kMaxRedirectHops = 20;

/// The link graph of a site by parts: `rows`, the out-links of this process's nodes (in a
/// partitioned build the nodes of its files, numbered after the other processes' before it; in one
/// process, every node), and the records of those nodes; which process holds each node.
struct SiteGraph {
  ranking::OutLinkRows rows;
  /// Node rows.first() + k is record own_records[k].
  std::vector<std::uint32_t> own_records;
  /// The processes' nodes: process p holds nodes [first(p), end(p)) (RecordParts over node ids).
  detail::RecordParts node_parts;
  /// The record of one of this process's nodes. REQUIRES: rows.first() <= node < rows.end().
  std::uint32_t record_of(ranking::NodeId node) const { return own_records[node - rows.first()]; }
};

/// Each file's followed links and their texts as parsed, taken out of the records once every
/// file is parsed (take_links): the link graph is built from them (link_pages_by_owner) and the page
/// store's catalog keeps them. Views `urls` and `anchor_texts`: they must outlive it.
struct ParsedLinks {
  const UrlIds& urls;
  /// The link texts, by AnchorIds id.
  const std::vector<std::string>& anchor_texts;
  /// The records held (HeldRecords), from `first` on: their PageRecord::links as parsed, and
  /// their link_anchors.
  std::uint32_t first = 0;
  std::vector<std::vector<std::uint32_t>> targets;
  std::vector<std::vector<std::uint32_t>> texts;
  /// Record `record`'s. REQUIRES: a record held.
  const std::vector<std::uint32_t>& targets_of(std::uint32_t record) const { return targets[record - first]; }
  const std::vector<std::uint32_t>& texts_of(std::uint32_t record) const { return texts[record - first]; }
};

/// The links and link texts of `records` (UrlIds of `urls`; AnchorIds ids into `anchor_texts`),
/// moved out of them: each record is left with none.
ParsedLinks take_links(HeldRecords& records, const UrlIds& urls, const std::vector<std::string>& anchor_texts);

/// Why a redirect page whose redirects go round (or run longer than kMaxRedirectHops)
/// is skipped: pages.jsonl's reason.
std::string redirect_loop_reason();

/// For each link text's id in `anchor_texts`, the id of the text naming a page that a link to one
/// of its places carries too (a place key's text without its '#': `os.makedirs()` linking to
/// os.html#os.makedirs names os.html), or kNoRecord (other texts, or that text not interned).
std::vector<std::uint32_t> names_of_places(const std::vector<std::string>& anchor_texts);

/// Gives each target its inbound anchors from `named_links` (target record << 32 | text id, one
/// entry per linking page and text), counted, then orders those of `node_records`
/// (sort_inbound_anchors).
void count_inbound_anchors(std::vector<std::uint64_t> named_links, std::span<const std::uint32_t> node_records,
                           const std::vector<std::string>& anchor_texts, HeldRecords& records);

/// Anchor texts kept per page: the ones the most pages link with.
inline constexpr std::size_t kMaxInboundAnchors = 32;
/// Place names kept per page (place_key texts): a class's members, a module's functions.
inline constexpr std::size_t kMaxInboundPlaces = 512;

/// Orders `anchors`: the page's names, then its place names; each most pages first, then by text
/// (`anchor_texts`, by id: ids depend on the order pages were parsed in, the texts do not); keeps
/// the first kMaxInboundAnchors names and kMaxInboundPlaces place names.
void sort_inbound_anchors(std::vector<InboundAnchor>& anchors, const std::vector<std::string>& anchor_texts);

/// Gives each authoritative page the inbound anchors of the duplicates collapsed into it (a
/// link to a copy names the page that stands for it), adding the page counts of a text they
/// share; the duplicates' are released. For index-time collapse, after clusters are assigned.
/// By parts: each process reads the records it holds (`parts`) and sends its duplicates' texts
/// to the holders of their authoritative pages; a text received that `anchor_texts` (this
/// process's table) lacks is appended to it. Collective; kCorruption when a message does not
/// decode.
Status gather_cluster_anchors(HeldRecords& records, std::vector<std::string>& anchor_texts,
                              const detail::RecordParts& parts, const Collective& processes);

}  // namespace canon::indexer
