#include "compare/execution_similarity.h"

#include <algorithm>

namespace sf::compare {

namespace {

template <class T>
double sorted_jaccard(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.empty() && b.empty()) return 0;
  size_t common = 0;
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] < b[j]) {
      ++i;
    } else if (b[j] < a[i]) {
      ++j;
    } else {
      ++common;
      ++i;
      ++j;
    }
  }
  return static_cast<double>(common) / static_cast<double>(a.size() + b.size() - common);
}

}  // namespace

int32_t TokenDictionary::id(std::string_view token) {
  auto [it, inserted] = ids_.try_emplace(std::string(token), static_cast<int32_t>(ids_.size()));
  return it->second;
}

std::vector<int32_t> TokenDictionary::ids(const std::vector<std::string>& tokens) {
  std::vector<int32_t> out;
  out.reserve(tokens.size());
  for (const auto& token : tokens) out.push_back(id(token));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

double jaccard(const std::vector<int32_t>& a, const std::vector<int32_t>& b) { return sorted_jaccard(a, b); }
double jaccard(const std::vector<std::string>& a, const std::vector<std::string>& b) { return sorted_jaccard(a, b); }

double execution_similarity(const ExecutionProfile& a, const ExecutionProfile& b) {
  double total = 0, weights = 0;
  auto part = [&](const std::vector<int32_t>& x, const std::vector<int32_t>& y, double weight) {
    if (x.empty() || y.empty()) return;
    total += weight * jaccard(x, y);
    weights += weight;
  };
  part(a.structure, b.structure, kStructureWeight);
  part(a.frames, b.frames, kFramesWeight);
  part(a.description, b.description, kDescriptionWeight);
  return weights > 0 ? total / weights : 0;
}

}  // namespace sf::compare
