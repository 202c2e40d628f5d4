#include "compare/assignment.h"

#include <limits>

namespace sf::compare {

// The shortest-augmenting-path form with row and column potentials (u, v): each row in turn is
// added, and the cheapest path in the reduced costs from it to a free column re-routes the
// earlier rows' columns. Index 0 of `owner` and `way` is the virtual column the path starts from.
std::vector<size_t> least_cost_assignment(const std::vector<std::vector<double>>& cost) {
  const size_t rows = cost.size();
  if (rows == 0) return {};
  const size_t cols = cost.front().size();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> u(rows + 1, 0), v(cols + 1, 0);
  std::vector<size_t> owner(cols + 1, 0), way(cols + 1, 0);  // owner[c]: 1-based row holding column c
  for (size_t row = 1; row <= rows; ++row) {
    owner[0] = row;
    size_t col = 0;
    std::vector<double> least(cols + 1, kInf);
    std::vector<bool> used(cols + 1, false);
    do {
      used[col] = true;
      const size_t r = owner[col];
      double delta = kInf;
      size_t next = 0;
      for (size_t c = 1; c <= cols; ++c) {
        if (used[c]) continue;
        const double reduced = cost[r - 1][c - 1] - u[r] - v[c];
        if (reduced < least[c]) {
          least[c] = reduced;
          way[c] = col;
        }
        if (least[c] < delta) {
          delta = least[c];
          next = c;
        }
      }
      for (size_t c = 0; c <= cols; ++c) {
        if (used[c]) {
          u[owner[c]] += delta;
          v[c] -= delta;
        } else {
          least[c] -= delta;
        }
      }
      col = next;
    } while (owner[col] != 0);
    do {
      const size_t previous = way[col];
      owner[col] = owner[previous];
      col = previous;
    } while (col != 0);
  }
  std::vector<size_t> column_of(rows, 0);
  for (size_t c = 1; c <= cols; ++c) {
    if (owner[c] != 0) column_of[owner[c] - 1] = c - 1;
  }
  return column_of;
}

}  // namespace sf::compare
