/// @file run_store.cpp
/// @brief The run's page store started beside the previous build's segments, and its catalog written.
#include "indexer/run_store.h"

#include <system_error>

namespace canon::indexer::detail {
namespace fs = std::filesystem;

Result<RunStore> start_store(const fs::path& store_dir, Reuse& reuse, std::size_t chunks, bool link) {
  RunStore store;
  store.dir = store_dir;
  std::error_code ec;
  fs::create_directories(store_dir, ec);
  if (ec) return Status::io_error("cannot create '" + store_dir.string() + "': " + ec.message());
  std::uint64_t number = 0;
  if (reuse.previous != nullptr) {
    const store::StoreCatalog& old = reuse.previous->catalog;
    number = old.next_segment;
    // A segment is kept while at least half its bytes are pages still in use; below that, those
    // pages are copied into the new segments and the old one is left with the old index, so the
    // store stays within twice the size of its live pages however many runs it has seen.
    std::vector<std::uint64_t> live_bytes(old.segments.size(), 0);
    for (const std::uint32_t e : reuse.unchanged_entry) {
      if (e != kNoEntry && old.files[e].store_location) live_bytes[old.files[e].store_location->segment] += old.files[e].store_bytes;
    }
    reuse.segment_of_old.assign(old.segments.size(), kNoRecord);
    reuse.compact_old.assign(old.segments.size(), false);
    for (std::uint32_t s = 0; s < old.segments.size(); ++s) {
      if (live_bytes[s] == 0) continue;  // no unchanged page in it
      const fs::path from = reuse.previous->store_dir / old.segments[s];
      const std::uintmax_t segment_bytes = fs::file_size(from, ec);
      if (ec) return Status::io_error("cannot read the page store segment '" + from.string() + "': " + ec.message());
      reuse.compact_old[s] = live_bytes[s] * 2 < segment_bytes;
      const fs::path to = store_dir / old.segments[s];
      if (link) {
        fs::create_hard_link(from, to, ec);
        if (ec) fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);  // a file system without links
        if (ec) return Status::io_error("cannot take over the page store segment '" + from.string() + "': " + ec.message());
      }
      reuse.segment_of_old[s] = static_cast<std::uint32_t>(store.names.size());
      store.names.push_back(old.segments[s]);
    }
  }
  store.first_new = static_cast<std::uint32_t>(store.names.size());
  for (std::size_t chunk = 0; chunk < chunks; ++chunk) store.names.push_back(std::to_string(number++) + ".seg");
  store.next_number = number;
  return store;
}

store::CatalogEntry catalog_entry(const PageRecord& r, const std::vector<std::uint32_t>& targets,
                                  const std::vector<std::uint32_t>& texts,
                                  const std::vector<std::uint32_t>& segment_number) {
  store::CatalogEntry e;
  e.path = r.path;
  if (r.url_rule) {
    // Never read: the next run records it again if the rules still apply, else reads it.
    e.unreadable = "recorded by URL rules, not read";
    return e;
  }
  if (!r.parsed) {
    e.unreadable = r.reason;
    return e;
  }
  e.facts() = r.facts();
  e.links = targets;
  e.link_anchors = texts;
  if (r.in_dedup) {
    e.store_location = store::StoreLocation{segment_number[r.store_location.segment], r.store_location.offset};
    e.store_bytes = r.store_bytes;
  }
  e.docid = r.docid;
  e.terms_digest = r.digests.terms;
  e.fields_digest = r.digests.fields;
  e.data_digest = r.digests.data;
  return e;
}

Status write_catalog(const RunStore& store, const PlanOutline& plan, const std::vector<PageRecord>& records,
                     const ParsedLinks& links, const std::vector<std::pair<std::string, std::string>>& fingerprint,
                     std::int64_t run_started_ns) {
  store::StoreCatalog catalog;
  catalog.fingerprint = fingerprint;
  catalog.run_started_ns = run_started_ns;
  catalog.next_segment = store.next_number;
  std::vector<bool> used(store.names.size(), false);
  for (std::size_t i = 0; i < plan.files(); ++i) {
    if (records[i].in_dedup) used[records[i].store_location.segment] = true;
  }
  std::vector<std::uint32_t> segment_number(store.names.size(), kNoRecord);
  for (std::uint32_t s = 0; s < store.names.size(); ++s) {
    if (!used[s]) {
      std::error_code ec;
      fs::remove(store.path(s), ec);  // a link: the previous index keeps its own
      continue;
    }
    segment_number[s] = static_cast<std::uint32_t>(catalog.segments.size());
    catalog.segments.push_back(store.names[s]);
  }
  catalog.urls = links.urls.urls();
  catalog.anchors = links.anchor_texts;
  // The entries are made one at a time as they are written: on a large site, held whole they
  // were the run's peak of memory (docs/benchmarks.md, "Memory per page").
  std::vector<std::uint32_t> cataloged;
  for (std::size_t i = 0; i < plan.files(); ++i) {
    if (plan.serves_url[i]) cataloged.push_back(static_cast<std::uint32_t>(i));
  }
  return store::write_store_catalog(store.dir / "catalog", catalog, cataloged.size(), [&](std::size_t k) {
    const std::uint32_t i = cataloged[k];
    return catalog_entry(records[i], links.targets[i], links.texts[i], segment_number);
  });
}

}  // namespace canon::indexer::detail
