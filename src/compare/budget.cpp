#include "compare/budget.h"

#include <charconv>
#include <cmath>

namespace sf::compare {

namespace {

struct Suffix {
  std::string_view text;
  double factor;
};

constexpr Suffix kTimeSuffixes[] = {{"ms", 1}, {"s", 1000}, {"m", 60'000}, {"min", 60'000}, {"h", 3'600'000}};
constexpr Suffix kByteSuffixes[] = {{"B", 1},
                                    {"K", 1024.0},
                                    {"KiB", 1024.0},
                                    {"KB", 1024.0},
                                    {"M", 1024.0 * 1024},
                                    {"MiB", 1024.0 * 1024},
                                    {"MB", 1024.0 * 1024},
                                    {"G", 1024.0 * 1024 * 1024},
                                    {"GiB", 1024.0 * 1024 * 1024},
                                    {"GB", 1024.0 * 1024 * 1024},
                                    {"T", 1024.0 * 1024 * 1024 * 1024},
                                    {"TiB", 1024.0 * 1024 * 1024 * 1024},
                                    {"TB", 1024.0 * 1024 * 1024 * 1024}};

std::optional<double> unit_factor(std::string_view unit, std::string_view suffix) {
  if (suffix.empty()) return 1.0;
  if (unit == "ms") {
    for (const auto& s : kTimeSuffixes) {
      if (s.text == suffix) return s.factor;
    }
  }
  if (unit == "bytes") {
    for (const auto& s : kByteSuffixes) {
      if (s.text == suffix) return s.factor;
    }
  }
  return std::nullopt;
}

std::string known_metrics() {
  std::string names;
  for (const auto& d : metric_definitions()) names += (names.empty() ? "" : ", ") + std::string(d.name);
  return names;
}

}  // namespace

Result<Budget> parse_budget(std::string_view text) {
  auto bad = [&](const std::string& why) {
    return fail(Status::InvalidArgument("invalid --budget '" + std::string(text) + "': " + why));
  };
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) return bad("expected METRIC=LIMIT, e.g. wallClock=+5%");
  Budget budget;
  budget.text = std::string(text);
  budget.metric = std::string(text.substr(0, eq));
  const MetricDefinition* definition = find_metric(budget.metric);
  if (definition == nullptr) return bad("unknown metric '" + budget.metric + "' (known: " + known_metrics() + ")");
  std::string_view limit = text.substr(eq + 1);
  bool sign = false;
  double sign_factor = 1;
  if (!limit.empty() && (limit.front() == '+' || limit.front() == '-')) {
    sign = true;
    sign_factor = limit.front() == '-' ? -1 : 1;
    limit.remove_prefix(1);
  }
  double number = 0;
  const auto [end, ec] = std::from_chars(limit.data(), limit.data() + limit.size(), number);
  if (ec != std::errc() || !std::isfinite(number) || number < 0) return bad("the limit is not a number");
  const std::string_view suffix = limit.substr(static_cast<size_t>(end - limit.data()));
  if (suffix == "%") {
    budget.kind = Budget::Kind::kRelative;
    budget.limit = sign_factor * number / 100;
    return budget;
  }
  const auto factor = unit_factor(definition->unit, suffix);
  if (!factor)
    return bad("unknown unit '" + std::string(suffix) + "' for a metric in " + std::string(definition->unit));
  budget.kind = sign ? Budget::Kind::kIncrease : Budget::Kind::kCeiling;
  budget.limit = sign_factor * number * *factor;
  return budget;
}

std::vector<BudgetResult> evaluate_budgets(const std::vector<Budget>& budgets, const std::vector<MetricDelta>& deltas) {
  std::vector<BudgetResult> results;
  for (const auto& budget : budgets) {
    BudgetResult result;
    result.budget = budget;
    const MetricDelta* delta = nullptr;
    for (const auto& d : deltas) {
      if (d.name == budget.metric) delta = &d;
    }
    if (delta == nullptr || !delta->candidate || (budget.kind != Budget::Kind::kCeiling && !delta->baseline)) {
      result.unchecked_reason = delta == nullptr ? "no such metric" : delta->unavailable_reason;
      results.push_back(std::move(result));
      continue;
    }
    result.candidate = delta->candidate;
    switch (budget.kind) {
      case Budget::Kind::kRelative: result.allowed = *delta->baseline * (1 + budget.limit); break;
      case Budget::Kind::kIncrease: result.allowed = *delta->baseline + budget.limit; break;
      case Budget::Kind::kCeiling: result.allowed = budget.limit; break;
    }
    result.exceeded = *result.candidate > *result.allowed;
    results.push_back(std::move(result));
  }
  return results;
}

bool any_exceeded(const std::vector<BudgetResult>& results) {
  for (const auto& r : results) {
    if (r.exceeded) return true;
  }
  return false;
}

}  // namespace sf::compare
