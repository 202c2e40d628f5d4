#pragma once

#include <algorithm>
#include <vector>

namespace sf::model {

// The model's id lists (a job's stages, an execution's jobs, an operation's jobs) are kept sorted
// and without repeats, so that readers can search them and two models compare equal.
template <class T>
void sort_unique(std::vector<T>& values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

}  // namespace sf::model
