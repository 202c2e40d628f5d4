// What a command still holds when it is done: left for the process's exit to take back.
//
// The kernel takes a process's memory back at once; freeing an application model allocation by
// allocation (its stages, their quantile columns, plans, executors) costs ~5% of analyzing a
// 200 MB log, after the report is already out. Only a command about to return to main() calls
// this. What it keeps stays reachable from a pointer that is never freed, so LeakSanitizer does
// not count it as a leak.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace sf::cli {

template <class T>
void leave_to_exit(T&& value) {
  static auto* const kept = new std::vector<std::shared_ptr<void>>();
  kept->push_back(std::make_shared<std::decay_t<T>>(std::forward<T>(value)));
}

}  // namespace sf::cli
