/// @file document_holders.h
/// @brief Which process holds each document in a partitioned run, where each process holds a
/// range of the documents (its sketches, its names): the ranges, told to every process.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "common/byte_codec.h"
#include "common/collective.h"

namespace canon::dedup {

/// Every process's range [first, end) of the documents, known to all (P ranges: no array of
/// the site).
class DocumentHolders {
public:
  /// Collective: every process gives the range it holds; the ranges do not overlap.
  DocumentHolders(std::uint32_t first, std::uint32_t end, const Collective& processes) : count_(processes.size()) {
    std::string mine;
    codec::put_varint(mine, first);
    codec::put_varint(mine, end);
    const std::vector<std::string> told = processes.all_gather_bytes(mine);
    for (unsigned p = 0; p < count_; ++p) {
      codec::Reader in(told[p]);
      const auto held_first = static_cast<std::uint32_t>(in.varint());
      const auto held_end = static_cast<std::uint32_t>(in.varint());
      if (held_first < held_end) by_first_.emplace_back(held_first, held_end, p);
    }
    std::sort(by_first_.begin(), by_first_.end());
  }
  /// The process holding document d; the number of processes when none does.
  unsigned of(std::uint32_t d) const {
    auto it = std::upper_bound(by_first_.begin(), by_first_.end(), d,
                               [](std::uint32_t key, const auto& range) { return key < std::get<0>(range); });
    if (it == by_first_.begin() || d >= std::get<1>(*--it)) return count_;
    return std::get<2>(*it);
  }

private:
  unsigned count_;
  std::vector<std::tuple<std::uint32_t, std::uint32_t, unsigned>> by_first_;  ///< the non-empty ranges, sorted
};

}  // namespace canon::dedup
