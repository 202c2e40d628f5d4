// How alike two SQL executions of two runs are, for the level-one alignment.
//
// An execution is described by three parts, each a sorted set of interned tokens: its plan
// structure (operator names and the attribute names the plan mentions), its call-site frames
// (user-code frames of its stages' stack traces) and its description. The similarity is the
// weighted mean of the parts' Jaccard indices, weights 4, 2 and 1. A part that either side
// lacks drops out of both the sum and the weights: PySpark call sites are all generic and
// filtered away, and an execution without a description is not penalized for it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sf::compare {

inline constexpr double kStructureWeight = 4;
inline constexpr double kFramesWeight = 2;
inline constexpr double kDescriptionWeight = 1;

// Interns tokens so profiles compare as sorted integer sets. One dictionary serves both runs of
// a comparison; not thread-safe.
class TokenDictionary {
 public:
  int32_t id(std::string_view token);
  // Sorted, distinct ids of `tokens`.
  std::vector<int32_t> ids(const std::vector<std::string>& tokens);

 private:
  std::unordered_map<std::string, int32_t> ids_;
};

struct ExecutionProfile {
  std::vector<int32_t> structure;    // sorted, distinct
  std::vector<int32_t> frames;       // sorted, distinct
  std::vector<int32_t> description;  // sorted, distinct
};

// |a ∩ b| / |a ∪ b| of two sorted, distinct sets; 0 when both are empty.
double jaccard(const std::vector<int32_t>& a, const std::vector<int32_t>& b);
double jaccard(const std::vector<std::string>& a, const std::vector<std::string>& b);

// In [0, 1]; 0 when no part is present on both sides.
double execution_similarity(const ExecutionProfile& a, const ExecutionProfile& b);

}  // namespace sf::compare
