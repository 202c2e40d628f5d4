// Figures of a comparison written for people, shared by its text and Markdown renderers so
// both say the same thing the same way. Private to src/report.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compare/run_comparison.h"

namespace sf::report {

// A metric value in its unit: "1m 02s", "1.5 GiB", "0.031", "12".
std::string metric_figure(std::string_view unit, std::optional<double> value);
// A signed change in its unit with the relative change: "+4.0s (+6.5%)", "-1.0 GiB (-50.0%)".
std::string change_figure(const compare::MetricDelta& delta);
// The direction, with the band when a change was read as noise: "unchanged (within 1.2s)".
std::string direction_figure(const compare::MetricDelta& delta);
// "exact 1.00", "aligned 0.72", "aligned by position 0.50"; ", ambiguous" when another stage
// fits as well.
std::string pair_method_figure(const compare::StagePair& pair);
// What else an ambiguous pair could have been, and the pin that settles it: "stage 3 -> 5:
// candidate stage 6 fits as well by place in the job and bytes read (--pin 3:6 takes it)". "" when the
// pair is not ambiguous.
std::string ambiguity_figure(const compare::StagePair& pair);
// "14 of 14 / 15 executions paired (banded)".
std::string execution_alignment_figure(const compare::ExecutionAlignment& executions);
// "pairs 12 (exact 10, structural 1, aligned 1, by position 0)", with ", ambiguous N" and
// ", pinned by hand N" when there are any.
std::string pair_counts_figure(const compare::StageAlignment& alignment);
// "ok", "EXCEEDED", "unchecked: <reason>" with the figures.
std::string budget_figure(const compare::BudgetResult& result, std::string_view unit);

// One side of a setting difference: "20", "not set (200 in effect)", "not set".
std::string setting_side_figure(const std::optional<std::string>& set, const std::optional<std::string>& effective);
// A duration change with its relative change: "-4.0s (-35.1%)"; "n/a" when a side has no duration.
std::string duration_change_figure(const compare::ExecutionDelta& delta);

// The `n` execution pairs whose duration changed most (by absolute change, then baseline id).
std::vector<const compare::ExecutionDelta*> largest_execution_changes(const compare::Comparison& comparison, size_t n);

// The `n` stage pairs whose executor run time changed most (by absolute change, then baseline
// stage id).
std::vector<const compare::StageDelta*> largest_stage_changes(const compare::Comparison& comparison, size_t n);

}  // namespace sf::report
