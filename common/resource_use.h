/// @file resource_use.h
/// @brief What this process has spent of the machine: CPU, and what it read from and wrote to
/// storage (getrusage).
#pragma once

#include <cstdint>

namespace canon {

/// This process's use of the machine since it started, all threads (getrusage(RUSAGE_SELF)).
/// The difference of two readings is what was spent between them.
struct ResourceUse {
  /// User and system CPU time.
  double cpu_seconds = 0.0;
  /// Of cpu_seconds, the kernel's on the process's behalf (system calls, page faults, reclaiming
  /// the page cache when memory is short).
  double system_cpu_seconds = 0.0;
  /// Page faults that had to read from storage (a mapped file or memory not in the page cache).
  std::uint64_t major_faults = 0;
  /// Bytes the file system read from storage for the process (not what the page cache served),
  /// and bytes the process wrote that go to storage (ru_inblock, ru_oublock: 512-byte units).
  std::uint64_t read_bytes = 0;
  std::uint64_t written_bytes = 0;
};

/// The process's use so far; zeros where the system does not say.
ResourceUse resource_use();

/// What was spent from `earlier` to `later` (two readings of resource_use()).
ResourceUse operator-(const ResourceUse& later, const ResourceUse& earlier);

}  // namespace canon
