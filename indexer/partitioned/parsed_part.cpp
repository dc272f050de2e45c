/// @file parsed_part.cpp
/// @brief A part of a site as the parse made it: made, encoded, saved and loaded, merged.
#include "indexer/partitioned/parsed_part.h"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <utility>

#include "common/byte_codec.h"
#include "common/file_io.h"
#include "common/file_system.h"
#include "common/parallel.h"
#include "urls/url.h"

namespace canon::indexer::detail {
namespace fs = std::filesystem;

namespace {

/// The first bytes of an encoded part, then its format version.
constexpr std::string_view kPartMagic = "canon-part";
constexpr std::uint64_t kPartVersion = 2;  // 2: the catalog may be left out

/// Files taken over from one part, a block at a time (parallel_for's unit).
constexpr std::size_t kTakeOverBlock = 256;

}  // namespace

ParsedPart make_parsed_part(const HeldRecords& records, std::uint32_t first_file, std::uint32_t end_file,
                            const RunStore& store, std::span<const std::string_view> urls,
                            std::span<const std::string_view> anchors, const dedup::Detector& detector,
                            PartContent content) {
  ParsedPart part;
  part.first_file = first_file;
  part.end_file = end_file;
  part.detector_state = detector.encode_added(first_file, end_file);
  if (content == PartContent::kForTakeOver && part.detector_state) return part;
  store::StoreCatalog& catalog = part.catalog.emplace();
  catalog.segments = store.names;
  std::vector<std::uint32_t> same_segment(store.names.size());
  std::iota(same_segment.begin(), same_segment.end(), 0);
  PartTable part_urls(urls, catalog.urls);
  PartTable part_anchors(anchors, catalog.anchors);
  catalog.files.reserve(end_file - first_file);
  const std::vector<std::uint32_t> none;
  for (std::uint32_t i = first_file; i < end_file; ++i) {
    const PageRecord& r = records[i];
    if (content == PartContent::kForTakeOver) {
      catalog.files.push_back(catalog_entry(r, none, none, same_segment));
      continue;
    }
    catalog.files.push_back(catalog_entry(r, part_urls.renumber(r.links), part_anchors.renumber(r.link_anchors),
                                          same_segment));
  }
  return part;
}

std::string encode_parsed_part(const ParsedPart& part) {
  std::string out(kPartMagic);
  codec::put_varint(out, kPartVersion);
  codec::put_varint(out, part.first_file);
  codec::put_varint(out, part.end_file);
  codec::put_varint(out, part.catalog.has_value() ? 1 : 0);
  if (part.catalog) codec::put_string(out, store::encode_store_catalog(*part.catalog));
  codec::put_varint(out, part.detector_state.has_value() ? 1 : 0);
  if (part.detector_state) codec::put_string(out, *part.detector_state);
  return out;
}

Result<ParsedPart> decode_parsed_part(std::string_view bytes, const std::string& where) {
  if (!bytes.starts_with(kPartMagic)) return Status::corruption(where + " is not a parsed part");
  codec::Reader in(bytes.substr(kPartMagic.size()));
  if (const std::uint64_t version = in.varint(); in.ok() && version != kPartVersion) {
    return Status::error(where + " is a parsed part of format " + std::to_string(version) + ", not " +
                             std::to_string(kPartVersion),
                         StatusCode::kFailedPrecondition);
  }
  ParsedPart part;
  const std::uint64_t first = in.varint(), end = in.varint();
  const std::uint64_t has_catalog = in.varint();
  std::string_view catalog;  // decoded from `bytes` itself, not a copy
  if (has_catalog == 1) catalog = in.view();
  const std::uint64_t has_state = in.varint();
  if (has_state == 1) part.detector_state = in.string();
  if (!in.ok() || !in.at_end() || has_catalog > 1 || has_state > 1 || first > end || end > UINT32_MAX) {
    return Status::corruption(where + " is cut short or damaged");
  }
  part.first_file = static_cast<std::uint32_t>(first);
  part.end_file = static_cast<std::uint32_t>(end);
  if (has_catalog == 0) {
    if (has_state == 0 && first != end) {
      return Status::corruption(where + " holds neither entries nor a detector state for its " +
                                std::to_string(end - first) + " files");
    }
    return part;
  }
  auto decoded = store::decode_store_catalog(catalog, where);
  if (!decoded.ok()) return decoded.status();
  part.catalog = std::move(decoded).value();
  if (part.catalog->files.size() != end - first) {
    return Status::corruption(where + " holds " + std::to_string(part.catalog->files.size()) + " files, its range " +
                              std::to_string(end - first));
  }
  return part;
}

Status save_parsed_part(const fs::path& path, const ParsedPart& part) {
  return io::write_whole_file(path, encode_parsed_part(part));
}

Result<ParsedPart> load_parsed_part(const fs::path& path) {
  auto bytes = read_file(path);
  if (!bytes.ok()) return Status::error(path.string() + ": " + bytes.status().message(), bytes.status().code());
  return decode_parsed_part(bytes.value(), path.string());
}

DetectorPartLoader::DetectorPartLoader(const ParseContext& run, const RunStore& store, std::string base_url)
    : run_(run), segments_(store.names.size()), base_url_(std::move(base_url)) {}

Status DetectorPartLoader::take(ParsedPart&& part, unsigned threads) {
  const bool add_pages = !part.detector_state.has_value();
  if (part.detector_state) {
    if (Status taken = run_.detector.add_encoded(*part.detector_state); !taken.ok()) {
      return Status::corruption("the detector state of files " + std::to_string(part.first_file) + " to " +
                                std::to_string(part.end_file) + ": " + taken.message());
    }
    std::string().swap(*part.detector_state);  // taken: not held while the files are
  }
  const std::size_t count = part.end_file - part.first_file;
  const std::string where = "the part of files " + std::to_string(part.first_file) + " to " + std::to_string(part.end_file);
  if (!part.catalog) {
    if (add_pages && count != 0) return Status::corruption(where + " has neither entries nor a detector state");
    return Status::ok_status();
  }
  const std::vector<store::CatalogEntry>& files = part.catalog->files;
  if (files.size() != count) return Status::corruption(where + " does not have an entry a file");
  // A file whose page went to the detector has a stored page, and only such a file (parse_file,
  // reuse_file): its entry's place is the page's in the run's store (the parts name the run's
  // own segments).
  const std::size_t blocks = (count + kTakeOverBlock - 1) / kTakeOverBlock;
  std::vector<Status> block_status(blocks, Status::ok_status());
  parallel_for(blocks, threads, [&](std::size_t b, std::size_t) {
    const std::size_t end = std::min(count, (b + 1) * kTakeOverBlock);
    for (std::size_t k = b * kTakeOverBlock; k < end && block_status[b].ok(); ++k) {
      const store::CatalogEntry& e = files[k];
      if (!e.store_location) continue;
      if (e.store_location->segment >= segments_) {
        block_status[b] = Status::corruption(where + ": " + e.path + "'s page is in no segment of the run");
        return;
      }
      if (!add_pages) continue;
      const std::size_t i = part.first_file + k;
      // A detector without a state to send takes the page itself, as the parse gave it.
      auto page = run_.store_reader.read(*e.store_location);
      auto url = urls::file_url(base_url_, e.path);
      if (!page.ok() || !url.ok()) {
        block_status[b] = page.ok() ? url.status() : page.status();
        return;
      }
      run_.detector.add(static_cast<std::uint32_t>(i), page->dedup_view(url.value()));
    }
  });
  return first_error(block_status);
}

}  // namespace canon::indexer::detail
