/// @file file_io.cpp
/// @brief Reading a whole file.
#include "common/file_io.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace canon {

Result<std::string> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error(std::strerror(errno));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return Status::error("read error");
  return bytes.str();
}

}  // namespace canon
