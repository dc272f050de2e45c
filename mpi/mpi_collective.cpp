/// @file mpi_collective.cpp
/// @brief MpiCollective::all_gather over MPI_Allgatherv.
#include "mpi/mpi_collective.h"

#include <mpi.h>

#include <vector>

namespace canon::mpi {

void MpiCollective::all_gather(std::span<const double> mine, std::span<double> all,
                               std::span<const std::size_t> counts) const {
  std::vector<int> sizes(counts.size()), offsets(counts.size());
  int offset = 0;
  for (std::size_t p = 0; p < counts.size(); ++p) {
    sizes[p] = static_cast<int>(counts[p]);
    offsets[p] = offset;
    offset += sizes[p];
  }
  // MPI takes the send buffer as non-const in its older signatures; it only reads it.
  MPI_Allgatherv(const_cast<double*>(mine.data()), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(),
                 sizes.data(), offsets.data(), MPI_DOUBLE, static_cast<MPI_Comm>(communicator_));
}

void MpiCollective::all_reduce_min(std::span<std::uint32_t> values) const {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_UINT32_T, MPI_MIN,
                static_cast<MPI_Comm>(communicator_));
}

}  // namespace canon::mpi
