/// @file run_store.cpp
/// @brief The run's page store started beside the previous build's segments, and its catalog written.
#include "indexer/reuse/run_store.h"

#include <algorithm>
#include <string_view>
#include <system_error>

#include "common/byte_codec.h"
#include "indexer/partitioned/partitioned_build.h"

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

Status StoredPlaces::locate(std::span<const std::uint32_t> docs) {
  located_.clear();
  if (processes_.size() == 1) return Status::ok_status();
  // Only the others' documents are asked for, each once.
  std::vector<std::uint32_t> wanted;
  for (const std::uint32_t d : docs) {
    if (d < records_.first_held() || d >= records_.end_held()) wanted.push_back(d);
  }
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  auto answers = ask_record_holders(
      wanted, parts_,
      [this](std::uint32_t record, std::string& out) {
        codec::put_varint(out, records_[record].store_location.segment);
        codec::put_varint(out, records_[record].store_location.offset);
      },
      processes_);
  if (!answers.ok()) return answers.status();
  located_.reserve(wanted.size());
  for (std::size_t k = 0; k < wanted.size(); ++k) {
    codec::Reader in(answers.value()[k]);
    const std::uint64_t segment = in.varint(), offset = in.varint();
    if (!in.ok() || !in.at_end() || segment > UINT32_MAX) {
      return Status::corruption("the place of stored page " + std::to_string(wanted[k]) + " does not decode");
    }
    located_.emplace_back(wanted[k], store::StoreLocation{static_cast<std::uint32_t>(segment), offset});
  }
  return Status::ok_status();
}

const store::StoreLocation* StoredPlaces::find(std::uint32_t doc) const {
  if (doc >= records_.first_held() && doc < records_.end_held()) return &records_[doc].store_location;
  const auto it = std::lower_bound(located_.begin(), located_.end(), doc,
                                   [](const auto& entry, std::uint32_t d) { return entry.first < d; });
  return it != located_.end() && it->first == doc ? &it->second : nullptr;
}

namespace {

fs::path catalog_part_path(const RunStore& store, unsigned rank) {
  return store.dir / ("catalog.part-" + std::to_string(rank));
}

}  // namespace

Status write_catalog(const RunStore& store, const PlanOutline& plan, const HeldRecords& records,
                     const ParsedLinks& links, std::pair<std::uint32_t, std::uint32_t> own_files,
                     const std::vector<std::pair<std::string, std::string>>& fingerprint, std::int64_t run_started_ns,
                     const Collective& processes) {
  const auto [first, end] = own_files;
  // The segments a page of any process is in: each says which of its pages' are (0: used).
  std::vector<std::uint32_t> unused(store.names.size(), 1);
  for (std::size_t i = first; i < end; ++i) {
    if (records[i].in_dedup) unused[records[i].store_location.segment] = 0;
  }
  processes.all_reduce_min(unused);
  store::StoreCatalog head;
  head.fingerprint = fingerprint;
  head.run_started_ns = run_started_ns;
  head.next_segment = store.next_number;
  std::vector<std::uint32_t> segment_number(store.names.size(), kNoRecord);
  for (std::uint32_t s = 0; s < store.names.size(); ++s) {
    if (unused[s] != 0) continue;
    segment_number[s] = static_cast<std::uint32_t>(head.segments.size());
    head.segments.push_back(store.names[s]);
  }
  // This process's part: its files that serve their URL, the URLs and texts they link with.
  std::vector<std::uint32_t> cataloged;
  for (std::uint32_t i = first; i < end; ++i) {
    if (plan.serves(i)) cataloged.push_back(i);
  }
  // The tables come before the entries: a first pass fills them, the second renumbers again.
  std::vector<std::string> part_urls, part_anchors;
  const std::vector<std::string_view> url_text = links.urls.views();
  const std::vector<std::string_view> anchor_text(links.anchor_texts.begin(), links.anchor_texts.end());
  PartTable urls(url_text, part_urls), anchors(anchor_text, part_anchors);
  for (const std::uint32_t i : cataloged) {
    urls.renumber(links.targets_of(i));
    anchors.renumber(links.texts_of(i));
  }
  // The entries are made one at a time as they are written: on a large site, held whole they
  // were the run's peak of memory (docs/benchmarks.md, "Memory per page").
  const Status written = store::write_catalog_part(
      catalog_part_path(store, processes.rank()), part_urls, part_anchors, cataloged.size(), [&](std::size_t k) {
        const std::uint32_t i = cataloged[k];
        return catalog_entry(records[i], urls.renumber(links.targets_of(i)), anchors.renumber(links.texts_of(i)),
                             segment_number);
      });
  if (Status all = status_of_all_processes(written, processes, "write its part of the page store's catalog"); !all.ok()) {
    return all;
  }
  if (processes.rank() != 0) return Status::ok_status();
  std::error_code ec;
  for (std::uint32_t s = 0; s < store.names.size(); ++s) {
    if (unused[s] != 0) fs::remove(store.path(s), ec);  // a link: the previous index keeps its own
  }
  std::vector<fs::path> parts;
  for (unsigned p = 0; p < processes.size(); ++p) parts.push_back(catalog_part_path(store, p));
  const Status joined = store::write_store_catalog_of_parts(store.dir / "catalog", head, parts);
  for (const fs::path& part : parts) fs::remove(part, ec);
  return joined;
}

}  // namespace canon::indexer::detail
