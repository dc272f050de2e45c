/// @file warc_reader.h
/// @brief Web archives (ISO 28500 WARC 1.0 and 1.1, as wget --warc-file, Heritrix, Browsertrix
/// and Common Crawl write them) read record by record, streaming: plain .warc files and
/// .warc.gz files (a gzip member per record, or one gzip stream for the whole file).
///
/// The record framing (a version line, "Name: value" header lines, a blank line, Content-Length
/// bytes of block, CRLF CRLF) is read here by hand: no maintained C or C++ library in Debian
/// reads WARC files and gives the record headers and revisit records as they are written
/// (libarchive's WARC format reads versions 0.12 to 1.0 only, refusing the WARC/1.1 that
/// Browsertrix writes, and gives response and resource records as files, without their WARC
/// headers: no payload digest, no revisit profile).
/// zlib inflates gzip. docs/archive-format.md, "Web archives (WARC) as canon reads them".
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace canon::warc {

/// A record's WARC-Type.
enum class WarcType {
  kWarcinfo,
  kResponse,
  kResource,
  kRequest,
  kMetadata,
  kRevisit,
  kConversion,
  kContinuation,
  /// A WARC-Type the standard does not define, or none (WarcRecord::type_name says which).
  kUnknown,
};

/// The standard's name of `type` ("warcinfo", "response", ...; "unknown" for kUnknown).
std::string_view warc_type_name(WarcType type);

/// One WARC record: its header fields and its block.
struct WarcRecord {
  /// The version of the record's version line: "1.0" for "WARC/1.0", "1.1" for "WARC/1.1".
  std::string version;
  WarcType type = WarcType::kUnknown;
  /// WARC-Type as written (empty when the record has none).
  std::string type_name;
  /// WARC-Record-ID as written, angle brackets included ("<urn:uuid:...>").
  std::string record_id;
  /// WARC-Date as written ("2024-05-01T12:00:00Z").
  std::string date;
  /// WARC-Target-URI, without the angle brackets WARC 1.0-era writers put around it.
  std::string target_uri;
  /// Content-Type of the block ("application/http; msgtype=response", "text/html", ...).
  std::string content_type;
  /// Content-Length: the size of the block as declared.
  std::uint64_t content_length = 0;
  /// WARC-Payload-Digest and WARC-Block-Digest as written ("sha1:BASE32...").
  std::string payload_digest;
  std::string block_digest;
  /// WARC-Profile (revisit records: ".../revisit/identical-payload-digest" or
  /// ".../revisit/server-not-modified").
  std::string profile;
  /// Revisit records: WARC-Refers-To-Target-URI (angle brackets removed) and
  /// WARC-Refers-To-Date of the record whose payload this one repeats.
  std::string refers_to_target_uri;
  std::string refers_to_date;
  /// Every WARC header in order, names as written, values trimmed; a value folded over
  /// several lines is joined with single spaces.
  std::vector<std::pair<std::string, std::string>> headers;
  /// The block: Content-Length bytes (empty when skipped_reason is set). For a response record
  /// of Content-Type application/http, the HTTP response (parse_http_response reads it).
  std::string block;
  /// Why the block was not read (it is larger than WarcReaderOptions::max_record_bytes);
  /// empty when it was.
  std::string skipped_reason;
  /// Where the record starts in the file. In a gzip file: where the gzip member holding the
  /// record's first byte starts (the record's own offset in a file of a member per record, as
  /// CDX indexes give it; 0 for every record of a file that is one gzip stream).
  std::uint64_t offset = 0;
  /// Where the record starts in the decompressed bytes (offset again in a plain file).
  std::uint64_t stream_offset = 0;

  /// The value of the first header named `name` (ASCII case-insensitive), valid while this
  /// record is; nullopt when none.
  std::optional<std::string_view> header(std::string_view name) const;
};

/// Limits of a WarcReader.
struct WarcReaderOptions {
  /// A record whose block is larger is not read into memory: its headers are reported, its
  /// block is skipped (WarcRecord::skipped_reason says so).
  std::uint64_t max_record_bytes = 64ull << 20;
};

/// Reads the records of one archive in order. Holds one record's block at most, plus buffers
/// of a few hundred KiB (the file read 64 KiB at a time, decompressed bytes ahead of the
/// reader) and the current record's headers (at most 1 MiB). Not thread-safe: one reader per
/// thread.
class WarcReader {
public:
  /// Opens the archive at `path`; gzip is recognised by its magic bytes, not by the file's name.
  /// An error (kNotFound, kIoError) when it cannot be opened.
  static Result<std::unique_ptr<WarcReader>> open(const std::filesystem::path& path,
                                                  const WarcReaderOptions& options = {});
  /// Reads an archive held in memory (`bytes`, moved in); `name` is what messages call it.
  static std::unique_ptr<WarcReader> from_memory(std::string bytes, std::string name = "archive",
                                                 const WarcReaderOptions& options = {});
  ~WarcReader();
  WarcReader(const WarcReader&) = delete;
  WarcReader& operator=(const WarcReader&) = delete;

  /// The next record; nullopt at a clean end of the archive (an empty file has no records).
  /// An error (kCorruption, or kIoError when reading fails) naming the archive and the byte
  /// offset: a cut archive (what the record there expected, and where the file ends), a
  /// record without a WARC/1.x version line or with a missing or non-numeric Content-Length,
  /// corrupt gzip data, a block not followed by CRLF CRLF (a wrong Content-Length). A record
  /// whose block is complete but whose closing CRLF CRLF is cut is returned, and the cut comes
  /// with the next call. After an error every later call returns it again.
  Result<std::optional<WarcRecord>> next();

private:
  struct Rep;
  explicit WarcReader(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace canon::warc
