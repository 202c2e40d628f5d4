#include "model/slowest.h"

#include <algorithm>

namespace sf::model {

namespace {

template <class Item>
std::vector<const Item*> longest_first(const std::vector<Item>& items, size_t limit) {
  std::vector<const Item*> ran;
  for (const Item& item : items) {
    if (item.duration_ms()) ran.push_back(&item);
  }
  std::stable_sort(ran.begin(), ran.end(),
                   [](const Item* a, const Item* b) { return *a->duration_ms() > *b->duration_ms(); });
  if (ran.size() > limit) ran.resize(limit);
  return ran;
}

}  // namespace

std::vector<const StageAttempt*> slowest_stages(const AppModel& model, size_t limit) {
  return longest_first(model.stages, limit);
}

std::vector<const Job*> slowest_jobs(const AppModel& model, size_t limit) { return longest_first(model.jobs, limit); }

std::vector<const SqlExecution*> slowest_sql_executions(const AppModel& model, size_t limit) {
  return longest_first(model.sql, limit);
}

}  // namespace sf::model
