/// @file processes.cpp
/// @brief RunProcesses: MPI started when mpirun started this process (Boost.MPI), else nothing.
#include "cli/processes.h"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "cli/commands.h"
#include "common/build_dir.h"

#ifdef CANON_HAVE_MPI
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <mpi.h>

#include "mpi/mpi_collective.h"
#endif

namespace canon::cli {
namespace {

/// The number of processes the launcher says it started, or 0 when none did.
int launched_processes() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    if (const char* value = std::getenv(name); value != nullptr) return std::atoi(value);
  }
  return std::getenv("PMIX_RANK") != nullptr ? 1 : 0;
}

}  // namespace

struct RunProcesses::State {
#ifdef CANON_HAVE_MPI
  std::unique_ptr<boost::mpi::environment> environment;
  std::unique_ptr<mpi::MpiCollective> collective;
#endif
};

RunProcesses::RunProcesses(std::unique_ptr<State> state) : state_(std::move(state)) {}
RunProcesses::~RunProcesses() = default;

Result<std::unique_ptr<RunProcesses>> RunProcesses::start() {
  auto state = std::make_unique<State>();
  const int launched = launched_processes();
  if (launched == 0) return std::unique_ptr<RunProcesses>(new RunProcesses(std::move(state)));
#ifdef CANON_HAVE_MPI
  // Serialized: a stage may make its collective calls from any one of its threads at a time.
  state->environment = std::make_unique<boost::mpi::environment>(boost::mpi::threading::serialized, false);
  if (state->environment->thread_level() < boost::mpi::threading::serialized) {
    return Status::error("this MPI library cannot be called from the threads of a process (MPI_THREAD_SERIALIZED)");
  }
  state->collective = std::make_unique<mpi::MpiCollective>(boost::mpi::communicator());
  return std::unique_ptr<RunProcesses>(new RunProcesses(std::move(state)));
#else
  if (launched > 1) {
    return Status::failed_precondition("this canon was built without MPI (libopenmpi-dev, libboost-mpi-dev), so it "
                                       "cannot be one of " + std::to_string(launched) + " processes of mpirun");
  }
  return std::unique_ptr<RunProcesses>(new RunProcesses(std::move(state)));
#endif
}

const Collective* RunProcesses::collective() const {
#ifdef CANON_HAVE_MPI
  return state_->collective.get();
#else
  return nullptr;
#endif
}

unsigned RunProcesses::threads(unsigned requested) const {
  if (requested != 0 || collective() == nullptr) return requested;
  // mpirun may bind the process to some cores (Open MPI binds to one core a process when it
  // starts two or fewer): then those are its threads.
  const unsigned machine = std::max(1u, std::thread::hardware_concurrency());
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
    const unsigned bound = static_cast<unsigned>(CPU_COUNT(&allowed));
    if (bound > 0 && bound < machine) return bound;
  }
  const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  const int here = local != nullptr ? std::atoi(local) : 0;
  if (here <= 1) return requested;
  return std::max(1u, machine / static_cast<unsigned>(here));
}

bool RunProcesses::reports() const { return collective() == nullptr || collective()->rank() == 0; }

void RunProcesses::fail(const Status& status) const {
  const Collective* processes = collective();
  if (processes == nullptr || processes->size() == 1) cli::fail(status);
#ifdef CANON_HAVE_MPI
  // One write, so that the lines of processes failing at once do not interleave.
  const std::string line = "canon: process " + std::to_string(processes->rank()) + " of " +
                           std::to_string(processes->size()) + ": " + without_build_paths(status.message()) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
  // mpirun forwards a process's stderr through a pipe and may kill the job before reading what
  // is left in it (Open MPI: "you may or may not see output from other processes"); a moment
  // lets the line that says why reach the terminal (mpi_index lost it on a loaded machine).
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  MPI_Abort(MPI_COMM_WORLD, exit_code(status.code()));
#endif
  std::abort();  // not reached: MPI_Abort does not return
}

}  // namespace canon::cli
