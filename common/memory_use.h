/// @file memory_use.h
/// @brief How much memory this process holds now and has held at most (Linux's /proc/self/status).
#pragma once

#include <cstdint>

namespace canon {

/// Resident memory of this process: now (VmRSS) and at most so far (VmHWM), in bytes.
struct MemoryUse {
  std::uint64_t resident_bytes = 0;
  std::uint64_t peak_resident_bytes = 0;
};

/// This process's memory use now; zeros where the system does not say (no /proc).
MemoryUse memory_use();

}  // namespace canon
