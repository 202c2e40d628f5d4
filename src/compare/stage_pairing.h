// Level two of the alignment: pairing the stages of one aligned pair of executions.
//
// In this order, each stage pairing at most once:
//   1. exact       the same exact key; of stages sharing a key, as many pair as both sides have
//                  (a self-join subtree run 3 times vs 2 pairs 2), as set out below
//   2. structural  the same structural key, different text
//   3. aligned     stages with attributed plan nodes whose detail tokens (name and normalized
//                  node text) are at least 60% alike (Jaccard), best-scoring pairs first
//   4. positional  stages with no attributed plan nodes, by position among the stages of the
//                  same name; score 0.5, since no plan evidence backs them
// Stages sharing a key pair by their place in the job first (height: the longest chain of parent
// stages above them), then by the bytes they read (input and shuffle; within kSameBytesRatio is
// the same), and only then by stage-id order: a run that submits two scans of one table in the
// other order, or reads 10 GiB in one and 1 GiB in the other, must not cross them. The least
// total of these costs over the group wins (least_cost_assignment); groups of more than
// kMaxAssignmentGroup stages on a side pair in stage-id order (docs/limits.md).
// A pair is ambiguous when place and bytes do not decide it: another stage of the group fits as
// well, and it differs from the chosen one by more than kMaterialRunTimeShare of run time, so the
// choice changes the figures. Its rivals are listed (ambiguous_base, ambiguous_cand), and a pin
// settles it.
// Score: 1 for exact, the token similarity for structural and aligned, 0.5 for positional.
// A fifth method, pinned, is never chosen here: it marks a pair the caller made by hand
// (AlignmentOptions::pins), taken before any of the above.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "compare/run_index.h"

namespace sf::compare {

inline constexpr double kAlignedMinSimilarity = 0.6;
inline constexpr double kPositionalScore = 0.5;
inline constexpr double kSameBytesRatio = 1.25;
inline constexpr double kMaterialRunTimeShare = 0.2;
inline constexpr size_t kMaxAssignmentGroup = 200;

enum class PairMethod { kExact, kStructural, kAligned, kPositional, kPinned };

// exact, structural, aligned, pinned; positional pairs are "aligned" made by position (see by_position).
std::string_view to_string(PairMethod method);
// high (exact, structural), medium (aligned at 0.8 or more), low (other aligned, positional);
// pinned pairs are "pinned": the caller's word, not evidence the aligner weighed.
std::string_view pair_quality(PairMethod method, double score);

struct IndexPair {
  size_t base = 0;  // index into the baseline RunIndex::stages
  size_t cand = 0;
  PairMethod method = PairMethod::kExact;
  double score = 1;
  // Stages that fit this pair as well by place and bytes: baseline stages that could take `cand`,
  // candidate stages that could take `base` (indices into each run's stages).
  std::vector<size_t> ambiguous_base;
  std::vector<size_t> ambiguous_cand;
};

// Pairs `base_stages` of `base` with `cand_stages` of `cand` (indices into each run's stages,
// in stage-id order). Stages outside SQL executions have no plan: their exact key carries their
// call site, and otherwise they pair by position. Pairs come out in the order of the steps, each
// step by baseline stage id.
std::vector<IndexPair> pair_stages_within(const RunIndex& base, const std::vector<size_t>& base_stages,
                                          const RunIndex& cand, const std::vector<size_t>& cand_stages);

}  // namespace sf::compare
