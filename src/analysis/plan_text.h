// Reading SQL plan nodes, shared by the plan detectors (sql_plans, caching, config_audit):
// their text without per-run ids, what kind of node they are, and their metrics and metadata.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "model/app_model.h"

namespace sf::analysis {

// Expression ids (#123) and exchange ids ([id=#42], [plan_id=42]) differ between two copies of
// the same computation; everything else in a node's text describes what it computes.
std::string normalized_plan_text(std::string_view text);

// Scans of stored data (files, tables, JDBC, DSv2 sources). Scans of RDDs, local rows, caches
// and streams are not.
bool is_source_scan(const model::PlanNode& node);

// A shuffle exchange (not a broadcast, not a reuse of another exchange).
bool is_shuffle_exchange(const model::PlanNode& node);
// A join that shuffles both sides: sort-merge or shuffled hash.
bool is_shuffled_join(const model::PlanNode& node);

// The plan was run by adaptive query execution (AdaptiveSparkPlan at the root, or under a write
// command's node on Spark 3.0 and 3.1).
bool is_adaptive(const model::PlanTree& plan);

// The value of the first of `names` the node has a value for.
std::optional<int64_t> metric_value(const model::PlanNode& node, std::initializer_list<std::string_view> names);

// A metadata entry of the node ("Location", "ReadSchema", ...), or null.
const std::string* metadata_value(const model::PlanNode& node, std::string_view key);

}  // namespace sf::analysis
