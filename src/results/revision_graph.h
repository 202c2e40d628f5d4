// The revision graph the results record: each tree id's parents, merged over every result that
// names the tree. History mode walks it to find a target's ancestors.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "results/result.h"

namespace sf::results {

class RevisionGraph {
 public:
  explicit RevisionGraph(const std::vector<StoredResult>& results);

  // Every strict ancestor of `tree` with its distance in generations (parents are 1), by
  // breadth-first search, so the nearest path wins.
  std::map<std::string, int64_t> ancestors(const std::string& tree) const;

  // `results` (some of the store's) in ancestry order: each after every result of an ancestor
  // revision; otherwise (siblings, results with no revision) by native order, the earlier
  // first. How a chart over revisions lays its points out.
  std::vector<const StoredResult*> ancestry_order(const std::vector<const StoredResult*>& results) const;

 private:
  std::map<std::string, std::vector<std::string>> parents_;
};

}  // namespace sf::results
