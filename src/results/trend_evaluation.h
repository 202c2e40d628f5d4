// evaluate_trend: the comparator's core in trend mode (the documents' "history").
//
// evaluate(target, reference, method) -> one evaluation of a verdict document. Side-effect
// free: it reads only its arguments. It runs the eligibility guard first (a usable target, a
// known order, one series, estimator and policy schema, references that precede the target,
// the status rules, one point per revision) and only then the method. Every refusal is an
// indeterminate verdict with its reason; nothing is substituted.
#pragma once

#include "results/comparison_method.h"
#include "results/series.h"
#include "results/trend_reference.h"
#include "results/verdict_document.h"

namespace sf::results {

Evaluation evaluate_trend(const SeriesPoint& target, const TrendReference& reference, const MethodConfig& method);

// The evidence form of a point.
PointRef point_ref(const SeriesPoint& point, std::optional<int64_t> ancestry_distance = std::nullopt);

}  // namespace sf::results
