/// @file archive_site.cpp
/// @brief read_archives: web archives as a site plan.
#include "indexer/input/archive_site.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <ctime>
#include <mutex>
#include <system_error>
#include <unordered_map>
#include <utility>

#include "common/file_system.h"
#include "common/parallel.h"
#include "html/html_rules.h"
#include "urls/url.h"
#include "warc/header_text.h"
#include "warc/http_message.h"
#include "warc/warc_reader.h"

namespace canon::indexer {

namespace fs = std::filesystem;

namespace {

bool is_archive_name(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.ends_with(".warc") || name.ends_with(".warc.gz") || name.ends_with(".WARC") ||
         name.ends_with(".WARC.GZ");
}

/// The archives directly in `dir`, sorted by name.
std::vector<fs::path> archives_in(const fs::path& dir) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (is_archive_name(it->path()) && it->is_regular_file(ec)) found.push_back(it->path());
  }
  std::sort(found.begin(), found.end());
  return found;
}

/// What a capture is.
enum class CaptureKind { kPage, kRedirect, kSkipped, kRevisit };

/// One response, resource or revisit record of an http(s) URL.
struct Capture {
  std::string url;     ///< normalised, a directory's index page stripped
  std::string date;    ///< WARC-Date as written
  std::string record;  ///< "NAME@OFFSET"
  std::size_t order = 0;  ///< in the reading order of the whole crawl (read_archives)
  CaptureKind kind = CaptureKind::kSkipped;
  std::string body;          ///< kPage: the body's file in the body directory
  std::string content_type;  ///< kPage: the HTTP Content-Type
  std::string redirect;      ///< kRedirect: the Location, resolved
  std::string reason;        ///< kSkipped
  std::string payload_digest;
  bool not_modified = false;  ///< kRevisit: the server said the payload had not changed
};

/// The media type of a Content-Type value, lower-case, without parameters.
std::string media_type(std::string_view content_type) {
  std::string type(warc::text::trim(content_type.substr(0, std::min(content_type.find(';'), content_type.size()))));
  for (char& c : type) c = warc::text::ascii_lower(c);
  return type;
}

/// Whether a body without a Content-Type starts as an HTML document does.
bool looks_like_html(std::string_view body) {
  if (body.starts_with("\xEF\xBB\xBF")) body.remove_prefix(3);
  while (!body.empty() && html::is_html_space(body.front())) body.remove_prefix(1);
  std::string start(body.substr(0, 14));
  for (char& c : start) c = warc::text::ascii_lower(c);
  return start.starts_with("<!doctype html") || start.starts_with("<html") || start.starts_with("<head") ||
         start.starts_with("<!--");
}

/// Writes `bytes` to `path` with `mtime_seconds` as its modification time.
Status write_body(const fs::path& path, std::string_view bytes, std::int64_t mtime_seconds) {
  Status written = io::write_whole_file(path, bytes);
  if (written.ok()) written = io::file_system().set_modified(path, mtime_seconds);
  if (!written.ok()) return Status::io_error("cannot write '" + path.string() + "': " + written.message());
  return Status::ok_status();
}

/// Reads the archives into captures, writing page bodies as it goes.
class CaptureReader {
public:
  /// Reads archive number `archive_number` of the run (its bodies' file names begin with it).
  CaptureReader(const fs::path& body_dir, std::size_t archive_number)
      : body_dir_(body_dir), archive_number_(archive_number) {}

  /// Reads every record of `archive`, adding the bytes read to `bytes_done` as it goes; an error
  /// only when it cannot be opened or a body cannot be written.
  Status read(const fs::path& archive, const std::function<void(std::size_t)>& bytes_done) {
    auto reader = warc::WarcReader::open(archive);
    if (!reader.ok()) return reader.status();
    ++counts_.archives;
    const std::string name = archive.filename().string();
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(archive, ec);
    std::size_t reported = 0;
    for (;;) {
      auto next = reader.value()->next();
      if (!next.ok()) {  // cut or corrupt: what came before stands
        cut_records_.push_back(SkippedPath{name, next.status().message(), std::string()});
        break;
      }
      if (!next.value()) break;
      warc::WarcRecord& record = *next.value();
      ++counts_.records[record.type_name.empty() ? "none" : record.type_name];
      if (Status taken = take(record, name); !taken.ok()) return taken;
      bytes_done(static_cast<std::size_t>(record.offset) - reported);
      reported = static_cast<std::size_t>(record.offset);
    }
    if (!ec && size > reported) bytes_done(static_cast<std::size_t>(size) - reported);
    return Status::ok_status();
  }

  std::vector<Capture>& captures() { return captures_; }
  /// Where the archive could not be read to its end (none, or one entry).
  std::vector<SkippedPath>& cut_records() { return cut_records_; }
  const ArchiveCounts& counts() const { return counts_; }

private:
  Status take(warc::WarcRecord& record, const std::string& archive_name) {
    using warc::WarcType;
    if (record.type != WarcType::kResponse && record.type != WarcType::kResource && record.type != WarcType::kRevisit) {
      return Status::ok_status();
    }
    auto url = urls::normalize_url(record.target_uri);
    if (!url.ok()) {
      ++counts_.other_schemes;
      return Status::ok_status();
    }
    Capture c;
    c.url = urls::strip_index_page(url.value());
    c.date = record.date;
    c.record = archive_name + "@" + std::to_string(record.offset);
    c.payload_digest = record.payload_digest;
    if (!record.skipped_reason.empty()) {
      c.reason = record.skipped_reason;
    } else if (record.type == WarcType::kRevisit) {
      c.kind = CaptureKind::kRevisit;
      c.not_modified = record.profile.find("server-not-modified") != std::string::npos;
    } else if (record.type == WarcType::kResource) {
      if (Status kept = keep_payload(c, record.block, record.content_type); !kept.ok()) return kept;
    } else if (Status read = read_response(c, record); !read.ok()) {
      return read;
    }
    captures_.push_back(std::move(c));
    return Status::ok_status();
  }

  /// A response record: its HTTP status decides.
  Status read_response(Capture& c, const warc::WarcRecord& record) {
    auto response = warc::parse_http_response(record.block);
    if (!response.ok()) {
      c.reason = "not an HTTP response: " + response.status().message();
      return Status::ok_status();
    }
    const int status = response->status;
    const std::string status_line = "HTTP " + std::to_string(status) + (response->reason.empty() ? "" : " " + response->reason);
    if (status >= 300 && status < 400) {
      const auto location = response->header("Location");
      if (!location) {
        c.reason = status_line + ", without a Location";
      } else if (auto target = urls::resolve_url(c.url, *location); target.ok()) {
        c.kind = CaptureKind::kRedirect;
        c.redirect = urls::strip_index_page(target.value());
      } else {
        c.reason = status_line + ", to a Location that is not an http(s) URL";
      }
      return Status::ok_status();
    }
    if (status < 200 || status >= 300) {
      c.reason = status_line;
      return Status::ok_status();
    }
    const auto content_type = response->header("Content-Type");
    return keep_payload(c, response->body, content_type ? std::string(*content_type) : std::string());
  }

  /// A payload served with `content_type`: a page when it is HTML (declared, or by its first
  /// bytes when nothing is declared), its body written; else skipped.
  Status keep_payload(Capture& c, std::string_view body, const std::string& content_type) {
    const std::string type = media_type(content_type);
    const bool html = type.empty() ? looks_like_html(body) : type == "text/html" || type == "application/xhtml+xml";
    if (!html) {
      c.reason = "not HTML (Content-Type " + (type.empty() ? std::string("none") : type) + ")";
      return Status::ok_status();
    }
    c.kind = CaptureKind::kPage;
    c.content_type = content_type;
    c.body = (body_dir_ / (std::to_string(archive_number_) + "-" + std::to_string(captures_.size()) + ".html")).string();
    return write_body(c.body, body, warc_date_seconds(c.date).value_or(0));
  }

  fs::path body_dir_;
  std::size_t archive_number_;
  ArchiveCounts counts_;
  std::vector<Capture> captures_;
  std::vector<SkippedPath> cut_records_;
};

/// Newer: a later WARC-Date, or the same date read later.
bool newer(const Capture& a, const Capture& b) { return a.date != b.date ? a.date > b.date : a.order > b.order; }

/// The capture whose payload a revisit repeats: the newest page with its payload digest read
/// before it, or, when the server said "not modified", the newest page of its URL before it.
const Capture* repeated_capture(const Capture& revisit, const std::vector<const Capture*>& of_url,
                                const std::unordered_map<std::string, const Capture*>& page_of_digest) {
  if (!revisit.payload_digest.empty()) {
    if (const auto it = page_of_digest.find(revisit.payload_digest); it != page_of_digest.end()) return it->second;
  }
  if (!revisit.not_modified) return nullptr;
  const Capture* found = nullptr;
  for (const Capture* c : of_url) {
    if (c->kind == CaptureKind::kPage && newer(revisit, *c) && (found == nullptr || newer(*c, *found))) found = c;
  }
  return found;
}

/// Where a saved copy of the site (wget --mirror's layout) keeps the page of `url`: its path
/// below `base_url` (below the host's name for another host), "index.html" for a directory,
/// the query kept. A crawl's pages are planned in the order of these paths, the order in which
/// the walk of such a copy finds its files, so that a crawl and the copy are one site to every
/// stage (the site sample, for one, is every n-th file of the plan).
std::string saved_copy_path(std::string_view url, std::string_view base_url) {
  if (url.starts_with(base_url)) {
    url.remove_prefix(base_url.size());
  } else if (const std::size_t scheme = url.find("://"); scheme != std::string_view::npos) {
    url.remove_prefix(scheme + 3);
  }
  const std::size_t query = std::min(url.find('?'), url.size());
  std::string path(url.substr(0, query));
  if (path.empty() || path.back() == '/') path += "index.html";
  return path.append(url.substr(query));
}

/// The plan of `captures`: the newest capture of each URL read (a revisit taking the payload it
/// repeats), every other capture skipped with its reason; the bodies no page reads removed.
void lay_out(const std::vector<Capture>& captures, ArchiveSite& site) {
  std::error_code ec;
  std::unordered_map<std::string, std::vector<const Capture*>> by_url;
  std::unordered_map<std::string, const Capture*> page_of_digest;
  for (const Capture& c : captures) {
    by_url[c.url].push_back(&c);
    if (c.kind == CaptureKind::kPage && !c.payload_digest.empty()) {
      auto [it, inserted] = page_of_digest.emplace(c.payload_digest, &c);
      if (!inserted && newer(c, *it->second)) it->second = &c;
    }
  }
  // In the order of their saved copy's paths (saved_copy_path), then of their URLs.
  std::vector<std::pair<std::string, std::string>> in_order;
  in_order.reserve(by_url.size());
  for (const auto& [url, of_url] : by_url) in_order.emplace_back(saved_copy_path(url, site.base_url), url);
  std::sort(in_order.begin(), in_order.end());

  std::vector<bool> body_used(captures.size(), false);
  for (const auto& [copy_path, url] : in_order) {
    const std::vector<const Capture*>& of_url = by_url[url];
    const Capture* newest = *std::max_element(of_url.begin(), of_url.end(),
                                              [](const Capture* a, const Capture* b) { return newer(*b, *a); });
    for (const Capture* c : of_url) {
      if (c == newest) continue;
      ++site.counts.older_captures;
      site.plan.skipped.push_back(SkippedPath{url, "an older capture (" + c->date + ", " + c->record + "); the capture of " +
                                                       newest->date + " (" + newest->record + ") is read", url});
    }
    Capture read = *newest;
    const Capture* body_owner = newest;
    if (read.kind == CaptureKind::kRevisit) {
      const Capture* repeated = repeated_capture(read, of_url, page_of_digest);
      if (repeated == nullptr) {
        read.kind = CaptureKind::kSkipped;
        read.reason = "a revisit of a capture the archives do not hold";
      } else {
        read.kind = CaptureKind::kPage;
        body_owner = repeated;
        read.body = repeated->body;
        read.content_type = repeated->content_type;
      }
    }
    if (read.kind == CaptureKind::kSkipped) {
      ++site.counts.skipped;
      site.plan.skipped.push_back(SkippedPath{url, read.reason + " (" + read.record + ")", url});
      continue;
    }
    SiteFile file;
    file.relative_path = url;
    file.record = read.record;
    if (read.kind == CaptureKind::kRedirect) {
      ++site.counts.redirects;
      file.redirect = read.redirect;
    } else {
      ++site.counts.pages;
      file.absolute_path = read.body;
      file.content_type = read.content_type;
      body_used[body_owner->order] = true;
    }
    site.plan.files.push_back(file);
  }
  // The bodies of older captures (no revisit repeats them) are not read: let them go.
  for (const Capture& c : captures) {
    if (c.kind == CaptureKind::kPage && !body_used[c.order]) fs::remove(c.body, ec);
  }
}

}  // namespace

std::optional<std::int64_t> warc_date_seconds(std::string_view date) {
  std::tm tm{};
  int year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0;
  const std::string text(date);
  const int read = std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &year, &month, &day, &hour, &minute, &second);
  if (read < 1 || year < 1970 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 ||
      second > 60) {
    return std::nullopt;
  }
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  return static_cast<std::int64_t>(timegm(&tm));
}

Result<std::optional<std::vector<fs::path>>> archive_inputs(const std::vector<fs::path>& inputs) {
  std::vector<fs::path> archives;
  std::error_code ec;
  for (const fs::path& input : inputs) {
    if (fs::is_regular_file(input, ec)) {
      archives.push_back(input);
      continue;
    }
    if (!fs::exists(input, ec)) {
      return Status::not_found("site directory or web archive '" + input.string() + "' does not exist");
    }
    if (!fs::is_directory(input, ec)) {
      return Status::not_found("'" + input.string() + "' is neither a site directory nor a web archive");
    }
    std::vector<fs::path> found = archives_in(input);
    if (found.empty()) {
      if (inputs.size() == 1) return std::optional<std::vector<fs::path>>();  // a site on disk
      return Status::error("'" + input.string() +
                                      "' holds no web archive (*.warc, *.warc.gz): several inputs must all be archives");
    }
    archives.insert(archives.end(), found.begin(), found.end());
  }
  return std::optional<std::vector<fs::path>>(std::move(archives));
}

Result<ArchiveSite> read_archives(const std::vector<fs::path>& archives, const fs::path& body_dir, unsigned threads,
                                  Progress& progress) {
  ArchiveSite site;
  std::error_code ec;
  fs::create_directories(body_dir, ec);
  if (ec) return Status::io_error("cannot create '" + body_dir.string() + "': " + ec.message());
  std::size_t total = 0;
  for (const fs::path& archive : archives) total += static_cast<std::size_t>(fs::file_size(archive, ec));
  progress.start("read archives (bytes)", total);
  // One thread an archive (a crawl of many archives reads them at once), then their captures
  // in the order of the archives, as one thread would have read them.
  std::vector<CaptureReader> readers;
  for (std::size_t a = 0; a < archives.size(); ++a) readers.emplace_back(body_dir, a);
  std::vector<Status> statuses(archives.size(), Status::ok_status());
  std::atomic<std::size_t> done{0};
  std::mutex progress_mutex;
  parallel_for(archives.size(), threads, [&](std::size_t a, std::size_t) {
    statuses[a] = readers[a].read(archives[a], [&](std::size_t bytes) {
      const std::size_t now = done += bytes;
      if (std::unique_lock lock(progress_mutex, std::try_to_lock); lock) progress.update(now);
    });
  });
  for (const Status& status : statuses) {
    if (!status.ok()) return status;
  }
  progress.finish();
  std::vector<Capture> captures;
  std::vector<SkippedPath> cut_records;
  for (CaptureReader& reader : readers) {
    site.counts += reader.counts();
    for (Capture& c : reader.captures()) {
      c.order = captures.size();  // the reading order of the whole crawl
      captures.push_back(std::move(c));
    }
    for (SkippedPath& cut : reader.cut_records()) {
      site.problems.push_back(cut.reason);
      cut_records.push_back(std::move(cut));
    }
  }

  // The base URL: the site root of the first page captured.
  for (const Capture& c : captures) {
    if (c.kind != CaptureKind::kPage) continue;
    auto root = urls::resolve_url(c.url, "/");
    if (root.ok()) site.base_url = root.value();
    break;
  }
  if (site.base_url.empty()) {
    return Status::error("the archives hold no HTML page of an http(s) URL" +
                         (site.problems.empty() ? std::string() : " (" + site.problems.front() + ")"));
  }

  lay_out(captures, site);
  for (SkippedPath& cut : cut_records) site.plan.skipped.push_back(std::move(cut));
  site.plan = SitePlan::of_captures(std::move(site.plan.files), std::move(site.plan.skipped));
  return site;
}

}  // namespace canon::indexer
