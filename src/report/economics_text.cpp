#include "report/economics_text.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "common/units.h"

namespace sf::report {

namespace {

using namespace sf::analysis;
using units::format_percent;

constexpr size_t kPathStagesShown = 5;
constexpr size_t kCostliestShown = 3;

std::string duration(double ms) { return units::format_duration_ms(static_cast<int64_t>(std::llround(ms))); }

std::string time_phrase(const WindowSplit& s) {
  const double whole = s.duration_ms > 0 ? s.duration_ms : 1;
  return fmt::format(
      "{} in all: the driver alone {} ({}: {} before the first job, {} between jobs, {} after the last); "
      "jobs running {} ({})",
      duration(s.duration_ms), duration(s.outside_ms()), format_percent(s.outside_ms() / whole),
      duration(s.before_first_ms), duration(s.between_ms), duration(s.after_last_ms), duration(s.inside_ms),
      format_percent(s.inside_ms / whole));
}

// The few jobs or SQL executions where the driver worked alone longest inside them ("job 3 2.1s
// of 9.0s, ..."); empty when none had any.
template <typename Item, typename Id>
std::string most_driver_only(const std::vector<Item>& items, Id id_of) {
  std::vector<const Item*> sorted;
  for (const Item& item : items) {
    if (item.split.outside_ms() >= 1) sorted.push_back(&item);
  }
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Item* a, const Item* b) { return a->split.outside_ms() > b->split.outside_ms(); });
  std::string words;
  for (size_t i = 0; i < sorted.size() && i < kCostliestShown; ++i) {
    words += fmt::format("{}{} {} of {}", i == 0 ? "" : ", ", id_of(*sorted[i]),
                         duration(sorted[i]->split.outside_ms()), duration(sorted[i]->split.duration_ms));
  }
  return words;
}

// "driver alone inside jobs: job 3 2.1s of 9.0s, ...; inside SQL executions: ...", or empty.
std::string inside_phrase(const Economics& e) {
  const std::string jobs =
      most_driver_only(e.jobs, [](const JobTimeSplit& j) { return fmt::format("job {}", j.job_id); });
  const std::string sql =
      most_driver_only(e.sql, [](const SqlTimeSplit& x) { return fmt::format("execution {}", x.execution_id); });
  std::string words;
  if (!jobs.empty()) words = fmt::format("inside jobs, no stage running: {}", jobs);
  if (!sql.empty()) words += fmt::format("{}inside SQL executions, no job running: {}", words.empty() ? "" : "; ", sql);
  return words;
}

std::string critical_phrase(const CriticalPath& p) {
  const double whole = p.wall_clock_ms > 0 ? p.wall_clock_ms : 1;
  return fmt::format(
      "{} with unlimited executors ({} of the run, {} of it driver-only); {} with today's {} cores if "
      "every task took its stage's mean ({})",
      duration(p.length_ms), format_percent(p.length_ms / whole), duration(p.driver_only_ms), duration(p.ideal_ms),
      units::format_count(static_cast<int64_t>(p.cores)), format_percent(p.ideal_ms / whole));
}

std::string path_phrase(const CriticalPath& p) {
  std::string words;
  for (size_t i = 0; i < p.stages.size() && i < kPathStagesShown; ++i) {
    const PathStage& s = p.stages[i];
    words += fmt::format("{}stage {}.{} ({} wait + {} longest task)", i == 0 ? "" : " -> ", s.stage.stage_id,
                         s.stage.attempt_id, duration(s.wait_ms), duration(s.longest_task_ms));
  }
  if (p.stages.size() > kPathStagesShown) words += fmt::format(" -> {} more", p.stages.size() - kPathStagesShown);
  return words.empty() ? "no stage (the driver's time is all of it)" : words;
}

std::string today_phrase(const WhatIf& w) {
  const std::string allocation =
      !w.dynamic_allocation ? ""
      : w.peak_executors == w.today_executors
          ? " (dynamic allocation; N is its maxExecutors)"
          : fmt::format(" (dynamic allocation; N is its maxExecutors; {} held at most)", w.peak_executors);
  return fmt::format("today {} executor{} of {} core{}{}: measured {}, simulated {} ({:+.1f}%)", w.today_executors,
                     w.today_executors == 1 ? "" : "s", w.cores_per_executor, w.cores_per_executor == 1 ? "" : "s",
                     allocation, duration(w.measured_ms), duration(w.today_simulated_ms), 100 * w.today_error);
}

std::string knee_phrase(const WhatIf& w) {
  return fmt::format("knee: {} executor{}, {} (within {} of the best on the curve, {})", w.knee_executors,
                     w.knee_executors == 1 ? "" : "s", duration(w.knee_ms), format_percent(WhatIf::kKneeShare),
                     duration(w.best_ms));
}

std::string rate_phrase(const RateCard& r) {
  return fmt::format("{} prices ({} {} per core-hour, {} per GiB-hour, as of {})", r.name, r.per_core_hour, r.currency,
                     r.per_gib_hour, r.as_of);
}

std::string cost_phrase(const Cost& c) {
  const std::string& cur = c.rate_card.currency;
  return fmt::format(
      "{} at {}: executors {}, driver {}; {} while only the driver worked ({:.2f} core-hours, {:.2f} "
      "GiB-hours)",
      format_money(c.total, cur), rate_phrase(c.rate_card), format_money(c.executors, cur), format_money(c.driver, cur),
      format_money(c.driver_only, cur), c.core_hours, c.gib_hours);
}

// The costliest few of a list, as "stage 3.0 1.20 USD, ...".
template <typename Item, typename Label>
std::string costliest(std::vector<Item> items, Label label, const std::string& currency) {
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.second > b.second; });
  std::string words;
  for (size_t i = 0; i < items.size() && i < kCostliestShown; ++i) {
    words += fmt::format("{}{} {}", i == 0 ? "" : ", ", label(items[i].first), format_money(items[i].second, currency));
  }
  return words;
}

std::vector<std::string> costliest_lines(const Cost& c) {
  const std::string& cur = c.rate_card.currency;
  std::vector<std::string> lines;
  auto add = [&lines](const char* what, std::string words) {
    if (!words.empty()) lines.push_back(fmt::format("{}: {}", what, words));
  };
  add("stages", costliest(
                    c.stages, [](const StageRef& s) { return fmt::format("{}.{}", s.stage_id, s.attempt_id); }, cur));
  add("jobs", costliest(
                  c.jobs, [](int64_t id) { return std::to_string(id); }, cur));
  add("SQL executions", costliest(
                            c.sql, [](int64_t id) { return std::to_string(id); }, cur));
  std::vector<FindingCost> findings = c.findings;
  std::stable_sort(findings.begin(), findings.end(),
                   [](const FindingCost& a, const FindingCost& b) { return a.high > b.high; });
  std::string words;
  for (size_t i = 0; i < findings.size() && i < kCostliestShown; ++i) {
    const FindingCost& f = findings[i];
    const std::string figure = f.low == f.high
                                   ? format_money(f.high, cur)
                                   : fmt::format("{} to {}", format_money(f.low, cur), format_money(f.high, cur));
    words += fmt::format("{}{} {}", i == 0 ? "" : ", ", f.finding_id, figure);
  }
  add("what findings' recoverable time costs", words);
  return lines;
}

}  // namespace

std::string format_money(double amount, const std::string& currency) {
  if (std::fabs(amount) >= 1) return fmt::format("{:.2f} {}", amount, currency);
  return fmt::format("{:.4f} {}", amount, currency);
}

void economics_text_section(std::string& out, const Economics& e) {
  out += "\nWhere the time and the money go\n";
  auto line = [&out](std::string_view label, const std::string& text) {
    out += fmt::format("  {:<11}{}\n", label, text);
  };
  if (e.time_split) line("Time", time_phrase(*e.time_split));
  if (const std::string inside = inside_phrase(e); !inside.empty()) line("", inside);
  if (e.critical_path) {
    line("Critical", critical_phrase(*e.critical_path));
    line("", fmt::format("path: {}", path_phrase(*e.critical_path)));
  }
  if (e.what_if) {
    const WhatIf& w = *e.what_if;
    line("What-if", today_phrase(w));
    std::string row;
    size_t in_row = 0;
    for (const WhatIfPoint& p : w.curve) {
      row += fmt::format("{}{} -> {} ({})", in_row == 0 ? "" : " · ", p.executors, duration(p.predicted_ms),
                         format_money(p.cost, e.cost.rate_card.currency));
      if (++in_row == 4) {
        line("", row);
        row.clear();
        in_row = 0;
      }
    }
    if (!row.empty()) line("", row);
    line("", knee_phrase(w));
  }
  line("Cost", cost_phrase(e.cost));
  for (const std::string& l : costliest_lines(e.cost)) line("", l);
}

std::string economics_markdown_section(const Economics& e) {
  std::string out = "### Where the time and the money go\n\n";
  if (e.time_split) out += fmt::format("- Time: {}\n", time_phrase(*e.time_split));
  if (const std::string inside = inside_phrase(e); !inside.empty()) out += fmt::format("  - {}\n", inside);
  if (e.critical_path) {
    out += fmt::format("- Critical path: {}; {}\n", critical_phrase(*e.critical_path), path_phrase(*e.critical_path));
  }
  out += fmt::format("- Cost: {}\n", cost_phrase(e.cost));
  for (const std::string& l : costliest_lines(e.cost)) out += fmt::format("  - {}\n", l);
  if (e.what_if) {
    const WhatIf& w = *e.what_if;
    out += fmt::format("- What-if: {}; {}\n\n", today_phrase(w), knee_phrase(w));
    out += "| executors | predicted wall-clock | cost |\n|---|---|---|\n";
    for (const WhatIfPoint& p : w.curve) {
      out += fmt::format("| {}{} | {} | {} |\n", p.executors, p.executors == w.today_executors ? " (today)" : "",
                         duration(p.predicted_ms), format_money(p.cost, e.cost.rate_card.currency));
    }
  }
  out += "\n";
  return out;
}

}  // namespace sf::report
