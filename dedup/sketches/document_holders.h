/// @file document_holders.h
/// @brief Which process holds each document in a partitioned run, where each process holds a
/// range of the documents (its sketches, its names): the ranges, told to every process; and the
/// sketches a process received from their holders.
#pragma once

#include <algorithm>
#include <cassert>
#include <span>
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

/// Sketches received from the processes holding them, by document.
class ReceivedSketches {
public:
  /// Reads all_to_all_bytes' messages of (document, `width` values) records.
  ReceivedSketches(const std::vector<std::string>& messages, std::size_t width) {
    for (const std::string& message : messages) {
      codec::Reader in(message);
      while (!in.at_end() && in.ok()) {
        auto& [d, sketch] = received_.emplace_back(static_cast<std::uint32_t>(in.fixed(4)), std::vector<std::uint32_t>(width));
        for (std::uint32_t& value : sketch) value = static_cast<std::uint32_t>(in.fixed(4));
      }
    }
    std::sort(received_.begin(), received_.end());
  }
  /// d's sketch. REQUIRES: it was received.
  std::span<const std::uint32_t> of(std::uint32_t d) const {
    const auto it = std::lower_bound(received_.begin(), received_.end(), d,
                                     [](const auto& r, std::uint32_t key) { return r.first < key; });
    assert(it != received_.end() && it->first == d);
    return it->second;
  }

private:
  std::vector<std::pair<std::uint32_t, std::vector<std::uint32_t>>> received_;  ///< sorted by document
};

}  // namespace canon::dedup
