/// @file build_dir.h
/// @brief A directory built beside its destination and put in place only when complete, so a
/// failed or interrupted run leaves the previous output as it was.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "common/status.h"

namespace canon {

/// PARENT/.NAME.TAG-PID beside the destination PARENT/NAME. commit() puts it in place: everything
/// in it is synced to disk, then an atomic exchange (renameat2 RENAME_EXCHANGE) with an existing
/// destination, which is then removed, else a rename; then PARENT is synced. Destroyed uncommitted, it is removed with what it holds. Move-only.
class BuildDirectory {
public:
  /// Creates the directory beside `destination` (and the destination's parent when missing),
  /// first removing the `.NAME.TAG-PID` directories of processes that are gone (left by
  /// interrupted runs). Fails when it cannot be created.
  static Result<BuildDirectory> create(const std::filesystem::path& destination, std::string_view tag);

  BuildDirectory(BuildDirectory&& other) noexcept;
  BuildDirectory& operator=(BuildDirectory&&) = delete;
  BuildDirectory(const BuildDirectory&) = delete;
  ~BuildDirectory();

  /// Where to build.
  const std::filesystem::path& path() const { return path_; }
  /// Moves the built directory to the destination (replacing what was there). After it, the
  /// directory is the destination's and is not removed.
  Status commit();

private:
  BuildDirectory(std::filesystem::path path, std::filesystem::path destination)
      : path_(std::move(path)), destination_(std::move(destination)) {}
  std::filesystem::path path_;
  std::filesystem::path destination_;
  bool done_ = false;
};

/// `message` with every build directory path in it (PARENT/.NAME.TAG-PID, as create() makes
/// them) written as its destination's (PARENT/NAME): an error names the directory the user
/// gave, not a hidden one they never see.
std::string without_build_paths(std::string_view message);
/// `status` with its message so rewritten (ok stays ok).
Status without_build_paths(const Status& status);

}  // namespace canon
