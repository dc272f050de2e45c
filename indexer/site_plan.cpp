/// @file site_plan.cpp
/// @brief The site's page files and their URLs.
#include "indexer/site_plan.h"

#include <cassert>
#include <iterator>
#include <type_traits>
#include <unordered_map>

#include "urls/url.h"

namespace canon::indexer {

bool serves_before(std::string_view path, std::string_view other) {
  return path.ends_with("index.html") && !other.ends_with("index.html");
}

Result<SitePlan> plan_site(const std::filesystem::path& site_dir, const std::string& base_url) {
  auto listing = walk_site(site_dir);
  if (!listing.ok()) return listing.status();
  SitePlan plan;
  plan.files = std::move(listing->files);
  plan.skipped = std::move(listing->skipped);
  std::unordered_map<std::string, std::size_t> owner_of_url;
  for (std::size_t i = 0; i < plan.files.size(); ++i) {
    plan.urls.push_back(urls::file_url(base_url, plan.files[i].relative_path));
    if (!plan.urls.back().ok()) continue;
    auto [it, inserted] = owner_of_url.emplace(plan.urls.back().value(), i);
    if (!inserted && serves_before(plan.files[i].relative_path, plan.files[it->second].relative_path)) {
      it->second = i;
    }
  }
  plan.url_owner.assign(plan.files.size(), 0);
  for (std::size_t i = 0; i < plan.files.size(); ++i) {
    if (plan.urls[i].ok()) plan.url_owner[i] = owner_of_url.at(plan.urls[i].value());
  }
  return plan;
}

std::string_view SitePlan::url_owner_path(std::size_t i) const {
  const std::size_t owner = url_owner[i - first];
  return has(owner) ? std::string_view(file(owner).relative_path) : std::string_view(outside_owner_path_.at(owner));
}

void SitePlan::keep_part(std::size_t part_first, std::size_t part_end, bool keep_skipped) {
  assert(!cut_ && first == 0 && part_first <= part_end && part_end <= files.size());
  site_files_ = files.size();
  site_skipped_ = skipped.size();
  for (std::size_t i = part_first; i < part_end; ++i) {
    if (!urls[i].ok()) continue;
    const std::size_t owner = url_owner[i];
    if (owner < part_first || owner >= part_end) outside_owner_path_.emplace(owner, files[owner].relative_path);
  }
  const auto keep = [&](auto& of_files) {
    using Vector = std::remove_reference_t<decltype(of_files)>;
    Vector kept(std::make_move_iterator(of_files.begin() + static_cast<std::ptrdiff_t>(part_first)),
                std::make_move_iterator(of_files.begin() + static_cast<std::ptrdiff_t>(part_end)));
    of_files = std::move(kept);  // the rest let go, not only moved from
  };
  keep(files);
  keep(urls);
  keep(url_owner);
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
