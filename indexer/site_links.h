/// @file site_links.h
/// @brief Stage 3 of `canon index`: redirect pages resolved and the link graph over the rest.
/// Works on page records alone (no files, no Xapian), so it is tested on hand-made records.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "indexer/page_record.h"
#include "ranking/link_graph.h"

namespace canon::indexer {

/// The parsed pages by URL, following redirect pages to where they lead. Holds a view of the
/// records: they must outlive it, and their URLs and refresh targets must not change.
class RedirectResolver {
public:
  /// Redirects followed from one URL at most.
  static constexpr int kMaxHops = 20;

  explicit RedirectResolver(std::span<const PageRecord> records);
  /// The record a link to `url` lands on, following redirect pages (chains of up to kMaxHops; a
  /// loop or a longer chain lands nowhere), or kNoRecord; `url` becomes the final URL.
  std::uint32_t follow(std::string& url) const;
  /// The record of the parsed page at `url` itself, or kNoRecord.
  std::uint32_t find(const std::string& url) const;
  /// Every parsed page's URL and record.
  const std::unordered_map<std::string, std::uint32_t>& by_url() const { return by_url_; }

private:
  std::span<const PageRecord> records_;
  std::unordered_map<std::string, std::uint32_t> by_url_;
};

/// The link graph of a site: node n is record node_records[n].
struct SiteGraph {
  ranking::LinkGraph graph;
  std::vector<std::uint32_t> node_records;
};

/// Marks each parsed redirect page (refresh_url) as a redirect with its final target (or as
/// skipped, when its redirects go round without reaching a page), gives every
/// other parsed page a node, and links nodes along the records' `links` (UrlIds of `urls`),
/// through redirects; the records' links are released. Self-links and repeats are dropped.
SiteGraph link_pages(std::vector<PageRecord>& records, const UrlIds& urls, const RedirectResolver& resolver);

}  // namespace canon::indexer
