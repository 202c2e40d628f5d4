// The order-preserving weighted alignment: its optimum, its tie-break, its band, and
// properties over random sequences.
#include "compare/sequence_alignment.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace sf::compare {
namespace {

std::vector<int64_t> ids_from(int64_t first, size_t n, int64_t step = 1) {
  std::vector<int64_t> ids;
  for (size_t i = 0; i < n; ++i) ids.push_back(first + static_cast<int64_t>(i) * step);
  return ids;
}

// Similarity 1 for equal labels, 0 otherwise.
SequenceAlignment align_labels(const std::vector<int>& a, const std::vector<int>& b, const std::vector<int64_t>& a_ids,
                               const std::vector<int64_t>& b_ids, const SequenceAlignmentOptions& options = {}) {
  return align_sequences(
      a_ids, b_ids, [&](size_t i, size_t j) { return a[i] == b[j] ? 1.0 : 0.0; }, options);
}

std::vector<std::pair<size_t, size_t>> index_pairs(const SequenceAlignment& alignment) {
  std::vector<std::pair<size_t, size_t>> out;
  for (const auto& p : alignment.pairs) out.emplace_back(p.base_index, p.cand_index);
  return out;
}

std::vector<std::pair<size_t, size_t>> mirrored(const SequenceAlignment& alignment) {
  std::vector<std::pair<size_t, size_t>> out;
  for (const auto& p : alignment.pairs) out.emplace_back(p.cand_index, p.base_index);
  return out;
}

TEST(SequenceAlignment, FindsTheHeaviestOrderPreservingPairs) {
  // A B C D vs A X C D B: B can pair only by crossing C and D, so it stays unpaired.
  const auto result = align_labels({1, 2, 3, 4}, {1, 9, 3, 4, 2}, ids_from(0, 4), ids_from(100, 5));
  EXPECT_EQ(index_pairs(result), (std::vector<std::pair<size_t, size_t>>{{0, 0}, {2, 2}, {3, 3}}));
  EXPECT_FALSE(result.bounded);
}

TEST(SequenceAlignment, PairsBelowTheMinimumNeverMatch) {
  auto at = [](double score) { return align_sequences({0}, {1}, [score](size_t, size_t) { return score; }); };
  EXPECT_TRUE(at(0.549).pairs.empty());
  ASSERT_EQ(at(0.55).pairs.size(), 1u);
  EXPECT_DOUBLE_EQ(at(0.55).pairs[0].score, 0.55);
}

TEST(SequenceAlignment, ALoopOfFourteenAgainstFifteenKeepsTheLowerIds) {
  const std::vector<int> a(14, 7), b(15, 7);
  const auto result = align_labels(a, b, ids_from(0, 14), ids_from(0, 15));
  ASSERT_EQ(result.pairs.size(), 14u);
  for (size_t k = 0; k < 14; ++k) EXPECT_EQ(result.pairs[k].cand_index, k);
  // Swapped, the same iterations pair.
  const auto swapped = align_labels(b, a, ids_from(0, 15), ids_from(0, 14));
  EXPECT_EQ(mirrored(swapped), index_pairs(result));
}

TEST(SequenceAlignment, PrefersTheHeavierOfTwoCrossingChoices) {
  // base X Y, cand Y' X': either X-X' (0.9) or Y-Y' (0.6), not both.
  const std::vector<std::vector<double>> s = {{0, 0.9}, {0.6, 0}};
  const auto result = align_sequences({0, 1}, {10, 11}, [&](size_t i, size_t j) { return s[i][j]; });
  ASSERT_EQ(result.pairs.size(), 1u);
  EXPECT_EQ(result.pairs[0].base_index, 0u);
  EXPECT_EQ(result.pairs[0].cand_index, 1u);
}

TEST(SequenceAlignment, UsesTheBandAboveTheCellLimit) {
  SequenceAlignmentOptions options;
  options.full_max_cells = 100;
  options.band_half_width = 3;
  const std::vector<int> a(20, 1), b(25, 1);
  const auto result = align_labels(a, b, ids_from(0, 20), ids_from(0, 25), options);
  EXPECT_TRUE(result.bounded);
  EXPECT_EQ(result.pairs.size(), 20u);
  // Half-width 3 + |20 - 25| / 2 on each side: 2 * (3 + 2.5) + 1 = 12 cells a row at most.
  EXPECT_LE(result.cells, 20u * 12u);
  EXPECT_LT(result.cells, 20u * 25u);
}

TEST(SequenceAlignment, AShiftBeyondTheBandIsNotFound) {
  SequenceAlignmentOptions options;
  options.full_max_cells = 0;
  options.band_half_width = 2;
  // The candidate starts with 10 unrelated executions, then the baseline's 10; equal lengths
  // put the true alignment 10 off the diagonal, outside a band of 2.
  std::vector<int> a, b;
  for (int i = 0; i < 10; ++i) a.push_back(i);
  for (int i = 0; i < 10; ++i) b.push_back(100 + i);
  std::vector<int> a2 = a;
  for (int i = 0; i < 10; ++i) a2.push_back(200 + i);
  std::vector<int> b2 = b;
  b2.insert(b2.end(), a.begin(), a.end());
  const auto banded = align_labels(a2, b2, ids_from(0, 20), ids_from(0, 20), options);
  EXPECT_TRUE(banded.pairs.empty());
  const auto full = align_labels(a2, b2, ids_from(0, 20), ids_from(0, 20));
  EXPECT_EQ(full.pairs.size(), 10u);
}

// Random pairs: the candidate is the baseline with random deletions, insertions and
// substitutions; labels repeat (loops), so many alignments tie exactly.
struct RandomPair {
  std::vector<int> base, cand;
};

RandomPair random_pair(std::mt19937& rng, size_t n, int alphabet, int edits) {
  RandomPair pair;
  std::uniform_int_distribution<int> label(0, alphabet - 1);
  for (size_t i = 0; i < n; ++i) pair.base.push_back(label(rng));
  pair.cand = pair.base;
  for (int e = 0; e < edits && !pair.cand.empty(); ++e) {
    std::uniform_int_distribution<size_t> at(0, pair.cand.size() - 1);
    switch (rng() % 3) {
      case 0: pair.cand.erase(pair.cand.begin() + static_cast<std::ptrdiff_t>(at(rng))); break;
      case 1: pair.cand.insert(pair.cand.begin() + static_cast<std::ptrdiff_t>(at(rng)), label(rng)); break;
      default: pair.cand[at(rng)] = label(rng); break;
    }
  }
  return pair;
}

// Graded similarity, so scores differ and also tie: labels close in value are partly alike.
double graded(int x, int y) {
  const int d = std::abs(x - y);
  return d == 0 ? 1.0 : d == 1 ? 0.6 : d == 2 ? 0.3 : 0.0;
}

TEST(SequenceAlignmentProperties, SwappingTheRunsMirrorsTheAlignment) {
  std::mt19937 rng(20240101);
  for (int round = 0; round < 300; ++round) {
    const RandomPair p =
        random_pair(rng, 5 + rng() % 40, 2 + static_cast<int>(rng() % 6), static_cast<int>(rng() % 12));
    // Baseline ids even and candidate ids odd: the tie-break never compares equal ids, which is
    // the one case (exact ties of crossing alignments) the mirror property does not cover.
    const auto base_ids = ids_from(0, p.base.size(), 2), cand_ids = ids_from(1, p.cand.size(), 2);
    const auto forward =
        align_sequences(base_ids, cand_ids, [&](size_t i, size_t j) { return graded(p.base[i], p.cand[j]); });
    const auto backward =
        align_sequences(cand_ids, base_ids, [&](size_t i, size_t j) { return graded(p.cand[i], p.base[j]); });
    ASSERT_EQ(mirrored(backward), index_pairs(forward)) << "round " << round;
  }
}

TEST(SequenceAlignmentProperties, EachElementPairsAtMostOnceAndInOrder) {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    const RandomPair p = random_pair(rng, 1 + rng() % 50, 3, static_cast<int>(rng() % 20));
    const auto result = align_sequences(ids_from(0, p.base.size()), ids_from(0, p.cand.size()),
                                        [&](size_t i, size_t j) { return graded(p.base[i], p.cand[j]); });
    for (size_t k = 1; k < result.pairs.size(); ++k) {
      ASSERT_LT(result.pairs[k - 1].base_index, result.pairs[k].base_index);
      ASSERT_LT(result.pairs[k - 1].cand_index, result.pairs[k].cand_index);
    }
    for (const auto& pair : result.pairs) ASSERT_GE(pair.score, kExecutionMatchMin);
  }
}

TEST(SequenceAlignmentProperties, TheBandedResultEqualsTheFullOneWhenTheTrueAlignmentIsInside) {
  std::mt19937 rng(99);
  SequenceAlignmentOptions banded;
  banded.full_max_cells = 0;
  banded.band_half_width = 6;
  for (int round = 0; round < 200; ++round) {
    // Distinct labels, so the true alignment is the only optimum; at most 6 insertions or
    // deletions in a row of either kind keep it within the band.
    RandomPair p;
    const size_t n = 30 + rng() % 120;
    for (size_t i = 0; i < n; ++i) p.base.push_back(static_cast<int>(i));
    int fresh = 100000;
    int drift = 0;
    for (size_t i = 0; i < n; ++i) {
      const unsigned roll = rng() % 10;
      if (roll == 0 && drift > -5) {
        --drift;  // deleted from the candidate
        continue;
      }
      if (roll == 1 && drift < 5) {
        p.cand.push_back(fresh++);  // inserted before it
        ++drift;
      }
      p.cand.push_back(p.base[i]);
    }
    auto sim = [&](size_t i, size_t j) { return p.base[i] == p.cand[j] ? 1.0 : 0.0; };
    const auto base_ids = ids_from(0, p.base.size()), cand_ids = ids_from(0, p.cand.size());
    const auto full = align_sequences(base_ids, cand_ids, sim);
    const auto band = align_sequences(base_ids, cand_ids, sim, banded);
    ASSERT_FALSE(full.bounded);
    ASSERT_TRUE(band.bounded);
    ASSERT_EQ(index_pairs(band), index_pairs(full)) << "round " << round;
  }
}

}  // namespace
}  // namespace sf::compare
