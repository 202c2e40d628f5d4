#include "model/streaming_query.h"

namespace sf::model {

namespace {

constexpr std::string_view kPhaseNames[kStreamingPhaseCount] = {
    "triggerExecution", "latestOffset", "getBatch", "queryPlanning", "addBatch", "walCommit", "commitOffsets",
};

}  // namespace

std::string_view streaming_phase_name(StreamingPhase phase) { return kPhaseNames[static_cast<size_t>(phase)]; }

std::optional<StreamingPhase> streaming_phase_of(std::string_view name) {
  for (size_t i = 0; i < kStreamingPhaseCount; ++i) {
    if (kPhaseNames[i] == name) return static_cast<StreamingPhase>(i);
  }
  return std::nullopt;
}

}  // namespace sf::model
