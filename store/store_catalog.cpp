/// @file store_catalog.cpp
/// @brief The catalog's bytes: the magic line, the format version (u32), the payload
/// (common/byte_codec.h) and the XXH3-64 of all that precedes it (u64), little-endian. The file is
/// read and written whole: it is small next to the pages it describes (a few dozen bytes and
/// the link ids per file); a run writes it entry by entry (write_store_catalog with file_at),
/// so that a large site's entries are not held whole beside it.
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

CatalogEntry get_entry(Reader& in, const StoreCatalog& catalog) {
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
    if (link >= catalog.urls.size()) return in.mark_bad(), e;
    e.links.push_back(static_cast<std::uint32_t>(link));
  }
  const std::uint64_t anchors = in.count();
  if (anchors != 0 && anchors != e.links.size()) return in.mark_bad(), e;
  e.link_anchors.reserve(anchors);
  for (std::uint64_t k = 0; k < anchors && in.ok(); ++k) {
    const std::uint64_t anchor = in.varint();
    if (anchor > catalog.anchors.size()) return in.mark_bad(), e;
    e.link_anchors.push_back(anchor == 0 ? UINT32_MAX : static_cast<std::uint32_t>(anchor - 1));
  }
  if (flags & kHasStored) {
    const std::uint64_t segment = in.varint();
    const std::uint64_t offset = in.varint();
    if (segment >= catalog.segments.size()) return in.mark_bad(), e;
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

/// The catalog's bytes before its files: everything but `catalog.files`, then their count.
std::string encode_head(const StoreCatalog& catalog, std::size_t file_count) {
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
  put_list(out, catalog.urls);
  put_list(out, catalog.anchors);
  put_varint(out, file_count);
  return out;
}

}  // namespace

std::string encode_store_catalog(const StoreCatalog& catalog) {
  std::string out = encode_head(catalog, catalog.files.size());
  for (const CatalogEntry& e : catalog.files) put_entry(out, e);
  put_fixed(out, XXH3_64bits(out.data(), out.size()), 8);
  return out;
}

Status write_store_catalog(const std::filesystem::path& path, const StoreCatalog& head, std::size_t file_count,
                           const std::function<CatalogEntry(std::size_t)>& file_at) {
  const auto failed = [&](const Status& why) {
    return Status::io_error("cannot write '" + path.string() + "': " + why.message());
  };
  auto file = io::file_system().create(path);
  if (!file.ok()) return failed(file.status());
  const std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> hash(XXH3_createState(), &XXH3_freeState);
  if (!hash || XXH3_64bits_reset(hash.get()) != XXH_OK) return Status::error("cannot start a hash (out of memory)");
  std::string buffer = encode_head(head, file_count);
  const auto flush = [&]() -> Status {
    XXH3_64bits_update(hash.get(), buffer.data(), buffer.size());
    Status appended = file.value()->append(buffer);
    buffer.clear();
    return appended;
  };
  constexpr std::size_t kFlushBytes = std::size_t{1} << 20;
  for (std::size_t i = 0; i < file_count; ++i) {
    put_entry(buffer, file_at(i));
    if (buffer.size() >= kFlushBytes) {
      if (Status appended = flush(); !appended.ok()) return failed(appended);
    }
  }
  if (Status appended = flush(); !appended.ok()) return failed(appended);
  put_fixed(buffer, XXH3_64bits_digest(hash.get()), 8);
  if (Status appended = file.value()->append(buffer); !appended.ok()) return failed(appended);
  if (Status closed = file.value()->close(); !closed.ok()) return failed(closed);
  return Status::ok_status();
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
  catalog.urls = in.list();
  catalog.anchors = in.list();
  const std::uint64_t files = in.count();
  catalog.files.reserve(files);
  for (std::uint64_t k = 0; k < files && in.ok(); ++k) catalog.files.push_back(get_entry(in, catalog));
  if (!in.ok() || !in.at_end()) return damaged;
  return catalog;
}

}  // namespace canon::store
