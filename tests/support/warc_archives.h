/// @file warc_archives.h
/// @brief Web archives the WARC tests build (test_warc_*.cpp): a record's bytes from its Spec, a
/// crawl's records of every type, stored plain, a gzip member per record or one gzip stream, and
/// every record of an archive read back with the error that ended it.
#pragma once

#include <doctest/doctest.h>

#include <zlib.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/temp_dir.h"
#include "warc/warc_reader.h"

namespace canon::testing {

/// One record of a test archive.
struct Spec {
  std::string type;
  std::string uri;           // WARC-Target-URI; empty: none
  std::string content_type;  // of the block
  std::string block;
  std::string extra_headers;  // more header lines, each ending in CRLF
};

/// The bytes of a WARC/1.1 record for `spec`, header lines ending with `eol`.
inline std::string warc_record(const Spec& spec, std::string_view eol = "\r\n") {
  static int serial = 0;
  std::string out = "WARC/1.1";
  out += eol;
  out += "WARC-Type: " + spec.type + std::string(eol);
  out += "WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-" + std::to_string(100000000000 + ++serial) + ">";
  out += eol;
  out += "WARC-Date: 2024-05-01T12:00:00Z" + std::string(eol);
  if (!spec.uri.empty()) out += "WARC-Target-URI: " + spec.uri + std::string(eol);
  out += spec.extra_headers;
  out += "Content-Type: " + spec.content_type + std::string(eol);
  out += "Content-Length: " + std::to_string(spec.block.size()) + std::string(eol) + std::string(eol);
  out += spec.block;
  out += "\r\n\r\n";
  return out;
}

/// `bytes` as one gzip member (zlib's deflate with a gzip wrapper).
inline std::string gzip(std::string_view bytes) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&zs, bytes.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

inline const std::string kPage = "<html><head><title>Home</title></head><body><p>Hello, archive.</p></body></html>";
inline const std::string kHttpResponse =
    "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " + std::to_string(kPage.size()) +
    "\r\n\r\n" + kPage;

/// A record of each type, as a crawler writes them one after the other.
inline std::vector<Spec> crawl_records() {
  return {
      {"warcinfo", "", "application/warc-fields", "software: canon-test\r\nformat: WARC File Format 1.1\r\n", ""},
      {"request", "http://example.com/", "application/http; msgtype=request",
       "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n", ""},
      {"response", "http://example.com/", "application/http; msgtype=response", kHttpResponse,
       "WARC-Payload-Digest: sha1:AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH\r\n"},
      {"resource", "urn:canon-test:notes.txt", "text/plain", "plain notes\n", ""},
      {"metadata", "http://example.com/", "application/warc-fields", "outlink: http://example.com/a.html\r\n", ""},
      {"revisit", "http://example.com/", "application/http; msgtype=response",
       "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n",
       "WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest\r\n"
       "WARC-Refers-To-Target-URI: http://example.com/\r\nWARC-Refers-To-Date: 2024-04-01T08:00:00Z\r\n"
       "WARC-Payload-Digest: sha1:AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH\r\n"},
  };
}

/// How a test archive is stored.
enum class Storage { kPlain, kGzipPerRecord, kGzipWhole };

/// An archive of `records` stored as `storage`; `offsets` gets where each record starts in the
/// file (a gzip member per record: where its member starts; one stream: 0) and `stream_offsets`
/// where it starts in the decoded bytes.
struct Archive {
  std::string bytes;
  std::vector<std::uint64_t> offsets;
  std::vector<std::uint64_t> stream_offsets;
};
inline Archive build(const std::vector<std::string>& records, Storage storage) {
  Archive archive;
  std::string plain;
  for (const auto& record : records) {
    archive.stream_offsets.push_back(plain.size());
    archive.offsets.push_back(storage == Storage::kPlain           ? plain.size()
                              : storage == Storage::kGzipPerRecord ? archive.bytes.size()
                                                                   : 0);
    plain += record;
    if (storage == Storage::kGzipPerRecord) archive.bytes += gzip(record);
  }
  if (storage == Storage::kPlain) archive.bytes = plain;
  if (storage == Storage::kGzipWhole) archive.bytes = gzip(plain);
  return archive;
}

/// What reading a whole archive gave: its records, and the error that ended it (if one did).
struct ReadAll {
  std::vector<canon::warc::WarcRecord> records;
  std::optional<canon::Status> error;
};
inline ReadAll read_all(canon::warc::WarcReader& reader) {
  ReadAll all;
  for (int guard = 0; guard < 1000; ++guard) {
    auto next = reader.next();
    if (!next.ok()) {
      all.error = next.status();
      return all;
    }
    if (!next.value()) return all;
    all.records.push_back(std::move(*next.value()));
  }
  FAIL("more than 1000 records");
  return all;
}

/// Reads `bytes` written to a file of a fresh directory.
inline ReadAll read_file_bytes(const std::string& bytes, const canon::warc::WarcReaderOptions& options = {}) {
  TempDir dir;
  auto reader = canon::warc::WarcReader::open(dir.write("archive.warc", bytes), options);
  REQUIRE(reader.ok());
  return read_all(*reader.value());
}

/// The bytes of each record of `specs`.
inline std::vector<std::string> to_bytes(const std::vector<Spec>& specs) {
  std::vector<std::string> out;
  for (const auto& spec : specs) out.push_back(warc_record(spec));
  return out;
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace canon::testing
