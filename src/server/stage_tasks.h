// The task attempts of one stage attempt, read on demand from the log: what the History
// Server's task list, task summary and stage details show, and what the analysis model
// deliberately does not keep (it folds tasks into per-stage aggregates).
//
// load_stage_tasks re-reads the log and decodes only the TaskStart/TaskEnd lines of the
// requested stage (other lines are skipped after a cheap prefix check), so `analyze` pays
// nothing for this and a request pays one sequential read of the log. Memory: one TaskRecord
// per task attempt of that stage (about 0.5 KiB each plus its accumulables and error text);
// a stage with more than StageTaskLimits::max_tasks attempts is refused with LimitExceeded
// rather than held.
//
// Pure function of the log's bytes; safe to call from several threads at once. StageTaskCache
// keeps the tables serve reads, and is thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "catalog/loaded_log.h"
#include "catalog/lru_loading_cache.h"
#include "common/status.h"
#include "eventlog/events.h"
#include "io/path_confinement.h"
#include "model/task_metrics.h"

namespace sf::server {

struct TaskRecord {
  int64_t task_id = 0;
  int32_t index = 0;
  int32_t attempt = 0;
  int32_t partition_id = -1;  // -1 when the log does not say (before Spark 3.3)
  int64_t launch_time_ms = 0;
  int64_t finish_time_ms = 0;           // 0 while running
  int64_t getting_result_start_ms = 0;  // 0 when the result was not fetched
  std::string executor_id;
  std::string host;
  std::string locality;
  bool speculative = false;
  std::string status = "RUNNING";  // RUNNING, SUCCESS, FAILED, KILLED (Spark's TaskInfo.status)
  std::optional<std::string> error_message;
  bool has_metrics = false;
  model::TaskMetricValues metrics{};  // with duration, getting result time and scheduler delay filled
  std::vector<eventlog::TaskAccumulable> accumulables;
};

struct StageTaskLimits {
  size_t max_tasks = 2'000'000;  // attempts of one stage attempt held at once
};

struct StageTasks {
  int64_t stage_id = 0;
  int32_t attempt_id = 0;
  std::vector<TaskRecord> tasks;  // sorted by task id
  // What ended the read early (a corrupt block): the tasks before it are kept, as in the model.
  std::optional<std::string> read_error;
};

// Reads the task attempts of stage `stage_id` attempt `attempt_id` from the log at `log_path`
// (any layout or codec load_event_log reads), its parts inside `confinement`. Errors name the log.
Result<StageTasks> load_stage_tasks(const std::string& log_path, int64_t stage_id, int32_t attempt_id,
                                    const StageTaskLimits& limits = {}, const std::atomic<bool>* cancel = nullptr,
                                    const io::PathConfinement& confinement = {});

struct StageTaskCacheOptions {
  size_t max_stages = 4;  // stage attempts whose tables are kept (least recently used evicted)
  StageTaskLimits limits;
};

// The task tables of the stage attempts requests asked for, each read once per version of its
// log's files (the version the log's model was loaded from), once however many requests ask
// at once.
class StageTaskCache {
 public:
  explicit StageTaskCache(StageTaskCacheOptions options) : options_(options), tables_(options.max_stages) {}

  // The tasks of stage `stage_id` attempt `attempt_id` of `log`, its parts inside `confinement`.
  Result<std::shared_ptr<const StageTasks>> get(const catalog::LoadedLog& log, int64_t stage_id, int32_t attempt_id,
                                                const io::PathConfinement& confinement) {
    return tables_.get({log.path(), stage_id, attempt_id}, log.files(), [&] {
      return load_stage_tasks(log.path(), stage_id, attempt_id, options_.limits, nullptr, confinement);
    });
  }

 private:
  const StageTaskCacheOptions options_;
  catalog::LruLoadingCache<std::tuple<std::string, int64_t, int32_t>, StageTasks, catalog::LogFileIdentity> tables_;
};

}  // namespace sf::server
