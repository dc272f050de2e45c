/// @file registry.h
/// @brief The detectors by name: the one place that knows every detector, for the command line
/// and the pipeline to make the one asked for.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "dedup/detectors/detector.h"

namespace canon::dedup {

/// Names accepted by make_detector.
std::vector<std::string> detector_names();

/// The detector called `name` ("minhash" is the default), or an error naming the choices.
Result<std::unique_ptr<Detector>> make_detector(std::string_view name, const DedupOptions& options);

}  // namespace canon::dedup
