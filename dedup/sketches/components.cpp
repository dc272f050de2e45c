/// @file components.cpp
/// @brief component_labels: minimum-label propagation with pointer jumping over all_reduce_min.
#include "dedup/sketches/components.h"

#include <algorithm>
#include <numeric>

namespace canon::dedup {

std::vector<std::uint32_t> component_labels(std::uint32_t n, std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs,
                                            const Collective& processes) {
  std::vector<std::uint32_t> label(n);
  std::iota(label.begin(), label.end(), 0u);
  // Each round: along every local pair both ends take the smaller label; the processes agree on
  // the element-wise minimum; then each label jumps to its label's label (the same on every
  // process, since the labels are). A label only falls, to a member of the same component, so
  // the rounds end, with every element labelled by its component's smallest member.
  for (bool moved = true; moved;) {
    const std::vector<std::uint32_t> before = label;
    for (const auto& [a, b] : pairs) {
      const std::uint32_t smaller = std::min(label[a], label[b]);
      label[a] = std::min(label[a], smaller);
      label[b] = std::min(label[b], smaller);
    }
    processes.all_reduce_min(label);
    for (std::uint32_t x = 0; x < n; ++x) label[x] = label[label[x]];
    moved = label != before;
  }
  return label;
}

}  // namespace canon::dedup
