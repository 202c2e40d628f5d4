#include "compare/sequence_alignment.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sf::compare {

namespace {

constexpr int64_t kScoreScale = 1'000'000;
constexpr int32_t kNoMatch = -1;

// The cells of the suffix table S[i][j] (best total of aligning base[i..] with cand[j..]) that
// the alignment evaluates: all of them, or a band around the diagonal. Cells outside are never
// read as part of an alignment: the band's edges are treated as impassable.
class Table {
 public:
  Table(size_t n, size_t m, bool banded, size_t half_width) : n_(n), m_(m), banded_(banded) {
    const auto diff = static_cast<int64_t>(m) - static_cast<int64_t>(n);
    lo_ = banded ? std::min<int64_t>(0, diff) - static_cast<int64_t>(half_width) : -static_cast<int64_t>(n);
    hi_ = banded ? std::max<int64_t>(0, diff) + static_cast<int64_t>(half_width) : static_cast<int64_t>(m);
    // The full table is stored as a rectangle; the band as rows of equal width along the diagonal.
    width_ = banded ? static_cast<size_t>(hi_ - lo_ + 1) : m + 1;
    total_.assign((n + 1) * width_, 0);
    weight_.assign((n + 1) * width_, kNoMatch);
  }

  bool inside(size_t i, size_t j) const {
    if (i > n_ || j > m_) return false;
    const int64_t d = static_cast<int64_t>(j) - static_cast<int64_t>(i);
    return d >= lo_ && d <= hi_;
  }
  int64_t& total(size_t i, size_t j) { return total_[slot(i, j)]; }
  int32_t& weight(size_t i, size_t j) { return weight_[slot(i, j)]; }
  // Outside the band a path cannot go: a very negative total keeps it from being chosen.
  int64_t total_or_wall(size_t i, size_t j) const {
    return inside(i, j) ? total_[slot(i, j)] : std::numeric_limits<int64_t>::min() / 4;
  }
  int64_t row_lo(size_t i) const { return static_cast<int64_t>(i) + lo_; }
  int64_t row_hi(size_t i) const { return static_cast<int64_t>(i) + hi_; }
  size_t cells() const { return (n_ + 1) * width_; }
  bool banded() const { return banded_; }

 private:
  size_t slot(size_t i, size_t j) const {
    if (!banded_) return i * width_ + j;
    return i * width_ + static_cast<size_t>(static_cast<int64_t>(j) - static_cast<int64_t>(i) - lo_);
  }
  size_t n_, m_;
  bool banded_;
  int64_t lo_ = 0, hi_ = 0;
  size_t width_ = 0;
  std::vector<int64_t> total_;
  std::vector<int32_t> weight_;
};

}  // namespace

SequenceAlignment align_sequences(const std::vector<int64_t>& base_ids, const std::vector<int64_t>& cand_ids,
                                  const std::function<double(size_t, size_t)>& similarity,
                                  const SequenceAlignmentOptions& options) {
  const size_t n = base_ids.size(), m = cand_ids.size();
  SequenceAlignment result;
  if (n == 0 || m == 0) return result;
  const bool banded = n * m > options.full_max_cells;
  Table table(n, m, banded, options.band_half_width);
  result.bounded = banded;

  const auto min_weight = static_cast<int64_t>(std::llround(options.min_score * kScoreScale));
  // Suffix table, filled from the last row up; cells past the end (i == n or j == m) are 0.
  for (size_t i = n; i-- > 0;) {
    const int64_t j_lo = std::max<int64_t>(0, table.row_lo(i));
    const int64_t j_hi = std::min<int64_t>(static_cast<int64_t>(m) - 1, table.row_hi(i));
    for (int64_t js = j_hi; js >= j_lo; --js) {
      const auto j = static_cast<size_t>(js);
      const auto w = static_cast<int64_t>(std::llround(std::clamp(similarity(i, j), 0.0, 1.0) * kScoreScale));
      ++result.cells;
      int64_t best = std::max(table.total_or_wall(i + 1, j), table.total_or_wall(i, j + 1));
      if (w >= min_weight) {
        table.weight(i, j) = static_cast<int32_t>(w);
        best = std::max(best, table.total_or_wall(i + 1, j + 1) + w);
      }
      table.total(i, j) = best;
    }
  }

  // Traceback from (0, 0): match where optimal, else skip the higher id.
  size_t i = 0, j = 0;
  while (i < n && j < m) {
    const int64_t here = table.total(i, j);
    const int32_t w = table.weight(i, j);
    if (w != kNoMatch && table.total_or_wall(i + 1, j + 1) + w == here) {
      result.pairs.push_back({i, j, static_cast<double>(w) / kScoreScale});
      ++i;
      ++j;
      continue;
    }
    const bool skip_base_ok = table.total_or_wall(i + 1, j) == here;
    const bool skip_cand_ok = table.total_or_wall(i, j + 1) == here;
    if (skip_base_ok && skip_cand_ok) {
      if (base_ids[i] >= cand_ids[j]) {
        ++i;
      } else {
        ++j;
      }
    } else if (skip_base_ok) {
      ++i;
    } else {
      ++j;
    }
  }
  return result;
}

}  // namespace sf::compare
