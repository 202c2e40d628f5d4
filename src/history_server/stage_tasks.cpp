#include "history_server/stage_tasks.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "eventlog/decoder.h"
#include "history_server/matching_lines.h"
#include "io/log_source.h"

namespace sf::history_server {

namespace {

namespace ev = eventlog;

// Text joined piece by piece (appends, not `"x" + std::string + "y"` chains, which GCC 12's
// -Wrestrict misreads).
std::string joined(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view part : parts) out.append(part);
  return out;
}

// What the History Server shows as a failed task's errorMessage (TaskEndReason.toErrorString,
// and a kill's reason as is).
std::optional<std::string> error_message_of(const ev::TaskEnd& e) {
  switch (e.reason) {
    case ev::TaskEndReason::kSuccess: return std::nullopt;
    case ev::TaskEndReason::kTaskKilled: return std::string(e.kill_reason);
    case ev::TaskEndReason::kExceptionFailure:
      if (!e.full_stack_trace.empty()) return std::string(e.full_stack_trace);
      return joined({e.exception_class, ": ", e.description, "\n"});
    case ev::TaskEndReason::kExecutorLostFailure:
      // ExecutorLostFailure.toErrorString: whether the exit was the application's is logged.
      return joined({"ExecutorLostFailure (executor ", e.info.executor_id, " exited ",
                     e.exit_caused_by_app ? "caused by one of the running tasks" : "unrelated to the running tasks",
                     ") Reason: ", e.loss_reason});
    case ev::TaskEndReason::kResubmitted: return std::string("Resubmitted (resubmitted due to lost executor)");
    case ev::TaskEndReason::kTaskResultLost: return std::string("TaskResultLost (result lost from block manager)");
    case ev::TaskEndReason::kFetchFailed: {
      // FetchFailed.toErrorString, with BlockManagerId's toString (no topology in a log: None).
      const auto& block = e.fetch_failed;
      const std::string address = block.has_address ? joined({"BlockManagerId(", block.executor_id, ", ", block.host,
                                                              ", ", std::to_string(block.port), ", None)"})
                                                    : std::string("null");
      const std::string map_index = block.map_index ? std::to_string(*block.map_index) : std::string("Unknown");
      return joined({"FetchFailed(", address, ", shuffleId=", std::to_string(block.shuffle_id),
                     ", mapIndex=", map_index, ", mapId=", std::to_string(block.map_id),
                     ", reduceId=", std::to_string(block.reduce_id), ", message=\n", e.fetch_failed_message, "\n)"});
    }
    case ev::TaskEndReason::kTaskCommitDenied:
      return joined({"TaskCommitDenied (Driver denied task commit) for job: ", std::to_string(e.commit_denied_job),
                     ", partition: ", std::to_string(e.commit_denied_partition),
                     ", attemptNumber: ", std::to_string(e.commit_denied_attempt)});
    default: return std::string(e.reason_text);
  }
}

std::string_view status_of(const ev::TaskInfo& info, bool ended) {
  if (!ended || info.finish_time_ms == 0) return "RUNNING";
  if (info.failed) return "FAILED";
  if (info.killed) return "KILLED";
  return "SUCCESS";
}

}  // namespace

// The text a table's records point into, in chunks that never move.
struct TaskText {
  static constexpr size_t kChunkBytes = size_t{64} << 10;

  std::string_view copy(std::string_view text) {
    if (text.empty()) return {};
    if (chunks.empty() || chunk_capacity - chunk_used < text.size()) {
      chunk_capacity = std::max(kChunkBytes, text.size());
      chunks.push_back(std::make_unique<char[]>(chunk_capacity));
      chunk_used = 0;
      bytes += chunk_capacity;
    }
    char* kept = chunks.back().get() + chunk_used;
    std::memcpy(kept, text.data(), text.size());
    chunk_used += text.size();
    return {kept, text.size()};
  }

  std::vector<std::unique_ptr<char[]>> chunks;
  size_t chunk_used = 0;
  size_t chunk_capacity = 0;
  size_t bytes = 0;  // of every chunk
};

StageTasks::StageTasks() = default;
StageTasks::~StageTasks() = default;
StageTasks::StageTasks(StageTasks&&) noexcept = default;
StageTasks& StageTasks::operator=(StageTasks&&) noexcept = default;

size_t StageTasks::held_bytes() const {
  return tasks.capacity() * sizeof(TaskRecord) + accumulables_.capacity() * sizeof(TaskAccumulableUpdate) +
         (text_ != nullptr ? text_->bytes : 0);
}

bool history_server_shows_accumulable(std::string_view name, bool internal, std::string_view metadata) {
  return !name.empty() && !internal && !name.starts_with("internal.") && metadata != "sql";
}

namespace {

// Folds the stage's task events into compact records: the text they share (executor ids, hosts,
// localities, accumulable names) kept once, an ended task's error and shown accumulables copied.
class StageTaskFold final : public ev::EventHandler {
 public:
  StageTaskFold(int64_t stage_id, int32_t attempt_id, size_t max_tasks)
      : stage_id_(stage_id), attempt_id_(attempt_id), max_tasks_(max_tasks), text_(std::make_unique<TaskText>()) {}
  using EventHandler::on;

  void on(const ev::TaskStart& e) override {
    if (e.stage_id != stage_id_ || e.stage_attempt_id != attempt_id_) return;
    const size_t slot = slot_for(e.info.task_id);
    if (slot == kNoSlot) return;
    fill_info(records_[slot], e.info);
  }

  // As the History Server's listener: a task end updates the task its start announced, once. A
  // later end of the same task (Resubmitted, when the executor that held a finished task's output
  // is lost) leaves the task as it finished, and an end without a start shows no task.
  void on(const ev::TaskEnd& e) override {
    if (e.stage_id != stage_id_ || e.stage_attempt_id != attempt_id_) return;
    const auto found = slots_.find(e.info.task_id);
    if (found == slots_.end()) return;
    const size_t slot = found->second;
    TaskRecord& record = records_[slot];
    if (record.status != "RUNNING") return;
    fill_info(record, e.info);
    record.finish_time_ms = e.info.finish_time_ms;
    record.getting_result_start_ms = e.info.getting_result_time_ms;
    record.status = status_of(e.info, true);
    record.error_message.reset();
    if (auto message = error_message_of(e)) record.error_message = text_->copy(*message);
    // Spark reads a task end without "Task Metrics" as zero metrics (TaskMetrics.empty): every
    // ended task has metrics.
    record.has_metrics = true;
    record.metrics = e.has_metrics ? e.metrics : model::TaskMetricValues{};
    model::fill_task_info_timings(record.metrics, e.info.launch_time_ms, e.info.finish_time_ms,
                                  e.info.getting_result_time_ms, true);
    const auto begin = static_cast<uint32_t>(accumulables_.size());
    for (const ev::TaskAccumulable& a : e.accumulables) {
      if (!history_server_shows_accumulable(a.name, a.internal, a.metadata)) continue;
      accumulables_.push_back({a.id, intern(a.name), text_->copy(a.update), text_->copy(a.value)});
    }
    accumulable_ranges_[slot] = {begin, static_cast<uint32_t>(accumulables_.size()) - begin};
  }

  bool over_limit() const { return over_limit_; }

  // Hands the table over: its records sorted by task id, each with no more room than it needs,
  // and what their views point into.
  void move_into(std::vector<TaskRecord>& tasks, std::vector<TaskAccumulableUpdate>& accumulables,
                 std::unique_ptr<TaskText>& text) {
    records_.shrink_to_fit();
    accumulables_.shrink_to_fit();
    // The spans are made once the accumulables no longer move (moving the vector keeps its bytes).
    for (size_t i = 0; i < records_.size(); ++i) {
      const auto [begin, count] = accumulable_ranges_[i];
      records_[i].accumulables = std::span<const TaskAccumulableUpdate>(accumulables_).subspan(begin, count);
    }
    std::sort(records_.begin(), records_.end(),
              [](const TaskRecord& a, const TaskRecord& b) { return a.task_id < b.task_id; });
    tasks = std::move(records_);
    accumulables = std::move(accumulables_);
    text = std::move(text_);
  }

 private:
  static constexpr size_t kNoSlot = SIZE_MAX;

  size_t slot_for(int64_t task_id) {
    auto [it, inserted] = slots_.try_emplace(task_id, records_.size());
    if (!inserted) return it->second;
    if (records_.size() >= max_tasks_) {
      slots_.erase(it);
      over_limit_ = true;
      return kNoSlot;
    }
    records_.emplace_back().task_id = task_id;
    accumulable_ranges_.emplace_back(0, 0);
    return it->second;
  }

  // Executor ids, hosts, localities and accumulable names repeat over a stage's tasks: kept once.
  std::string_view intern(std::string_view text) {
    auto it = interned_.find(text);
    if (it != interned_.end()) return *it;
    return *interned_.insert(text_->copy(text)).first;
  }

  void fill_info(TaskRecord& record, const ev::TaskInfo& info) {
    record.index = info.index;
    record.attempt = info.attempt;
    record.partition_id = info.partition_id.value_or(-1);
    record.launch_time_ms = info.launch_time_ms;
    record.executor_id = intern(info.executor_id);
    record.host = intern(info.host);
    record.locality = intern(info.locality);
    record.speculative = info.speculative;
  }

  int64_t stage_id_;
  int32_t attempt_id_;
  size_t max_tasks_;
  bool over_limit_ = false;
  std::vector<TaskRecord> records_;
  std::vector<std::pair<uint32_t, uint32_t>> accumulable_ranges_;  // per record: into accumulables_
  std::unordered_map<int64_t, size_t> slots_;                      // task id -> record
  std::vector<TaskAccumulableUpdate> accumulables_;
  std::unique_ptr<TaskText> text_;
  std::unordered_set<std::string_view> interned_;  // views into text_
};

// Whether a line may be a task event of the stage: task lines of other stages are skipped
// without being parsed. Spark writes `{"Event":"SparkListenerTask...","Stage ID":N,...`; a line
// that does not look like that exactly is handed to the decoder, which decides.
bool may_be_task_of_stage(std::string_view line, std::string_view stage_needle) {
  const size_t event = line.find("SparkListenerTask");
  if (event == std::string_view::npos || event > 64) return false;
  const size_t stage = line.find("\"Stage ID\":", event);
  if (stage == std::string_view::npos || stage > event + 64) return true;
  return line.compare(stage, stage_needle.size(), stage_needle) == 0;
}

}  // namespace

Result<StageTasks> load_stage_tasks(const std::string& log_path, int64_t stage_id, int32_t attempt_id,
                                    const StageTaskLimits& limits, const std::atomic<bool>* cancel,
                                    const io::PathConfinement& confinement) {
  StageTaskFold fold(stage_id, attempt_id, limits.max_tasks);
  // `"Stage ID":7,` with the comma, so stage 7 does not match stage 70.
  const std::string stage_needle = "\"Stage ID\":" + std::to_string(stage_id) + ",";

  auto read = decode_matching_lines(
      log_path, confinement, cancel, fold,
      [&](std::string_view text) { return may_be_task_of_stage(text, stage_needle); },
      [&] { return fold.over_limit(); });
  if (!read) return fail(read.error());
  if (read->cancelled) return fail(Status::Cancelled(log_path + ": reading tasks was cancelled"));
  if (read->stopped) {
    return fail(Status::LimitExceeded(log_path + ": stage " + std::to_string(stage_id) + " attempt " +
                                      std::to_string(attempt_id) + " has more than " +
                                      std::to_string(limits.max_tasks) + " task attempts, the per-stage limit"));
  }
  StageTasks out;
  // A part that stops early (a corrupt block) keeps what was read, as the model does, and says so.
  if (read->read_error) out.read_error = read->read_error->message();
  out.stage_id = stage_id;
  out.attempt_id = attempt_id;
  fold.move_into(out.tasks, out.accumulables_, out.text_);
  return out;
}

void count_unended_tasks_until(StageTasks& tasks, int64_t last_updated_ms) {
  for (TaskRecord& t : tasks.tasks) {
    if (t.status != "RUNNING") continue;
    // Below 0 where lastUpdated (a file's modification time, on the kernel's coarse clock) comes a
    // few ms before a launch the log holds: the History Server keeps it so (timeRunning), and its
    // duration index, read from 0 up, leaves that task out of the summary.
    t.metrics[model::index_of(model::TaskMetric::kDurationMs)] = last_updated_ms - t.launch_time_ms;
  }
}

}  // namespace sf::history_server
