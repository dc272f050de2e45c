/// @file memory_use.cpp
/// @brief This process's resident memory from /proc/self/status.
#include "common/memory_use.h"

#include <fstream>
#include <string>

namespace canon {

MemoryUse memory_use() {
  MemoryUse use;
  std::ifstream status("/proc/self/status");
  std::string line;
  // Lines such as "VmRSS:	   20748 kB".
  const auto kibibytes = [](const std::string& text) { return std::stoull(text.substr(text.find(':') + 1)) * 1024; };
  while (std::getline(status, line)) {
    if (line.starts_with("VmRSS:")) use.resident_bytes = kibibytes(line);
    else if (line.starts_with("VmHWM:")) use.peak_resident_bytes = kibibytes(line);
  }
  return use;
}

}  // namespace canon
