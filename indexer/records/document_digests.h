/// @file document_digests.h
/// @brief What a page's Xapian document was made of, as digests (DocumentDigests): kept in a
/// page's record and the page store so that a re-index rewrites, updates or keeps each document;
/// in a header of its own so that a page's record needs no Xapian writer for it.
#pragma once

#include <cstdint>

namespace canon::indexer {

/// What a document is written from, as two digests: `terms` of what makes its terms (the bytes
/// parsed and the URL, which make the prepared document's terms under one store fingerprint,
/// and at index-time collapse its alternates' titles), `fields` of what makes its values and
/// data besides (the file's stamp, its cluster fields and static weight). A re-index rewrites a document whose terms digest changed,
/// updates the values and data of one whose fields digest alone changed, and leaves the rest.
struct DocumentDigests {
  std::uint64_t terms = 0;
  std::uint64_t fields = 0;
  /// Of the part of `fields` that makes the document's data (stamp, alternates, authoritative
  /// page): when it is unchanged, an update sets values alone and does not read the data.
  std::uint64_t data = 0;
  bool operator==(const DocumentDigests&) const = default;
};

}  // namespace canon::indexer
