/// @file fault_injection.cpp
/// @brief fault_point().
#include "common/fault_injection.h"

#include <csignal>
#include <cstdlib>
#include <string>

namespace canon {

void fault_point(std::string_view point) {
  static const char* const kill_at = std::getenv("CANON_FAULT_KILL_AT");
  if (kill_at != nullptr && point == kill_at) std::raise(SIGKILL);
}

Status injected_failure(std::string_view point) {
  static const char* const fail_at = std::getenv("CANON_FAULT_FAIL_AT");
  if (fail_at == nullptr || point != fail_at) return Status::ok_status();
  return Status::io_error("cannot write at " + std::string(point) + " (CANON_FAULT_FAIL_AT)");
}

}  // namespace canon
