/// @file fault_injection.h
/// @brief Test hooks for fault tests (tests/faults.sh, tests/mpi_index.sh): the process kills
/// itself with SIGKILL at a named point when the environment variable CANON_FAULT_KILL_AT names
/// it, as `kill -9` would at that moment; a write fails at a named point when
/// CANON_FAULT_FAIL_AT names it, as a full disk would make it. Unset (always, outside those
/// tests), they do nothing.
#pragma once

#include <string_view>

#include "common/status.h"

namespace canon {

/// Raises SIGKILL when CANON_FAULT_KILL_AT equals `point` (e.g. "parse", "swap").
void fault_point(std::string_view point);

/// An I/O error naming `point` when CANON_FAULT_FAIL_AT equals it (e.g. "write-shard"), else ok.
Status injected_failure(std::string_view point);

}  // namespace canon
