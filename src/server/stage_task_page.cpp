#include "server/stage_task_page.h"

#include <algorithm>
#include <array>
#include <vector>

namespace sf::server {

namespace {

using nlohmann::ordered_json;
using model::TaskMetric;

int64_t metric(const TaskRecord& t, TaskMetric m) { return t.metrics[model::index_of(m)]; }

int64_t shuffle_read_bytes(const TaskRecord& t) {
  return metric(t, TaskMetric::kShuffleRemoteBytesRead) + metric(t, TaskMetric::kShuffleLocalBytesRead);
}

// Each sortable column's value: one table, read by the sort and by the row alike.
struct Column {
  std::string_view name;
  int64_t (*value)(const TaskRecord&);
};

constexpr std::array kColumns = {
    Column{"taskId", [](const TaskRecord& t) { return t.task_id; }},
    Column{"index", [](const TaskRecord& t) { return int64_t{t.index}; }},
    Column{"launchTime", [](const TaskRecord& t) { return t.launch_time_ms; }},
    Column{"durationMs", [](const TaskRecord& t) { return metric(t, TaskMetric::kDurationMs); }},
    Column{"executorRunTimeMs", [](const TaskRecord& t) { return metric(t, TaskMetric::kExecutorRunTimeMs); }},
    Column{"jvmGcTimeMs", [](const TaskRecord& t) { return metric(t, TaskMetric::kJvmGcTimeMs); }},
    Column{"inputBytes", [](const TaskRecord& t) { return metric(t, TaskMetric::kInputBytes); }},
    Column{"shuffleReadBytes", shuffle_read_bytes},
    Column{"shuffleWriteBytes", [](const TaskRecord& t) { return metric(t, TaskMetric::kShuffleWriteBytes); }},
    Column{"memorySpillBytes", [](const TaskRecord& t) { return metric(t, TaskMetric::kMemoryBytesSpilled); }},
    Column{"diskSpillBytes", [](const TaskRecord& t) { return metric(t, TaskMetric::kDiskBytesSpilled); }},
};

const Column* column_named(std::string_view name) {
  for (const Column& c : kColumns) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

// A failed task's message is a whole stack trace; the table shows where it starts.
constexpr size_t kShownErrorChars = 500;

ordered_json task_row(const TaskRecord& t) {
  ordered_json row = {{"taskId", t.task_id}, {"index", t.index}, {"attempt", t.attempt},
                      {"status", t.status}, {"executorId", t.executor_id}, {"host", t.host},
                      {"locality", t.locality}, {"speculative", t.speculative}};
  for (const Column& c : kColumns) {
    if (c.name != "taskId" && c.name != "index") row[std::string(c.name)] = c.value(t);
  }
  if (t.error_message) row["errorMessage"] = t.error_message->substr(0, kShownErrorChars);
  return row;
}

// Equal bins from the smallest to the largest value; the last bin holds the largest.
ordered_json histogram(const std::vector<int64_t>& values, int bins) {
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  const double min = static_cast<double>(*low), max = static_cast<double>(*high);
  if (min == max) bins = 1;
  const double width = (max - min) / bins;
  std::vector<int64_t> counts(static_cast<size_t>(bins), 0);
  for (int64_t v : values) {
    const double offset = width > 0 ? (static_cast<double>(v) - min) / width : 0;
    ++counts[static_cast<size_t>(std::min<double>(offset, bins - 1))];
  }
  ordered_json edges = ordered_json::array();
  for (int i = 0; i <= bins; ++i) edges.push_back(i == bins ? max : min + width * i);
  return {{"edges", edges}, {"counts", counts}, {"tasks", values.size()}};
}

}  // namespace

Result<ordered_json> stage_task_page_json(const StageTasks& tasks, const TaskPageRequest& request) {
  const Column* sort = column_named(request.sort_by);
  if (sort == nullptr) return fail(Status::InvalidArgument("cannot sort tasks by \"" + request.sort_by + "\""));
  if (request.length < 1 || request.length > kMaxTaskPageLength) {
    return fail(Status::InvalidArgument("a page holds 1 to " + std::to_string(kMaxTaskPageLength) + " tasks"));
  }
  if (request.offset < 0) return fail(Status::InvalidArgument("the offset cannot be negative"));
  if (request.bins < 1 || request.bins > kMaxHistogramBins) {
    return fail(Status::InvalidArgument("a histogram has 1 to " + std::to_string(kMaxHistogramBins) + " bins"));
  }

  std::vector<const TaskRecord*> order;
  order.reserve(tasks.tasks.size());
  for (const TaskRecord& t : tasks.tasks) order.push_back(&t);
  // Ties by task id in the same direction: the same request gives the same page.
  std::sort(order.begin(), order.end(), [&](const TaskRecord* a, const TaskRecord* b) {
    const auto ka = std::pair(sort->value(*a), a->task_id), kb = std::pair(sort->value(*b), b->task_id);
    return request.descending ? kb < ka : ka < kb;
  });
  ordered_json rows = ordered_json::array();
  const auto total = static_cast<int64_t>(order.size());
  for (int64_t i = request.offset; i < total && i < request.offset + request.length; ++i) {
    rows.push_back(task_row(*order[static_cast<size_t>(i)]));
  }

  ordered_json histograms = ordered_json::object();
  for (std::string_view name : {"durationMs", "inputBytes", "shuffleReadBytes"}) {
    const Column* c = column_named(name);
    std::vector<int64_t> values;
    for (const TaskRecord& t : tasks.tasks) {
      if (t.status == "SUCCESS" && t.has_metrics) values.push_back(c->value(t));
    }
    if (!values.empty()) histograms[std::string(name)] = histogram(values, request.bins);
  }
  return ordered_json{{"total", total}, {"offset", request.offset}, {"tasks", std::move(rows)},
                      {"histograms", std::move(histograms)}};
}

}  // namespace sf::server
