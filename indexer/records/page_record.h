/// @file page_record.h
/// @brief What `canon index` keeps of one input file between its stages (one line of
/// pages.jsonl), and the URL ids its links are held as.
#pragma once

#include <cassert>
#include <cstdint>
#include <initializer_list>
#include <deque>
#include <limits>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/compact_string.h"
#include "indexer/records/document_digests.h"
#include "store/page_facts.h"
#include "store/page_store.h"
#include "ranking/link_graph.h"

namespace canon::indexer {

/// No record: a link that lands outside the site's parsed pages, a page outside every cluster.
inline constexpr std::uint32_t kNoRecord = std::numeric_limits<std::uint32_t>::max();

/// What became of an input page: pages.jsonl's `status` (docs/index-format.md).
enum class PageStatus {
  kIndexed,    ///< In the index: a page alone, or the page its cluster is indexed under.
  kDuplicate,  ///< Collapsed into the page its cluster is indexed under (`authoritative`).
  kRedirect,   ///< A meta-refresh page: its target stands for it (`redirect_to`).
  kSkipped,    ///< Not indexed, for the `reason` given.
};

/// The one text form of each status: "indexed", "duplicate", "redirect", "skipped".
std::string_view to_string(PageStatus status);
/// The status whose text form is `text`, or nothing.
std::optional<PageStatus> parse_page_status(std::string_view text);

/// An anchor text other pages link to a page with, and how many pages do (site_links.h).
struct InboundAnchor {
  std::uint32_t text = 0;   ///< AnchorIds id of the text (its anchor_key)
  std::uint32_t pages = 0;  ///< pages linking with it, each counted once
};

/// One input file through the stages. Small on purpose: no page text (docs/design.md, "Memory"),
/// and the fields most pages leave unset held as compact strings (common/compact_string.h).
/// Record i is file i of the site plan (and detector document i); the walk's skipped paths
/// follow the files. Its PageFacts are what the parse learnt of the file (or what a re-index
/// took over from the catalog: the same type, copied whole).
struct PageRecord : store::PageFacts {
  std::string path;  ///< relative to the site root (a crawl's page: its URL)
  /// A crawl's page: the record read, "crawl.warc.gz@1234" (SiteFile::record); else empty.
  CompactString archive_record;
  std::string url;
  /// Skipped until the page is parsed; a parsed page is a redirect, skipped (robots noindex),
  /// or indexed until its cluster makes it a duplicate.
  PageStatus status = PageStatus::kSkipped;
  bool parsed = false;
  bool in_dedup = false;  ///< handed to the detector (document = record index)
  CompactString reason;   ///< why it was skipped
  /// Recorded by URL rules (IndexOptions::url_rules), not read: the rules applied, described.
  /// Such a page is a redirect to the URL the rules give until its cluster is known, then a
  /// duplicate in the cluster of that URL's page.
  CompactOptionalString url_rule;
  CompactOptionalString redirect_to;  ///< final target, for redirect pages
  std::vector<std::uint32_t> links;        ///< followed links' targets, as UrlIds
  /// The text of each of `links` (anchor_key, or place_key for a link to a place), as
  /// AnchorIds; kNoRecord for a link whose text is no name (none, or longer than
  /// kMaxAnchorWords words). Empty, or as many as links.
  std::vector<std::uint32_t> link_anchors;
  /// What other pages call this one when they link to it, and the names of its places (what
  /// links to its places, its own included, call them) (site_links.h), most pages first.
  std::vector<InboundAnchor> inbound_anchors;
  store::StoreLocation store_location;     ///< its page in the run's page store, when in_dedup
  std::uint64_t store_bytes = 0;          ///< the bytes of its record there
  std::optional<ranking::NodeId> node;     ///< in the link graph
  /// What the link stage found at the URLs a record names besides its links
  /// (link_pages_by_owner): for a page handed to the detector with a rel=canonical, the record
  /// the canonical URL lands on through redirects; for a page URL
  /// rules recorded (a redirect to the URL they give), the page its redirect lands on;
  /// kNoRecord when none. And the number of redirect pages (those of URL rules included) that
  /// land on this page.
  std::uint32_t canonical_page = kNoRecord;
  std::uint32_t rule_page = kNoRecord;
  std::uint32_t redirects_in = 0;
  double pagerank = 0.0;
  /// The fewest links from the site's entry pages to this page (ranking/click_depth.h), the
  /// largest value when none leads to it.
  std::uint32_t click_depth = std::numeric_limits<std::uint32_t>::max();
  double cluster_pagerank = 0.0;
  std::optional<std::uint32_t> cluster;    ///< dense cluster id, for pages in the detector
  std::uint32_t authoritative = kNoRecord; ///< record of the page its cluster is indexed under
  CompactString authority_reason;
  std::optional<double> similarity;        ///< to the authoritative page, for duplicates
  /// IndexWriter::terms_source of the page, when in_dedup.
  std::uint64_t terms_source = 0;
  /// Its document in the index written (0: none), and the digests it was written from.
  std::uint32_t docid = 0;
  DocumentDigests digests;
};

/// The page records one process holds: records [first_held(), end_held()) of the run's size()
/// records, by their run-wide numbers (record i is file i of the site plan; the walk's skipped
/// paths follow the files). One process holds them all; a process of a partitioned build, its
/// part (detail::RecordParts), and nothing of the others'. Iterating visits the held records.
class HeldRecords {
public:
  HeldRecords() = default;
  /// Every record, held by one process.
  HeldRecords(std::vector<PageRecord> records)  // NOLINT: a vector of all records is all of them
      : total_(static_cast<std::uint32_t>(records.size())), held_(std::move(records)) {}
  HeldRecords(std::initializer_list<PageRecord> records) : HeldRecords(std::vector<PageRecord>(records)) {}
  /// Records [first, first + held.size()) of `total`.
  HeldRecords(std::uint32_t first, std::uint32_t total, std::vector<PageRecord> held)
      : first_(first), total_(total), held_(std::move(held)) {}

  /// Record `record`. REQUIRES: holds(record).
  PageRecord& operator[](std::size_t record) {
    assert(holds(record));
    return held_[record - first_];
  }
  const PageRecord& operator[](std::size_t record) const {
    assert(holds(record));
    return held_[record - first_];
  }
  bool holds(std::size_t record) const { return record >= first_ && record - first_ < held_.size(); }
  /// The run's records, held or not.
  std::size_t size() const { return total_; }
  std::uint32_t first_held() const { return first_; }
  std::uint32_t end_held() const { return first_ + static_cast<std::uint32_t>(held_.size()); }
  std::span<PageRecord> held() { return held_; }
  std::span<const PageRecord> held() const { return held_; }
  auto begin() { return held_.begin(); }
  auto end() { return held_.end(); }
  auto begin() const { return held_.begin(); }
  auto end() const { return held_.end(); }

private:
  std::uint32_t first_ = 0;
  std::uint32_t total_ = 0;
  std::vector<PageRecord> held_;
};

/// Interns URLs as dense ids, so that records hold links as 4-byte ids. ids() is thread-safe;
/// the ids depend on the order of calls, so nothing written out may depend on them.
class UrlIds {
public:
  UrlIds() = default;
  /// Moves the ids; not while another thread calls ids().
  UrlIds(UrlIds&& other) noexcept : ids_(std::move(other.ids_)) {}
  /// The id of each of `urls`, new ones numbered in order.
  std::vector<std::uint32_t> ids(const std::vector<std::string>& urls);
  /// The id of `url`, or kNoRecord when it never was interned.
  std::uint32_t find(const std::string& url) const;
  std::size_t size() const { return ids_.size(); }
  /// Every URL, by id. Not while another thread calls ids().
  std::vector<std::string> urls() const;
  /// Every URL interned so far, by id, as views of the interned strings: they stay valid while
  /// this UrlIds lives, whatever is interned after (the table never moves a string it holds).
  /// Not while another thread calls ids().
  std::vector<std::string_view> views() const;
  /// Every URL, by id, moved out: the ids are forgotten (as after construction). Not while
  /// another thread calls ids().
  std::vector<std::string> release();

private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::uint32_t> ids_;
};

/// Anchor texts are interned as URLs are.
using AnchorIds = UrlIds;

/// The strings a part of a run refers to, out of one of the run's tables (UrlIds::views() of
/// its URLs or link texts): each id renumbered in order of first use, its string appended to the
/// part's own table (`part_table`, which must outlive it). A part's catalog keeps so the URLs
/// and texts its files link with; a process sends another the texts it links with so.
class PartTable {
public:
  PartTable(std::span<const std::string_view> run_table, std::vector<std::string>& part_table)
      : run_table_(run_table), part_table_(&part_table) {}
  /// `id` (into the run's table) as an id into the part's table, added when new; kNoRecord stays.
  std::uint32_t renumber(std::uint32_t id) {
    if (id == kNoRecord) return kNoRecord;
    const auto [at, added] = part_id_.try_emplace(id, static_cast<std::uint32_t>(part_table_->size()));
    if (added) part_table_->emplace_back(run_table_[id]);
    return at->second;
  }
  /// Each of `ids` so.
  std::vector<std::uint32_t> renumber(const std::vector<std::uint32_t>& ids) {
    std::vector<std::uint32_t> out;
    out.reserve(ids.size());
    for (const std::uint32_t id : ids) out.push_back(renumber(id));
    return out;
  }

private:
  std::span<const std::string_view> run_table_;
  std::vector<std::string>* part_table_;
  std::unordered_map<std::uint32_t, std::uint32_t> part_id_;
};

/// Link texts looked up by text, for texts received from other processes: the id of one this
/// process holds in `texts` (its table of link texts, by AnchorIds id, each text once), or a new
/// id for one it does not, appended to the table by commit(). `texts` must outlive it.
class TextIds {
public:
  explicit TextIds(std::vector<std::string>& texts) : texts_(texts) { index(); }
  std::uint32_t id(std::string_view text) {
    if (const auto it = known_.find(text); it != known_.end()) return it->second;
    fresh_.emplace_back(text);
    const auto id = static_cast<std::uint32_t>(texts_.size() + fresh_.size() - 1);
    known_.emplace(fresh_.back(), id);  // a deque's elements stay where they are
    return id;
  }
  /// Appends the new texts to the table: their ids index it from now on.
  void commit() {
    if (fresh_.empty()) return;
    for (std::string& text : fresh_) texts_.push_back(std::move(text));
    fresh_.clear();
    index();  // the table's strings may have moved
  }

private:
  void index() {
    known_.clear();
    for (std::uint32_t id = 0; id < texts_.size(); ++id) known_.emplace(texts_[id], id);
  }
  std::vector<std::string>& texts_;
  std::deque<std::string> fresh_;
  std::unordered_map<std::string_view, std::uint32_t> known_;
};

/// Links whose text has more words than this are not taken as naming their target (a sentence
/// that links, not a name).
inline constexpr std::size_t kMaxAnchorWords = 8;

/// The anchor key of a link's visible text: its words as written (index_format::words_as_written),
/// or "" when it has no word or more than kMaxAnchorWords.
std::string anchor_key(std::string_view anchor_text);

/// The key of a link's text when the link names a place in its target page
/// (html::PageLink::to_place: a member, a section): '#' + anchor_key(), or "" when that is "".
/// Such texts are the names of the places a page holds (place names), counted apart from what
/// pages call the page itself.
std::string place_key(std::string_view anchor_text);

/// Whether `key` (interned among the AnchorIds) is a place_key().
inline bool is_place_key(std::string_view key) { return key.starts_with('#'); }

/// The AnchorIds of `keys` (anchor_key()s and place_key()s), kNoRecord for each empty one. The
/// anchor key of each place key (without its '#') is interned too.
std::vector<std::uint32_t> intern_anchor_keys(const std::vector<std::string>& keys, AnchorIds& ids);

}  // namespace canon::indexer
