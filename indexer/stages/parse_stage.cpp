/// @file parse_stage.cpp
/// @brief Each file into its page record, the near-duplicate detector and the run's page store.
#include "indexer/stages/parse_stage.h"

#include "common/byte_codec.h"

#include <algorithm>
#include <atomic>
#include <mutex>

#include "common/file_io.h"
#include "dedup/authority/page_entries.h"
#include "html/page_encoding.h"
#include "indexer/input/page_bytes.h"
#include "indexer/reuse/previous_build.h"
#include "indexer/partitioned/record_holders.h"
#include "store/store_catalog.h"
#include "urls/url.h"

namespace canon::indexer::detail {
namespace fs = std::filesystem;

Status first_error(const std::vector<Status>& statuses) {
  for (const Status& status : statuses) {
    if (!status.ok()) return status;
  }
  return Status::ok_status();
}

Result<ParsedFile> read_page(const SiteFile& file, const std::string& url, const html::PageLimits& limits) {
  auto read = read_page_bytes(file.absolute_path, limits);
  if (!read.ok()) return Status::error("cannot read file: " + read.status().message());
  FilePrefix& file_bytes = read.value();
  const std::uint64_t read_hash = content_hash(file_bytes.bytes);
  const std::size_t read_bytes = file_bytes.bytes.size();
  const bool cut = file_bytes.cut();
  if (Status readable = html::check_page_bytes(file_bytes.bytes); !readable.ok()) return readable;
  // The page as a browser reads it (its encoding declared or detected), then what it holds.
  auto decoded = html::decode_page(std::move(file_bytes.bytes), file.content_type);
  if (!decoded.ok()) return decoded.status();
  // check_page_bytes let NUL bytes through for UTF-16 alone (its ASCII holds them); only there
  // can the text hold a NUL character.
  if (decoded->encoding.starts_with("UTF-16") && decoded->utf8.find('\0') != std::string::npos) {
    return Status::error("binary content (a NUL character)");
  }
  ParsedFile parsed{html::extract_page(decoded->utf8, url, limits), file_bytes.stamp, read_hash, {}, {}, {}};
  // What the page lists is all that is kept of its main content's hrefs: the site sample holds
  // its pages until the parse takes them, and the hrefs were a sixth of what it held on
  // python3.11-doc (docs/real-sites.md, "Where python3.11-doc's memory goes").
  parsed.listed = dedup::listed_entries(parsed.page.main_link_targets);
  parsed.page.main_link_targets = {};
  if (decoded->encoding != "UTF-8") {
    parsed.encoding = decoded->encoding;
    parsed.encoding_source = html::encoding_source_name(decoded->source);
  }
  if (cut) {
    parsed.page.cuts.insert(parsed.page.cuts.begin(), "size: " + std::to_string(file_bytes.stamp.size) + " bytes, the first " +
                                                          std::to_string(read_bytes) + " read");
  }
  return parsed;
}

namespace {

/// Calls add(same_site, anchor_text) for each of `links`: the detector keeps the anchors of
/// links to the page's own host apart from the others (it knows no URLs).
template <typename Links, typename Add>
void for_each_anchor_by_host(Links& links, const std::string& url, Add add) {
  const std::string host = urls::url_host(url);
  for (auto& link : links) add(urls::url_host(link.url) == host, link.anchor_text);
}

}  // namespace

dedup::DedupDocument dedup_document(const html::ExtractedPage& page, const std::string& url) {
  dedup::DedupDocument doc{url, page.title, page.main_text};
  doc.headings = page.headings;
  doc.main_heading = page.main_heading;
  doc.meta_keywords = page.meta_keywords;
  doc.meta_description = page.meta_description;
  for_each_anchor_by_host(page.links, url, [&doc](bool same_site, const std::string& text) {
    (same_site ? doc.same_site_anchors : doc.other_site_anchors).push_back(text);
  });
  doc.cited_place = page.cited_place;
  return doc;
}

namespace {

/// What the run keeps of a parsed page (page_store.h): its texts for the detector, and its
/// document prepared from them. Takes the page's texts over.
store::StoredPage stored_page(html::ExtractedPage&& page, const std::string& url, const FileStamp& stamp) {
  PageContent content{url, std::move(page.title), std::move(page.meta_description), std::move(page.meta_keywords),
                      std::move(page.headings), std::move(page.main_heading), std::move(page.main_text), stamp,
                      std::move(page.breadcrumbs), std::move(page.language), std::move(page.sections)};
  store::StoredPage stored;
  stored.document = IndexWriter::prepare(content);
  stored.title = std::move(content.title);
  stored.text = std::move(content.main_text);
  stored.headings = std::move(content.headings);
  stored.main_heading = std::move(content.main_heading);
  stored.meta_keywords = std::move(content.meta_keywords);
  stored.meta_description = std::move(content.meta_description);
  for_each_anchor_by_host(page.links, url, [&stored](bool same_site, std::string& text) {
    (same_site ? stored.same_site_anchors : stored.other_site_anchors).push_back(std::move(text));
  });
  stored.cited_place = std::move(page.cited_place);
  return stored;
}

/// Fills `r` with what the walk says of file i; false when that is all (the file has no URL of
/// its own: skipped).
bool plan_record(const SitePlan& plan, std::size_t i, PageRecord& r) {
  const SiteFile file = plan.file(i);
  r.path = file.relative_path;
  r.archive_record = file.record;
  r.status = PageStatus::kSkipped;
  auto url = plan.url(i);
  if (!url.ok()) {
    r.reason = "no URL for this path: " + url.status().message();
    return false;
  }
  r.url = std::move(url).value();
  if (!plan.serves_url(i)) {
    r.reason = "same URL as " + std::string(plan.url_owner_path(i));
    return false;
  }
  return true;
}

/// The status a parsed page starts with: a redirect (neither a node nor a document), skipped for
/// robots noindex (a node, not a document), or indexed until its cluster says otherwise.
/// True when the page goes to the detector.
bool set_parsed_status(PageRecord& r) {
  if (r.refresh_url) {
    r.status = PageStatus::kRedirect;
    return false;
  }
  if (r.robots_noindex) {
    r.reason = "robots meta says noindex";
    return false;
  }
  r.status = PageStatus::kIndexed;
  return true;
}

/// What the catalog keeps of `file` (its page is left for the store; its listed entries are
/// moved out).
store::PageFacts page_facts(ParsedFile& file) {
  const html::ExtractedPage& page = file.page;
  store::PageFacts facts;
  facts.file = file.stamp;
  facts.content_hash = file.content_hash;
  facts.cuts = page.cuts;
  facts.warnings = page.warnings;
  facts.encoding = std::move(file.encoding);
  facts.encoding_source = std::move(file.encoding_source);
  facts.title = page.title;
  facts.heading = page.main_heading;
  facts.defined = dedup::defined_terms(page.definition_ids);
  facts.listed = std::move(file.listed);
  facts.robots_noindex = page.robots_noindex;
  facts.canonical_url = page.canonical_url;
  facts.refresh_url = page.refresh_url;
  return facts;
}

/// Parses file i into `r` and, when it is a page to index, hands it to the detector (document
/// i) and appends it to `store` (segment `segment` of the run). A page that cannot be parsed is
/// recorded as skipped; only a failure to write the store is an error.
Status parse_file(ParseContext& run, std::size_t i, store::PageStoreWriter& store, std::uint32_t segment, PageRecord& r) {
  auto file = run.sample.take(run.plan, i);
  if (!file.ok()) {
    r.reason = file.status().message();
    return Status::ok_status();
  }
  html::ExtractedPage* page = &file->page;
  r.parsed = true;
  r.facts() = page_facts(file.value());
  if (!r.refresh_url && !page->robots_nofollow) {
    std::vector<std::string> link_urls;
    std::vector<std::string> anchors;
    for (const html::PageLink& link : page->links) {
      if (link.nofollow) continue;
      link_urls.push_back(urls::strip_index_page(link.url));
      anchors.push_back(link.to_place ? place_key(link.anchor_text) : anchor_key(link.anchor_text));
    }
    r.links = run.url_ids.ids(link_urls);
    r.link_anchors = intern_anchor_keys(anchors, run.anchor_ids);
  }
  if (!set_parsed_status(r)) return Status::ok_status();
  const store::StoredPage stored = stored_page(std::move(*page), r.url, file->stamp);
  run.detector.add(static_cast<std::uint32_t>(i), stored.dedup_view(r.url));
  r.in_dedup = true;
  r.terms_source = IndexWriter::terms_source(r.url, r.content_hash);
  auto offset = store.append(stored);
  if (!offset.ok()) return offset.status();
  r.store_location = store::StoreLocation{segment, offset.value()};
  r.store_bytes = store.bytes() - offset.value();
  return Status::ok_status();
}

/// Takes unchanged file i over from catalog entry `e` into `r`, as parse_file would have made
/// it, without parsing the file: its page is read from the store for the detector. A file whose
/// stamp moved gets its document restamped and appended to `store` (segment `segment`).
Status reuse_file(ParseContext& run, std::size_t i, const store::CatalogEntry& e, store::PageStoreWriter* store,
                  std::uint32_t segment, PageRecord& r) {
  const std::optional<FileStamp>& new_stamp = run.reuse.restamped[i];
  r.parsed = true;
  r.facts() = e.facts();
  if (new_stamp) r.file = *new_stamp;  // the same bytes, written again or touched
  if (!e.links.empty()) {
    std::vector<std::string> link_urls;
    link_urls.reserve(e.links.size());
    for (const std::uint32_t link : e.links) link_urls.push_back(run.reuse.previous->catalog.urls[link]);
    r.links = run.url_ids.ids(link_urls);
    std::vector<std::string> anchors;
    anchors.reserve(e.link_anchors.size());
    for (const std::uint32_t anchor : e.link_anchors) {
      anchors.push_back(anchor == kNoRecord ? std::string() : run.reuse.previous->catalog.anchors[anchor]);
    }
    r.link_anchors = intern_anchor_keys(anchors, run.anchor_ids);
  }
  if (!set_parsed_status(r)) return Status::ok_status();
  if (!e.store_location) return Status::corruption("the page store catalog has no stored page for " + e.path);
  r.store_location = run.reuse.location(e);
  r.store_bytes = e.store_bytes;
  const bool moves = new_stamp || run.reuse.compact_old[e.store_location->segment];  // a new record, in this run's segment
  r.in_dedup = true;
  r.terms_source = IndexWriter::terms_source(r.url, r.content_hash);
  if (!moves && !run.add_taken_over) return Status::ok_status();  // nothing to read the page for
  auto page = run.store_reader.read(r.store_location);
  if (!page.ok()) return page.status();
  if (new_stamp) {
    auto document = IndexWriter::restamp(page->document, *new_stamp);
    if (!document.ok()) return document.status();
    page->document = std::move(document).value();
  }
  if (moves) {
    if (store == nullptr) return Status::error("no page store segment to write " + e.path + " to");
    auto offset = store->append(page.value());
    if (!offset.ok()) return offset.status();
    r.store_location = store::StoreLocation{segment, offset.value()};
    r.store_bytes = store->bytes() - offset.value();
  }
  if (run.add_taken_over) run.detector.add(static_cast<std::uint32_t>(i), page->dedup_view(r.url));
  return Status::ok_status();
}

}  // namespace

Status record_file(ParseContext& run, std::size_t i, store::PageStoreWriter* store, std::uint32_t segment,
                   PageRecord& r) {
  if (!plan_record(run.plan, i, r)) return Status::ok_status();
  if (const std::optional<std::string> redirect = run.plan.file(i).redirect) {
    // An HTTP redirect of a crawl: nothing to read.
    r.parsed = true;
    r.refresh_url = *redirect;
    r.status = PageStatus::kRedirect;
    return Status::ok_status();
  }
  if (run.by_rule.marked[i]) {
    // Not read: a redirect to the URL the rules give, until its cluster is known.
    r.parsed = true;
    const UrlRuleDuplicates::Rewrite& rewrite = run.by_rule.rewrites.at(i);
    r.url_rule = rewrite.rules;
    r.refresh_url = rewrite.target;
    r.status = PageStatus::kRedirect;
    return Status::ok_status();
  }
  if (const store::CatalogEntry* entry = run.reuse.entry(i); entry != nullptr) {
    if (!entry->unreadable.empty()) {  // another process of a partitioned build could not read it
      r.reason = entry->unreadable;
      return Status::ok_status();
    }
    return reuse_file(run, i, *entry, store, segment, r);
  }
  if (store == nullptr) return Status::error("no page store segment to parse " + r.path + " into");
  return parse_file(run, i, *store, segment, r);
}

std::vector<std::uint64_t> chunk_work(const ChunkLayout& chunks, const SitePlan& plan, const Reuse& reuse) {
  std::vector<std::uint64_t> work(chunks.count(), 0);
  for (std::size_t chunk = 0; chunk < chunks.count(); ++chunk) {
    for (std::size_t i = chunks.first(chunk); i < chunks.end(chunk); ++i) {
      if (!plan.has(i)) continue;  // another process's part
      work[chunk] += reuse.entry(i) == nullptr ? kParseFileCost + plan.file_size(i) : 1;
    }
  }
  return work;
}

Status share_chunks(ChunkLayout& chunks, const std::vector<std::uint64_t>& work, const Collective& processes) {
  const unsigned count = processes.size();
  std::string cut;
  if (processes.rank() == 0) {
    // Process p starts at the first chunk before which at least p / P of the work lies.
    std::uint64_t total = 0;
    for (const std::uint64_t w : work) total += w;
    std::size_t chunk = 0;
    std::uint64_t before = 0;  // the work of chunks [0, chunk)
    for (unsigned p = 0; p < count; ++p) {
      const auto share = static_cast<std::uint64_t>(static_cast<long double>(total) * p / count);
      while (chunk < work.size() && before < share) before += work[chunk++];
      codec::put_varint(cut, chunk);
    }
  }
  const std::vector<std::string> process_cuts = processes.all_gather_bytes(cut);
  codec::Reader in(process_cuts[0]);  // the first process's
  std::vector<std::size_t> first;
  for (unsigned p = 0; p < count; ++p) {
    const std::uint64_t chunk = in.varint();
    if (!in.ok() || chunk > chunks.count() || (!first.empty() && chunk < first.back())) break;
    first.push_back(static_cast<std::size_t>(chunk));
  }
  if (first.size() != count || !in.at_end() || (count > 0 && first[0] != 0)) {
    return Status::corruption("process 0 cut the site's chunks among the processes in a way that does not decode");
  }
  first.push_back(chunks.count());
  chunks.process_first = std::move(first);
  return Status::ok_status();
}

Result<HeldRecords> parse_site(ParseContext& run, const ChunkLayout& chunks, const RunStore& store,
                               const std::string& base_url, unsigned threads, const std::string& stage,
                               const RecordParts& parts, const Collective& processes, Progress& progress) {
  const unsigned me = processes.rank();
  HeldRecords records(parts.first(me), parts.records(),
                      std::vector<PageRecord>(parts.end(me) - parts.first(me)));
  std::vector<Status> chunk_status(chunks.count(), Status::ok_status());
  std::atomic<std::size_t> parsed_files{0};
  std::mutex progress_mutex;
  progress.start(stage, run.plan.files.size());
  // The chunks with the most bytes to parse go first, so that the threads end together: in file
  // order, a heavy chunk taken last keeps one thread busy alone. Which chunk a file is in, and so
  // everything written, does not depend on the order.
  const std::vector<std::size_t> order = heaviest_first(chunk_work(chunks, run.plan, run.reuse));
  parallel_for(chunks.count(), threads, [&](std::size_t turn, std::size_t) {
    const std::size_t chunk = order[turn];
    if (chunks.owner(chunk) != processes.rank()) return;  // another's part
    const std::uint32_t segment = store.segment_of_chunk(chunk);
    auto writer = store::PageStoreWriter::create(store.path(segment));
    if (!writer.ok()) {
      chunk_status[chunk] = writer.status();
      return;
    }
    for (std::size_t i = chunks.first(chunk); i < chunks.end(chunk); ++i) {
      const Status done = record_file(run, i, writer.value().get(), segment, records[i]);
      if (!done.ok()) {
        chunk_status[chunk] = done;
        return;
      }
      const std::size_t count = ++parsed_files;
      if (std::unique_lock lock(progress_mutex, std::try_to_lock); lock) progress.update(count);
    }
    chunk_status[chunk] = writer.value()->finish();
  });
  if (Status failed = first_error(chunk_status); !failed.ok()) return failed;
  progress.finish();
  // The records of the skipped paths follow the files' (the last process holds them).
  for (std::size_t k = 0; k < run.plan.skipped.size(); ++k) {
    const std::size_t i = run.plan.file_count() + k;
    if (!records.holds(i)) continue;
    const SkippedPath& skipped = run.plan.skipped[k];
    PageRecord& r = records[i];
    r.path = skipped.relative_path;
    if (skipped.url) r.url = *skipped.url;
    else if (auto url = urls::file_url(base_url, r.path); url.ok()) r.url = url.value();
    r.reason = skipped.reason;
  }
  return records;
}

}  // namespace canon::indexer::detail
