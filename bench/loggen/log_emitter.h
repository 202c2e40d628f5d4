// Writes each generated event as one line into the sink and, when a truth is wanted, records
// the same values into it; ends the log where the configuration says it ends.
//
// Every method is one event. The log's end is either the final event (application_end) or the
// last of a budget set with stop_after(); the method writing it throws LogEnded after writing,
// which the generator catches to stop. With cut_last_line that last event is written only in
// part, without its newline, and is not recorded. Not thread-safe.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loggen/event_writer.h"
#include "loggen/generated_events.h"
#include "loggen/log_generator.h"
#include "loggen/truth_recorder.h"

namespace sf::loggen {

// Thrown by the emitter once the log's last line has been written.
struct LogEnded {};

class LogEmitter {
 public:
  LogEmitter(const LineSink& sink, GroundTruth* truth, bool cut_last_line);

  // The log ends with the `events`-th event from now (at least one).
  void stop_after(uint64_t events) { remaining_ = std::max<uint64_t>(1, events); }

  void log_start(std::string_view spark_version);
  void resource_profile_added(int32_t executor_cores, int64_t executor_memory_mb);
  void environment_update(const Properties& jvm, const Properties& spark, const Properties& hadoop,
                          const Properties& system, const Properties& classpath);
  void application_start(std::string_view app_name, std::string_view app_id, int64_t time_ms, std::string_view user,
                         const Properties& driver_logs);
  void application_end(int64_t time_ms);  // the final event

  void executor_added(const ExecutorInfo& executor, std::string_view user);
  void executor_removed(const ExecutorInfo& executor);
  void block_manager_added(std::string_view executor_id, std::string_view host, int32_t port, int64_t max_memory_bytes,
                           int64_t time_ms);
  void block_manager_removed(const ExecutorInfo& executor, int64_t time_ms);

  void job_start(int64_t job_id, int64_t time_ms, std::span<const StageAttemptDesc* const> stages,
                 const JobProperties& properties);
  void job_end(int64_t job_id, int64_t time_ms, const std::optional<std::string>& failure);
  void stage_submitted(const StageAttemptDesc& stage);
  void stage_completed(const StageAttemptDesc& stage);
  void unpersist_rdd(int64_t rdd_id);

  void task_start(const StageAttemptDesc& stage, const TaskAttempt& task, const ExecutorInfo& executor);
  // Updates the stage's accumulator totals with the task's updates before writing them.
  void task_end(StageAttemptDesc& stage, const TaskAttempt& task, const ExecutorInfo& executor,
                const TaskEndReason* reason);

  void sql_execution_start(int64_t execution_id, std::string_view description, std::string_view details,
                           const PlanDesc& plan, int64_t time_ms);
  void sql_adaptive_execution_update(int64_t execution_id, const PlanDesc& plan);
  void driver_accum_updates(int64_t execution_id, std::span<const std::pair<int64_t, int64_t>> updates);
  void sql_execution_end(int64_t execution_id, int64_t time_ms, std::string_view error_message);

  // Completes the truth (when one is recorded) with what the whole log gives.
  void finish();

  uint64_t lines() const { return lines_; }
  uint64_t bytes() const { return bytes_; }

 private:
  template <class Write, class Record>
  void emit(Write&& write, Record&& record, bool final_event = false);

  const LineSink& sink_;
  GroundTruth* truth_;
  bool cut_last_line_;
  fmt::memory_buffer buffer_;
  EventWriter writer_;
  std::unique_ptr<TruthRecorder> recorder_;
  std::optional<uint64_t> remaining_;
  uint64_t lines_ = 0;
  uint64_t bytes_ = 0;
  bool truncated_ = false;
  std::vector<AccumulatorUpdate> updates_;
};

}  // namespace sf::loggen
