/// @file pagefind_export.h
/// @brief `canon export pagefind`: a Pagefind bundle of an index's authoritative pages, made by
/// Pagefind's own indexer (the npm package's Node API), with canon's search box for it
/// (docs/pagefind.md).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "common/status.h"

namespace canon::pagefind {

struct PagefindExportOptions {
  /// A canon index (`canon index --out`).
  std::filesystem::path index_dir;
  /// The bundle's directory: created, or replaced when it holds a bundle (pagefind-entry.json).
  std::filesystem::path out_dir;
  /// The npm package `pagefind` (the directory holding lib/index.js): default_pagefind_package().
  std::filesystem::path pagefind_package;
  /// The Node.js program, looked up in PATH when it has no slash.
  std::string node = "node";
  /// Progress on a terminal (common/progress.h).
  bool progress = true;
};

struct PagefindExportReport {
  /// Pages in the bundle.
  std::size_t pages = 0;
  /// Documents left out: duplicates indexed for query-time collapse (their authoritative page
  /// is in the bundle).
  std::size_t duplicates = 0;
  /// The language the bundle is indexed in (Pagefind's forceLanguage: the one most pages
  /// declare), "" when no page declares one.
  std::string language;
  /// Pages Pagefind refused, each with its reason.
  std::vector<std::string> refused;
};

/// The pagefind package canon uses when none is given: $CANON_PAGEFIND when set, else the one
/// scripts/install-deps.sh installs into pagefind/node_modules/ of canon's source tree.
std::filesystem::path default_pagefind_package();

/// Writes the bundle: every indexed page of the index (a duplicate indexed for query-time
/// collapse left out) as bundle_page_html() gives it, through Node.js running
/// assets/canon-export.mjs on the pagefind package; then canon's search box for the bundle
/// (canon-pagefind.js, .css, search.html). The bundle is written beside out_dir and swapped
/// in whole, so a failed export leaves the previous one. Errors: not a canon index, no Node.js
/// or no pagefind package (kFailedPrecondition, saying how to install them), out_dir holding
/// something that is not a bundle (kFailedPrecondition), Pagefind failing (kInternal with its
/// message), I/O.
Result<PagefindExportReport> export_pagefind(const PagefindExportOptions& options);

}  // namespace canon::pagefind
