// The SQL events, which Spark logs by fully qualified class name: an execution's start and end,
// the plans adaptive execution replaces as it runs and the metrics their new nodes bring, and the
// metric values the driver sets itself.
#include <array>
#include <utility>

#include "eventlog/event_decoders.h"
#include "eventlog/field_readers.h"

namespace sf::eventlog::decoding {

namespace {

// A sparkPlanInfo tree, flattened in preorder. Depth is bounded so a hostile line cannot
// exhaust the stack (simdjson bounds JSON depth too; this keeps the two consistent).
constexpr int kMaxPlanDepth = 1000;

// A plan's nodes and metrics are most of a SQL-heavy log's bytes: like the task events, their keys
// are found by position in Spark's fixed order (SparkPlanInfo, SQLPlanMetric), not compared as text.
constexpr json::KeyTable<3> kPlanMetricKeys{{"name", "accumulatorId", "metricType"}};
constexpr uint32_t kPlanMetricRequiredMask = required_mask(kPlanMetricKeys, kPlanMetricRequired);

error_code read_plan_metrics(od::value& value, std::vector<spark::PlanMetric>& metrics, MissingField& missing) {
  return for_each_element(value, [&](od::value& element) -> error_code {
    spark::PlanMetric metric;
    uint32_t seen = 0;
    auto error = for_each_known_field(element, kPlanMetricKeys, [&](size_t index, od::value& v) -> error_code {
      seen |= uint32_t{1} << index;
      switch (index) {
        case 0: return read_string(v, metric.name, kMaxNameBytes);
        case 1: return read_int(v, metric.accumulator_id);
        case 2: return read_string(v, metric.metric_type, kMaxNameBytes);
        default: return SUCCESS;
      }
    });
    if (error) return error;
    if ((seen & kPlanMetricRequiredMask) != kPlanMetricRequiredMask) {
      return missing.within("[]", missing.report(first_unseen(kPlanMetricKeys, kPlanMetricRequired, seen)));
    }
    metrics.push_back(std::move(metric));
    return SUCCESS;
  });
}

constexpr json::KeyTable<5> kPlanNodeKeys{{"nodeName", "simpleString", "children", "metadata", "metrics"}};
constexpr uint32_t kPlanNodeRequiredMask = required_mask(kPlanNodeKeys, kPlanNodeRequired);

error_code read_plan_node(od::value& value, spark::PlanTree& tree, int depth, MissingField& missing) {
  if (depth > kMaxPlanDepth) return simdjson::DEPTH_ERROR;
  const auto node_id = static_cast<int32_t>(tree.nodes.size());
  tree.nodes.emplace_back();
  tree.nodes[node_id].node_id = node_id;
  uint32_t seen = 0;
  auto error = for_each_known_field(value, kPlanNodeKeys, [&](size_t index, od::value& v) -> error_code {
    seen |= uint32_t{1} << index;
    switch (index) {
      case 0: return read_string(v, tree.nodes[node_id].node_name, kMaxNameBytes);
      case 1: return read_string(v, tree.nodes[node_id].simple_string, kMaxTextBytes);
      case 2:
        return for_each_element(v, [&](od::value& child) -> error_code {
          const auto child_id = static_cast<int32_t>(tree.nodes.size());
          if (auto e = read_plan_node(child, tree, depth + 1, missing)) return missing.within("children/[]", e);
          tree.nodes[node_id].children.push_back(child_id);
          return SUCCESS;
        });
      case 3: return json::read_key_values(v, tree.nodes[node_id].metadata, kMaxNameBytes, kMaxTextBytes);
      case 4: return missing.within("metrics", read_plan_metrics(v, tree.nodes[node_id].metrics, missing));
      default: return SUCCESS;
    }
  });
  if (error) return error;
  if ((seen & kPlanNodeRequiredMask) != kPlanNodeRequiredMask) {
    return missing.report(first_unseen(kPlanNodeKeys, kPlanNodeRequired, seen));
  }
  return SUCCESS;
}

error_code read_plan(od::value& value, spark::PlanTree& tree, MissingField& missing) {
  tree.nodes.clear();
  bool is_null = false;
  if (auto error = value.is_null().get(is_null)) return error;
  if (is_null) return SUCCESS;
  return read_plan_node(value, tree, 0, missing);
}

// "accumUpdates": [accumulator id, value] pairs; anything but a pair of integers is the wrong type.
error_code read_accumulator_updates(od::value& value, std::vector<std::pair<int64_t, int64_t>>& updates) {
  return for_each_element(value, [&](od::value& pair) -> error_code {
    std::array<int64_t, 2> values{};
    size_t n = 0;
    auto error = for_each_element(pair, [&](od::value& element) -> error_code {
      if (n >= 2) return simdjson::INCORRECT_TYPE;
      return read_int(element, values[n++]);
    });
    if (error) return error;
    if (n != 2) return simdjson::INCORRECT_TYPE;
    updates.emplace_back(values[0], values[1]);
    return SUCCESS;
  });
}

}  // namespace

error_code decode_sql_execution_start(od::document& doc, DecodeState& state, EventHandler& handler) {
  MissingField& missing = state.missing;
  return decode_and_emit<SqlExecutionStart>(
      doc, handler, kSqlExecutionStartRequired, missing,
      [&](std::string_view key, od::value& v, SqlExecutionStart& e) -> error_code {
        if (key == "executionId") return read_int(v, e.execution_id);
        if (key == "rootExecutionId") return read_optional_int(v, e.root_execution_id);
        if (key == "description") return read_string(v, e.description, kMaxTextBytes);
        if (key == "details") return read_string(v, e.details, kMaxTextBytes);
        if (key == "physicalPlanDescription") return read_string(v, e.physical_plan_description, kMaxTextBytes);
        if (key == "sparkPlanInfo") return missing.within(key, read_plan(v, e.plan, missing));
        if (key == "time") return read_optional_int(v, e.time_ms);
        if (key == "modifiedConfigs") {
          return json::read_key_values(v, e.modified_configs, kMaxNameBytes, kMaxTextBytes);
        }
        if (key == "queryId") return json::read_optional_string(v, e.query_id, kMaxNameBytes);
        return SUCCESS;
      });
}

error_code decode_sql_execution_end(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_and_emit<SqlExecutionEnd>(doc, handler, kSqlExecutionEndRequired, state.missing,
                                          [](std::string_view key, od::value& v, SqlExecutionEnd& e) -> error_code {
                                            if (key == "executionId") return read_int(v, e.execution_id);
                                            if (key == "time") return read_optional_int(v, e.time_ms);
                                            if (key == "errorMessage")
                                              return json::read_optional_string(v, e.error_message, kMaxTextBytes);
                                            return SUCCESS;
                                          });
}

error_code decode_sql_adaptive_execution_update(od::document& doc, DecodeState& state, EventHandler& handler) {
  MissingField& missing = state.missing;
  return decode_and_emit<SqlAdaptiveExecutionUpdate>(
      doc, handler, kSqlAdaptiveExecutionUpdateRequired, missing,
      [&](std::string_view key, od::value& v, SqlAdaptiveExecutionUpdate& e) -> error_code {
        if (key == "executionId") return read_int(v, e.execution_id);
        if (key == "physicalPlanDescription") return read_string(v, e.physical_plan_description, kMaxTextBytes);
        if (key == "sparkPlanInfo") return missing.within(key, read_plan(v, e.plan, missing));
        return SUCCESS;
      });
}

error_code decode_sql_adaptive_metric_updates(od::document& doc, DecodeState& state, EventHandler& handler) {
  MissingField& missing = state.missing;
  return decode_and_emit<SqlAdaptiveMetricUpdates>(
      doc, handler, kSqlAdaptiveMetricUpdatesRequired, missing,
      [&](std::string_view key, od::value& v, SqlAdaptiveMetricUpdates& e) -> error_code {
        if (key == "executionId") return read_int(v, e.execution_id);
        if (key == "sqlPlanMetrics") return missing.within(key, read_plan_metrics(v, e.metrics, missing));
        return SUCCESS;
      });
}

error_code decode_driver_accum_updates(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_and_emit<DriverAccumUpdates>(
      doc, handler, kDriverAccumUpdatesRequired, state.missing,
      [](std::string_view key, od::value& v, DriverAccumUpdates& e) -> error_code {
        if (key == "executionId") return read_int(v, e.execution_id);
        if (key == "accumUpdates") return read_accumulator_updates(v, e.updates);
        return SUCCESS;
      });
}

}  // namespace sf::eventlog::decoding
