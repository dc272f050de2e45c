/// @file file_io.h
/// @brief Reading a whole file: the one place canon does it.
#pragma once

#include <filesystem>
#include <string>

#include "common/status.h"

namespace canon {

/// The bytes of the file at `path`. On failure the Status says why without naming the file
/// ("No such file or directory", "read error"), so each caller names it as its message needs
/// (a page's skip reason in pages.jsonl has its path already).
Result<std::string> read_file(const std::filesystem::path& path);

}  // namespace canon
