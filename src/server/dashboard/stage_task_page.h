// One stage attempt's tasks as the dashboard's drill-down shows them: a page of task rows in the
// order asked, and histograms of task duration, input and shuffle read over the stage's successful
// tasks (the tasks the model's quantiles cover). Read from the task table the History Server API
// reads too (StageTaskCache), so a stage of 100,000 tasks goes to the browser a page and a few
// dozen bins at a time, never whole.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"
#include "server/http/history_server_names.h"

namespace sf::server {

struct TaskPageRequest {
  int64_t offset = 0;
  int64_t length = 50;
  // taskId, index, launchTime, durationMs, executorRunTimeMs, jvmGcTimeMs, inputBytes,
  // shuffleReadBytes, shuffleWriteBytes, memorySpillBytes or diskSpillBytes
  std::string sort_by = "durationMs";
  bool descending = true;
  int bins = 30;  // per histogram, 1 to kMaxHistogramBins
};

inline constexpr int64_t kMaxTaskPageLength = 1000;
inline constexpr int kMaxHistogramBins = 200;

// The page as JSON text: {"total", "offset", "tasks": [row...], "histograms": {"durationMs" | "inputBytes" |
// "shuffleReadBytes": {"edges": [bins + 1 numbers], "counts": [bins], "tasks": n}}}. A histogram
// spans its smallest to its largest value in equal bins (one bin when they are equal); one with
// no successful task is left out. InvalidArgument for an unknown column, a length outside
// 1..kMaxTaskPageLength, a negative offset or bins outside 1..kMaxHistogramBins.
Result<std::string> stage_task_page_json(const StageTasks& tasks, const TaskPageRequest& request);

}  // namespace sf::server
