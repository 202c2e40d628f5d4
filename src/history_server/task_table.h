// The History Server's orders and texts of a stage's tasks, for its two task endpoints: taskList
// (sortBy) and the stage page's DataTables endpoint taskTable (a column header to sort by, a
// search box).
//
// Order: the History Server keeps tasks in its InMemoryStore, one index per sortable field
// (TaskDataWrapper's @KVIndex accessors, named by TaskIndexNames), and lists a stage's tasks by
// one index's values, ties by task id, the whole comparison reversed for a descending list. The
// values an index holds are not always what a task shows: a task without metrics (still running)
// holds -1 in every metric index, and a failed or killed task holds its metrics negated, -(v) - 1
// (LiveEntityHelpers.makeNegative), so those come before every successful task ascending.
// tasks_sorted_by is the one place serve computes those values.
//
// Search: StagesResource.filterTaskList as Spark 4.3.0's jar has it, which matches a task's
// fields as the stage page shows them (formatted durations, sizes, dates), lower-cased.
// Dates are written in UTC: the History Server writes them in its JVM's zone, which is UTC where
// serve is compared with it; serve's answers never depend on the machine's zone.
//
// Pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "history_server/stage_tasks.h"

namespace sf::history_server {

// The task indices a task list can be sorted by (TaskIndexNames' short names in comments).
enum class TaskSortIndex {
  kTaskId,                // the "stage" index: every task of the stage equal, so by task id
  kPartitionId,           // partid
  kAttempt,               // att
  kStatus,                // sta
  kLocality,              // loc
  kExecutorId,            // exe
  kHost,                  // hst
  kLaunchTime,            // lt
  kExecutorRunTime,       // ert
  kSchedulerDelay,        // dly
  kDeserializeTime,       // des
  kGcTime,                // gc
  kSerializationTime,     // rst
  kGettingResultTime,     // grt
  kPeakExecutionMemory,   // pem
  kAccumulators,          // acc
  kInputBytes,            // is
  kOutputBytes,           // os
  kShuffleFetchWaitTime,  // srt
  kShuffleTotalReads,     // stby
  kShuffleRemoteReads,    // srby
  kShuffleWriteTime,      // swt
  kShuffleWriteBytes,     // sws
  kMemoryBytesSpilled,    // mbs
  kDiskBytesSpilled,      // dbs
  kError,                 // err
};

// The index of a stage page column header (ApiHelper.COLUMN_TO_INDEX, case-sensitive: "ID",
// "Index", "Duration", "Shuffle Read Size / Records", ...); nullopt for a header it does not know.
// "Logs", which StagesResource sorts as "Index", is the caller's to map.
std::optional<TaskSortIndex> task_sort_index_of_column(std::string_view header);

// The stage's tasks in the History Server's order of `index`, ascending or descending.
std::vector<const TaskRecord*> tasks_sorted_by(const StageTasks& tasks, TaskSortIndex index, bool ascending);

// Whether the stage page's search finds `task` (filterTaskList); `search` already lower-cased
// (java_lower_case). Its scheduler delay and getting-result time are those its row shows.
bool task_matches_search(const TaskRecord& task, std::string_view search);

// The positions [first, last) of a list of `size` rows that Scala's slice(start, start + length)
// keeps, with its Int arithmetic: a negative start begins at the first row, an end past the list
// stops at its end, and start + length wraps as an Int does.
std::pair<size_t, size_t> scala_slice(size_t size, int32_t start, int32_t length);

// Texts as Spark's UI writes them, each named after what it mirrors.
std::string spark_ui_duration(int64_t ms);       // UIUtils.formatDuration: "52 ms", "1.3 s", "2.0 min"
std::string spark_ui_bytes(int64_t bytes);       // Utils.bytesToString: "512.0 B", "2.0 KiB"
std::string spark_ui_date(int64_t epoch_ms);     // UIUtils.formatDate: "2024/01/31 23:59:59" (UTC)
std::string java_date_string(int64_t epoch_ms);  // java.util.Date.toString: "Wed Jan 31 23:59:59 UTC 2024"
// String.toLowerCase(Locale.ROOT) for ASCII letters; other bytes (UTF-8) are kept as they are.
std::string java_lower_case(std::string_view text);

}  // namespace sf::history_server
