// Order-preserving weighted alignment of two sequences (a weighted longest common subsequence).
//
// Used to line up the SQL executions of two runs, but knows nothing about Spark: it sees two
// sequences of ids and a similarity function. It finds the order-preserving set of pairs with
// the largest total similarity, using only pairs at or above `min_score`.
//
// Ties: scores are compared as integers (millionths), so equal alignments are exactly equal.
// Among equal alignments the traceback, walking from the first elements, matches where matching
// is optimal and otherwise skips the element with the higher id. Both rules read the two sides
// the same way, so swapping the sequences mirrors the result, except when the two ids compared
// are equal and both skips are optimal (two crossing alignments that tie exactly).
//
// Cost: a full table up to `full_max_cells` cells; above it, only a band of the table around
// the diagonal: j - i within [min(0, m - n) - w, max(0, m - n) + w] with w = band_half_width,
// i.e. 2 * (w + |n - m| / 2) + 1 cells per row. `bounded` says the band was used. Pure function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace sf::compare {

inline constexpr double kExecutionMatchMin = 0.55;
inline constexpr size_t kFullAlignmentMaxCells = 1'000'000;
inline constexpr size_t kBandBaseHalfWidth = 100;

struct SequenceAlignmentOptions {
  double min_score = kExecutionMatchMin;
  size_t full_max_cells = kFullAlignmentMaxCells;
  size_t band_half_width = kBandBaseHalfWidth;
};

struct AlignedPair {
  size_t base_index = 0;
  size_t cand_index = 0;
  double score = 0;
  bool operator==(const AlignedPair&) const = default;
};

struct SequenceAlignment {
  std::vector<AlignedPair> pairs;  // increasing in both indices
  bool bounded = false;            // the band was used instead of the full table
  size_t cells = 0;                // table cells evaluated
};

// `similarity(i, j)` in [0, 1] for base element i and candidate element j.
SequenceAlignment align_sequences(const std::vector<int64_t>& base_ids, const std::vector<int64_t>& cand_ids,
                                  const std::function<double(size_t, size_t)>& similarity,
                                  const SequenceAlignmentOptions& options = {});

}  // namespace sf::compare
