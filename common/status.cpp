/// @file status.cpp
/// @brief StatusCode's text.
#include "common/status.h"

namespace canon {

const char* to_string(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidArgument: return "invalid argument";
    case StatusCode::kNotFound: return "not found";
    case StatusCode::kFailedPrecondition: return "failed precondition";
    case StatusCode::kIoError: return "I/O error";
    case StatusCode::kCorruption: return "corruption";
    case StatusCode::kInternal: return "internal";
  }
  return "internal";
}

}  // namespace canon
