/// @file memory_use.cpp
/// @brief This process's resident memory from /proc/self/status.
#include "common/memory_use.h"

#include <charconv>
#include <fstream>
#include <string>
#include <string_view>

namespace canon {

namespace {

/// The kibibytes of a line such as "VmRSS:	   20748 kB", in bytes; 0 when it holds no number.
std::uint64_t kibibytes_in(std::string_view line) {
  const std::size_t digits = line.find_first_of("0123456789");
  std::uint64_t value = 0;
  if (digits != std::string_view::npos) std::from_chars(line.data() + digits, line.data() + line.size(), value);
  return value * 1024;
}

}  // namespace

MemoryUse memory_use() {
  MemoryUse use;
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with("VmRSS:")) use.resident_bytes = kibibytes_in(line);
    else if (line.starts_with("VmHWM:")) use.peak_resident_bytes = kibibytes_in(line);
  }
  return use;
}

}  // namespace canon
