#include "server/dashboard/stage_task_page.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "common/json_writer.h"

namespace sf::server {

namespace {

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
    // A running task's time up to the log's last update, 0 where that update came before its launch.
    Column{"durationMs", [](const TaskRecord& t) { return std::max<int64_t>(0, metric(t, TaskMetric::kDurationMs)); }},
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

void write_task_row(JsonWriter& w, const TaskRecord& t) {
  w.object([&] {
    w.field("taskId", t.task_id);
    w.field("index", t.index);
    w.field("attempt", t.attempt);
    w.field("status", t.status);
    w.field("executorId", t.executor_id);
    w.field("host", t.host);
    w.field("locality", t.locality);
    w.field("speculative", t.speculative);
    for (const Column& c : kColumns) {
      if (c.name != "taskId" && c.name != "index") w.field(c.name, c.value(t));
    }
    if (t.error_message) w.field("errorMessage", std::string_view(*t.error_message).substr(0, kShownErrorChars));
  });
}

// Equal bins from the smallest to the largest value; the last bin holds the largest.
void write_histogram(JsonWriter& w, const std::vector<int64_t>& values, int bins) {
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  const double min = static_cast<double>(*low), max = static_cast<double>(*high);
  if (min == max) bins = 1;
  const double width = (max - min) / bins;
  std::vector<int64_t> counts(static_cast<size_t>(bins), 0);
  for (int64_t v : values) {
    const double offset = width > 0 ? (static_cast<double>(v) - min) / width : 0;
    ++counts[static_cast<size_t>(std::min<double>(offset, bins - 1))];
  }
  w.object([&] {
    w.array_field("edges", [&] {
      for (int i = 0; i <= bins; ++i) w.number(i == bins ? max : min + width * i);
    });
    w.field("counts", counts);
    w.field("tasks", values.size());
  });
}

}  // namespace

Result<std::string> stage_task_page_json(const StageTasks& tasks, const TaskPageRequest& request) {
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
  const auto total = static_cast<int64_t>(order.size());

  std::string body;
  JsonWriter w(body);
  w.object([&] {
    w.field("total", total);
    w.field("offset", request.offset);
    w.array_field("tasks", [&] {
      for (int64_t i = request.offset; i < total && i < request.offset + request.length; ++i) {
        write_task_row(w, *order[static_cast<size_t>(i)]);
      }
    });
    w.object_field("histograms", [&] {
      for (std::string_view name : {"durationMs", "inputBytes", "shuffleReadBytes"}) {
        const Column* c = column_named(name);
        std::vector<int64_t> values;
        for (const TaskRecord& t : tasks.tasks) {
          if (t.status == "SUCCESS" && t.has_metrics) values.push_back(c->value(t));
        }
        if (values.empty()) continue;
        w.key(name);
        write_histogram(w, values, request.bins);
      }
    });
  });
  return body;
}

}  // namespace sf::server
