/// @file site_plan.cpp
/// @brief The site's page files and their URLs.
#include "indexer/input/site_plan.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <unordered_map>

#include "urls/url.h"

namespace canon::indexer {

bool serves_before(std::string_view path, std::string_view other) {
  return path.ends_with("index.html") && !other.ends_with("index.html");
}

SitePlan SitePlan::of_listing(SiteListing listing, std::string base_url) {
  SitePlan plan;
  plan.files = std::move(listing.files);
  plan.skipped = std::move(listing.skipped);
  plan.base_url_ = std::move(base_url);
  const std::size_t n = plan.files.size();
  plan.url_state_.assign(n, UrlState::kNone);
  // Files that map to one URL are found by their URLs' hashes, sorted: 16 bytes a file for a
  // moment rather than a map of every URL; the few that share a hash are compared by URL.
  std::vector<std::pair<std::size_t, std::size_t>> by_hash;  // (hash of the URL, file)
  by_hash.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto url = plan.url(i);
    if (!url.ok()) continue;
    plan.url_state_[i] = UrlState::kServes;
    by_hash.emplace_back(std::hash<std::string_view>{}(url.value()), i);
  }
  std::sort(by_hash.begin(), by_hash.end());
  for (std::size_t run = 0; run < by_hash.size();) {
    std::size_t run_end = run + 1;
    while (run_end < by_hash.size() && by_hash[run_end].first == by_hash[run].first) ++run_end;
    if (run_end - run > 1) {
      // The run's files by URL, each URL's in path order: the first serves it unless a later
      // one serves before it.
      std::vector<std::pair<std::string, std::size_t>> members;  // (URL, file)
      for (std::size_t k = run; k < run_end; ++k) members.emplace_back(plan.url(by_hash[k].second).value(), by_hash[k].second);
      std::sort(members.begin(), members.end());
      for (std::size_t group = 0, group_end = 0; group < members.size(); group = group_end) {
        std::size_t owner = members[group].second;
        for (group_end = group + 1; group_end < members.size() && members[group_end].first == members[group].first; ++group_end) {
          if (serves_before(plan.relative_path(members[group_end].second), plan.relative_path(owner))) owner = members[group_end].second;
        }
        for (std::size_t k = group; k < group_end; ++k) {
          if (members[k].second == owner) continue;
          plan.url_state_[members[k].second] = UrlState::kServedByOther;
          plan.served_by_.emplace(members[k].second, owner);
        }
      }
    }
    run = run_end;
  }
  return plan;
}

SitePlan SitePlan::of_captures(FileList files, std::vector<SkippedPath> skipped) {
  SitePlan plan;
  plan.files = std::move(files);
  plan.skipped = std::move(skipped);
  plan.urls_are_paths_ = true;
  plan.url_state_.assign(plan.files.size(), UrlState::kServes);
  return plan;
}

Result<SitePlan> plan_site(const std::filesystem::path& site_dir, const std::string& base_url) {
  auto listing = walk_site(site_dir);
  if (!listing.ok()) return listing.status();
  return SitePlan::of_listing(std::move(listing).value(), base_url);
}

Result<std::string> SitePlan::url(std::size_t i) const {
  if (urls_are_paths_) return std::string(relative_path(i));
  return urls::file_url(base_url_, relative_path(i));
}

std::size_t SitePlan::url_owner(std::size_t i) const {
  const auto other = served_by_.find(i);
  return other == served_by_.end() ? i : other->second;
}

std::string_view SitePlan::url_owner_path(std::size_t i) const {
  const std::size_t owner = url_owner(i);
  return has(owner) ? relative_path(owner) : std::string_view(outside_owner_path_.at(owner));
}

void SitePlan::keep_part(std::size_t part_first, std::size_t part_end, bool keep_skipped) {
  assert(!cut_ && first == 0 && part_first <= part_end && part_end <= files.size());
  site_files_ = files.size();
  site_skipped_ = skipped.size();
  std::unordered_map<std::size_t, std::size_t> served_by;
  for (const auto& [file, owner] : served_by_) {
    if (file < part_first || file >= part_end) continue;
    served_by.emplace(file, owner);
    if (owner < part_first || owner >= part_end) outside_owner_path_.emplace(owner, relative_path(owner));
  }
  served_by_ = std::move(served_by);
  files.keep_range(part_first, part_end);
  url_state_ = std::vector<UrlState>(url_state_.begin() + static_cast<std::ptrdiff_t>(part_first),
                                     url_state_.begin() + static_cast<std::ptrdiff_t>(part_end));
  if (!keep_skipped) std::vector<SkippedPath>().swap(skipped);
  first = part_first;
  cut_ = true;
}

PlanOutline outline_of(const SitePlan& plan) {
  PlanOutline outline{plan.first, std::vector<bool>(plan.files.size())};
  for (std::size_t k = 0; k < plan.files.size(); ++k) outline.serves_url[k] = plan.serves_url(plan.first + k);
  return outline;
}

}  // namespace canon::indexer
