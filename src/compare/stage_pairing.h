// Level two of the alignment: pairing the stages of one aligned pair of executions.
//
// In this order, each stage pairing at most once:
//   1. exact       the same exact key; stages sharing a key pair off in stage-id order, as
//                  many as both sides have (a self-join subtree run 3 times vs 2 pairs 2)
//   2. structural  the same structural key, different text
//   3. aligned     stages with attributed plan nodes whose detail tokens (name and normalized
//                  node text) are at least 60% alike (Jaccard), best-scoring pairs first
//   4. positional  stages with no attributed plan nodes, by position among the stages of the
//                  same name; score 0.5, since no plan evidence backs them
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
};

// Pairs `base_stages` of `base` with `cand_stages` of `cand` (indices into each run's stages,
// in stage-id order). Stages outside SQL executions have no plan: their exact key carries their
// call site, and otherwise they pair by position. Pairs come out in the order of the steps, each
// step by baseline stage id.
std::vector<IndexPair> pair_stages_within(const RunIndex& base, const std::vector<size_t>& base_stages,
                                          const RunIndex& cand, const std::vector<size_t>& cand_stages);

}  // namespace sf::compare
