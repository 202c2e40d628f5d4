// The readers of field_readers.h that more than one family of events calls.
#include "eventlog/field_readers.h"

namespace sf::eventlog::decoding {

namespace {

using spark::ExecutorMetric;

json::KeyTable<spark::kExecutorMetricCount> executor_metric_keys() {
  json::KeyTable<spark::kExecutorMetricCount> table{};
  for (size_t i = 0; i < spark::kExecutorMetricCount; ++i) {
    table.keys[i] = spark::executor_metric_name(static_cast<ExecutorMetric>(i));
  }
  return table;
}
const json::KeyTable<spark::kExecutorMetricCount> kExecutorMetricKeys = executor_metric_keys();

// One template for both kinds of accumulable: only a task's has "Update".
template <class AccumulableType>
error_code read_accumulables_of(od::value& value, std::vector<AccumulableType>& out) {
  return for_each_element(value, [&](od::value& element) -> error_code {
    AccumulableType accumulable;
    bool has_id = false;
    auto error = for_each_field(element, [&](std::string_view key, od::value& v) -> error_code {
      if (key == "ID") {
        has_id = true;
        return read_int(v, accumulable.id);
      }
      if (key == "Name") return read_string(v, accumulable.name, kMaxNameBytes);
      if (key == "Value") return json::read_as_text(v, accumulable.value, kMaxTextBytes);
      if (key == "Internal") return read_bool(v, accumulable.internal);
      if (key == "Metadata") return json::read_as_text(v, accumulable.metadata, kMaxNameBytes);
      if constexpr (requires { accumulable.update; }) {
        if (key == "Update") return json::read_as_text(v, accumulable.update, kMaxTextBytes);
      }
      return SUCCESS;
    });
    if (error) return error;
    if (has_id) out.push_back(std::move(accumulable));
    return SUCCESS;
  });
}

}  // namespace

error_code read_executor_metrics(od::value& value, spark::ExecutorMetricPeaks& peaks) {
  if (is_null(value)) return SUCCESS;
  peaks.present = true;
  return for_each_known_field(value, kExecutorMetricKeys, [&](size_t index, od::value& v) -> error_code {
    return read_int(v, peaks.values[index]);
  });
}

error_code read_accumulables(od::value& value, std::vector<spark::Accumulable>& out) {
  return read_accumulables_of(value, out);
}

error_code read_accumulables(od::value& value, std::vector<TaskAccumulable>& out) {
  return read_accumulables_of(value, out);
}

error_code read_names(od::value& value, std::vector<std::string>& out) {
  if (is_null(value)) return SUCCESS;
  return for_each_element(value, [&](od::value& element) -> error_code {
    std::string name;
    if (auto error = read_string(element, name, kMaxNameBytes)) return error;
    out.push_back(std::move(name));
    return SUCCESS;
  });
}

}  // namespace sf::eventlog::decoding
