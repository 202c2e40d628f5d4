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

std::vector<const StoredResult*> RevisionGraph::ancestry_order(const std::vector<const StoredResult*>& results) const {
  // Kahn's algorithm over the results themselves: result j waits for result i when i's tree is
  // a strict ancestor of j's; of the results ready, the earliest ingested goes first.
  const size_t n = results.size();
  std::vector<std::vector<size_t>> after(n);
  std::vector<size_t> waiting(n, 0);
  std::map<std::string, std::map<std::string, int64_t>> ancestors_of;
  for (size_t j = 0; j < n; ++j) {
    const std::string& tree = results[j]->document.revision.tree;
    if (tree.empty()) continue;
    auto it = ancestors_of.find(tree);
    if (it == ancestors_of.end()) it = ancestors_of.emplace(tree, ancestors(tree)).first;
    for (size_t i = 0; i < n; ++i) {
      const std::string& other = results[i]->document.revision.tree;
      if (i != j && !other.empty() && other != tree && it->second.count(other) != 0) {
        after[i].push_back(j);
        ++waiting[j];
      }
    }
  }
  auto earlier = [&](size_t a, size_t b) { return results[a]->order > results[b]->order; };  // min-heap
  std::vector<size_t> ready;
  for (size_t i = 0; i < n; ++i) {
    if (waiting[i] == 0) ready.push_back(i);
  }
  std::make_heap(ready.begin(), ready.end(), earlier);
  std::vector<const StoredResult*> out;
  while (!ready.empty()) {
    std::pop_heap(ready.begin(), ready.end(), earlier);
    const size_t i = ready.back();
    ready.pop_back();
    out.push_back(results[i]);
    for (size_t j : after[i]) {
      if (--waiting[j] == 0) {
        ready.push_back(j);
        std::push_heap(ready.begin(), ready.end(), earlier);
      }
    }
  }
  // A cycle in recorded parents (bad input) leaves results waiting: they follow in native order.
  if (out.size() < n) {
    std::vector<const StoredResult*> rest;
    for (size_t i = 0; i < n; ++i) {
      if (waiting[i] != 0) rest.push_back(results[i]);
    }
    std::sort(rest.begin(), rest.end(),
              [](const StoredResult* a, const StoredResult* b) { return a->order < b->order; });
    out.insert(out.end(), rest.begin(), rest.end());
  }
  return out;
}

}  // namespace sf::results
