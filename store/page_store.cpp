/// @file page_store.cpp
/// @brief The page store's records: [u32 payload length][u64 XXH3 of the payload][payload],
/// little-endian; the payload is the StoredPage's fields in declaration order (common/byte_codec.h).
#include "store/page_store.h"

#include <xxhash.h>

#include "common/byte_codec.h"
#include "common/file_system.h"

namespace canon::store {
using namespace codec;

namespace {

constexpr std::size_t kHeaderBytes = 4 + 8;
/// Larger than any page can make (html::PageLimits: 8 MiB of page, and its document).
constexpr std::uint32_t kMaxPayloadBytes = 1u << 30;

Status io_error(const std::string& what, const std::filesystem::path& path, const Status& why) {
  return Status::io_error(what + " '" + path.string() + "': " + why.message());
}

}  // namespace

dedup::DedupDocument StoredPage::dedup_view(std::string_view url) const {
  dedup::DedupDocument doc{url, title, text};
  doc.headings = headings;
  doc.main_heading = main_heading;
  doc.meta_keywords = meta_keywords;
  doc.meta_description = meta_description;
  doc.same_site_anchors.assign(same_site_anchors.begin(), same_site_anchors.end());
  doc.other_site_anchors.assign(other_site_anchors.begin(), other_site_anchors.end());
  doc.cited_place = cited_place;
  return doc;
}

// --- writer ---

struct PageStoreWriter::Rep {
  std::filesystem::path path;
  std::unique_ptr<io::WritableFile> file;
  StoreOffset size = 0;  // bytes appended so far
  std::string buffer;    // not yet written
  std::string payload;   // reused per page
  Status status = Status::ok_status();

  Status flush() {
    if (Status written = file->append(buffer); !written.ok()) {
      return status = io_error("cannot write the page store", path, written);
    }
    buffer.clear();
    return Status::ok_status();
  }
};

PageStoreWriter::PageStoreWriter(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}

PageStoreWriter::~PageStoreWriter() = default;

Result<std::unique_ptr<PageStoreWriter>> PageStoreWriter::create(const std::filesystem::path& path) {
  auto rep = std::make_unique<Rep>();
  rep->path = path;
  auto file = io::file_system().create(path);
  if (!file.ok()) return io_error("cannot create the page store", path, file.status());
  rep->file = std::move(file).value();
  return std::unique_ptr<PageStoreWriter>(new PageStoreWriter(std::move(rep)));
}

Result<StoreOffset> PageStoreWriter::append(const StoredPage& page) {
  Rep& r = *rep_;
  if (!r.status.ok()) return r.status;
  std::string& payload = r.payload;
  payload.clear();
  put_string(payload, page.title);
  put_string(payload, page.text);
  put_list(payload, page.headings);
  put_string(payload, page.main_heading);
  put_string(payload, page.meta_keywords);
  put_string(payload, page.meta_description);
  put_list(payload, page.same_site_anchors);
  put_list(payload, page.other_site_anchors);
  put_string(payload, page.cited_place);
  put_string(payload, page.document);
  if (payload.size() > kMaxPayloadBytes) return r.status = Status::internal("a page too large for the page store");
  const StoreOffset offset = r.size;
  put_fixed(r.buffer, payload.size(), 4);
  put_fixed(r.buffer, XXH3_64bits(payload.data(), payload.size()), 8);
  r.buffer += payload;
  r.size += kHeaderBytes + payload.size();
  if (r.buffer.size() >= (1u << 20)) {
    if (Status flushed = r.flush(); !flushed.ok()) return flushed;
  }
  return offset;
}

StoreOffset PageStoreWriter::bytes() const { return rep_->size; }

Status PageStoreWriter::finish() {
  Rep& r = *rep_;
  if (r.status.ok()) (void)r.flush();
  const Status closed = r.file->close();
  if (!closed.ok() && r.status.ok()) r.status = io_error("cannot write the page store", r.path, closed);
  return r.status;
}

// --- reader ---

struct PageStoreReader::Rep {
  std::filesystem::path path;
  std::unique_ptr<io::ReadableFile> file;
};

PageStoreReader::PageStoreReader(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}

PageStoreReader::~PageStoreReader() = default;

Result<std::unique_ptr<PageStoreReader>> PageStoreReader::open(const std::filesystem::path& path) {
  auto rep = std::make_unique<Rep>();
  rep->path = path;
  auto file = io::file_system().open(path);
  if (!file.ok()) return io_error("cannot open the page store", path, file.status());
  rep->file = std::move(file).value();
  return std::unique_ptr<PageStoreReader>(new PageStoreReader(std::move(rep)));
}

Result<StoredPage> PageStoreReader::read(StoreOffset offset) const {
  const Status damaged = Status::corruption("the page store '" + rep_->path.string() + "' is damaged at byte " +
                                            std::to_string(offset));
  // A read that fails is the system's error; one that finds the file too short, damage.
  const auto read = [&](std::uint64_t at, char* out, std::size_t size) {
    const Status status = io::read_exactly(*rep_->file, at, out, size);
    if (status.ok() || status.code() == StatusCode::kCorruption) return status.ok() ? status : damaged;
    return io_error("cannot read the page store", rep_->path, status);
  };
  char header[kHeaderBytes];
  if (Status got = read(offset, header, sizeof header); !got.ok()) return got;
  const std::uint64_t size = get_fixed(header, 4);
  if (size > kMaxPayloadBytes) return damaged;
  std::string payload(size, '\0');
  if (Status got = read(offset + kHeaderBytes, payload.data(), payload.size()); !got.ok()) return got;
  if (XXH3_64bits(payload.data(), payload.size()) != get_fixed(header + 4, 8)) return damaged;
  Reader in(payload);
  StoredPage page;
  page.title = in.string();
  page.text = in.string();
  page.headings = in.list();
  page.main_heading = in.string();
  page.meta_keywords = in.string();
  page.meta_description = in.string();
  page.same_site_anchors = in.list();
  page.other_site_anchors = in.list();
  page.cited_place = in.string();
  page.document = in.string();
  if (!in.ok() || !in.at_end()) return damaged;
  return page;
}

}  // namespace canon::store
