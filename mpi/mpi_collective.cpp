/// @file mpi_collective.cpp
/// @brief MpiCollective over MPI_Allgatherv, MPI_Allreduce and MPI_Alltoallv.
#include "mpi/mpi_collective.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <limits>
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

std::uint64_t MpiCollective::piece() const {
  const std::uint64_t round = std::min<std::uint64_t>(round_bytes_, std::numeric_limits<int>::max());
  return std::max<std::uint64_t>(1, round / static_cast<std::uint64_t>(communicator_.size()));
}

std::vector<std::string> MpiCollective::all_gather_bytes(std::string_view mine) const {
  const MPI_Comm comm = static_cast<MPI_Comm>(communicator_);
  const int processes = communicator_.size();
  std::uint64_t length = mine.size();
  std::vector<std::uint64_t> lengths(static_cast<std::size_t>(processes));
  MPI_Allgather(&length, 1, MPI_UINT64_T, lengths.data(), 1, MPI_UINT64_T, comm);
  std::vector<std::string> all(lengths.size());
  for (std::size_t p = 0; p < all.size(); ++p) all[p].resize(lengths[p]);
  // Round by round, each process sends the next piece of its bytes (none once it has sent all);
  // a round's pieces together stay within MPI's int counts and displacements. (The gather of the
  // lengths already waited for every process.)
  const std::uint64_t piece = this->piece();
  const std::uint64_t longest = *std::max_element(lengths.begin(), lengths.end());
  const int rank = communicator_.rank();
  std::vector<int> sizes(all.size()), offsets(all.size());
  std::string buffer;
  for (std::uint64_t from = 0; from < longest; from += piece) {
    int total = 0;
    for (std::size_t p = 0; p < all.size(); ++p) {
      sizes[p] = static_cast<int>(lengths[p] > from ? std::min(piece, lengths[p] - from) : 0);
      offsets[p] = total;
      total += sizes[p];
    }
    buffer.resize(static_cast<std::size_t>(total));
    MPI_Allgatherv(const_cast<char*>(mine.data() + std::min<std::uint64_t>(from, mine.size())), sizes[rank], MPI_BYTE,
                   buffer.data(), sizes.data(), offsets.data(), MPI_BYTE, comm);
    for (std::size_t p = 0; p < all.size(); ++p) {
      if (sizes[p] > 0) std::copy_n(buffer.data() + offsets[p], sizes[p], all[p].data() + from);
    }
  }
  return all;
}

std::vector<std::string> MpiCollective::all_to_all_bytes(const std::vector<std::string>& to_each) const {
  const MPI_Comm comm = static_cast<MPI_Comm>(communicator_);
  const auto processes = static_cast<std::size_t>(communicator_.size());
  std::vector<std::uint64_t> send_lengths(processes), receive_lengths(processes);
  for (std::size_t p = 0; p < processes; ++p) send_lengths[p] = to_each[p].size();
  MPI_Alltoall(send_lengths.data(), 1, MPI_UINT64_T, receive_lengths.data(), 1, MPI_UINT64_T, comm);
  std::vector<std::string> from_each(processes);
  for (std::size_t p = 0; p < processes; ++p) from_each[p].resize(receive_lengths[p]);
  // Rounds as in all_gather_bytes: the number of rounds is the longest message's, agreed on by
  // every process.
  std::uint64_t longest = 0;
  for (std::size_t p = 0; p < processes; ++p) longest = std::max({longest, send_lengths[p], receive_lengths[p]});
  MPI_Allreduce(MPI_IN_PLACE, &longest, 1, MPI_UINT64_T, MPI_MAX, comm);
  const std::uint64_t piece = this->piece();
  std::vector<int> send_sizes(processes), send_offsets(processes), receive_sizes(processes), receive_offsets(processes);
  std::string send_buffer, receive_buffer;
  for (std::uint64_t from = 0; from < longest; from += piece) {
    const auto piece_of = [&](std::uint64_t length) {
      return static_cast<int>(length > from ? std::min(piece, length - from) : 0);
    };
    int send_total = 0, receive_total = 0;
    for (std::size_t p = 0; p < processes; ++p) {
      send_sizes[p] = piece_of(send_lengths[p]);
      send_offsets[p] = send_total;
      send_total += send_sizes[p];
      receive_sizes[p] = piece_of(receive_lengths[p]);
      receive_offsets[p] = receive_total;
      receive_total += receive_sizes[p];
    }
    send_buffer.resize(static_cast<std::size_t>(send_total));
    for (std::size_t p = 0; p < processes; ++p) {
      if (send_sizes[p] > 0) std::copy_n(to_each[p].data() + from, send_sizes[p], send_buffer.data() + send_offsets[p]);
    }
    receive_buffer.resize(static_cast<std::size_t>(receive_total));
    MPI_Alltoallv(send_buffer.data(), send_sizes.data(), send_offsets.data(), MPI_BYTE, receive_buffer.data(),
                  receive_sizes.data(), receive_offsets.data(), MPI_BYTE, comm);
    for (std::size_t p = 0; p < processes; ++p) {
      if (receive_sizes[p] > 0) std::copy_n(receive_buffer.data() + receive_offsets[p], receive_sizes[p], from_each[p].data() + from);
    }
  }
  return from_each;
}

}  // namespace canon::mpi
