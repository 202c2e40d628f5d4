// The generator's deterministic random numbers: SplitMix64 with integer-only helpers, so the
// same seed gives the same log on every platform and build (no <random> distributions, no
// floating point). Not thread-safe; each generator owns its own.
#pragma once

#include <cstdint>

namespace sf::loggen {

class Prng {
 public:
  explicit Prng(uint64_t seed) : state_(seed ^ 0x5DEECE66DULL) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  // Uniform in [lo, hi] (both included); lo when hi <= lo.
  int64_t between(int64_t lo, int64_t hi) {
    if (hi <= lo) return lo;
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }

  // True with probability permille / 1000.
  bool chance(int permille) { return static_cast<int>(next() % 1000) < permille; }

  // `value` scaled by a random factor in [1000 - spread, 1000 + spread] per mille.
  int64_t jitter(int64_t value, int spread_permille) {
    return value * between(1000 - spread_permille, 1000 + spread_permille) / 1000;
  }

  // An independent generator for a sub-sequence, so that drawing more numbers in one part of
  // the simulation does not shift every number drawn after it elsewhere.
  Prng fork(uint64_t salt) { return Prng(next() ^ (salt * 0xD1B54A32D192ED03ULL)); }

 private:
  uint64_t state_;
};

}  // namespace sf::loggen
