/// @file mpi_collective.h
/// @brief The Collective of a run over MPI (Open MPI, through Boost.MPI): the processes mpirun
/// started, on one machine or many (docs/partitioned-build.md).
#pragma once

#include <boost/mpi/communicator.hpp>

#include <cstddef>
#include <cstdint>

#include "common/collective.h"

namespace canon::mpi {

/// The processes of `communicator`. REQUIRES: MPI initialised (a boost::mpi::environment) with
/// at least MPI_THREAD_SERIALIZED, since calls may come from any one thread at a time.
class MpiCollective final : public Collective {
public:
  /// What one round of all_gather_bytes or all_to_all_bytes receives at most, all processes'
  /// pieces together: the round's buffer. Larger rounds save little time; a round of everything
  /// was 1.2 GB beside the received bytes themselves on the 1M-page site with 2 processes
  /// (docs/partitioned-build.md).
  static constexpr std::size_t kDefaultRoundBytes = std::size_t{64} << 20;

  /// `round_bytes`: see kDefaultRoundBytes (a test makes it small, for many rounds).
  explicit MpiCollective(boost::mpi::communicator communicator, std::size_t round_bytes = kDefaultRoundBytes)
      : communicator_(std::move(communicator)), round_bytes_(round_bytes) {}
  unsigned rank() const override { return static_cast<unsigned>(communicator_.rank()); }
  unsigned size() const override { return static_cast<unsigned>(communicator_.size()); }
  /// MPI_Allgatherv. REQUIRES (besides Collective's): every count and their sum below 2^31.
  void all_gather(std::span<const double> mine, std::span<double> all,
                  std::span<const std::size_t> counts) const override;
  /// MPI_Allreduce with MPI_MIN, in place. REQUIRES: values.size() below 2^31.
  void all_reduce_min(std::span<std::uint32_t> values) const override;
  /// MPI_Allgather of the lengths, then MPI_Allgatherv of the bytes in rounds of at most
  /// round_bytes / size() bytes a process (and within MPI's int counts).
  std::vector<std::string> all_gather_bytes(std::string_view mine) const override;
  /// MPI_Alltoall of the lengths, then MPI_Alltoallv of the bytes in rounds of at most
  /// round_bytes / size() bytes a pair of processes (and within MPI's int counts).
  std::vector<std::string> all_to_all_bytes(const std::vector<std::string>& to_each) const override;

private:
  /// The bytes a process (or a pair of processes) moves in one round.
  std::uint64_t piece() const;

  boost::mpi::communicator communicator_;
  std::size_t round_bytes_;
};

}  // namespace canon::mpi
