// The task attempts of one stage attempt, read on demand from the log: what the History
// Server's task list, task summary and stage details show, and what the analysis model
// deliberately does not keep (it folds tasks into per-stage aggregates).
//
// load_stage_tasks re-reads the log and decodes only the TaskStart/TaskEnd lines of the
// requested stage (other lines are skipped after a cheap prefix check), so `analyze` pays
// nothing for this and a request pays one sequential read of the log. Memory: one compact
// TaskRecord per task attempt of that stage (kTaskRecordBytes, its metrics most of it), plus
// each distinct executor id, host and locality once, and a failed task's error message and the
// accumulables the History Server shows (not internal, not SQL: real tasks have none or a few);
// StageTasks::held_bytes() counts it all. A stage with more than StageTaskLimits::max_tasks
// attempts is refused with LimitExceeded rather than held.
//
// Pure function of the log's bytes; safe to call from several threads at once. StageTaskCache
// keeps the tables serve reads, and is thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "catalog/loaded_log.h"
#include "catalog/lru_loading_cache.h"
#include "common/status.h"
#include "eventlog/events.h"
#include "io/path_confinement.h"
#include "model/app_model.h"

namespace sf::history_server {

// An accumulable update a task's row shows. The History Server leaves out internal task metrics
// and SQL metrics (LiveEntityHelpers.newAccumulatorInfos): a table keeps only these.
struct TaskAccumulableUpdate {
  int64_t id = 0;
  std::string_view name;
  std::string_view update;  // as logged; "" when the log has none
  std::string_view value;
};

// Whether the History Server shows an accumulable (a stage's or a task's).
bool history_server_shows_accumulable(std::string_view name, bool internal, std::string_view metadata);

// One task attempt. Its text is views into the StageTasks that holds it, valid while that lives.
struct TaskRecord {
  int64_t task_id = 0;
  int64_t launch_time_ms = 0;
  int64_t finish_time_ms = 0;           // 0 while running
  int64_t getting_result_start_ms = 0;  // 0 when the result was not fetched
  int32_t index = 0;
  int32_t attempt = 0;
  int32_t partition_id = -1;  // -1 when the log does not say (before Spark 3.3)
  bool speculative = false;
  bool has_metrics = false;
  std::string_view executor_id;
  std::string_view host;
  std::string_view locality;
  std::string_view status = "RUNNING";  // RUNNING, SUCCESS, FAILED, KILLED (Spark's TaskInfo.status)
  std::optional<std::string_view> error_message;
  std::span<const TaskAccumulableUpdate> accumulables;
  model::TaskMetricValues metrics{};  // with duration, getting result time and scheduler delay filled
};

// What one task attempt costs a table at least: its record (the strings it shares are counted
// once per table, see StageTasks::held_bytes).
inline constexpr size_t kTaskRecordBytes = sizeof(TaskRecord);

struct StageTaskLimits {
  size_t max_tasks = 2'000'000;  // attempts of one stage attempt held at once
};

struct TaskText;  // the text a table's records point into (stage_tasks.cpp)

// The task attempts of one stage attempt. Move-only: its records point into text it owns.
struct StageTasks {
  StageTasks();
  ~StageTasks();
  StageTasks(StageTasks&&) noexcept;
  StageTasks& operator=(StageTasks&&) noexcept;
  StageTasks(const StageTasks&) = delete;
  StageTasks& operator=(const StageTasks&) = delete;

  int64_t stage_id = 0;
  int32_t attempt_id = 0;
  std::vector<TaskRecord> tasks;  // sorted by task id
  // What ended the read early (a corrupt block): the tasks before it are kept, as in the model.
  std::optional<std::string> read_error;

  // Bytes the table holds: its records, their accumulables and text.
  size_t held_bytes() const;

 private:
  friend Result<StageTasks> load_stage_tasks(const std::string&, int64_t, int32_t, const StageTaskLimits&,
                                             const std::atomic<bool>*, const io::PathConfinement&);
  std::vector<TaskAccumulableUpdate> accumulables_;  // what the records' spans point into
  std::unique_ptr<TaskText> text_;
};

// Reads the task attempts of stage `stage_id` attempt `attempt_id` from the log at `log_path`
// (any layout or codec load_event_log reads), its parts inside `confinement`. Errors name the log.
Result<StageTasks> load_stage_tasks(const std::string& log_path, int64_t stage_id, int32_t attempt_id,
                                    const StageTaskLimits& limits = {}, const std::atomic<bool>* cancel = nullptr,
                                    const io::PathConfinement& confinement = {});

// What the History Server shows for a task whose end the log does not hold: Spark's listener
// counts it as running until the log's lastUpdated (LiveTask's timeRunning(lastUpdateTime)), so
// its duration is that time minus its launch, below 0 when the log's last update came before the
// launch. Sets those tasks' durations in `tasks`.
void count_unended_tasks_until(StageTasks& tasks, int64_t last_updated_ms);

struct StageTaskCacheOptions {
  size_t max_stages = 4;  // stage attempts whose tables are kept (least recently used evicted)
  StageTaskLimits limits;
};

// The task tables of the stage attempts requests asked for, each read once per version of its
// log's files (the version the log's model was loaded from), once however many requests ask
// at once, and held once however many requests read it. At most max_stages tables are alive,
// cached or still read by a request (catalog::Bound::kAlive): a request for another stage waits
// until one is let go, so the memory of task tables is max_stages tables, whatever the requests
// in flight. A request must let its table go before it asks for another.
class StageTaskCache {
 public:
  explicit StageTaskCache(StageTaskCacheOptions options)
      : options_(options), tables_(options.max_stages, catalog::Bound::kAlive) {}

  // The tasks of stage `stage_id` attempt `attempt_id` of `log`, its parts inside `confinement`.
  Result<std::shared_ptr<const StageTasks>> get(const catalog::LoadedLog& log, int64_t stage_id, int32_t attempt_id,
                                                const io::PathConfinement& confinement) {
    return tables_.get({log.path(), stage_id, attempt_id}, log.files(), [&] {
      auto tasks = load_stage_tasks(log.path(), stage_id, attempt_id, options_.limits, nullptr, confinement);
      if (tasks) count_unended_tasks_until(*tasks, log.files().last_updated_ms);
      return tasks;
    });
  }

  // Tables alive: cached, still read by a request, or being read.
  size_t tables_alive() const { return tables_.alive(); }

 private:
  const StageTaskCacheOptions options_;
  catalog::LruLoadingCache<std::tuple<std::string, int64_t, int32_t>, StageTasks, catalog::LogFileIdentity> tables_;
};

}  // namespace sf::history_server
