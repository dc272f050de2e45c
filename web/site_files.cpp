/// @file site_files.cpp
/// @brief The site's files beside the search: path checks, directory index pages, types.
#include "web/site_files.h"

#include <algorithm>
#include <vector>

#include "common/file_io.h"
#include "common/percent_encoding.h"
#include "format/index_format.h"
#include "web/web_routes.h"

namespace canon::web {
namespace fs = std::filesystem;

namespace {

/// Largest file served (a site's pages and assets; the indexer reads 8 MiB of a page).
constexpr std::uintmax_t kMaxServedBytes = std::uintmax_t{256} << 20;

HttpAnswer not_found() { return plain_answer(404, "Not found."); }

/// The segments of a request path, decoded, or nothing when the path is refused: not starting
/// with '/', an encoded '/' or '\' (a name cannot hold one; a decoder below might split at it),
/// a NUL or a backslash, a "." or ".." segment.
std::optional<std::vector<std::string>> path_segments(std::string_view path) {
  if (path.empty() || path.front() != '/') return std::nullopt;
  std::vector<std::string> segments;
  std::size_t start = 1;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string segment = percent_decode(path.substr(start, end - start), /*plus_is_space=*/false);
    const bool bad_byte = std::any_of(segment.begin(), segment.end(), [](char c) { return c == '/' || c == '\\' || c == '\0'; });
    if (bad_byte || segment == "." || segment == "..") return std::nullopt;
    segments.push_back(std::move(segment));
    start = end + 1;
  }
  return segments;
}

/// Whether canonical path `inside` is `dir` or below it.
bool is_within(const fs::path& inside, const fs::path& dir) {
  const auto [dir_end, _] = std::mismatch(dir.begin(), dir.end(), inside.begin(), inside.end());
  return dir_end == dir.end();
}

/// The index page of directory `dir`, or nothing.
std::optional<fs::path> index_page(const fs::path& dir) {
  std::error_code ec;
  for (const char* name : {"index.html", "index.htm"}) {
    if (fs::is_regular_file(dir / name, ec)) return dir / name;
  }
  return std::nullopt;
}

HttpAnswer file_answer(const fs::path& file) {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(file, ec);
  if (ec || size > kMaxServedBytes) return not_found();
  auto bytes = read_file(file);
  if (!bytes.ok()) return not_found();
  HttpAnswer answer{200, content_type_of(file), std::move(bytes).value()};
  answer.site_page = true;
  return answer;
}

}  // namespace

HttpAnswer SiteFiles::answer(std::string_view path) const {
  const auto segments = path_segments(path);
  if (!segments) return not_found();
  fs::path wanted = dir_;
  for (const std::string& segment : *segments) {
    if (!segment.empty()) wanted /= segment;
  }
  std::error_code ec;
  const fs::path real = fs::canonical(wanted, ec);
  if (ec || !is_within(real, dir_)) return not_found();
  if (fs::is_directory(real, ec)) {
    if (!path.ends_with('/')) {
      HttpAnswer moved = plain_answer(301, "Moved to the directory.");
      moved.location = std::string(path) + "/";
      return moved;
    }
    const auto index = index_page(real);
    if (!index) return not_found();
    const fs::path real_index = fs::canonical(*index, ec);
    if (ec || !is_within(real_index, dir_)) return not_found();
    return file_answer(real_index);
  }
  if (!fs::is_regular_file(real, ec)) return not_found();
  return file_answer(real);
}

std::string content_type_of(const fs::path& file) {
  std::string extension = file.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  static const std::pair<const char*, const char*> kTypes[] = {
      {".html", "text/html"},        {".htm", "text/html"},         {".css", "text/css"},
      {".js", "text/javascript"},    {".mjs", "text/javascript"},   {".json", "application/json"},
      {".svg", "image/svg+xml"},     {".png", "image/png"},         {".jpg", "image/jpeg"},
      {".jpeg", "image/jpeg"},       {".gif", "image/gif"},         {".webp", "image/webp"},
      {".ico", "image/x-icon"},      {".woff", "font/woff"},        {".woff2", "font/woff2"},
      {".ttf", "font/ttf"},          {".otf", "font/otf"},          {".txt", "text/plain; charset=utf-8"},
      {".xml", "application/xml"},   {".pdf", "application/pdf"},   {".wasm", "application/wasm"},
  };
  for (const auto& [name, type] : kTypes) {
    if (extension == name) return type;
  }
  return "application/octet-stream";
}

Result<ServedSite> find_served_site(const fs::path& index_dir, const std::optional<fs::path>& site_dir,
                                    std::string& note) {
  ServedSite site;
  index_format::IndexedSite indexed = index_format::read_indexed_site(index_dir);
  site.base_url = std::move(indexed.base_url);
  const std::optional<fs::path>& recorded = indexed.site_dir;
  std::error_code ec;
  if (site_dir) {
    if (!fs::is_directory(*site_dir, ec)) return Status::error("--site: '" + site_dir->string() + "' is not a directory");
    site.dir = fs::canonical(*site_dir, ec);
    note = "serving the site's pages from " + site.dir.string() + " (results under " + site.base_url + " link to them)";
    return site;
  }
  if (site.base_url != index_format::kDefaultBaseUrl) {
    note = "results link to " + site.base_url + " (the index's --base-url)";
    return site;
  }
  if (!recorded || !fs::is_directory(*recorded, ec)) {
    note = "results link to " + site.base_url + ", and the site's pages are not served (" +
           (recorded ? "'" + recorded->string() + "' is gone" : "the index does not say where they are") +
           "): give --site DIR";
    return site;
  }
  site.dir = fs::canonical(*recorded, ec);
  note = "serving the site's pages from " + site.dir.string() + ", where the index was built from";
  return site;
}

}  // namespace canon::web
