/// @file components.cpp
/// @brief pair_component_labels: minimum labels kept by their elements' owners, merged locally
/// along each process's pairs, with pointer jumping at the owners.
#include "dedup/sketches/components.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "dedup/sketches/union_find.h"

namespace canon::dedup {
namespace {

using Element = std::uint32_t;
using LabelOf = std::pair<Element, Element>;  // (element, its label)

/// (element, value) records as messages for all_to_all_bytes, each to its element's owner.
std::vector<std::string> to_owners(std::span<const LabelOf> records, const std::function<unsigned(Element)>& owner_of,
                                   unsigned count) {
  std::vector<std::string> to_each(count);
  for (const LabelOf& r : records) {
    const Element both[2] = {r.first, r.second};
    to_each[owner_of(r.first)].append(reinterpret_cast<const char*>(both), sizeof both);
  }
  return to_each;
}

/// The (element, value) records of all_to_all_bytes' messages, by sender.
std::vector<std::vector<LabelOf>> records_of(const std::vector<std::string>& messages) {
  std::vector<std::vector<LabelOf>> records(messages.size());
  for (std::size_t p = 0; p < messages.size(); ++p) {
    for (std::size_t at = 0; at + 8 <= messages[p].size(); at += 8) {
      Element both[2];
      std::memcpy(both, messages[p].data() + at, sizeof both);
      records[p].emplace_back(both[0], both[1]);
    }
  }
  return records;
}

/// The labels an owner keeps: its elements that some pair names, sorted, each with its label.
class OwnedLabels {
public:
  /// Takes each proposed label that is smaller than the element's (an element first named here
  /// starts as its own label); true when one was.
  bool take(const std::vector<std::vector<LabelOf>>& proposals) {
    std::vector<LabelOf> proposed;
    for (const auto& from : proposals) proposed.insert(proposed.end(), from.begin(), from.end());
    std::sort(proposed.begin(), proposed.end());  // by element, the smallest label first
    std::vector<LabelOf> merged;
    merged.reserve(labels_.size() + proposed.size());
    bool lowered = false;
    auto old = labels_.begin();
    for (std::size_t i = 0; i < proposed.size(); ++i) {
      const auto [element, label] = proposed[i];
      if (i > 0 && proposed[i - 1].first == element) continue;  // a larger proposal for the same element
      while (old != labels_.end() && old->first < element) merged.push_back(*old++);
      const Element held = old != labels_.end() && old->first == element ? (old++)->second : element;
      lowered = lowered || label < held;
      merged.emplace_back(element, std::min(label, held));
    }
    merged.insert(merged.end(), old, labels_.end());
    labels_.swap(merged);
    return lowered;
  }
  /// The label of an element this process owns (itself when no pair names it).
  Element of(Element element) const {
    const auto it = std::lower_bound(labels_.begin(), labels_.end(), LabelOf{element, 0});
    return it != labels_.end() && it->first == element ? it->second : element;
  }
  /// (label, element) for each element whose label is another element: what jump_labels asks.
  std::vector<LabelOf> labels_elsewhere() const {
    std::vector<LabelOf> asks;
    for (const auto& [element, label] : labels_) {
      if (label != element) asks.emplace_back(label, element);
    }
    return asks;
  }

private:
  std::vector<LabelOf> labels_;
};

/// Each (key, tag) of `asks` sent to the key's owner, which answers with (tag, the key's label):
/// the answers this process gets, by answering process. Collective.
std::vector<std::vector<LabelOf>> ask_labels(std::span<const LabelOf> asks, const OwnedLabels& owned,
                                             const std::function<unsigned(Element)>& owner_of,
                                             const Collective& processes) {
  const std::vector<std::vector<LabelOf>> asked =
      records_of(processes.all_to_all_bytes(to_owners(asks, owner_of, processes.size())));
  std::vector<std::string> answers(processes.size());
  for (std::size_t p = 0; p < asked.size(); ++p) {
    for (const auto& [key, tag] : asked[p]) {
      const Element both[2] = {tag, owned.of(key)};
      answers[p].append(reinterpret_cast<const char*>(both), sizeof both);
    }
  }
  return records_of(processes.all_to_all_bytes(answers));
}

/// Each owned label jumps to its label's label, asked of the label's owner; true when one moved.
bool jump_labels(OwnedLabels& owned, const std::function<unsigned(Element)>& owner_of, const Collective& processes) {
  return owned.take(ask_labels(owned.labels_elsewhere(), owned, owner_of, processes));
}

/// For each of `elements` (sorted, unique), its label kept by its owner.
std::vector<Element> labels_from_owners(std::span<const Element> elements, const OwnedLabels& owned,
                                        const std::function<unsigned(Element)>& owner_of, const Collective& processes) {
  std::vector<LabelOf> asks;
  for (const Element e : elements) asks.emplace_back(e, e);
  std::vector<LabelOf> answered;
  for (const auto& from : ask_labels(asks, owned, owner_of, processes)) answered.insert(answered.end(), from.begin(), from.end());
  std::sort(answered.begin(), answered.end());
  std::vector<Element> labels;
  for (const LabelOf& a : answered) labels.push_back(a.second);
  return labels;
}

}  // namespace

std::vector<std::uint32_t> pair_component_labels(std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs,
                                                 const std::function<unsigned(std::uint32_t)>& owner_of,
                                                 const Collective& processes) {
  std::vector<Element> elements;
  for (const auto& [a, b] : pairs) elements.insert(elements.end(), {a, b});
  std::sort(elements.begin(), elements.end());
  elements.erase(std::unique(elements.begin(), elements.end()), elements.end());
  const auto index_of = [&](Element e) {
    return static_cast<std::uint32_t>(std::lower_bound(elements.begin(), elements.end(), e) - elements.begin());
  };
  UnionFind local(static_cast<std::uint32_t>(elements.size()));  // this process's pairs, merged once
  for (const auto& [a, b] : pairs) local.unite(index_of(a), index_of(b));
  std::vector<Element> label(elements.begin(), elements.end());
  OwnedLabels owned;
  // A label only falls, to an element of the same component; a round in which no owner's label
  // falls leaves both ends of every pair with the same label, the component's smallest element.
  for (bool moved = true; moved;) {
    std::vector<Element> smallest(elements.size(), ~Element{0});
    for (std::uint32_t i = 0; i < elements.size(); ++i) smallest[local.find(i)] = std::min(smallest[local.find(i)], label[i]);
    std::vector<LabelOf> proposals;
    for (std::uint32_t i = 0; i < elements.size(); ++i) proposals.emplace_back(elements[i], smallest[local.find(i)]);
    const bool lowered = owned.take(records_of(processes.all_to_all_bytes(to_owners(proposals, owner_of, processes.size()))));
    const bool jumped = jump_labels(owned, owner_of, processes);
    label = labels_from_owners(elements, owned, owner_of, processes);
    moved = false;
    for (const std::string& flag : processes.all_gather_bytes(std::string(1, lowered || jumped ? '1' : '0'))) {
      moved = moved || flag == "1";
    }
  }
  std::vector<std::uint32_t> result;
  result.reserve(pairs.size());
  for (const auto& pair : pairs) result.push_back(label[index_of(pair.first)]);
  return result;
}

}  // namespace canon::dedup
