/// @file url_rule_duplicates.h
/// @brief The files URL rules record as duplicates without reading them (IndexOptions::url_rules).
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/collective.h"
#include "common/status.h"
#include "indexer/records/page_record.h"
#include "indexer/partitioned/record_holders.h"
#include "indexer/stages/site_links.h"
#include "indexer/input/site_plan.h"
#include "urls/url_rules.h"

namespace canon::indexer::detail {

/// The files URL rules record as duplicates without reading them (IndexOptions::url_rules):
/// per file, the URL the rules give (another file of the site serves it) and the rules applied.
struct UrlRuleDuplicates {
  /// What the rules made of one file.
  struct Rewrite {
    std::string target;  ///< the URL the rules give
    std::string rules;   ///< the rules applied, described
  };
  std::vector<bool> marked;
  /// By file index, the marked files only: few on most sites, so not a string pair a file.
  std::unordered_map<std::size_t, Rewrite> rewrites;
  std::size_t count = 0;
};

/// Stage 1b: each file whose URL `rules` rewrite, to a fixed point, into the URL another file of
/// the site serves.
UrlRuleDuplicates find_url_rule_duplicates(const SitePlan& plan, const urls::RuleSet* rules);

/// Stage 5b: each page recorded by URL rules joins the cluster of the page at the URL they give
/// (its rule_page, found by the link stage; a duplicate of that cluster's authoritative page), or
/// is skipped, with the reason, when that page is not indexed. By parts: each process places the
/// records it holds (`parts`), asking the holders of their pages. Collective; kCorruption when
/// an answer does not decode.
Status place_url_rule_duplicates(HeldRecords& records, const RecordParts& parts,
                                 const Collective& processes);

}  // namespace canon::indexer::detail
