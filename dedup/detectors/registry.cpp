/// @file registry.cpp
/// @brief make_detector() and detector_names(): each detector's name, and its constructor checking
/// the options it alone uses.
#include "dedup/detectors/registry.h"

#include <algorithm>
#include <iterator>

#include "dedup/detectors/exact_detector.h"
#include "dedup/detectors/keyword_detector.h"
#include "dedup/detectors/minhash_detector.h"
#include "dedup/detectors/multik_detector.h"
#include "dedup/detectors/mwo_detector.h"
#include "dedup/detectors/simhash_detector.h"

namespace canon::dedup {
namespace {

bool in_unit_interval(double t) { return t > 0.0 && t <= 1.0; }

}  // namespace

namespace {

using Made = Result<std::unique_ptr<Detector>>;

template <class D>
Made made(const DedupOptions& options) {
  return std::unique_ptr<Detector>(std::make_unique<D>(options));
}

/// The registry: each detector's name, and its constructor checking the options it alone uses.
struct DetectorEntry {
  std::string_view name;
  Made (*make)(const DedupOptions& options);
};

constexpr DetectorEntry kDetectors[] = {
    {"minhash", [](const DedupOptions& o) { return made<MinhashDetector>(o); }},
    {"simhash",
     [](const DedupOptions& o) -> Made {
       if (o.simhash_max_distance > 63) return Status::error("simhash Hamming distance must be at most 63");
       return made<SimhashDetector>(o);
     }},
    {"mwo",
     [](const DedupOptions& o) -> Made {
       // The weighted join needs a threshold it can filter with (1e-6 and above).
       const double t = o.threshold_explicit ? o.threshold : o.mwo_threshold;
       if (!(t >= 1e-6 && t <= 1.0)) return Status::error("mwo threshold must be in [1e-6, 1]");
       return made<MwoDetector>(o);
     }},
    {"multik",
     [](const DedupOptions& o) -> Made {
       if (!(o.multik_max_dissimilarity >= 0.0 && o.multik_max_dissimilarity < 1.0)) {
         return Status::error("multik dissimilarity must be in [0, 1)");
       }
       return made<MultikDetector>(o);
     }},
    {"keyword",
     [](const DedupOptions& o) -> Made {
       if (!in_unit_interval(o.threshold_explicit ? o.threshold : o.keyword_threshold)) {
         return Status::error("keyword threshold must be in (0, 1]");
       }
       return made<KeywordDetector>(o);
     }},
    {"exact", [](const DedupOptions& o) { return made<ExactDetector>(o); }},
};

/// The options every detector reads, as the command line may give them.
Status check_common_options(const DedupOptions& options) {
  if (options.shingle_size == 0) return Status::error("shingle size must be at least 1");
  if (options.num_hashes == 0) return Status::error("number of hashes must be at least 1");
  if (!in_unit_interval(options.threshold)) return Status::error("similarity threshold must be in (0, 1]");
  if (!in_unit_interval(options.renamed_threshold)) return Status::error("renamed threshold must be in (0, 1]");
  if (!in_unit_interval(options.moved_threshold)) return Status::error("moved threshold must be in (0, 1]");
  if (!in_unit_interval(options.copy_threshold)) return Status::error("copy threshold must be in (0, 1]");
  if (!in_unit_interval(options.parallel_threshold)) return Status::error("parallel threshold must be in (0, 1]");
  return Status::ok_status();
}

}  // namespace

std::vector<std::string> detector_names() {
  std::vector<std::string> names;
  for (const DetectorEntry& entry : kDetectors) names.emplace_back(entry.name);
  return names;
}

Result<std::unique_ptr<Detector>> make_detector(std::string_view name, const DedupOptions& options) {
  const auto entry = std::find_if(std::begin(kDetectors), std::end(kDetectors),
                                  [&](const DetectorEntry& e) { return e.name == name; });
  if (entry == std::end(kDetectors)) {
    std::string choices;
    for (const DetectorEntry& e : kDetectors) choices += (choices.empty() ? "" : ", ") + std::string(e.name);
    return Status::error("unknown detector '" + std::string(name) + "' (choose from: " + choices + ")");
  }
  if (Status s = check_common_options(options); !s.ok()) return s;
  return entry->make(options);
}

}  // namespace canon::dedup
