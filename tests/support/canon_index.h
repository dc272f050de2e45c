/// @file canon_index.h
/// @brief An empty canon index for tests of readers that need one (check_canon_index's test).
#pragma once

#include <xapian.h>

#include <filesystem>
#include <string>

#include "format/index_format.h"

namespace canon::testing {

/// Makes `dir` (created if missing) a canon index with no documents: an xapian/ database
/// that carries canon's collapse metadata, which is what index_format::check_canon_index asks.
inline void make_empty_canon_index(const std::filesystem::path& dir) {
  namespace fmt = canon::index_format;
  std::filesystem::create_directories(dir);
  Xapian::WritableDatabase db(fmt::IndexLayout{dir}.xapian().string(), Xapian::DB_CREATE_OR_OVERWRITE);
  db.set_metadata(std::string(fmt::kCollapseMetadataKey), std::string(fmt::kCollapseAtIndexTime));
  db.commit();
}

}  // namespace canon::testing
