/// @file warc_reader.cpp
/// @brief The WARC record framing read by hand over a stream of decoded bytes: the file as it
/// is, or zlib's inflate of its gzip members one after the other (windowBits 15 + 32, reset at
/// each member's end). Offsets of gzip members are kept only while a record may start in them.
#include "warc/warc_reader.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <deque>
#include <system_error>

#include "common/file_io.h"
#include "common/file_system.h"
#include "warc/header_text.h"

namespace canon::warc {
namespace {

/// Bytes read from the file at a time, and decompressed bytes made at a time.
constexpr std::size_t kChunkBytes = 64 * 1024;
/// The longest WARC header line, and the most header bytes a record may have.
constexpr std::size_t kMaxHeaderLineBytes = 64 * 1024;
constexpr std::size_t kMaxHeaderBytes = 1024 * 1024;

constexpr std::array<std::string_view, 8> kTypeNames = {"warcinfo", "response", "resource",   "request",
                                                        "metadata", "revisit",  "conversion", "continuation"};

/// Where the archive's bytes come from.
class ByteSource {
public:
  virtual ~ByteSource() = default;
  /// Up to `size` bytes into `out`; 0 at the end of the data.
  virtual Result<std::size_t> read(char* out, std::size_t size) = 0;
};

class FileSource final : public ByteSource {
public:
  explicit FileSource(std::unique_ptr<io::ReadableFile> file) : file_(std::move(file)) {}
  Result<std::size_t> read(char* out, std::size_t size) override {
    auto n = file_->read_some(offset_, out, size);
    if (!n.ok()) return Status::io_error("cannot read: " + n.status().message());
    offset_ += n.value();
    return n.value();
  }

private:
  std::unique_ptr<io::ReadableFile> file_;
  std::uint64_t offset_ = 0;
};

class MemorySource final : public ByteSource {
public:
  explicit MemorySource(std::string bytes) : bytes_(std::move(bytes)) {}
  Result<std::size_t> read(char* out, std::size_t size) override {
    const std::size_t n = std::min(size, bytes_.size() - position_);
    std::memcpy(out, bytes_.data() + position_, n);
    position_ += n;
    return n;
  }

private:
  std::string bytes_;
  std::size_t position_ = 0;
};

/// The archive's decoded bytes (the file's, or its gzip members' inflated), read ahead into a
/// buffer from which the reader consumes them.
class Input {
public:
  explicit Input(std::unique_ptr<ByteSource> source) : source_(std::move(source)), in_(kChunkBytes, '\0') {}
  ~Input() {
    if (gzip_) inflateEnd(&zs_);
  }
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;

  /// Reads the first bytes and decides whether the file is gzip (by its magic bytes).
  Status start();
  /// Makes at least `want` decoded bytes available; fewer only at the end of the data.
  Status fill(std::size_t want);
  std::string_view available() const { return {buffer_.data() + begin_, buffer_.size() - begin_}; }
  void consume(std::size_t n);
  /// True when no decoded bytes will come after available() ones.
  bool ended() const { return ended_; }
  bool gzip() const { return gzip_; }
  /// The offset in the decoded bytes of available()'s first byte.
  std::uint64_t position() const { return position_; }
  /// The bytes of the file read so far (its size, once ended()).
  std::uint64_t file_bytes() const { return file_bytes_; }
  /// Where the gzip member holding decoded byte `at` (not yet consumed) starts in the file;
  /// `at` itself in a plain file.
  std::uint64_t file_offset_of(std::uint64_t at) const;
  /// In a gzip file whose data ended inside a member: where that member starts.
  std::optional<std::uint64_t> cut_member() const {
    if (gzip_ && ended_ && member_open_ && !members_.empty()) return members_.back().file_start;
    return std::nullopt;
  }

private:
  struct Member {
    std::uint64_t decoded_start = 0;
    std::uint64_t file_start = 0;
  };
  Status read_more();
  Status inflate_more();
  std::uint64_t decoded_end() const { return position_ + (buffer_.size() - begin_); }

  std::unique_ptr<ByteSource> source_;
  std::string in_;      // gzip: bytes of the file not yet inflated
  std::string buffer_;  // decoded bytes; those from begin_ on are not consumed yet
  std::size_t begin_ = 0;
  std::uint64_t position_ = 0;
  std::uint64_t file_bytes_ = 0;
  bool ended_ = false;
  bool gzip_ = false;
  bool source_ended_ = false;
  z_stream zs_{};
  bool member_open_ = false;    // inflating a member whose end has not come
  std::deque<Member> members_;  // the members a record may still start in
};

Status Input::start() {
  std::size_t got = 0;
  while (got < 2) {  // a pipe may give one byte at a time
    auto n = source_->read(in_.data() + got, in_.size() - got);
    if (!n.ok()) return n.status();
    if (n.value() == 0) break;
    got += n.value();
  }
  file_bytes_ = got;
  if (got >= 2 && in_[0] == '\x1f' && in_[1] == '\x8b') {
    if (inflateInit2(&zs_, 15 + 32) != Z_OK) return Status::internal("zlib cannot start inflating");
    gzip_ = true;
    zs_.next_in = reinterpret_cast<Bytef*>(in_.data());
    zs_.avail_in = static_cast<uInt>(got);
  } else {
    buffer_.assign(in_.data(), got);
    ended_ = got == 0;
  }
  return Status::ok_status();
}

Status Input::fill(std::size_t want) {
  while (available().size() < want && !ended_) {
    if (begin_ > 0) {
      buffer_.erase(0, begin_);
      begin_ = 0;
    }
    Status status = gzip_ ? inflate_more() : read_more();
    if (!status.ok()) return status;
  }
  return Status::ok_status();
}

void Input::consume(std::size_t n) {
  begin_ += n;
  position_ += n;
  while (members_.size() >= 2 && members_[1].decoded_start <= position_) members_.pop_front();
}

std::uint64_t Input::file_offset_of(std::uint64_t at) const {
  if (!gzip_) return at;
  for (auto member = members_.rbegin(); member != members_.rend(); ++member) {
    if (member->decoded_start <= at) return member->file_start;
  }
  return members_.empty() ? 0 : members_.front().file_start;
}

Status Input::read_more() {
  const std::size_t old = buffer_.size();
  buffer_.resize(old + kChunkBytes);
  auto n = source_->read(buffer_.data() + old, kChunkBytes);
  buffer_.resize(old + (n.ok() ? n.value() : 0));
  if (!n.ok()) return n.status();
  file_bytes_ += n.value();
  ended_ = n.value() == 0;
  return Status::ok_status();
}

Status Input::inflate_more() {
  if (zs_.avail_in == 0 && !source_ended_) {
    auto n = source_->read(in_.data(), in_.size());
    if (!n.ok()) return n.status();
    file_bytes_ += n.value();
    zs_.next_in = reinterpret_cast<Bytef*>(in_.data());
    zs_.avail_in = static_cast<uInt>(n.value());
    source_ended_ = n.value() == 0;
  }
  if (zs_.avail_in == 0) {
    ended_ = true;
    return Status::ok_status();
  }
  if (!member_open_) {
    members_.push_back({decoded_end(), file_bytes_ - zs_.avail_in});
    member_open_ = true;
  }
  const std::size_t old = buffer_.size();
  buffer_.resize(old + kChunkBytes);
  zs_.next_out = reinterpret_cast<Bytef*>(buffer_.data() + old);
  zs_.avail_out = static_cast<uInt>(kChunkBytes);
  const int result = inflate(&zs_, Z_NO_FLUSH);
  buffer_.resize(old + (kChunkBytes - zs_.avail_out));
  if (result == Z_STREAM_END) {
    member_open_ = false;
    inflateReset(&zs_);
    return Status::ok_status();
  }
  if (result == Z_OK || (result == Z_BUF_ERROR && zs_.avail_in == 0)) return Status::ok_status();
  const std::uint64_t at = file_bytes_ - zs_.avail_in;
  return Status::corruption("corrupt gzip data at byte " + std::to_string(at) +
                            ", in the gzip member that starts at byte " + std::to_string(members_.back().file_start) +
                            " (zlib: " + (zs_.msg != nullptr ? zs_.msg : "error " + std::to_string(result)) + ")");
}

/// `value` as a Content-Length: decimal digits only (spaces around them aside).
std::optional<std::uint64_t> parse_length(std::string_view value) {
  value = text::trim(value);
  if (value.empty()) return std::nullopt;
  std::uint64_t length = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), length);
  if (error != std::errc() || end != value.data() + value.size() || value.front() == '-') return std::nullopt;
  return length;
}

/// `uri` without the angle brackets around it, when it has them.
std::string_view without_angle_brackets(std::string_view uri) {
  if (uri.size() >= 2 && uri.front() == '<' && uri.back() == '>') return uri.substr(1, uri.size() - 2);
  return uri;
}

WarcType type_of(std::string_view name) {
  for (std::size_t i = 0; i < kTypeNames.size(); ++i) {
    if (text::equals_ignoring_case(name, kTypeNames[i])) return static_cast<WarcType>(i);
  }
  return WarcType::kUnknown;
}

/// Sets the record's named fields from its headers (the first of each name); the
/// Content-Length is checked by the caller.
void set_fields(WarcRecord& record) {
  const auto set = [&](std::string_view name, std::string& field) {
    if (const auto value = record.header(name)) field = *value;
  };
  set("WARC-Type", record.type_name);
  record.type = type_of(record.type_name);
  set("WARC-Record-ID", record.record_id);
  set("WARC-Date", record.date);
  set("WARC-Target-URI", record.target_uri);
  record.target_uri = std::string(without_angle_brackets(record.target_uri));
  set("Content-Type", record.content_type);
  set("WARC-Payload-Digest", record.payload_digest);
  set("WARC-Block-Digest", record.block_digest);
  set("WARC-Profile", record.profile);
  set("WARC-Refers-To-Target-URI", record.refers_to_target_uri);
  record.refers_to_target_uri = std::string(without_angle_brackets(record.refers_to_target_uri));
  set("WARC-Refers-To-Date", record.refers_to_date);
}

}  // namespace

std::string_view warc_type_name(WarcType type) {
  const auto index = static_cast<std::size_t>(type);
  return index < kTypeNames.size() ? kTypeNames[index] : "unknown";
}

std::optional<std::string_view> WarcRecord::header(std::string_view name) const {
  for (const auto& [header_name, value] : headers) {
    if (text::equals_ignoring_case(header_name, name)) return std::string_view(value);
  }
  return std::nullopt;
}

struct WarcReader::Rep {
  Rep(std::unique_ptr<ByteSource> source, std::string archive_name, const WarcReaderOptions& reader_options)
      : input(std::move(source)), name(std::move(archive_name)), options(reader_options) {}

  Input input;
  std::string name;
  WarcReaderOptions options;
  bool started = false;
  Status failure = Status::ok_status();  // returned by every call once set
  Status pending = Status::ok_status();  // returned by the next call
  // The record being read.
  std::uint64_t record_offset = 0;
  std::uint64_t record_stream_offset = 0;

  Result<std::optional<WarcRecord>> read_record();
  Result<bool> skip_to_record();
  Status read_version_line(WarcRecord& record);
  Result<std::string> read_line(std::string_view inside);
  Status read_headers(WarcRecord& record);
  Status read_block(WarcRecord& record);
  /// Reads the CRLF CRLF after the block; when the archive is cut there, the record is
  /// complete: the cut is left in `pending` for the next call.
  Status read_trailer(const WarcRecord& record);
  /// input.fill, its error naming the archive.
  Status fill(std::size_t want) {
    Status status = input.fill(want);
    return status.ok() ? status : Status::error(name + ": " + status.message(), status.code());
  }

  /// "the record at byte N" (and where in the decompressed data, for gzip).
  std::string record_place() const {
    std::string place = "the record at byte " + std::to_string(record_offset);
    if (input.gzip()) place += " (decompressed byte " + std::to_string(record_stream_offset) + ")";
    return place;
  }
  /// The archive is cut: where it ends, and what `what` (the record's place and what it
  /// expected) says.
  Status cut(const std::string& what) const {
    std::string message = name + ": the archive is cut at byte " + std::to_string(input.file_bytes()) + " (its end)";
    if (const auto member = input.cut_member()) {
      message += ", inside the gzip member that starts at byte " + std::to_string(*member);
    }
    return Status::corruption(message + ": " + what);
  }
  Status malformed(const std::string& what) const {
    return Status::corruption(name + ": " + record_place() + " is not a valid WARC record: " + what);
  }
};

Result<std::optional<WarcRecord>> WarcReader::Rep::read_record() {
  auto found = skip_to_record();
  if (!found.ok()) return found.status();
  if (!found.value()) return std::optional<WarcRecord>();
  WarcRecord record;
  record.offset = record_offset;
  record.stream_offset = record_stream_offset;
  if (Status s = read_version_line(record); !s.ok()) return s;
  if (Status s = read_headers(record); !s.ok()) return s;
  set_fields(record);
  const auto length_value = record.header("Content-Length");
  if (!length_value) return malformed("it has no Content-Length header");
  const auto length = parse_length(*length_value);
  if (!length) return malformed("its Content-Length is not a number: " + text::quoted_excerpt(*length_value));
  record.content_length = *length;
  if (Status s = read_block(record); !s.ok()) return s;
  if (Status s = read_trailer(record); !s.ok()) return s;
  return std::optional<WarcRecord>(std::move(record));
}

Result<bool> WarcReader::Rep::skip_to_record() {
  for (;;) {
    if (Status s = fill(1); !s.ok()) return s;
    const std::string_view available = input.available();
    if (available.empty()) {
      if (input.cut_member()) return cut("the data ends before the member does");
      return false;
    }
    std::size_t blank = 0;
    while (blank < available.size() && (available[blank] == '\r' || available[blank] == '\n')) ++blank;
    if (blank == 0) break;
    input.consume(blank);
  }
  record_stream_offset = input.position();
  record_offset = input.file_offset_of(record_stream_offset);
  return true;
}

Status WarcReader::Rep::read_version_line(WarcRecord& record) {
  constexpr std::string_view kMagic = "WARC/1.";
  if (Status s = fill(kMagic.size()); !s.ok()) return s;
  const std::string_view start = input.available();
  const std::size_t compared = std::min(start.size(), kMagic.size());
  if (start.substr(0, compared) != kMagic.substr(0, compared)) {
    return malformed("expected a WARC/1.0 or WARC/1.1 version line, found " + text::quoted_excerpt(start));
  }
  auto line = read_line("its version line");
  if (!line.ok()) return line.status();
  const std::string_view written = line.value();
  const std::string_view version = text::trim(written.substr(std::min(written.size(), kMagic.size() - 2)));
  const bool digits = version.size() > 2 &&
                      std::all_of(version.begin() + 2, version.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!digits) return malformed("its version line is " + text::quoted_excerpt(line.value()) + ", not WARC/1.x");
  record.version = std::string(version);
  return Status::ok_status();
}

Result<std::string> WarcReader::Rep::read_line(std::string_view inside) {
  std::size_t scanned = 0;
  for (;;) {
    const std::string_view available = input.available();
    const std::size_t newline = available.find('\n', scanned);
    if (newline != std::string_view::npos && newline <= kMaxHeaderLineBytes) {
      std::string line(available.substr(0, newline));
      if (!line.empty() && line.back() == '\r') line.pop_back();
      input.consume(newline + 1);
      return line;
    }
    if (newline != std::string_view::npos || available.size() > kMaxHeaderLineBytes) {
      return malformed("a line of " + std::string(inside) + " is longer than " + std::to_string(kMaxHeaderLineBytes) +
                       " bytes");
    }
    if (input.ended()) return cut(record_place() + " ends inside " + std::string(inside));
    scanned = available.size();
    if (Status s = fill(available.size() + 1); !s.ok()) return s;
  }
}

Status WarcReader::Rep::read_headers(WarcRecord& record) {
  std::size_t total = 0;
  for (std::size_t number = 1;; ++number) {
    auto line = read_line("its WARC headers");
    if (!line.ok()) return line.status();
    const std::string_view header_line = line.value();
    total += header_line.size() + 2;
    if (total > kMaxHeaderBytes) {
      return malformed("its WARC headers are longer than " + std::to_string(kMaxHeaderBytes) + " bytes");
    }
    if (header_line.empty()) return Status::ok_status();
    if (text::is_blank(header_line.front())) {  // a folded line: more of the previous value
      if (record.headers.empty()) return malformed("its first WARC header line starts with a space");
      const std::string_view more = text::trim(header_line);
      auto& value = record.headers.back().second;
      if (!more.empty()) value += (value.empty() ? "" : " ") + std::string(more);
      continue;
    }
    const std::size_t colon = header_line.find(':');
    const std::string_view header_name =
        colon == std::string_view::npos ? "" : text::trim(header_line.substr(0, colon));
    if (header_name.empty()) {
      return malformed("WARC header line " + std::to_string(number) +
                       " is not \"Name: value\": " + text::quoted_excerpt(header_line));
    }
    record.headers.emplace_back(std::string(header_name), std::string(text::trim(header_line.substr(colon + 1))));
  }
}

Status WarcReader::Rep::read_block(WarcRecord& record) {
  const bool skip = record.content_length > options.max_record_bytes;
  if (skip) {
    record.skipped_reason = "its block of " + std::to_string(record.content_length) +
                            " bytes is larger than the limit of " + std::to_string(options.max_record_bytes) +
                            " bytes: not read";
  }
  std::uint64_t remaining = record.content_length;
  while (remaining > 0) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(remaining, kChunkBytes));
    if (Status s = fill(want); !s.ok()) return s;
    const std::string_view available = input.available();
    const std::size_t take = std::min<std::size_t>(available.size(), want);
    if (take == 0) {
      return cut(record_place() + " declares a block of " + std::to_string(record.content_length) +
                 " bytes (Content-Length), only " + std::to_string(record.content_length - remaining) + " are there");
    }
    if (!skip) record.block.append(available.substr(0, take));
    input.consume(take);
    remaining -= take;
  }
  return Status::ok_status();
}

Status WarcReader::Rep::read_trailer(const WarcRecord& record) {
  for (int line_end = 0; line_end < 2; ++line_end) {
    if (Status s = fill(2); !s.ok()) return s;
    const std::string_view available = input.available();
    if (available.substr(0, 2) == "\r\n") {
      input.consume(2);
    } else if (available.substr(0, 1) == "\n") {
      input.consume(1);
    } else if (available.empty() || (available == "\r" && input.ended())) {
      pending = cut(record_place() + " lacks the CRLF CRLF that ends a record, after its block");
      return Status::ok_status();
    } else {
      return malformed("its block of " + std::to_string(record.content_length) +
                       " bytes (Content-Length) is not followed by CRLF CRLF but by " +
                       text::quoted_excerpt(available) + " at decompressed byte " + std::to_string(input.position()) +
                       ": is its Content-Length right?");
    }
  }
  return Status::ok_status();
}

WarcReader::WarcReader(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
WarcReader::~WarcReader() = default;

Result<std::unique_ptr<WarcReader>> WarcReader::open(const std::filesystem::path& path,
                                                     const WarcReaderOptions& options) {
  auto file = io::file_system().open(path);
  if (!file.ok()) {
    const std::string message = "cannot open the web archive '" + path.string() + "': " + file.status().message();
    return file.status().code() == StatusCode::kNotFound ? Status::not_found(message) : Status::io_error(message);
  }
  auto source = std::make_unique<FileSource>(std::move(file).value());
  return std::unique_ptr<WarcReader>(new WarcReader(std::make_unique<Rep>(std::move(source), path.string(), options)));
}

std::unique_ptr<WarcReader> WarcReader::from_memory(std::string bytes, std::string name,
                                                    const WarcReaderOptions& options) {
  auto source = std::make_unique<MemorySource>(std::move(bytes));
  return std::unique_ptr<WarcReader>(
      new WarcReader(std::make_unique<Rep>(std::move(source), std::move(name), options)));
}

Result<std::optional<WarcRecord>> WarcReader::next() {
  Rep& rep = *rep_;
  if (!rep.failure.ok()) return rep.failure;
  if (!rep.pending.ok()) {
    rep.failure = rep.pending;
    return rep.failure;
  }
  if (!rep.started) {
    rep.started = true;
    if (Status s = rep.input.start(); !s.ok()) {
      rep.failure = Status::error(rep.name + ": " + s.message(), s.code());
      return rep.failure;
    }
  }
  auto record = rep.read_record();
  if (!record.ok()) rep.failure = record.status();
  return record;
}

}  // namespace canon::warc
