/// @file store_catalog.cpp
/// @brief The catalog's bytes: the magic line, the format version (u32), the payload
/// (common/byte_codec.h) and the XXH3-64 of all that precedes it (u64), little-endian. The file is
/// read and written whole: it is small next to the pages it describes (a few dozen bytes and
/// the link ids per file); a run writes it by parts, entry by entry (write_catalog_part, then
/// write_store_catalog_of_parts), so that a large site's entries are not held whole beside it.
#include "store/store_catalog.h"

#include <memory>

#include <xxhash.h>

#include "common/file_io.h"
#include "common/file_system.h"
#include "common/byte_codec.h"

namespace canon::store {
namespace {

using namespace codec;

constexpr std::string_view kMagic = "canon page store catalog\n";

// The bits of an entry's flags (the page's own flags are its facts': page_facts.cpp).
constexpr std::uint64_t kHasStored = 1;
constexpr std::uint64_t kUnreadable = 2;

void put_entry(std::string& out, const CatalogEntry& e) {
  put_string(out, e.path);
  put_varint(out, (e.store_location ? kHasStored : 0) | (e.unreadable.empty() ? 0 : kUnreadable));
  if (!e.unreadable.empty()) put_string(out, e.unreadable);
  encode_page_facts(e, out);
  put_varint(out, e.links.size());
  for (const std::uint32_t link : e.links) put_varint(out, link);
  put_varint(out, e.link_anchors.size());  // each as its index + 1, 0 for none
  for (const std::uint32_t anchor : e.link_anchors) {
    put_varint(out, anchor == UINT32_MAX ? 0 : std::uint64_t{anchor} + 1);
  }
  if (e.store_location) {
    put_varint(out, e.store_location->segment);
    put_varint(out, e.store_location->offset);
    put_varint(out, e.store_bytes);
  }
  put_varint(out, e.docid);
  put_fixed(out, e.terms_digest, 8);
  put_fixed(out, e.fields_digest, 8);
  put_fixed(out, e.data_digest, 8);
}

/// The sizes of the tables a part's entries refer to, and where the part's URLs and texts start
/// in the joined catalog's.
struct PartTables {
  std::size_t urls = 0, anchors = 0, segments = 0;
  std::uint32_t url_base = 0, anchor_base = 0;
};

CatalogEntry get_entry(Reader& in, const PartTables& tables) {
  CatalogEntry e;
  e.path = in.string();
  const std::uint64_t flags = in.varint();
  if (flags & ~(kHasStored | kUnreadable)) return in.mark_bad(), e;
  if (flags & kUnreadable) e.unreadable = in.string();
  e.facts() = decode_page_facts(in);
  const std::uint64_t links = in.count();
  e.links.reserve(links);
  for (std::uint64_t k = 0; k < links && in.ok(); ++k) {
    const std::uint64_t link = in.varint();
    if (link >= tables.urls) return in.mark_bad(), e;
    e.links.push_back(static_cast<std::uint32_t>(link) + tables.url_base);
  }
  const std::uint64_t anchors = in.count();
  if (anchors != 0 && anchors != e.links.size()) return in.mark_bad(), e;
  e.link_anchors.reserve(anchors);
  for (std::uint64_t k = 0; k < anchors && in.ok(); ++k) {
    const std::uint64_t anchor = in.varint();
    if (anchor > tables.anchors) return in.mark_bad(), e;
    e.link_anchors.push_back(anchor == 0 ? UINT32_MAX : static_cast<std::uint32_t>(anchor - 1) + tables.anchor_base);
  }
  if (flags & kHasStored) {
    const std::uint64_t segment = in.varint();
    const std::uint64_t offset = in.varint();
    if (segment >= tables.segments) return in.mark_bad(), e;
    e.store_location = StoreLocation{static_cast<std::uint32_t>(segment), offset};
    e.store_bytes = in.varint();
  }
  const std::uint64_t docid = in.varint();
  if (docid > UINT32_MAX) return in.mark_bad(), e;
  e.docid = static_cast<std::uint32_t>(docid);
  e.terms_digest = in.fixed(8);
  e.fields_digest = in.fixed(8);
  e.data_digest = in.fixed(8);
  return e;
}

}  // namespace

namespace {

/// The catalog's bytes before its parts: everything but `catalog`'s URLs, texts and files, then
/// the number of parts.
std::string encode_head(const StoreCatalog& catalog, std::size_t parts) {
  std::string out(kMagic);
  put_fixed(out, kStoreCatalogVersion, 4);
  put_varint(out, catalog.fingerprint.size());
  for (const auto& [name, value] : catalog.fingerprint) {
    put_string(out, name);
    put_string(out, value);
  }
  put_fixed(out, static_cast<std::uint64_t>(catalog.run_started_ns), 8);
  put_list(out, catalog.segments);
  put_varint(out, catalog.next_segment);
  put_varint(out, parts);
  return out;
}

/// A part's bytes before its entries: its tables, then the number of entries.
void put_part_head(std::string& out, const std::vector<std::string>& urls, const std::vector<std::string>& anchors,
                   std::size_t file_count) {
  put_list(out, urls);
  put_list(out, anchors);
  put_varint(out, file_count);
}

/// Bytes appended to a file a MiB at a time, with the XXH3-64 of all of them.
class HashedWriter {
public:
  explicit HashedWriter(const std::filesystem::path& path) : path_(path) {
    auto file = io::file_system().create(path);
    if (file.ok()) file_ = std::move(file).value();
    else status_ = file.status();
    if (status_.ok() && (!hash_ || XXH3_64bits_reset(hash_.get()) != XXH_OK)) {
      status_ = Status::error("cannot start a hash (out of memory)");
    }
  }
  /// The bytes to append to (flushed by maybe_flush and close).
  std::string& buffer() { return buffer_; }
  void maybe_flush() {
    if (buffer_.size() >= (std::size_t{1} << 20)) flush();
  }
  /// Appends the hash of everything written when `with_hash`, then closes the file.
  Status close(bool with_hash) {
    flush();
    if (with_hash && status_.ok()) {
      put_fixed(buffer_, XXH3_64bits_digest(hash_.get()), 8);
      status_ = file_->append(buffer_);
    }
    if (file_ != nullptr) {
      if (Status closed = file_->close(); status_.ok()) status_ = closed;
    }
    if (!status_.ok()) return Status::io_error("cannot write '" + path_.string() + "': " + status_.message());
    return Status::ok_status();
  }

private:
  void flush() {
    if (!status_.ok()) return buffer_.clear();
    XXH3_64bits_update(hash_.get(), buffer_.data(), buffer_.size());
    status_ = file_->append(buffer_);
    buffer_.clear();
  }
  std::filesystem::path path_;
  std::unique_ptr<io::WritableFile> file_;
  std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> hash_{XXH3_createState(), &XXH3_freeState};
  std::string buffer_;
  Status status_ = Status::ok_status();
};

}  // namespace

std::string encode_store_catalog(const StoreCatalog& catalog) {
  std::string out = encode_head(catalog, 1);
  put_part_head(out, catalog.urls, catalog.anchors, catalog.files.size());
  for (const CatalogEntry& e : catalog.files) put_entry(out, e);
  put_fixed(out, XXH3_64bits(out.data(), out.size()), 8);
  return out;
}

Status write_catalog_part(const std::filesystem::path& path, const std::vector<std::string>& urls,
                          const std::vector<std::string>& anchors, std::size_t file_count,
                          const std::function<CatalogEntry(std::size_t)>& file_at) {
  HashedWriter out(path);
  put_part_head(out.buffer(), urls, anchors, file_count);
  for (std::size_t i = 0; i < file_count; ++i) {
    put_entry(out.buffer(), file_at(i));
    out.maybe_flush();
  }
  return out.close(false);
}

Status write_store_catalog_of_parts(const std::filesystem::path& path, const StoreCatalog& head,
                                    const std::vector<std::filesystem::path>& part_paths) {
  HashedWriter out(path);
  out.buffer() = encode_head(head, part_paths.size());
  for (const std::filesystem::path& part : part_paths) {
    auto in = io::file_system().open(part);
    if (!in.ok()) return Status::io_error("cannot read '" + part.string() + "': " + in.status().message());
    std::string block(std::size_t{1} << 20, '\0');
    for (std::uint64_t offset = 0;;) {
      auto read = in.value()->read_some(offset, block.data(), block.size());
      if (!read.ok()) return Status::io_error("cannot read '" + part.string() + "': " + read.status().message());
      if (read.value() == 0) break;
      out.buffer().append(block, 0, read.value());
      out.maybe_flush();
      offset += read.value();
    }
  }
  return out.close(true);
}

Status write_store_catalog(const std::filesystem::path& path, const StoreCatalog& catalog) {
  const Status written = io::write_whole_file(path, encode_store_catalog(catalog));
  if (!written.ok()) return Status::io_error("cannot write '" + path.string() + "': " + written.message());
  return Status::ok_status();
}

Result<StoreCatalog> read_store_catalog(const std::filesystem::path& path) {
  auto bytes = read_file(path);
  if (!bytes.ok()) {
    if (bytes.status().code() == StatusCode::kNotFound) return Status::not_found("no page store catalog");
    return Status::io_error("cannot read '" + path.string() + "': " + bytes.status().message());
  }
  return decode_store_catalog(bytes.value(), path.string());
}

Result<StoreCatalog> decode_store_catalog(std::string_view all, const std::string& where) {
  const Status damaged = Status::corruption("the page store catalog '" + where + "' is damaged");
  if (all.size() < kMagic.size() + 4 + 8 || !all.starts_with(kMagic)) return damaged;
  const std::uint32_t version = static_cast<std::uint32_t>(get_fixed(all.data() + kMagic.size(), 4));
  if (version != kStoreCatalogVersion) {
    return Status::failed_precondition("page store is of format " + std::to_string(version) + ", this canon's is " +
                                       std::to_string(kStoreCatalogVersion));
  }
  const std::size_t body_end = all.size() - 8;
  if (XXH3_64bits(all.data(), body_end) != get_fixed(all.data() + body_end, 8)) return damaged;
  Reader in(all.substr(kMagic.size() + 4, body_end - kMagic.size() - 4));
  StoreCatalog catalog;
  const std::uint64_t settings = in.count();
  for (std::uint64_t k = 0; k < settings && in.ok(); ++k) {
    std::string name = in.string();
    catalog.fingerprint.emplace_back(std::move(name), in.string());
  }
  catalog.run_started_ns = static_cast<std::int64_t>(in.fixed(8));
  catalog.segments = in.list();
  catalog.next_segment = in.varint();
  const std::uint64_t parts = in.count();
  for (std::uint64_t part = 0; part < parts && in.ok(); ++part) {
    PartTables tables;
    tables.url_base = static_cast<std::uint32_t>(catalog.urls.size());
    tables.anchor_base = static_cast<std::uint32_t>(catalog.anchors.size());
    for (std::string& url : in.list()) catalog.urls.push_back(std::move(url));
    for (std::string& anchor : in.list()) catalog.anchors.push_back(std::move(anchor));
    if (catalog.urls.size() >= UINT32_MAX || catalog.anchors.size() >= UINT32_MAX) return damaged;
    tables.urls = catalog.urls.size() - tables.url_base;
    tables.anchors = catalog.anchors.size() - tables.anchor_base;
    tables.segments = catalog.segments.size();
    const std::uint64_t files = in.count();
    catalog.files.reserve(catalog.files.size() + files);
    for (std::uint64_t k = 0; k < files && in.ok(); ++k) catalog.files.push_back(get_entry(in, tables));
  }
  if (!in.ok() || !in.at_end()) return damaged;
  return catalog;
}

}  // namespace canon::store
