// The least-cost assignment of rows to columns (the Hungarian method): each row gets a distinct
// column and the sum of the chosen costs is the least any such assignment has. Used to pair
// stages that share a key, where greedy pairing in stage-id order crosses stages once a run
// submits them in another order.
#pragma once

#include <cstddef>
#include <vector>

namespace sf::compare {

// cost[r][c] for rows r and columns c; every row has the same number of columns, at least as many
// as there are rows. Returns the column of each row. O(rows^2 * columns).
std::vector<size_t> least_cost_assignment(const std::vector<std::vector<double>>& cost);

}  // namespace sf::compare
