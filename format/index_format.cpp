/// @file index_format.cpp
/// @brief Omega's long-term hashing, the unique URL term, path terms and value encodings.
#include "format/index_format.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cctype>

#include <nlohmann/json.hpp>

#include "common/file_io.h"
#include "format/shards.h"

namespace canon::index_format {
namespace {

/// Length of omindex's hash: 32 bits written 6 bits per byte.
constexpr std::size_t kHashLength = 6;

/// omindex's hash of the cut-off tail of a long term (omega/hashterm.cc): h = 1, then
/// h = h * 33 + byte over the bytes, kept to 32 bits; written least significant 6 bits first,
/// each as the byte 33 + bits, and padded with spaces once the remaining bits are all zero.
std::string tail_hash(std::string_view tail) {
  std::uint32_t h = 1;
  for (unsigned char c : tail) h += (h << 5) + c;
  std::string out(kHashLength, ' ');
  for (std::size_t i = 0; h != 0; ++i, h >>= 6) out[i] = static_cast<char>((h & 63) + 33);
  return out;
}

}  // namespace

std::string_view to_string(CollapseMode mode) {
  return mode == CollapseMode::kQueryTime ? kCollapseAtQueryTime : kCollapseAtIndexTime;
}

std::optional<CollapseMode> parse_collapse_mode(std::string_view text) {
  if (text == kCollapseAtIndexTime) return CollapseMode::kIndexTime;
  if (text == kCollapseAtQueryTime) return CollapseMode::kQueryTime;
  return std::nullopt;
}

Result<std::filesystem::path> canon_database_path(const std::filesystem::path& dir) {
  const IndexLayout index{dir};
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    return Status::not_found("index '" + dir.string() + "' does not exist (build it with `canon index`)");
  }
  if (std::filesystem::is_regular_file(dir, ec)) {
    if (auto stub = read_stub(dir); !stub.ok()) {
      return Status::failed_precondition("'" + dir.string() + "' is not a canon index (not a directory, nor a stub file listing shards: " +
                                         stub.status().message() + ")");
    }
    return dir;
  }
  if (!std::filesystem::is_directory(dir, ec)) {
    return Status::failed_precondition("'" + dir.string() + "' is not a canon index (not a directory)");
  }
  if (!std::filesystem::is_directory(index.xapian(), ec)) {
    return Status::failed_precondition("'" + dir.string() + "' is not a canon index (no xapian/ inside)");
  }
  return index.xapian();
}

Status check_canon_metadata(const Xapian::Database& db, const std::filesystem::path& dir) {
  if (!db.get_metadata(std::string(kCollapseMetadataKey)).empty()) return Status::ok_status();
  return Status::failed_precondition("'" + dir.string() +
                                     "' is not a canon index (its Xapian database was not written by canon; rebuild it with `canon index`)");
}

Result<Xapian::Database> open_canon_index(const std::filesystem::path& dir) {
  auto database = canon_database_path(dir);
  if (!database.ok()) return database.status();
  try {
    Xapian::Database db(database.value().string());
    if (Status canon = check_canon_metadata(db, dir); !canon.ok()) return canon;
    return db;
  } catch (const Xapian::Error& e) {
    return Status::corruption("cannot open the index at '" + database.value().string() + "': " + e.get_description());
  }
}

IndexedSite read_indexed_site(const std::filesystem::path& dir) {
  IndexedSite site;
  auto summary = read_file(IndexLayout{dir}.summary());
  if (!summary.ok()) return site;
  const nlohmann::json j = nlohmann::json::parse(summary.value(), nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("parameters") || !j["parameters"].is_object()) return site;
  const nlohmann::json& parameters = j["parameters"];
  if (parameters.contains("base_url") && parameters["base_url"].is_string()) site.base_url = parameters["base_url"];
  if (parameters.contains("site_dir") && parameters["site_dir"].is_string())
    site.site_dir = parameters["site_dir"].get<std::string>();
  return site;
}

Status check_canon_index(const std::filesystem::path& dir) {
  auto db = open_canon_index(dir);
  return db.ok() ? Status::ok_status() : db.status();
}

std::string hash_long_term(std::string_view term, std::size_t max_length) {
  assert(max_length >= kHashLength);
  if (term.size() <= max_length) return std::string(term);
  const std::size_t keep = max_length - kHashLength;
  return std::string(term.substr(0, keep)) + tail_hash(term.substr(keep));
}

std::string url_term(std::string_view url) {
  std::string term(kUrlPrefix);
  term.append(url);
  return hash_long_term(term);
}

namespace {

/// exact_words(), lowercased or as written.
std::string words_of(std::string_view text, bool lowercase) {
  // Xapian's own notion of a word character and of lower case, as its TermGenerator uses.
  std::string words;
  bool in_word = false;
  for (Xapian::Utf8Iterator it(text.data(), text.size()); it != Xapian::Utf8Iterator(); ++it) {
    if (!Xapian::Unicode::is_wordchar(*it)) {
      in_word = false;
      continue;
    }
    if (!in_word && !words.empty()) words.push_back(' ');
    in_word = true;
    Xapian::Unicode::append_utf8(words, lowercase ? Xapian::Unicode::tolower(*it) : *it);
  }
  return words;
}

/// `prefix` + `words`, with Omega's ':' between them when the words begin with a capital (so
/// that the prefix reads unambiguously), hashed past 240 bytes.
std::string prefixed_term(std::string_view prefix, const std::string& words) {
  std::string term(prefix);
  if (!words.empty() && std::isupper(static_cast<unsigned char>(words[0]))) term.push_back(':');
  return hash_long_term(term + words);
}

/// `prefix` + the words of `text`, hashed past 240 bytes; "" when `text` has no word.
std::string exact_term(std::string_view prefix, std::string_view text, bool lowercase = true) {
  const std::string words = words_of(text, lowercase);
  if (words.empty()) return {};
  return prefixed_term(prefix, words);
}

/// The exact terms (of `prefix`) of the whole query and of every run of two or more of its
/// first `max_words` words, longest first.
std::vector<std::string> exact_terms_within(std::string_view prefix, std::string_view query, std::size_t max_words) {
  const std::string normalised = words_of(query, true);
  if (normalised.empty()) return {};
  std::vector<std::string> words;
  bool all_words = true;
  for (std::size_t start = 0; start < normalised.size();) {
    if (words.size() == max_words) {
      all_words = false;
      break;
    }
    std::size_t end = normalised.find(' ', start);
    if (end == std::string::npos) end = normalised.size();
    words.push_back(normalised.substr(start, end - start));
    start = end + 1;
  }
  std::vector<std::string> terms{prefixed_term(prefix, normalised)};
  for (std::size_t length = words.size(); length >= 2; --length) {
    for (std::size_t first = 0; first + length <= words.size(); ++first) {
      if (all_words && length == words.size()) continue;  // the whole query: already there
      std::string span;
      for (std::size_t i = first; i < first + length; ++i) span += (span.empty() ? "" : " ") + words[i];
      terms.push_back(prefixed_term(prefix, span));
    }
  }
  return terms;
}

}  // namespace

std::string exact_title_term(std::string_view text) { return exact_term(kExactTitlePrefix, text); }

std::vector<std::string> exact_title_terms_within(std::string_view query, std::size_t max_words) {
  return exact_terms_within(kExactTitlePrefix, query, max_words);
}

std::string exact_words(std::string_view text) { return words_of(text, true); }

std::string words_as_written(std::string_view text) { return words_of(text, false); }

std::string exact_anchor_term(std::string_view text) { return exact_term(kExactAnchorPrefix, text); }

unsigned anchor_count_levels(std::uint32_t pages) {
  return std::min<unsigned>(static_cast<unsigned>(std::bit_width(pages)) - (pages == 0 ? 0 : 1), kAnchorCountLevels);
}

std::string anchor_count_term(std::string_view anchor_term, unsigned level) {
  return hash_long_term(std::string(anchor_term) + "#" + std::to_string(level));
}

std::string place_name_term(std::string_view text) { return exact_term(kPlaceNamePrefix, text); }

std::string exact_heading_term(std::string_view text) { return exact_term(kExactHeadingPrefix, text); }

std::string cased_anchor_term(std::string_view text) { return exact_term(kCasedAnchorPrefix, text, false); }

std::vector<std::string> path_terms(std::string_view url_path) {
  // The directory the page is in: everything before the last '/' ("/docs/" is docs/index.html).
  std::size_t end = url_path.rfind('/');
  std::vector<std::string> terms;
  while (end != std::string_view::npos && end > 0) {
    terms.push_back(
        hash_long_term(std::string(kPathPrefix) + std::string(url_path.substr(0, end))));
    end = url_path.rfind('/', end - 1);
  }
  return terms;
}

std::string path_filter_term(std::string_view user_path) {
  std::string path(user_path);
  while (!path.empty() && path.back() == '/') path.pop_back();
  if (path.empty()) return {};
  if (path.front() != '/') path.insert(path.begin(), '/');
  return hash_long_term(std::string(kPathPrefix) + path);
}

std::string cluster_value(std::uint32_t cluster_id) { return std::to_string(cluster_id); }

std::string last_modified_value(std::int64_t time) {
  const auto t = static_cast<std::uint32_t>(std::clamp<std::int64_t>(time, 0, 0xFFFFFFFF));
  return {static_cast<char>(t >> 24), static_cast<char>(t >> 16), static_cast<char>(t >> 8),
          static_cast<char>(t)};
}

void add_data_line(std::string& data, std::string_view key, std::string_view value) {
  data.append(key).append("=");
  for (const char c : value) data += (c == '\n' || c == '\r') ? ' ' : c;
  data += '\n';
}

bool is_data_line_of(std::string_view line, std::string_view key) {
  return line.size() > key.size() && line.starts_with(key) && line[key.size()] == '=';
}

std::string data_field(std::string_view data, std::string_view key) {
  std::size_t pos = 0;
  while (pos < data.size()) {
    std::size_t end = data.find('\n', pos);
    if (end == std::string_view::npos) end = data.size();
    const std::string_view line = data.substr(pos, end - pos);
    if (is_data_line_of(line, key)) {
      return std::string(line.substr(key.size() + 1));
    }
    pos = end + 1;
  }
  return {};
}

}  // namespace canon::index_format
