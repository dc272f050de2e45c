/// @file processes.h
/// @brief The processes a `canon` command is one of: those `mpirun` started (a partitioned build,
/// docs/partitioned-build.md), or this one alone.
#pragma once

#include <memory>

#include "common/collective.h"
#include "common/status.h"

namespace canon::cli {

/// When `mpirun` (Open MPI, or a launcher that sets PMI_SIZE or PMIX_RANK) started this process:
/// MPI initialised for the life of this object and the processes it started; else this process
/// alone. A canon built without MPI refuses to be one of several processes (each would build
/// the whole index into the same directory).
class RunProcesses {
public:
  static Result<std::unique_ptr<RunProcesses>> start();
  ~RunProcesses();
  RunProcesses(const RunProcesses&) = delete;
  RunProcesses& operator=(const RunProcesses&) = delete;

  /// The processes, for IndexOptions::processes; null when this process is alone.
  const Collective* collective() const;
  /// Whether this process reports for the run (the first, or the only one).
  bool reports() const;
  /// The threads this process is to use when `requested` is 0 (all): the cores mpirun bound it
  /// to, when it bound it to fewer than the machine's; else the machine's hardware threads
  /// shared among the run's processes on this machine (Open MPI's OMPI_COMM_WORLD_LOCAL_SIZE),
  /// at least 1. `requested` otherwise, and when mpirun did not start this process.
  unsigned threads(unsigned requested) const;
  /// Ends a run that failed: alone, reports `status` and exits with its code (cli::fail); one of
  /// several, says which process failed and why, and ends every process of the run (MPI_Abort),
  /// so that none waits for it.
  [[noreturn]] void fail(const Status& status) const;

private:
  struct State;
  explicit RunProcesses(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace canon::cli
