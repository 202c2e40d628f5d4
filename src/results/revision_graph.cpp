#include "results/revision_graph.h"

#include <algorithm>
#include <deque>

namespace sf::results {

RevisionGraph::RevisionGraph(const std::vector<StoredResult>& results) {
  for (const StoredResult& result : results) {
    const Revision& revision = result.document.revision;
    if (revision.tree.empty()) continue;
    auto& parents = parents_[revision.tree];
    parents.insert(parents.end(), revision.parents.begin(), revision.parents.end());
  }
  for (auto& [tree, parents] : parents_) {
    std::sort(parents.begin(), parents.end());
    parents.erase(std::unique(parents.begin(), parents.end()), parents.end());
  }
}

std::map<std::string, int64_t> RevisionGraph::ancestors(const std::string& tree) const {
  std::map<std::string, int64_t> distance;
  std::deque<std::string> queue{tree};
  std::map<std::string, int64_t> depth{{tree, 0}};
  while (!queue.empty()) {
    const std::string current = queue.front();
    queue.pop_front();
    auto it = parents_.find(current);
    if (it == parents_.end()) continue;
    for (const std::string& parent : it->second) {
      if (depth.count(parent) != 0) continue;
      depth[parent] = depth[current] + 1;
      distance[parent] = depth[parent];
      queue.push_back(parent);
    }
  }
  return distance;
}

}  // namespace sf::results
