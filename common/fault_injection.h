/// @file fault_injection.h
/// @brief A test hook for crash tests (tests/faults.sh): the process kills itself with SIGKILL
/// at a named point when the environment variable CANON_FAULT_KILL_AT names it, as `kill -9`
/// would at that moment. Unset (always, outside those tests), it does nothing.
#pragma once

#include <string_view>

namespace canon {

/// Raises SIGKILL when CANON_FAULT_KILL_AT equals `point` (e.g. "parse", "swap").
void fault_point(std::string_view point);

}  // namespace canon
