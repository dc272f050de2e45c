/// @file detector.cpp
/// @brief The detector registry: make_detector() and detector_names().
#include "dedup/detector.h"

#include "dedup/minhash_detector.h"

namespace canon::dedup {

// simhash, mwo, multik, keyword and exact detectors will register here behind the same
// interface.
std::vector<std::string> detector_names() { return {"minhash"}; }

Result<std::unique_ptr<Detector>> make_detector(std::string_view name,
                                                const DedupOptions& options) {
  if (name != "minhash") {
    std::string choices;
    for (const std::string& n : detector_names()) choices += (choices.empty() ? "" : ", ") + n;
    return Status::error("unknown detector '" + std::string(name) + "' (choose from: " +
                         choices + ")");
  }
  // Options come from the command line: reject values the detectors cannot work with.
  if (options.shingle_size == 0) return Status::error("shingle size must be at least 1");
  if (options.num_hashes == 0) return Status::error("number of hashes must be at least 1");
  if (!(options.threshold > 0.0 && options.threshold <= 1.0)) {
    return Status::error("similarity threshold must be in (0, 1]");
  }
  return std::unique_ptr<Detector>(std::make_unique<MinhashDetector>(options));
}

}  // namespace canon::dedup
