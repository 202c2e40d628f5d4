// The plan diff of an aligned pair of SQL executions as JSON (compare/plan_diff.h), for the
// dashboard's compare page and `compare --format html`:
//   {"baselineExecutionId", "candidateExecutionId", "description",
//    "counts": {"same", "changed", "removed", "added"},
//    "baseline"|"candidate": {"executionId", "durationMs", "nodes": [{"nodeId", "nodeName",
//        "simpleString", "children", "stageIds", "change", "counterpart"}]}}
// "counterpart" is the other side's node id (null when removed or added). Same input, same bytes.
#pragma once

#include <cstddef>
#include <string>

#include "compare/normalize.h"
#include "compare/run_comparison.h"
#include "model/app_model.h"

namespace sf::report {

std::string plan_diff_json(const model::SqlExecution& base, const model::SqlExecution& cand,
                           const compare::ComparisonNormalizer& normalizer = {});

// Every aligned execution pair of `comparison` (its executionAlignment.pairs, by baseline id) as
// a JSON array of the documents above, at most `max_pairs` of them: what a self-contained page
// carries so the plan diff opens offline.
std::string plan_diffs_json(const compare::Comparison& comparison, const model::AppModel& base,
                            const model::AppModel& cand, const compare::ComparisonNormalizer& normalizer,
                            size_t max_pairs);

}  // namespace sf::report
