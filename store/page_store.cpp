/// @file page_store.cpp
/// @brief The page store's records: [u32 payload length][u64 XXH3 of the payload][payload],
/// little-endian; the payload is the StoredPage's fields in declaration order (common/byte_codec.h).
#include "store/page_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <xxhash.h>

#include "common/file_io.h"
#include "common/byte_codec.h"

namespace canon::store {
using namespace codec;

namespace {

constexpr std::size_t kHeaderBytes = 4 + 8;
/// Larger than any page can make (html::PageLimits: 8 MiB of page, and its document).
constexpr std::uint32_t kMaxPayloadBytes = 1u << 30;

Status io_error(const std::string& what, const std::filesystem::path& path) {
  return Status::io_error(what + " '" + path.string() + "': " + std::strerror(errno));
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
  Descriptor fd{-1};
  StoreOffset size = 0;  // bytes appended so far
  std::string buffer;    // not yet written
  std::string payload;   // reused per page
  Status status = Status::ok_status();

  Status flush() {
    std::size_t written = 0;
    while (written < buffer.size()) {
      const ssize_t n = ::write(fd.get(), buffer.data() + written, buffer.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return status = io_error("cannot write the page store", path);
      written += static_cast<std::size_t>(n);
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
  rep->fd = Descriptor(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (rep->fd.get() < 0) return io_error("cannot create the page store", path);
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
  if (!r.fd.close() && r.status.ok()) r.status = io_error("cannot write the page store", r.path);
  return r.status;
}

// --- reader ---

struct PageStoreReader::Rep {
  std::filesystem::path path;
  Descriptor fd{-1};
};

PageStoreReader::PageStoreReader(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}

PageStoreReader::~PageStoreReader() = default;

Result<std::unique_ptr<PageStoreReader>> PageStoreReader::open(const std::filesystem::path& path) {
  auto rep = std::make_unique<Rep>();
  rep->path = path;
  rep->fd = Descriptor(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (rep->fd.get() < 0) return io_error("cannot open the page store", path);
  return std::unique_ptr<PageStoreReader>(new PageStoreReader(std::move(rep)));
}

namespace {

/// Reads exactly `size` bytes at `offset`; false at the end of the file or on an error.
bool read_at(int fd, char* out, std::size_t size, std::uint64_t offset) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd, out + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

Result<StoredPage> PageStoreReader::read(StoreOffset offset) const {
  const Status damaged = Status::corruption("the page store '" + rep_->path.string() + "' is damaged at byte " +
                                            std::to_string(offset));
  char header[kHeaderBytes];
  if (!read_at(rep_->fd.get(), header, sizeof header, offset)) return damaged;
  const std::uint64_t size = get_fixed(header, 4);
  if (size > kMaxPayloadBytes) return damaged;
  std::string payload(size, '\0');
  if (!read_at(rep_->fd.get(), payload.data(), payload.size(), offset + kHeaderBytes)) return damaged;
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
