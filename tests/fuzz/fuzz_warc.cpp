/// @file fuzz_warc.cpp
/// @brief libFuzzer target: web archives (warc/warc_reader.h) and the HTTP responses their
/// records hold (warc/http_message.h). The input is read as an archive (plain, or gzip when it
/// starts with gzip's magic bytes) with a small record limit, every record's block as an HTTP
/// response, every Content-Type for its charset; and the input itself as an HTTP response.
/// Checks: a block is Content-Length bytes unless skipped, and skipped only over the limit; an
/// error repeats and names the archive; a plain input read again as one gzip stream (made
/// here) gives the same records and the same kind of end; a decoded body stays in its limit.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warc/http_message.h"
#include "warc/warc_reader.h"

namespace {

constexpr std::uint64_t kMaxRecordBytes = 2048;
constexpr std::uint64_t kMaxBodyBytes = 64 * 1024;

/// What reading an archive gave.
struct Outcome {
  std::vector<canon::warc::WarcRecord> records;
  bool failed = false;
};

void check_http(std::string_view block) {
  const auto response = canon::warc::parse_http_response(block, kMaxBodyBytes);
  if (!response.ok()) {
    if (response.status().message().empty()) __builtin_trap();
    return;
  }
  if (response->status < 100 || response->status > 999) __builtin_trap();
  if (response->body.size() > kMaxBodyBytes && response->body.size() > block.size()) __builtin_trap();
  for (const auto& [name, value] : response->headers) {
    if (name.empty() || !response->header(name)) __builtin_trap();
  }
  if (const auto type = response->header("Content-Type")) {
    if (canon::warc::content_type_charset(*type).size() > type->size()) __builtin_trap();
  }
}

Outcome read_archive(std::string bytes) {
  canon::warc::WarcReaderOptions options;
  options.max_record_bytes = kMaxRecordBytes;
  auto reader = canon::warc::WarcReader::from_memory(std::move(bytes), "fuzz", options);
  Outcome outcome;
  for (;;) {
    auto next = reader->next();
    if (!next.ok()) {
      const auto again = reader->next();
      if (again.ok() || again.status().message() != next.status().message()) __builtin_trap();
      if (!next.status().message().starts_with("fuzz: ")) __builtin_trap();
      outcome.failed = true;
      return outcome;
    }
    if (!next.value()) return outcome;
    const auto& record = *next.value();
    if (record.skipped_reason.empty() ? record.block.size() != record.content_length
                                      : !record.block.empty() || record.content_length <= kMaxRecordBytes) {
      __builtin_trap();
    }
    check_http(record.block);
    canon::warc::content_type_charset(record.content_type);
    outcome.records.push_back(std::move(*next.value()));
  }
}

/// `bytes` as one gzip member.
std::string gzip(std::string_view bytes) {
  z_stream zs{};
  if (deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) __builtin_trap();
  std::string out(deflateBound(&zs, bytes.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  if (deflate(&zs, Z_FINISH) != Z_STREAM_END) __builtin_trap();
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  check_http(input);
  const Outcome plain = read_archive(std::string(input));
  if (input.starts_with("\x1f\x8b")) return 0;
  const Outcome compressed = read_archive(gzip(input));
  if (compressed.failed != plain.failed || compressed.records.size() != plain.records.size()) __builtin_trap();
  for (std::size_t i = 0; i < plain.records.size(); ++i) {
    const auto& a = plain.records[i];
    const auto& b = compressed.records[i];
    if (a.block != b.block || a.headers != b.headers || a.stream_offset != b.stream_offset || b.offset != 0) {
      __builtin_trap();
    }
  }
  return 0;
}
