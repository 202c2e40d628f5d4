// Spark listener events as JSON lines, in the exact shape Spark 3.5's JsonProtocol writes them
// (field names, field order, which fields are omitted when absent).
//
// Every call appends one complete line, '\n' included, to the caller's buffer; the buffer is
// reused from line to line, so the task events allocate nothing once it has grown. The writer
// decides nothing: every value comes from its arguments (the one exception is the cosmetic
// "Task Executor Metrics", a pure function of the task and executor). Not thread-safe.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loggen/generated_events.h"

namespace sf::loggen {

using Properties = std::vector<std::pair<std::string, std::string>>;

// Appends JSON values to a buffer.
class JsonOut {
 public:
  explicit JsonOut(fmt::memory_buffer& buffer) : buffer_(buffer) {}

  // Inline: fmt's own append() is out of line and is called thousands of times per task line.
  void raw(std::string_view text) {
    const size_t size = buffer_.size();
    buffer_.resize(size + text.size());  // grows geometrically; no allocation once warm
    std::memcpy(buffer_.data() + size, text.data(), text.size());
  }
  void number(int64_t value) {
    const fmt::format_int text(value);
    raw(std::string_view(text.data(), text.size()));
  }
  void boolean(bool value) { raw(value ? std::string_view("true") : std::string_view("false")); }
  // A JSON string: quoted and escaped.
  void string(std::string_view text) {
    buffer_.push_back('"');
    escaped(text);
    buffer_.push_back('"');
  }
  // A number logged as a JSON string ("Update":"12"), as Spark logs SQL metric values.
  void quoted_number(int64_t value) {
    buffer_.push_back('"');
    number(value);
    buffer_.push_back('"');
  }
  // A JSON string known to need no escaping (ids, host names, metric names).
  void clean_string(std::string_view text) {
    buffer_.push_back('"');
    raw(text);
    buffer_.push_back('"');
  }
  void escaped(std::string_view text);
  // {"key":"value",...} of string pairs, in the order given.
  void string_map(const Properties& entries);

 private:
  fmt::memory_buffer& buffer_;
};

class EventWriter {
 public:
  explicit EventWriter(fmt::memory_buffer& buffer) : out_(buffer) {}

  // --- the application
  void log_start(std::string_view spark_version);
  void resource_profile_added(int32_t executor_cores, int64_t executor_memory_mb);
  void environment_update(const Properties& jvm, const Properties& spark, const Properties& hadoop,
                          const Properties& system, const Properties& classpath);
  void application_start(std::string_view app_name, std::string_view app_id, int64_t time_ms, std::string_view user,
                         std::string_view attempt_id, const Properties& driver_logs);
  void application_end(int64_t time_ms);

  // --- executors and block managers
  void executor_added(const ExecutorInfo& executor, std::string_view user);
  void executor_removed(const ExecutorInfo& executor, int64_t time_ms, std::string_view reason);
  void block_manager_added(std::string_view executor_id, std::string_view host, int32_t port, int64_t max_memory_bytes,
                           int64_t time_ms);
  void block_manager_removed(std::string_view executor_id, std::string_view host, int32_t port, int64_t time_ms);

  // --- jobs and stages
  void job_start(int64_t job_id, int64_t time_ms, std::span<const StageAttemptDesc* const> stages,
                 const JobProperties& properties);
  void job_end(int64_t job_id, int64_t time_ms, const std::optional<std::string>& failure);
  void stage_submitted(const StageAttemptDesc& stage);
  void stage_completed(const StageAttemptDesc& stage);
  void unpersist_rdd(int64_t rdd_id);

  // --- tasks
  void task_start(const StageAttemptDesc& stage, const TaskAttempt& task, const ExecutorInfo& executor);
  void task_end(const StageAttemptDesc& stage, const TaskAttempt& task, const ExecutorInfo& executor,
                const TaskEndReason* reason, std::span<const AccumulatorUpdate> updates);

  // --- SQL
  void sql_execution_start(int64_t execution_id, std::string_view description, std::string_view details,
                           const PlanDesc& plan, int64_t time_ms);
  void sql_adaptive_execution_update(int64_t execution_id, const PlanDesc& plan);
  void driver_accum_updates(int64_t execution_id, std::span<const std::pair<int64_t, int64_t>> updates);
  void sql_execution_end(int64_t execution_id, int64_t time_ms, std::string_view error_message);

 private:
  void stage_info(const StageAttemptDesc& stage, bool include_accumulables);
  void rdd_info(const RddDesc& rdd);
  void properties(const JobProperties& properties);
  void task_info(const StageAttemptDesc& stage, const TaskAttempt& task, const ExecutorInfo& executor,
                 std::span<const AccumulatorUpdate> updates, bool finished);
  void task_end_reason(const TaskEndReason* reason, std::span<const AccumulatorUpdate> updates);
  void task_metrics(const spark::TaskMetricValues& metrics);
  void task_executor_metrics(const TaskAttempt& task);
  void plan_node(const PlanDesc& plan, int32_t node);

  JsonOut out_;
};

}  // namespace sf::loggen
