// Performance budgets on the metric deltas: "wallClock=+5%", "spill=0", "gcTime=+10%".
//
//   METRIC=+N%   the candidate may exceed the baseline by at most N percent (-N%: must improve
//                by N percent); a baseline of 0 allows no increase at all
//   METRIC=+N    the candidate may exceed the baseline by at most N (in the metric's unit,
//                optionally with a suffix: ms, s, m, h for times; B, KiB/K, MiB/M, GiB/G, TiB/T
//                for bytes)
//   METRIC=N     the candidate may be at most N
// A budget whose metric a run does not record cannot be checked: it is reported as unchecked,
// never as exceeded. The comparison's confidence plays no part.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "compare/metric_deltas.h"

namespace sf::compare {

struct Budget {
  enum class Kind { kRelative, kIncrease, kCeiling };
  std::string text;  // as given
  std::string metric;
  Kind kind = Kind::kCeiling;
  double limit = 0;  // a fraction for kRelative (0.05), else in the metric's unit
};

struct BudgetResult {
  Budget budget;
  std::optional<double> allowed;  // the most the candidate may be
  std::optional<double> candidate;
  bool exceeded = false;
  std::string unchecked_reason;  // "" when checked
};

// An InvalidArgument naming the budget when it is malformed or names an unknown metric.
Result<Budget> parse_budget(std::string_view text);

std::vector<BudgetResult> evaluate_budgets(const std::vector<Budget>& budgets, const std::vector<MetricDelta>& deltas);

bool any_exceeded(const std::vector<BudgetResult>& results);

}  // namespace sf::compare
