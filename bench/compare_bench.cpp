// Execution alignment benchmark: how long the level-one alignment takes for 1,000 x 1,000
// executions (the full table) and 10,000 x 10,000 (the band), and how the time grows.
//
// The executions are synthetic profiles shaped like a real application's: 40 query templates
// repeated in a loop, each with its plan structure, call-site frames and description tokens;
// the candidate is the baseline with scattered insertions and deletions. Times are measured in
// this run only and printed as ratios; nothing is asserted.
//
// Usage: sf-bench-compare [--repeat N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "compare/execution_similarity.h"
#include "compare/sequence_alignment.h"

namespace {

using sf::compare::ExecutionProfile;

std::vector<int32_t> sorted_tokens(std::mt19937& rng, int32_t base, int count, int32_t spread) {
  std::vector<int32_t> tokens;
  for (int i = 0; i < count; ++i) tokens.push_back(base + static_cast<int32_t>(rng() % static_cast<uint32_t>(spread)));
  std::sort(tokens.begin(), tokens.end());
  tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
  return tokens;
}

std::vector<ExecutionProfile> templates(std::mt19937& rng, int count) {
  std::vector<ExecutionProfile> out;
  for (int t = 0; t < count; ++t) {
    // Operators and attributes mostly shared across templates, frames and descriptions not.
    out.push_back({sorted_tokens(rng, 0, 24, 120), sorted_tokens(rng, 1000 + t * 10, 3, 10),
                   sorted_tokens(rng, 5000 + t * 10, 4, 10)});
  }
  return out;
}

struct Runs {
  std::vector<ExecutionProfile> base, cand;
  std::vector<int64_t> base_ids, cand_ids;
};

Runs make_runs(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  const auto shapes = templates(rng, 40);
  Runs runs;
  for (size_t i = 0; i < n; ++i) runs.base.push_back(shapes[i % shapes.size()]);
  // The candidate: the same loop with about 1% of executions dropped and 1% added, in runs short
  // enough to stay inside the band.
  for (size_t i = 0; i < n; ++i) {
    const unsigned roll = rng() % 200;
    if (roll == 0) continue;
    if (roll == 1) runs.cand.push_back(shapes[rng() % shapes.size()]);
    runs.cand.push_back(runs.base[i]);
  }
  runs.cand.resize(std::min(runs.cand.size(), n));
  while (runs.cand.size() < n) runs.cand.push_back(shapes[runs.cand.size() % shapes.size()]);
  for (size_t i = 0; i < runs.base.size(); ++i) runs.base_ids.push_back(static_cast<int64_t>(i));
  for (size_t i = 0; i < runs.cand.size(); ++i) runs.cand_ids.push_back(static_cast<int64_t>(i));
  return runs;
}

struct Timing {
  double seconds = 0;
  size_t cells = 0;
  size_t pairs = 0;
  bool bounded = false;
};

Timing time_alignment(const Runs& runs, const sf::compare::SequenceAlignmentOptions& options, int repeat) {
  Timing best;
  best.seconds = 1e300;
  for (int r = 0; r < repeat; ++r) {
    const auto start = std::chrono::steady_clock::now();
    const auto result = sf::compare::align_sequences(
        runs.base_ids, runs.cand_ids,
        [&](size_t i, size_t j) { return sf::compare::execution_similarity(runs.base[i], runs.cand[j]); }, options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (seconds < best.seconds) best = {seconds, result.cells, result.pairs.size(), result.bounded};
  }
  return best;
}

void print(const char* label, const Timing& t) {
  std::printf("%-34s %9.3f s  %12zu cells  %6zu pairs  %s\n", label, t.seconds, t.cells, t.pairs,
              t.bounded ? "banded" : "full");
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 3;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
  }
  const Runs small = make_runs(1000, 1);
  const Runs large = make_runs(10000, 2);
  sf::compare::SequenceAlignmentOptions defaults;
  sf::compare::SequenceAlignmentOptions forced_band;
  forced_band.full_max_cells = 0;

  const Timing full_1k = time_alignment(small, defaults, repeat);
  const Timing band_1k = time_alignment(small, forced_band, repeat);
  const Timing band_10k = time_alignment(large, defaults, repeat);
  print("1,000 x 1,000 (full table)", full_1k);
  print("1,000 x 1,000 (band forced)", band_1k);
  print("10,000 x 10,000 (band)", band_10k);
  std::printf(
      "growth 1k -> 10k executions (band): %.1fx time, %.1fx cells "
      "(linear would be 10x, a full table 100x)\n",
      band_10k.seconds / band_1k.seconds, static_cast<double>(band_10k.cells) / static_cast<double>(band_1k.cells));
  std::printf("10k x 10k banded takes %.1fx the time of the 1k x 1k full table (100x as many execution pairs)\n",
              band_10k.seconds / full_1k.seconds);
  return 0;
}
