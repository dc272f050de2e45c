/// @file site_links.cpp
/// @brief Redirects, the link graph and the texts pages link to each other with, over page records.
#include "indexer/stages/site_links.h"

#include <algorithm>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "common/byte_codec.h"
#include "indexer/partitioned/record_holders.h"
#include "urls/url.h"

namespace canon::indexer {

std::string redirect_loop_reason() {
  return "redirect loop (or a chain of more than " + std::to_string(kMaxRedirectHops) + " redirects)";
}

/// For each place key's id, the id of its text as a name (kNoRecord for other ids): a link from
/// another page to a place names the page too (`os.makedirs()` links to os.html#os.makedirs;
/// Sphinx's `asyncio` to #module-asyncio). intern_anchor_keys interned both.
std::vector<std::uint32_t> names_of_places(const std::vector<std::string>& anchor_texts) {
  std::unordered_map<std::string_view, std::uint32_t> id_of_text;
  for (std::uint32_t id = 0; id < anchor_texts.size(); ++id) id_of_text.emplace(anchor_texts[id], id);
  std::vector<std::uint32_t> name_of_place(anchor_texts.size(), kNoRecord);
  for (std::uint32_t id = 0; id < anchor_texts.size(); ++id) {
    if (!is_place_key(anchor_texts[id])) continue;
    const auto name = id_of_text.find(std::string_view(anchor_texts[id]).substr(1));
    if (name != id_of_text.end()) name_of_place[id] = name->second;
  }
  return name_of_place;
}

/// Gives each target its inbound anchors from `named_links` (target record << 32 | text id, one
/// entry per linking page and text), counted and ordered (sort_inbound_anchors).
void count_inbound_anchors(std::vector<std::uint64_t> named_links, std::span<const std::uint32_t> node_records,
                           const std::vector<std::string>& anchor_texts, HeldRecords& records) {
  std::sort(named_links.begin(), named_links.end());
  for (std::size_t k = 0; k < named_links.size();) {
    std::size_t end = k;
    while (end < named_links.size() && named_links[end] == named_links[k]) ++end;
    PageRecord& target = records[named_links[k] >> 32];
    target.inbound_anchors.push_back({static_cast<std::uint32_t>(named_links[k]), static_cast<std::uint32_t>(end - k)});
    k = end;
  }
  for (const std::uint32_t record : node_records) sort_inbound_anchors(records[record].inbound_anchors, anchor_texts);
}

ParsedLinks take_links(HeldRecords& records, const UrlIds& urls, const std::vector<std::string>& anchor_texts) {
  const std::size_t held = records.end_held() - records.first_held();
  ParsedLinks links{urls, anchor_texts, records.first_held(), std::vector<std::vector<std::uint32_t>>(held),
                    std::vector<std::vector<std::uint32_t>>(held)};
  for (std::size_t k = 0; k < held; ++k) {
    PageRecord& r = records.held()[k];
    links.targets[k] = std::exchange(r.links, {});
    links.texts[k] = std::exchange(r.link_anchors, {});
  }
  return links;
}

void sort_inbound_anchors(std::vector<InboundAnchor>& anchors, const std::vector<std::string>& anchor_texts) {
  // Names of the page first, then names of its places; each most pages first.
  std::sort(anchors.begin(), anchors.end(), [&](const InboundAnchor& a, const InboundAnchor& b) {
    const bool a_place = is_place_key(anchor_texts[a.text]);
    const bool b_place = is_place_key(anchor_texts[b.text]);
    if (a_place != b_place) return b_place;
    return a.pages != b.pages ? a.pages > b.pages : anchor_texts[a.text] < anchor_texts[b.text];
  });
  const auto places = std::find_if(anchors.begin(), anchors.end(),
                                   [&](const InboundAnchor& a) { return is_place_key(anchor_texts[a.text]); });
  const std::size_t names = static_cast<std::size_t>(places - anchors.begin());
  const std::size_t kept_places = std::min(anchors.size() - names, kMaxInboundPlaces);
  if (names > kMaxInboundAnchors) {
    anchors.erase(anchors.begin() + kMaxInboundAnchors, anchors.begin() + static_cast<std::ptrdiff_t>(names));
  }
  anchors.resize(std::min(names, kMaxInboundAnchors) + kept_places);
  anchors.shrink_to_fit();
}

namespace {

/// Adds `anchor` to `into`: its pages to those of the same text, else as a new text.
void add_anchor(std::vector<InboundAnchor>& into, const InboundAnchor& anchor) {
  auto same = std::find_if(into.begin(), into.end(), [&](const InboundAnchor& a) { return a.text == anchor.text; });
  if (same == into.end()) {
    into.push_back(anchor);
  } else {
    same->pages += anchor.pages;
  }
}

}  // namespace

Status gather_cluster_anchors(HeldRecords& records, std::vector<std::string>& anchor_texts,
                              const detail::RecordParts& parts, const Collective& processes) {
  const unsigned me = processes.rank();
  // A duplicate's anchors go to its authoritative page: added here when this process holds it,
  // else sent to its holder as texts (the ids are each process's own).
  std::vector<detail::RecordMessage> to_others;
  for (std::uint32_t i = parts.first(me); i < parts.end(me); ++i) {
    PageRecord& r = records[i];
    if (r.status != PageStatus::kDuplicate || r.authoritative == kNoRecord || r.inbound_anchors.empty()) continue;
    if (parts.holder(r.authoritative) == me) {
      for (const InboundAnchor& anchor : r.inbound_anchors) add_anchor(records[r.authoritative].inbound_anchors, anchor);
    } else {
      std::string bytes;
      for (const InboundAnchor& anchor : r.inbound_anchors) {
        codec::put_string(bytes, anchor_texts[anchor.text]);
        codec::put_varint(bytes, anchor.pages);
      }
      to_others.push_back({r.authoritative, std::move(bytes)});
    }
    r.inbound_anchors = {};
  }
  auto received = detail::tell_holders(std::move(to_others), parts, processes);
  if (!received.ok()) return received.status();
  if (!received->empty()) {
    TextIds text_ids(anchor_texts);
    for (const detail::RecordMessage& message : received.value()) {
      codec::Reader in(message.bytes);
      while (in.ok() && !in.at_end()) {
        const std::uint32_t text = text_ids.id(in.view());
        const auto pages = static_cast<std::uint32_t>(in.varint());
        add_anchor(records[message.record].inbound_anchors, {text, pages});
      }
      if (!in.ok()) return Status::corruption("the link texts of a duplicate do not decode");
    }
    text_ids.commit();
  }
  // The same order whatever order the texts were added in: sort_inbound_anchors' is total.
  for (std::uint32_t i = parts.first(me); i < parts.end(me); ++i) {
    if (records[i].status != PageStatus::kDuplicate) sort_inbound_anchors(records[i].inbound_anchors, anchor_texts);
  }
  return Status::ok_status();
}

}  // namespace canon::indexer
