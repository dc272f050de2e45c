/// @file fault_injection.cpp
/// @brief fault_point().
#include "common/fault_injection.h"

#include <csignal>
#include <cstdlib>

namespace canon {

void fault_point(std::string_view point) {
  static const char* const kill_at = std::getenv("CANON_FAULT_KILL_AT");
  if (kill_at != nullptr && point == kill_at) std::raise(SIGKILL);
}

}  // namespace canon
