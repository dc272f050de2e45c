/// @file mpi_collective.h
/// @brief The Collective of a run over MPI (Open MPI, through Boost.MPI): the processes mpirun
/// started, on one machine or many (docs/partitioned-build.md).
#pragma once

#include <boost/mpi/communicator.hpp>

#include "common/collective.h"

namespace canon::mpi {

/// The processes of `communicator`. REQUIRES: MPI initialised (a boost::mpi::environment) with
/// at least MPI_THREAD_SERIALIZED, since calls may come from any one thread at a time.
class MpiCollective final : public Collective {
public:
  explicit MpiCollective(boost::mpi::communicator communicator) : communicator_(std::move(communicator)) {}
  unsigned rank() const override { return static_cast<unsigned>(communicator_.rank()); }
  unsigned size() const override { return static_cast<unsigned>(communicator_.size()); }
  /// MPI_Allgatherv. REQUIRES (besides Collective's): every count and their sum below 2^31.
  void all_gather(std::span<const double> mine, std::span<double> all,
                  std::span<const std::size_t> counts) const override;
  /// MPI_Allreduce with MPI_MIN, in place. REQUIRES: values.size() below 2^31.
  void all_reduce_min(std::span<std::uint32_t> values) const override;
  /// MPI_Allgather of the lengths, then MPI_Allgatherv of the bytes in rounds whose pieces
  /// together fit MPI's int counts (at most INT_MAX / size() bytes a process a round).
  std::vector<std::string> all_gather_bytes(std::string_view mine) const override;
  /// MPI_Alltoall of the lengths, then MPI_Alltoallv of the bytes in rounds whose pieces
  /// together fit MPI's int counts (at most INT_MAX / size() bytes a pair of processes a round).
  std::vector<std::string> all_to_all_bytes(const std::vector<std::string>& to_each) const override;

private:
  boost::mpi::communicator communicator_;
};

}  // namespace canon::mpi
