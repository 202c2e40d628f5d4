#include "common/status.h"

namespace sf {

std::string_view to_string(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidArgument: return "invalid argument";
    case StatusCode::kNotFound: return "not found";
    case StatusCode::kIOError: return "I/O error";
    case StatusCode::kCorruption: return "corrupt input";
    case StatusCode::kUnsupported: return "unsupported input";
    case StatusCode::kLimitExceeded: return "limit exceeded";
    case StatusCode::kCancelled: return "cancelled";
    case StatusCode::kOutsideRoot: return "outside the log directory";
    case StatusCode::kUnavailable: return "unavailable";
  }
  return "unknown";
}

}  // namespace sf
