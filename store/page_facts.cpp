/// @file page_facts.cpp
/// @brief The bytes of a PageFacts (common/byte_codec.h): size (varint), modification time and
/// content hash (8 bytes each), cuts, warnings, encoding, encoding source, title, heading, defined terms,
/// listed entries (each as the step from the one before), flags, then the canonical and refresh
/// URLs that the flags say are there.
#include "store/page_facts.h"

namespace canon::store {

namespace {

using namespace codec;

// The bits of the facts' flags.
constexpr std::uint64_t kRobotsNoindex = 1;
constexpr std::uint64_t kHasCanonical = 2;
constexpr std::uint64_t kHasRefresh = 4;

}  // namespace

void encode_page_facts(const PageFacts& facts, std::string& out) {
  put_varint(out, facts.file.size);
  put_fixed(out, static_cast<std::uint64_t>(facts.file.mtime_ns), 8);
  put_fixed(out, facts.content_hash, 8);
  put_list(out, facts.cuts);
  put_list(out, facts.warnings);
  put_string(out, facts.encoding);
  put_string(out, facts.encoding_source);
  put_string(out, facts.title);
  put_string(out, facts.heading);
  put_list(out, facts.defined);
  put_varint(out, facts.listed.size());  // sorted: each as the step from the one before
  for (std::size_t i = 0; i < facts.listed.size(); ++i) {
    put_varint(out, facts.listed[i] - (i == 0 ? 0 : facts.listed[i - 1]));
  }
  put_varint(out, (facts.robots_noindex ? kRobotsNoindex : 0) | (facts.canonical_url ? kHasCanonical : 0) |
                      (facts.refresh_url ? kHasRefresh : 0));
  if (facts.canonical_url) put_string(out, *facts.canonical_url);
  if (facts.refresh_url) put_string(out, *facts.refresh_url);
}

PageFacts decode_page_facts(Reader& in) {
  PageFacts facts;
  facts.file.size = in.varint();
  facts.file.mtime_ns = static_cast<std::int64_t>(in.fixed(8));
  facts.content_hash = in.fixed(8);
  facts.cuts = in.list();
  facts.warnings = in.list();
  facts.encoding = in.string();
  facts.encoding_source = in.string();
  facts.title = in.string();
  facts.heading = in.string();
  facts.defined = in.list();
  const std::uint64_t listed = in.count();
  facts.listed.reserve(listed);
  for (std::uint64_t k = 0, value = 0; k < listed && in.ok(); ++k) {
    const std::uint64_t step = in.varint();
    value += step;
    if ((k > 0 && step == 0) || value > UINT32_MAX) return in.mark_bad(), facts;
    facts.listed.push_back(static_cast<std::uint32_t>(value));
  }
  const std::uint64_t flags = in.varint();
  if (flags & ~(kRobotsNoindex | kHasCanonical | kHasRefresh)) return in.mark_bad(), facts;
  facts.robots_noindex = (flags & kRobotsNoindex) != 0;
  if (flags & kHasCanonical) facts.canonical_url = in.string();
  if (flags & kHasRefresh) facts.refresh_url = in.string();
  return facts;
}

}  // namespace canon::store
