/// @file index_stage.cpp
/// @brief Writing every document of the search index once, or updating the previous index where it changed.
#include "indexer/index_stage.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <system_error>

#include "common/fault_injection.h"
#include "common/parallel.h"
#include "format/shards.h"
#include "indexer/partitioned_build.h"
#include "store/store_catalog.h"

namespace canon::indexer::detail {
namespace fs = std::filesystem;

bool is_document(const PageRecord& r, bool index_duplicates) {
  return r.in_dedup && (r.status != PageStatus::kDuplicate || index_duplicates);
}

namespace {

/// Exact-anchor terms a document gets: the texts the most pages link to it with.
constexpr std::size_t kMaxAnchorTerms = 16;

/// What record d's document gets from ranking and clustering; `anchor_texts` by AnchorIds id.
ClusterFields cluster_fields(std::size_t d, const std::vector<PageRecord>& records, const ClusterAssignment& clusters,
                             const std::vector<std::string>& anchor_texts) {
  const PageRecord& r = records[d];
  ClusterFields fields{r.cluster_pagerank, *r.cluster, {}, {}, {}, {}};
  for (const InboundAnchor& anchor : r.inbound_anchors) {
    const std::string& text = anchor_texts[anchor.text];
    if (is_place_key(text)) {
      fields.places.push_back(text.substr(1));
    } else if (fields.anchors.size() < kMaxAnchorTerms) {
      fields.anchors.push_back({text, anchor.pages});
    }
  }
  if (r.status == PageStatus::kDuplicate) fields.authoritative_url = records[r.authoritative].url;
  if (auto it = clusters.alternates.find(static_cast<std::uint32_t>(d)); it != clusters.alternates.end()) {
    fields.alternates = it->second;
    std::stable_sort(fields.alternates.begin(), fields.alternates.end(),
                     [](const index_format::Alternate& a, const index_format::Alternate& b) { return a.similarity > b.similarity; });
  }
  return fields;
}

/// Which documents this process writes: one process, all. P processes writing shards to be
/// searched as shards: every P-th document in file order from the process's number on (document
/// k, counted from 0, in shard k mod P as its document k / P + 1), so that Xapian's interleaving
/// of the shards gives each document its one-process id (format/shards.h, split_index). P
/// processes writing shards to be merged: the documents of the process's own chunks
/// (ChunkLayout::owner), so that compacting the shards in order numbers the documents as one process
/// does.
struct ShardOfProcess {
  unsigned processes = 1, rank = 0;
  /// Each record's document number (0-based, file order), or kNoRecord.
  std::vector<std::uint32_t> document;
  /// For shards to be merged: the process that writes each record's document.
  std::vector<unsigned> writer;
  bool writes(std::size_t d) const {
    if (document[d] == kNoRecord) return false;
    return writer.empty() ? document[d] % processes == rank : writer[d] == rank;
  }
};

ShardOfProcess shard_of_process(const std::vector<PageRecord>& records, const IndexPlan& plan,
                                const ChunkLayout& chunks, const Collective& processes, bool to_merge) {
  ShardOfProcess shard{processes.size(), processes.rank(), std::vector<std::uint32_t>(records.size(), kNoRecord), {}};
  std::uint32_t documents = 0;
  for (std::size_t d = 0; d < records.size(); ++d) {
    if (is_document(records[d], plan.index_duplicates)) shard.document[d] = documents++;
  }
  if (to_merge) {
    shard.writer.assign(records.size(), 0);
    for (std::size_t chunk = 0; chunk < chunks.count(); ++chunk) {
      const unsigned owner = chunks.owner(chunk);
      for (std::size_t d = chunks.first(chunk); d < chunks.end(chunk); ++d) shard.writer[d] = owner;
    }
  }
  return shard;
}

/// Stage 6, from scratch: each document (is_document) is written once, from its stored
/// document with its cluster fields, chunk by chunk on all threads, into the chunk's database;
/// the chunk databases are then merged into the index's database, or, one of several
/// processes, into the process's shard (ShardOfProcess; `to_merge`: shards to be merged). Sets
/// each record's docid and digests.
Status write_index(const ChunkLayout& chunks, const StoreReader& store_reader, std::vector<PageRecord>& records,
                   const IndexPlan& plan, unsigned threads, const index_format::IndexLayout& layout,
                   const Collective& processes, bool to_merge, Progress& progress) {
  if (Status injected = injected_failure("write-index"); !injected.ok()) return injected;
  const ShardOfProcess shard = shard_of_process(records, plan, chunks, processes, to_merge);
  const bool sharded = processes.size() > 1;
  const fs::path chunk_dir = sharded ? fs::path(chunks.dir.string() + "-" + std::to_string(processes.rank())) : chunks.dir;
  const auto chunk_path = [&](std::size_t chunk) { return (chunk_dir / std::to_string(chunk)).string(); };
  const fs::path xapian_dir = sharded ? layout.shard(processes.rank() + 1) : layout.xapian();
  std::vector<Status> chunk_status(chunks.count(), Status::ok_status());
  std::atomic<std::size_t> written_files{0};
  std::mutex progress_mutex;
  std::error_code ec;
  fs::create_directory(chunk_dir, ec);
  progress.start("index", chunks.files);
  // The chunks with the most to write go first: a thread that takes a heavy chunk last keeps
  // the other idle until it ends (on rust-doc, where re-exports and redirects leave some
  // chunks almost nothing to write, 2 threads kept 1.6 cores busy in file order, 1.97 now). The order
  // changes nothing written: each chunk has its own database, merged in chunk order.
  std::vector<std::uint64_t> chunk_work(chunks.count(), 0);
  for (std::size_t chunk = 0; chunk < chunks.count(); ++chunk) {
    for (std::size_t d = chunks.first(chunk); d < chunks.end(chunk); ++d) {
      if (shard.writes(d)) chunk_work[chunk] += records[d].store_bytes + 1;
    }
  }
  const std::vector<std::size_t> order = heaviest_first(chunk_work);
  parallel_for(chunks.count(), threads, [&](std::size_t turn, std::size_t) {
    const std::size_t chunk = order[turn];
    auto writer = IndexWriter::create(chunk_path(chunk), plan.writer);
    if (!writer.ok()) {
      chunk_status[chunk] = writer.status();
      return;
    }
    writer.value()->set_static_score_bound(plan.static_score_bound);
    for (std::size_t d = chunks.first(chunk); d < chunks.end(chunk); ++d) {
      PageRecord& r = records[d];
      if (!shard.writes(d)) continue;
      const ClusterFields fields = cluster_fields(d, records, plan.clusters, plan.anchor_texts);
      auto page = store_reader.read(r.store_location);
      if (!page.ok()) {
        chunk_status[chunk] = page.status();
        return;
      }
      if (auto added = writer.value()->add(r.url, page->document, fields); !added.ok()) {
        chunk_status[chunk] = added.status();
        return;
      }
      r.digests = IndexWriter::digests(r.terms_source, r.file, fields, plan.writer);
    }
    chunk_status[chunk] = writer.value()->finish();
    const std::size_t done = written_files += chunks.end(chunk) - chunks.first(chunk);
    if (std::unique_lock lock(progress_mutex, std::try_to_lock); lock) progress.update(done);
  });
  progress.finish();
  if (Status failed = first_error(chunk_status); !failed.ok()) return failed;
  std::vector<std::string> chunk_paths;
  for (std::size_t chunk = 0; chunk < chunks.count(); ++chunk) chunk_paths.push_back(chunk_path(chunk));
  if (chunk_paths.empty()) {  // no files at all: an empty database
    auto empty = IndexWriter::create(chunk_path(0), plan.writer);
    if (!empty.ok()) return empty.status();
    empty.value()->set_static_score_bound(0.0);
    if (Status done = empty.value()->finish(); !done.ok()) return done;
    chunk_paths.push_back(chunk_path(0));
  }
  if (plan.documents_written) plan.documents_written();
  if (Status merged = merge_databases(chunk_paths, xapian_dir.string()); !merged.ok()) return merged;
  fs::remove_all(chunk_dir, ec);
  // The merge numbers the documents chunk after chunk, each chunk's in file order; the shards'
  // interleaving gives the same numbers. The other processes' documents: their digests as
  // they write them, for the catalog.
  for (std::size_t d = 0; d < records.size(); ++d) {
    PageRecord& r = records[d];
    if (shard.document[d] == kNoRecord) continue;
    r.docid = shard.document[d] + 1;
    if (!shard.writes(d)) {
      const ClusterFields fields = cluster_fields(d, records, plan.clusters, plan.anchor_texts);
      r.digests = IndexWriter::digests(r.terms_source, r.file, fields, plan.writer);
    }
  }
  return Status::ok_status();
}

/// What stage 6 did to the documents of a re-used index.
struct IndexUpdates {
  std::size_t added = 0;
  std::size_t rewritten = 0;  ///< terms changed: the whole document written again
  std::size_t updated = 0;    ///< only values and data changed
  std::size_t removed = 0;
  std::size_t kept = 0;       ///< untouched
};

/// Stage 6 on a re-used index: the previous database, copied to `xapian_dir`, gets only what
/// changed: documents of pages no longer indexed are removed, those whose terms digest changed
/// are written again, those whose fields digest alone changed get new values and data, new
/// pages are added. Sets each record's docid and digests. Fails with kFailedPrecondition when
/// the previous database cannot be updated into this run's (another collapse mode): the run
/// then writes the index from scratch.
Result<IndexUpdates> update_index(const PreviousBuild& previous, const StoreReader& store_reader,
                                  std::vector<PageRecord>& records, const IndexPlan& plan, const fs::path& xapian_dir,
                                  Progress& progress) {
  if (index_format::stub_file_at(previous.xapian_dir)) {
    return Status::failed_precondition("the previous index is in shards (a partitioned build)");
  }
  std::error_code ec;
  fs::copy(previous.xapian_dir, xapian_dir, fs::copy_options::recursive, ec);
  if (ec) return Status::io_error("cannot copy the previous Xapian database: " + ec.message());
  auto writer = IndexWriter::open(xapian_dir.string(), plan.writer);
  if (!writer.ok()) return writer.status();
  IndexWriter& index = *writer.value();
  const std::vector<store::CatalogEntry>& old = previous.catalog.files;
  // The previous document of each record that stays a document (by path: a page keeps its URL).
  std::vector<const store::CatalogEntry*> previous_of(records.size(), nullptr);
  std::vector<bool> kept_docid;
  std::uint32_t max_docid = 0;
  for (const store::CatalogEntry& e : old) max_docid = std::max(max_docid, e.docid);
  kept_docid.assign(std::size_t{max_docid} + 1, false);
  for (std::size_t d = 0; d < records.size(); ++d) {
    if (!is_document(records[d], plan.index_duplicates)) continue;
    if (auto it = previous.entry_of_path.find(records[d].path); it != previous.entry_of_path.end() && old[it->second].docid != 0) {
      previous_of[d] = &old[it->second];
      kept_docid[old[it->second].docid] = true;
    }
  }
  IndexUpdates updates;
  for (const store::CatalogEntry& e : old) {
    if (e.docid == 0 || kept_docid[e.docid]) continue;
    if (Status removed = index.remove(e.docid); !removed.ok()) return removed;
    ++updates.removed;
  }
  progress.start("index", records.size());
  for (std::size_t d = 0; d < records.size(); ++d) {
    progress.update(d);
    PageRecord& r = records[d];
    if (!is_document(r, plan.index_duplicates)) continue;
    const ClusterFields fields = cluster_fields(d, records, plan.clusters, plan.anchor_texts);
    r.digests = IndexWriter::digests(r.terms_source, r.file, fields, plan.writer);
    const store::CatalogEntry* was = previous_of[d];
    if (was != nullptr && was->terms_digest == r.digests.terms && was->fields_digest == r.digests.fields) {
      r.docid = was->docid;
      ++updates.kept;
      continue;
    }
    // Only values and data changed, and not the file's stamp: the document has what it needs.
    const bool same_stamp = was != nullptr && was->file == r.file;
    if (was != nullptr && was->terms_digest == r.digests.terms && same_stamp) {
      r.docid = was->docid;
      if (Status updated = index.update_fields(r.docid, r.url, nullptr, fields, was->data_digest != r.digests.data);
          !updated.ok()) {
        return updated;
      }
      ++updates.updated;
      continue;
    }
    auto page = store_reader.read(r.store_location);
    if (!page.ok()) return page.status();
    if (was == nullptr) {
      auto added = index.add(r.url, page->document, fields);
      if (!added.ok()) return added.status();
      r.docid = added.value();
      ++updates.added;
      continue;
    }
    r.docid = was->docid;
    if (was->terms_digest != r.digests.terms) {
      if (Status replaced = index.replace(r.docid, r.url, page->document, fields); !replaced.ok()) return replaced;
      ++updates.rewritten;
    } else {
      if (Status updated = index.update_fields(r.docid, r.url, &page->document, fields); !updated.ok()) return updated;
      ++updates.updated;
    }
  }
  progress.finish();
  index.set_static_score_bound(plan.static_score_bound);
  if (Status finished = index.finish(); !finished.ok()) return finished;
  return updates;
}

/// Stage 6: the search index in `layout`: the previous one updated where it can be (what
/// changed counted in `reindex`), else written afresh; by several processes, in shards
/// (write_index).
Status write_database(const PreviousBuild* previous, const ChunkLayout& chunks, const StoreReader& store_reader,
                      std::vector<PageRecord>& records, const IndexPlan& index_plan, unsigned threads,
                      const index_format::IndexLayout& layout, const Collective& processes, bool to_merge,
                      Progress& progress, ReindexSummary& reindex) {
  const fs::path xapian_dir = layout.xapian();
  if (previous != nullptr && processes.size() > 1) {
    reindex.index_rewritten_because = "a partitioned build writes its shards afresh";
  } else if (previous != nullptr) {
    auto updates = update_index(*previous, store_reader, records, index_plan, xapian_dir, progress);
    if (updates.ok()) {
      reindex.documents_added = updates->added;
      reindex.documents_rewritten = updates->rewritten;
      reindex.documents_updated = updates->updated;
      reindex.documents_removed = updates->removed;
      reindex.documents_kept = updates->kept;
      return Status::ok_status();
    }
    if (updates.status().code() != StatusCode::kFailedPrecondition) return updates.status();
    reindex.index_rewritten_because = updates.status().message();
    std::error_code ec;
    fs::remove_all(xapian_dir, ec);
  }
  return write_index(chunks, store_reader, records, index_plan, threads, layout, processes, to_merge, progress);
}

/// The shards of a partitioned build (write_index) made one index: merged into one database
/// (Xapian's compaction, in process order) when `merge`, else listed in a stub.
Status join_shards(const index_format::IndexLayout& layout, unsigned processes, bool merge) {
  if (!merge) return index_format::write_stub(layout, processes, "canon index, in shards");
  std::vector<std::string> shards;
  for (unsigned p = 1; p <= processes; ++p) shards.push_back(layout.shard(p).string());
  if (Status merged = merge_databases(shards, layout.xapian().string()); !merged.ok()) return merged;
  std::error_code ec;
  for (const std::string& shard : shards) fs::remove_all(shard, ec);
  return Status::ok_status();
}

}  // namespace

Status write_search_index(const PreviousBuild* previous, const ChunkLayout& chunks, const StoreReader& store_reader,
                          std::vector<PageRecord>& records, const IndexPlan& index_plan, unsigned threads,
                          const index_format::IndexLayout& layout, const Collective& processes, bool to_merge,
                          Progress& progress, ReindexSummary& reindex) {
  const Status written = write_database(previous, chunks, store_reader, records, index_plan, threads, layout, processes,
                                        to_merge, progress, reindex);
  if (Status all = every_process_did(written, processes, "write its shard"); !all.ok()) return all;
  if (processes.size() == 1 || processes.rank() != 0) return Status::ok_status();
  return join_shards(layout, processes.size(), to_merge);
}

}  // namespace canon::indexer::detail
