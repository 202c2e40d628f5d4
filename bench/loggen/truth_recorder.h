// Folds the generator's decisions into GroundTruth as each event is written.
//
// The recorder sees the same structures the event writer turns into JSON, never the JSON: what
// it keeps is what the generator decided. The bookkeeping follows Spark's History Server
// (AppStatusListener) semantics: a stage attempt runs for the live jobs that list it when it
// is submitted; a job's stages still pending at its end are skipped; tasks ending on an executor
// already removed do not count on it; a failed or killed attempt that reported metrics adds them
// to the sums, a successful one also to the exact distributions.
//
// Memory grows with the log (every successful task's metrics are kept). Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loggen/generated_events.h"
#include "loggen/log_generator.h"

namespace sf::loggen {

class TruthRecorder {
 public:
  explicit TruthRecorder(GroundTruth& truth);
  ~TruthRecorder();

  void log_start(std::string_view spark_version);
  void application_start(std::string_view app_id, std::string_view name, std::string_view user, int64_t time_ms);
  void application_end(int64_t time_ms);

  void executor_added(const ExecutorInfo& executor);
  void executor_removed(const ExecutorInfo& executor, int64_t time_ms, std::string_view reason);
  void block_manager_added(std::string_view executor_id, std::string_view host, int64_t max_memory_bytes,
                           int64_t time_ms);
  void block_manager_removed(int64_t time_ms);

  void job_start(int64_t job_id, int64_t time_ms, std::span<const StageAttemptDesc* const> stages,
                 const JobProperties& properties);
  void job_end(int64_t job_id, int64_t time_ms, const std::optional<std::string>& failure);
  void stage_submitted(const StageAttemptDesc& stage);
  void stage_completed(const StageAttemptDesc& stage);

  void task_start(const StageAttemptDesc& stage, const TaskAttempt& task, const ExecutorInfo& executor);
  void task_end(const StageAttemptDesc& stage, const TaskAttempt& task, const ExecutorInfo& executor,
                const TaskEndReason* reason, std::span<const AccumulatorUpdate> updates);

  void sql_execution_start(int64_t execution_id, std::string_view description, const PlanDesc& plan, int64_t time_ms);
  void sql_adaptive_execution_update(int64_t execution_id, const PlanDesc& plan);
  void driver_accum_updates(int64_t execution_id, std::span<const std::pair<int64_t, int64_t>> updates);
  void sql_execution_end(int64_t execution_id, int64_t time_ms, std::string_view error_message);

  // Derives what is computed from the whole log (counts of sets, plan attribution, peaks, sort
  // orders) and writes it into the truth. Call once, after the last event.
  void finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
  GroundTruth& truth_;
};

}  // namespace sf::loggen
