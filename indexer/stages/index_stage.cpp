/// @file index_stage.cpp
/// @brief Writing every document of the search index once, or updating the previous index where it changed.
#include "indexer/stages/index_stage.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <system_error>

#include "common/byte_codec.h"
#include "common/fault_injection.h"
#include "common/parallel.h"
#include "format/shards.h"
#include "indexer/partitioned/partitioned_build.h"
#include "indexer/stages/cluster_assignment.h"
#include "store/store_catalog.h"

namespace canon::indexer::detail {
namespace fs = std::filesystem;

bool is_document(const PageRecord& r, bool index_duplicates) {
  return r.in_dedup && (r.status != PageStatus::kDuplicate || index_duplicates);
}

IndexPlan::IndexPlan(const HeldRecords& records, const RecordParts& parts, const ClusterAssignment& clusters,
                     const std::vector<std::string>& anchor_texts, const IndexOptions& options,
                     std::size_t graph_nodes, const Collective& processes)
    : clusters(clusters),
      anchor_texts(anchor_texts),
      writer{options.collapse, static_cast<double>(std::max<std::size_t>(graph_nodes, 1))},
      index_duplicates(options.collapse == CollapseMode::kQueryTime) {
  const unsigned me = processes.rank();
  for (std::uint32_t d = parts.first(me); d < parts.end(me); ++d) {
    if (is_document(records[d], index_duplicates)) static_score_bound = std::max(static_score_bound, records[d].cluster_pagerank);
  }
  if (processes.size() == 1) return;
  std::vector<double> bounds(processes.size());
  const std::vector<std::size_t> one_each(processes.size(), 1);
  processes.all_gather(std::span<const double>(&static_score_bound, 1), bounds, one_each);
  static_score_bound = *std::max_element(bounds.begin(), bounds.end());
}

namespace {

/// Exact-anchor terms a document gets: the texts the most pages link to it with.
constexpr std::size_t kMaxAnchorTerms = 16;

/// What record d's (`r`'s) document gets from ranking and clustering; `authoritative_url`, the
/// URL of its cluster's authoritative page (read for a duplicate, which is a document only when
/// search collapses at query time); `anchor_texts` by AnchorIds id.
ClusterFields cluster_fields(std::uint32_t d, const PageRecord& r, std::string_view authoritative_url,
                             const ClusterAssignment& clusters, const std::vector<std::string>& anchor_texts) {
  ClusterFields fields{r.cluster_pagerank, *r.cluster, {}, {}, {}, {}};
  for (const InboundAnchor& anchor : r.inbound_anchors) {
    const std::string& text = anchor_texts[anchor.text];
    if (is_place_key(text)) {
      fields.places.push_back(text.substr(1));
    } else if (fields.anchors.size() < kMaxAnchorTerms) {
      fields.anchors.push_back({text, anchor.pages});
    }
  }
  if (r.status == PageStatus::kDuplicate) fields.authoritative_url = authoritative_url;
  if (auto it = clusters.alternates.find(d); it != clusters.alternates.end()) {
    fields.alternates = it->second;
    std::stable_sort(fields.alternates.begin(), fields.alternates.end(),
                     [](const index_format::Alternate& a, const index_format::Alternate& b) { return a.similarity > b.similarity; });
  }
  return fields;
}

/// The documents of the records this process holds (`parts`): their records in file order, the
/// number of documents before them (of the processes before this one), and the URLs of the
/// authoritative pages of those that are duplicates (asked of their holders). Collective.
struct OwnDocuments {
  std::vector<std::uint32_t> records;
  std::uint32_t first_number = 0;
  /// Per entry of `records`: its authoritative page's URL, for a duplicate; else empty.
  std::vector<std::string> authoritative_urls;
};

Result<OwnDocuments> own_documents(const HeldRecords& records, const RecordParts& parts,
                                   const IndexPlan& plan, const Collective& processes) {
  OwnDocuments own;
  const unsigned me = processes.rank();
  for (std::uint32_t d = parts.first(me); d < parts.end(me); ++d) {
    if (is_document(records[d], plan.index_duplicates)) own.records.push_back(d);
  }
  own.first_number = static_cast<std::uint32_t>(count_of_processes(own.records.size(), processes).before);
  std::vector<std::uint32_t> authoritative;
  for (const std::uint32_t d : own.records) {
    if (records[d].status == PageStatus::kDuplicate) authoritative.push_back(records[d].authoritative);
  }
  auto urls = ask_record_holders(authoritative, parts, url_answer(records), processes);
  if (!urls.ok()) return urls.status();
  own.authoritative_urls.resize(own.records.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i < own.records.size(); ++i) {
    if (records[own.records[i]].status == PageStatus::kDuplicate) own.authoritative_urls[i] = std::move(urls.value()[next++]);
  }
  return own;
}

/// A document another process holds the record of, as it sends it to the process that writes
/// it: the URL, where its page is in the store, and its cluster fields.
struct SentDocument {
  std::string url;
  store::StoreLocation location;
  ClusterFields fields;
};

void encode_sent_document(const PageRecord& r, const ClusterFields& fields, std::string& out) {
  using namespace codec;
  put_string(out, r.url);
  put_varint(out, r.store_location.segment);
  put_varint(out, r.store_location.offset);
  put_fixed(out, std::bit_cast<std::uint64_t>(fields.cluster_pagerank), 8);
  put_varint(out, fields.cluster_id);
  put_varint(out, fields.alternates.size());
  for (const index_format::Alternate& a : fields.alternates) {
    put_string(out, a.url);
    put_string(out, a.title);
    put_fixed(out, std::bit_cast<std::uint64_t>(a.similarity), 8);
  }
  put_string(out, fields.authoritative_url);
  put_varint(out, fields.anchors.size());
  for (const AnchorName& anchor : fields.anchors) {
    put_string(out, anchor.text);
    put_varint(out, anchor.pages);
  }
  put_list(out, fields.places);
}

/// One document encode_sent_document wrote, read from `in` (marked bad when it does not decode).
SentDocument decode_sent_document(codec::Reader& in) {
  SentDocument doc;
  doc.url = in.string();
  doc.location.segment = static_cast<std::uint32_t>(in.varint());
  doc.location.offset = in.varint();
  doc.fields.cluster_pagerank = std::bit_cast<double>(in.fixed(8));
  doc.fields.cluster_id = static_cast<std::uint32_t>(in.varint());
  for (std::uint64_t n = in.count(); n > 0 && in.ok(); --n) {
    index_format::Alternate a;
    a.url = in.string();
    a.title = in.string();
    a.similarity = std::bit_cast<double>(in.fixed(8));
    doc.fields.alternates.push_back(std::move(a));
  }
  doc.fields.authoritative_url = in.string();
  for (std::uint64_t n = in.count(); n > 0 && in.ok(); --n) {
    AnchorName anchor;
    anchor.text = in.string();
    anchor.pages = static_cast<std::uint32_t>(in.varint());
    doc.fields.anchors.push_back(std::move(anchor));
  }
  doc.fields.places = in.list();
  return doc;
}

/// A document this process writes: of one of its records, or sent by the process holding it.
struct DocumentToWrite {
  std::uint32_t record = 0;
  /// Index into OwnDocuments::records, for one of this process's records.
  std::uint32_t own = kNoRecord;
  /// What its holder sent (SentDocument), for another's record.
  std::string_view sent;
  std::uint64_t store_bytes = 0;
};

/// Which documents each process writes. One process: all. P processes writing shards to be
/// searched as shards: every P-th document in file order from the process's number on (document
/// k, counted from 0, in shard k mod P as its document k / P + 1), so that Xapian's interleaving
/// of the shards gives each document its one-process id (format/shards.h, split_index): the
/// holder of a record written elsewhere sends the document (SentDocument). P processes writing
/// shards to be merged: the documents of the process's own chunks, so that compacting the
/// shards in order numbers the documents as one process does. Sets the docid and digests of
/// each document of this process's records; returns the documents this process writes, in file
/// order, with `received` holding the bytes the sent ones view.
Result<std::vector<DocumentToWrite>> documents_to_write(HeldRecords& records, const OwnDocuments& own,
                                                        const IndexPlan& plan, const Collective& processes,
                                                        bool to_merge, std::vector<std::string>& received) {
  const unsigned P = processes.size();
  const bool sending = P > 1 && !to_merge;
  std::vector<DocumentToWrite> documents;
  std::vector<std::string> to_send(P);
  std::string sent;
  for (std::uint32_t i = 0; i < own.records.size(); ++i) {
    const std::uint32_t d = own.records[i];
    PageRecord& r = records[d];
    const std::uint32_t number = own.first_number + i;
    r.docid = number + 1;
    const unsigned writer = sending ? number % P : processes.rank();
    if (writer == processes.rank()) {
      documents.push_back({d, i, {}, r.store_bytes});
      continue;  // its digests when it is written
    }
    const ClusterFields fields = cluster_fields(d, r, own.authoritative_urls[i], plan.clusters, plan.anchor_texts);
    r.digests = IndexWriter::digests(r.terms_source, r.file, fields, plan.writer);
    // The record and its stored bytes (for the writer's order of chunks), then the document.
    codec::put_varint(to_send[writer], d);
    codec::put_varint(to_send[writer], r.store_bytes);
    sent.clear();
    encode_sent_document(r, fields, sent);
    codec::put_string(to_send[writer], sent);
  }
  if (!sending) return documents;
  received = processes.all_to_all_bytes(to_send);
  to_send.clear();
  for (unsigned p = 0; p < P; ++p) {
    if (p == processes.rank()) continue;
    codec::Reader in(received[p]);
    while (!in.at_end()) {
      const std::uint64_t record = in.varint();
      const std::uint64_t store_bytes = in.varint();
      const std::string_view document = in.view();
      if (!in.ok() || record >= records.size()) {
        return Status::corruption("the documents process " + std::to_string(p) + " sent do not decode");
      }
      documents.push_back({static_cast<std::uint32_t>(record), kNoRecord, document, store_bytes});
    }
  }
  std::sort(documents.begin(), documents.end(),
            [](const DocumentToWrite& a, const DocumentToWrite& b) { return a.record < b.record; });
  return documents;
}

/// The databases stage 6 writes a process's documents into before merging them: at most this
/// many. The merge (Xapian's compaction) holds every source open at once, ~4 files each: with a
/// database per chunk of the site, `mpirun -np 2 canon index` on the 100k site in chunks of 24
/// files (5,020 databases a process, as 100M pages on 128 processes would make) failed "Too many
/// open files" at the 4,166th under a limit of 20,000 (the run's store segments open too). Merging
/// 600 sources took 20.5 s where 16 or 60 took 12 (docs/benchmarks.md, "Merging the chunk
/// databases in one pass").
constexpr std::size_t kMaxIndexGroups = 64;

/// The groups of stage 6: `documents` in file order cut into runs of `per_group` (the chunks'
/// files) or more, so that there are at most kMaxIndexGroups; [first[g], first[g + 1]) is group
/// g. None for no document.
std::vector<std::size_t> index_groups(std::size_t documents, std::size_t per_group) {
  per_group = std::max({per_group, std::size_t{1}, (documents + kMaxIndexGroups - 1) / kMaxIndexGroups});
  std::vector<std::size_t> first;
  for (std::size_t i = 0; i < documents; i += per_group) first.push_back(i);
  first.push_back(documents);
  return first;
}

/// Writes `documents` (one group of write_index's) into a new database at `path`: each from its
/// stored document with its cluster fields (this process's records' from `own`, the others' as
/// sent); this process's records get their digests.
Status write_group(const std::string& path, std::span<const DocumentToWrite> documents, const OwnDocuments& own,
                   const StoreReader& store_reader, HeldRecords& records, const IndexPlan& plan) {
  auto writer = IndexWriter::create(path, plan.writer);
  if (!writer.ok()) return writer.status();
  writer.value()->set_static_score_bound(plan.static_score_bound);
  for (const DocumentToWrite& document : documents) {
    SentDocument doc;
    if (document.own != kNoRecord) {  // one of this process's records
      const PageRecord& r = records[document.record];
      doc.fields = cluster_fields(document.record, r, own.authoritative_urls[document.own], plan.clusters,
                                  plan.anchor_texts);
      doc.location = r.store_location;
    } else {
      codec::Reader in(document.sent);
      doc = decode_sent_document(in);
      if (!in.ok() || !in.at_end()) return Status::corruption("a document another process sent does not decode");
    }
    auto page = store_reader.read(doc.location);
    if (!page.ok()) return page.status();
    const std::string& url = document.own != kNoRecord ? records[document.record].url : doc.url;
    if (auto added = writer.value()->add(url, page->document, doc.fields); !added.ok()) return added.status();
    if (document.own != kNoRecord) {
      PageRecord& r = records[document.record];
      r.digests = IndexWriter::digests(r.terms_source, r.file, doc.fields, plan.writer);
    }
  }
  return writer.value()->finish();
}

/// Stage 6, from scratch: each document (is_document) is written once, from its stored
/// document with its cluster fields, into the database of its group (index_groups: the
/// process's documents, not the site's chunks, so the count does not grow with the site or P),
/// the groups on all threads; their databases are then merged into the index's database, or,
/// one of several processes, into the process's shard (documents_to_write; `to_merge`: shards
/// to be merged).
/// Reads only the records this process holds (`parts`), and sets their docids and digests.
Status write_index(const ChunkLayout& chunks, const StoreReader& store_reader, HeldRecords& records,
                   const RecordParts& parts, const IndexPlan& plan, unsigned threads,
                   const index_format::IndexLayout& layout, const Collective& processes, bool to_merge,
                   Progress& progress) {
  auto own = own_documents(records, parts, plan, processes);
  if (!own.ok()) return own.status();
  std::vector<std::string> received;
  auto to_write = documents_to_write(records, own.value(), plan, processes, to_merge, received);
  if (!to_write.ok()) return to_write.status();
  // After the exchanges, which every process takes part in.
  if (Status injected = injected_failure("write-index"); !injected.ok()) return injected;
  const std::vector<DocumentToWrite>& documents = to_write.value();
  // The documents in groups of consecutive ones, a database each: group g is
  // [group_first[g], group_first[g + 1]) of `documents`.
  const std::vector<std::size_t> group_first = index_groups(documents.size(), chunks.files_per_chunk);
  const std::size_t groups = group_first.size() - 1;
  const bool sharded = processes.size() > 1;
  const fs::path group_dir = sharded ? fs::path(chunks.dir.string() + "-" + std::to_string(processes.rank())) : chunks.dir;
  const auto group_path = [&](std::size_t group) { return (group_dir / std::to_string(group)).string(); };
  const fs::path xapian_dir = sharded ? layout.shard(processes.rank() + 1) : layout.xapian();
  std::vector<Status> group_status(groups, Status::ok_status());
  std::atomic<std::size_t> written{0};
  std::mutex progress_mutex;
  std::error_code ec;
  fs::create_directory(group_dir, ec);
  progress.start("index", documents.size());
  // The groups with the most to write go first: a thread that takes a heavy group last keeps
  // the others idle until it ends (a site's chunks can differ widely in what they write, where
  // re-exports and redirects leave some almost nothing). The order changes nothing written: each
  // group has its own database, merged in group order.
  std::vector<std::uint64_t> group_work(groups, 0);
  for (std::size_t group = 0; group < groups; ++group) {
    for (std::size_t i = group_first[group]; i < group_first[group + 1]; ++i) group_work[group] += documents[i].store_bytes + 1;
  }
  const std::vector<std::size_t> order = heaviest_first(group_work);
  parallel_for(groups, threads, [&](std::size_t turn, std::size_t) {
    const std::size_t group = order[turn];
    const std::span<const DocumentToWrite> in_group(documents.data() + group_first[group],
                                                    group_first[group + 1] - group_first[group]);
    group_status[group] = write_group(group_path(group), in_group, own.value(), store_reader, records, plan);
    const std::size_t done = written += group_first[group + 1] - group_first[group];
    if (std::unique_lock lock(progress_mutex, std::try_to_lock); lock) progress.update(done);
  });
  progress.finish();
  if (Status failed = first_error(group_status); !failed.ok()) return failed;
  std::vector<std::string> group_paths;
  for (std::size_t group = 0; group < groups; ++group) group_paths.push_back(group_path(group));
  if (group_paths.empty()) {  // no document at all: an empty database
    auto empty = IndexWriter::create(group_path(0), plan.writer);
    if (!empty.ok()) return empty.status();
    empty.value()->set_static_score_bound(0.0);
    if (Status done = empty.value()->finish(); !done.ok()) return done;
    group_paths.push_back(group_path(0));
  }
  if (plan.documents_written) plan.documents_written();
  if (Status merged = merge_databases(group_paths, xapian_dir.string()); !merged.ok()) return merged;
  fs::remove_all(group_dir, ec);
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
                                  HeldRecords& records, const IndexPlan& plan, const fs::path& xapian_dir,
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
    const std::string_view authoritative_url =
        r.status == PageStatus::kDuplicate ? std::string_view(records[r.authoritative].url) : std::string_view();
    const ClusterFields fields =
        cluster_fields(static_cast<std::uint32_t>(d), r, authoritative_url, plan.clusters, plan.anchor_texts);
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
                      HeldRecords& records, const RecordParts& parts, const IndexPlan& index_plan, unsigned threads,
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
      return sync_spelling(xapian_dir.string());  // update_index closed its writer on return
    }
    if (updates.status().code() != StatusCode::kFailedPrecondition) return updates.status();
    reindex.index_rewritten_because = updates.status().message();
    std::error_code ec;
    fs::remove_all(xapian_dir, ec);
  }
  if (Status written = write_index(chunks, store_reader, records, parts, index_plan, threads, layout, processes, to_merge,
                                   progress);
      !written.ok()) {
    return written;
  }
  return sync_spelling((processes.size() > 1 ? layout.shard(processes.rank() + 1) : xapian_dir).string());
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
                          HeldRecords& records, const RecordParts& parts, const IndexPlan& index_plan, unsigned threads,
                          const index_format::IndexLayout& layout, const Collective& processes, bool to_merge,
                          Progress& progress, ReindexSummary& reindex) {
  const Status written = write_database(previous, chunks, store_reader, records, parts, index_plan, threads, layout, processes,
                                        to_merge, progress, reindex);
  if (Status all = status_of_all_processes(written, processes, "write its shard"); !all.ok()) return all;
  if (processes.size() == 1 || processes.rank() != 0) return Status::ok_status();
  return join_shards(layout, processes.size(), to_merge);
}

}  // namespace canon::indexer::detail
