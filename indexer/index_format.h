/// @file index_format.h
/// @brief The names shared by the index writer and the searcher (docs/index-format.md).
#pragma once

#include <string>
#include <string_view>

#include <xapian.h>

namespace canon::index_format {

/// Value slot of the static score (cluster PageRank), Xapian::sortable_serialise'd.
/// Omega uses slots 0-3 (last modified, MD5, size, ctime), so canon starts at 10.
inline constexpr Xapian::valueno kStaticScoreSlot = 10;
/// Value slot of the cluster id, as decimal text.
inline constexpr Xapian::valueno kClusterSlot = 11;

/// Omega's prefixes: S title, U url (unique), H host, P path, K keywords, T mime type.
inline constexpr std::string_view kTitlePrefix = "S";
inline constexpr std::string_view kUrlPrefix = "U";
inline constexpr std::string_view kHostPrefix = "H";
inline constexpr std::string_view kPathPrefix = "P";
inline constexpr std::string_view kKeywordPrefix = "K";
inline constexpr std::string_view kMimeTypePrefix = "T";

/// Document data keys (Omega's `key=value` lines; canon's own keys start with "canon_").
inline constexpr std::string_view kDataUrl = "url";
inline constexpr std::string_view kDataCaption = "caption";
inline constexpr std::string_view kDataSample = "sample";
inline constexpr std::string_view kDataType = "type";
inline constexpr std::string_view kDataText = "canon_text";
inline constexpr std::string_view kDataAlternates = "canon_alternates";

/// "U" + url, or when that exceeds Xapian's safe term length, the first part of the URL and
/// a hash of the whole (as omindex does), so every URL has one unique term.
std::string url_term(std::string_view url);

/// The stemming language of every text field.
inline constexpr const char* kStemLanguage = "english";

}  // namespace canon::index_format
