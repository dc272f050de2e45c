/// @file resource_use.cpp
/// @brief This process's CPU and storage use from getrusage.
#include "common/resource_use.h"

#include <sys/resource.h>

namespace canon {

namespace {

double seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); }

/// Linux counts ru_inblock and ru_oublock in 512-byte units (getrusage(2)).
constexpr std::uint64_t kBlockBytes = 512;

}  // namespace

ResourceUse resource_use() {
  rusage use{};
  if (::getrusage(RUSAGE_SELF, &use) != 0) return {};
  ResourceUse r;
  r.system_cpu_seconds = seconds(use.ru_stime);
  r.cpu_seconds = seconds(use.ru_utime) + r.system_cpu_seconds;
  r.major_faults = static_cast<std::uint64_t>(use.ru_majflt);
  r.read_bytes = static_cast<std::uint64_t>(use.ru_inblock) * kBlockBytes;
  r.written_bytes = static_cast<std::uint64_t>(use.ru_oublock) * kBlockBytes;
  return r;
}

ResourceUse operator-(const ResourceUse& later, const ResourceUse& earlier) {
  const auto minus = [](std::uint64_t a, std::uint64_t b) { return a >= b ? a - b : 0; };
  ResourceUse d;
  d.cpu_seconds = later.cpu_seconds - earlier.cpu_seconds;
  d.system_cpu_seconds = later.system_cpu_seconds - earlier.system_cpu_seconds;
  d.major_faults = minus(later.major_faults, earlier.major_faults);
  d.read_bytes = minus(later.read_bytes, earlier.read_bytes);
  d.written_bytes = minus(later.written_bytes, earlier.written_bytes);
  return d;
}

}  // namespace canon
