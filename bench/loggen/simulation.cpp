#include "loggen/simulation.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <queue>
#include <set>

namespace sf::loggen {

using spark::index_of;
using spark::TaskMetric;

// ---------------------------------------------------------------------------------------------
// Cluster

std::string Cluster::host_name(int32_t host_index) const {
  return fmt::format("ip-10-{}-{}-{}.ec2.internal", config_.subnet, 4 + host_index / 200, 11 + host_index % 200);
}

int32_t Cluster::add_executor(int64_t time_ms, bool fresh_host) {
  if (fresh_host || executors_.empty() || on_current_host_ >= config_.executors_per_host) {
    ++next_host_;
    on_current_host_ = 0;
  }
  ++on_current_host_;
  const auto number = static_cast<int32_t>(executors_.size()) + 1;
  ExecutorInfo e;
  e.id = std::to_string(number);
  e.host = host_name(next_host_ - 1);
  e.port = 40000 + static_cast<int32_t>((static_cast<int64_t>(number) * 7919) % 20000);
  e.cores = config_.cores_per_executor;
  e.container_id = fmt::format("{}{:06d}", config_.container_prefix, number + 1);
  e.add_ms = time_ms;
  e.block_manager_add_ms = time_ms + 350 + (number * 37) % 400;
  // Spark's unified memory: (usable heap - 300 MiB reserved) * spark.memory.fraction (0.6).
  const int64_t heap = config_.executor_memory_mb * 1024 * 1024 * 93 / 100;
  e.max_memory_bytes = std::max<int64_t>(0, heap - (int64_t{300} << 20)) * 6 / 10;
  executors_.push_back(std::move(e));
  return number - 1;
}

std::vector<int32_t> Cluster::live_at(int64_t time_ms) const {
  std::vector<int32_t> live;
  for (size_t i = 0; i < executors_.size(); ++i) {
    const ExecutorInfo& e = executors_[i];
    if (e.add_ms <= time_ms && (!e.remove_ms || *e.remove_ms > time_ms)) live.push_back(static_cast<int32_t>(i));
  }
  return live;
}

size_t Cluster::live_host_count(int64_t time_ms) const {
  std::set<std::string> hosts;
  for (int32_t i : live_at(time_ms)) hosts.insert(executors_[static_cast<size_t>(i)].host);
  return std::max<size_t>(1, hosts.size());
}

namespace {

// ---------------------------------------------------------------------------------------------
// One attempt's timings, drawn at launch; its metrics are filled when its end is known.

struct AttemptPlan {
  int64_t scheduler_delay_ms = 0;
  int64_t deserialize_ms = 0;
  int64_t run_ms = 0;  // for a success; failures use a part of it
  int64_t serialize_ms = 0;
  int64_t getting_result_ms = 0;  // time the driver spent fetching a large result
  int64_t fetch_wait_ms = 0;
  int32_t cpu_permille = 800;
  int32_t deserialize_cpu_permille = 700;
  int32_t gc_permille = 40;
};

int64_t success_duration(const AttemptPlan& p) {
  return p.scheduler_delay_ms + p.deserialize_ms + p.run_ms + p.serialize_ms + p.getting_result_ms;
}

// Fills attempt.metrics (and has_metrics) for its end kind and finish time.
void fill_metrics(TaskAttempt& a, const AttemptPlan& p, const PartitionWork& w, int64_t hosts) {
  auto& m = a.metrics;
  m.fill(0);
  const int64_t duration = a.finish_ms - a.launch_ms;
  m[index_of(TaskMetric::kDurationMs)] = duration;
  if (a.end == TaskEndKind::kExecutorLost || a.end == TaskEndKind::kFetchFailed) {
    a.has_metrics = false;  // no accumulator updates come back from such an attempt
    return;
  }
  a.has_metrics = true;
  const bool success = a.end == TaskEndKind::kSuccess;
  int64_t deserialize = p.deserialize_ms;
  int64_t run = p.run_ms;
  int64_t serialize = p.serialize_ms;
  int64_t getting = p.getting_result_ms;
  if (!success) {
    // A failed or killed attempt ran for part of its time: what it did counts, no result.
    deserialize = std::min(p.deserialize_ms, std::max<int64_t>(0, duration - p.scheduler_delay_ms));
    run = std::max<int64_t>(0, duration - p.scheduler_delay_ms - deserialize);
    serialize = 0;
    getting = 0;
  }
  m[index_of(TaskMetric::kExecutorDeserializeTimeMs)] = deserialize;
  m[index_of(TaskMetric::kExecutorDeserializeCpuTimeNs)] = deserialize * p.deserialize_cpu_permille * 1000;
  m[index_of(TaskMetric::kExecutorRunTimeMs)] = run;
  m[index_of(TaskMetric::kExecutorCpuTimeNs)] = run * p.cpu_permille * 1000;
  m[index_of(TaskMetric::kJvmGcTimeMs)] = run * p.gc_permille / 1000;
  m[index_of(TaskMetric::kResultSerializationTimeMs)] = serialize;
  m[index_of(TaskMetric::kGettingResultTimeMs)] = getting;
  m[index_of(TaskMetric::kSchedulerDelayMs)] = duration - run - deserialize - serialize - getting;
  if (!success) return;

  m[index_of(TaskMetric::kResultSizeBytes)] = w.result_bytes;
  m[index_of(TaskMetric::kPeakExecutionMemoryBytes)] = w.peak_execution_memory_bytes;
  m[index_of(TaskMetric::kMemoryBytesSpilled)] = w.memory_spilled_bytes;
  m[index_of(TaskMetric::kDiskBytesSpilled)] = w.disk_spilled_bytes;
  m[index_of(TaskMetric::kInputBytes)] = w.input_bytes;
  m[index_of(TaskMetric::kInputRecords)] = w.input_records;
  m[index_of(TaskMetric::kOutputBytes)] = w.output_bytes;
  m[index_of(TaskMetric::kOutputRecords)] = w.output_records;
  if (w.shuffle_read_bytes > 0) {
    const int64_t local_bytes = w.shuffle_read_bytes / hosts;
    const int64_t remote_bytes = w.shuffle_read_bytes - local_bytes;
    const int64_t local_blocks = w.shuffle_read_blocks / hosts;
    m[index_of(TaskMetric::kShuffleLocalBytesRead)] = local_bytes;
    m[index_of(TaskMetric::kShuffleRemoteBytesRead)] = remote_bytes;
    m[index_of(TaskMetric::kShuffleLocalBlocksFetched)] = local_blocks;
    m[index_of(TaskMetric::kShuffleRemoteBlocksFetched)] = w.shuffle_read_blocks - local_blocks;
    m[index_of(TaskMetric::kShuffleRecordsRead)] = w.shuffle_read_records;
    m[index_of(TaskMetric::kShuffleFetchWaitTimeMs)] = remote_bytes > 0 ? p.fetch_wait_ms : 0;
    m[index_of(TaskMetric::kShuffleRemoteReqsDurationMs)] = remote_bytes / 120000;
  }
  if (w.shuffle_write_bytes > 0) {
    m[index_of(TaskMetric::kShuffleWriteBytes)] = w.shuffle_write_bytes;
    m[index_of(TaskMetric::kShuffleWriteRecords)] = w.shuffle_write_records;
    m[index_of(TaskMetric::kShuffleWriteTimeNs)] = w.shuffle_write_bytes * 20 / 3;
  }
}

// ---------------------------------------------------------------------------------------------
// The wave's scheduler: an event loop over attempt ends, kills, executor changes and
// speculation checks; free slots are filled after every event.

enum class HeapKind : uint8_t { kAttemptEnd, kKill, kExecutorLoss, kExecutorJoin, kSpeculationCheck };

struct HeapEvent {
  int64_t time_ms = 0;
  uint64_t seq = 0;
  HeapKind kind = HeapKind::kAttemptEnd;
  int32_t ref = 0;
  int32_t arg = 0;
};

struct LaterFirst {
  bool operator()(const HeapEvent& a, const HeapEvent& b) const {
    return a.time_ms != b.time_ms ? a.time_ms > b.time_ms : a.seq > b.seq;
  }
};

struct IndexState {
  int32_t attempts = 0;
  int32_t exception_failures = 0;
  int32_t running = 0;
  bool done = false;
  bool copy_queued = false;
};

struct StageState {
  const StageScript* script = nullptr;
  std::vector<IndexState> indices;
  int32_t done = 0;
  int32_t launches = 0;
  bool finished = false;  // completed, or failed
  bool check_scheduled = false;
  std::vector<int64_t> success_durations;
  std::set<int32_t> warm_executors;
};

struct PendingTask {
  int32_t stage = 0;
  int32_t index = 0;
  bool speculative = false;
};

struct Slot {
  int32_t executor = 0;
  int32_t attempt = -1;  // running attempt, -1 when free
};

struct AttemptState {
  AttemptPlan plan;
  TaskEndKind planned_end = TaskEndKind::kSuccess;
  int32_t planned_reason = -1;
  int64_t planned_finish_ms = 0;
  int32_t slot = -1;
  bool ended = false;
};

class WaveSimulator {
 public:
  WaveSimulator(const WaveScript& script, Cluster& cluster, Prng& prng, int64_t& next_task_id)
      : script_(script), cluster_(cluster), prng_(prng), next_task_id_(next_task_id) {}

  WaveRun run();

 private:
  void push_heap(int64_t time_ms, HeapKind kind, int32_t ref, int32_t arg = 0) {
    heap_.push(HeapEvent{time_ms, seq_++, kind, ref, arg});
  }
  void push_timeline(int64_t time_ms, TimelineKind kind, int32_t ref) {
    out_.timeline.push_back(TimelineEvent{time_ms, seq_++, kind, ref});
  }
  int32_t add_reason(TaskEndReason reason) {
    out_.reasons.push_back(std::move(reason));
    return static_cast<int32_t>(out_.reasons.size()) - 1;
  }

  void rebuild_slots(int64_t time_ms);
  void add_slots(int32_t executor);
  int32_t find_slot(const PendingTask& task);
  void launch(int64_t now);
  void launch_one(const PendingTask& task, int32_t slot, int64_t launch_ms);
  void end_attempt(int32_t attempt, TaskEndKind kind, int64_t time_ms, int32_t reason);
  void on_attempt_end(int32_t attempt, int64_t now);
  void on_executor_loss(int32_t executor, int64_t now);
  void on_speculation_check(int32_t stage, int64_t now);
  void complete_stage(int32_t stage, int64_t time_ms);
  void fail_stage(int32_t stage, int64_t time_ms, std::string reason, bool aborted);
  void drop_pending(int32_t stage);

  const WaveScript& script_;
  Cluster& cluster_;
  Prng& prng_;
  int64_t& next_task_id_;

  WaveRun out_;
  std::vector<AttemptState> states_;
  std::vector<StageState> stages_;
  std::deque<PendingTask> pending_;
  std::vector<Slot> slots_;
  size_t cursor_ = 0;
  std::vector<int32_t> running_;  // attempt indices
  std::priority_queue<HeapEvent, std::vector<HeapEvent>, LaterFirst> heap_;
  uint64_t seq_ = 0;
  int64_t hosts_ = 1;
  int32_t another_attempt_succeeded_ = -1;
};

void WaveSimulator::rebuild_slots(int64_t time_ms) {
  slots_.clear();
  const std::vector<int32_t> live = cluster_.live_at(time_ms);
  // Interleaved by core so that consecutive launches spread over executors, as Spark's
  // round-robin over shuffled offers does.
  for (int32_t core = 0; core < cluster_.cores_per_executor(); ++core) {
    for (int32_t executor : live) slots_.push_back(Slot{executor, -1});
  }
  hosts_ = static_cast<int64_t>(cluster_.live_host_count(time_ms));
}

void WaveSimulator::add_slots(int32_t executor) {
  for (int32_t core = 0; core < cluster_.executor(executor).cores; ++core) slots_.push_back(Slot{executor, -1});
}

int32_t WaveSimulator::find_slot(const PendingTask& task) {
  if (slots_.empty()) return -1;
  for (size_t k = 0; k < slots_.size(); ++k) {
    const size_t s = (cursor_ + k) % slots_.size();
    if (slots_[s].attempt >= 0) continue;
    if (task.speculative) {
      // Never on the host of the attempt it copies.
      const std::string& host = cluster_.executor(slots_[s].executor).host;
      bool same_host = false;
      for (int32_t r : running_) {
        const TaskAttempt& a = out_.attempts[static_cast<size_t>(r)];
        if (a.stage == task.stage && a.index == task.index && cluster_.executor(a.executor).host == host) {
          same_host = true;
        }
      }
      if (same_host) continue;
    }
    cursor_ = s + 1;
    return static_cast<int32_t>(s);
  }
  return -1;
}

void WaveSimulator::launch(int64_t now) {
  int64_t offset = 0;
  for (size_t i = 0; i < pending_.size();) {
    const PendingTask task = pending_[i];
    StageState& stage = stages_[static_cast<size_t>(task.stage)];
    const IndexState& index = stage.indices[static_cast<size_t>(task.index)];
    if (stage.finished || index.done) {
      pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
      continue;
    }
    const int32_t slot = find_slot(task);
    if (slot < 0) {
      if (!task.speculative) break;  // no free slot at all
      ++i;
      continue;
    }
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
    launch_one(task, slot, now + offset);
    offset += prng_.between(0, 2);
  }
}

void WaveSimulator::launch_one(const PendingTask& task, int32_t slot, int64_t launch_ms) {
  StageState& stage = stages_[static_cast<size_t>(task.stage)];
  const StageScript& script = *stage.script;
  IndexState& index = stage.indices[static_cast<size_t>(task.index)];
  const PartitionWork& work = script.work[static_cast<size_t>(task.index)];
  const int32_t executor = slots_[static_cast<size_t>(slot)].executor;
  const ExecutorInfo& info = cluster_.executor(executor);

  TaskAttempt a;
  a.task_id = next_task_id_++;
  a.stage = task.stage;
  a.index = task.index;
  a.partition = work.partition;
  a.attempt = index.attempts++;
  a.executor = executor;
  a.launch_ms = launch_ms;
  a.speculative = task.speculative;
  a.locality = script.locality;
  if (a.locality == Locality::kNodeLocal && prng_.chance(120)) a.locality = Locality::kRackLocal;
  if (task.speculative) a.locality = Locality::kAny;

  AttemptState st;
  AttemptPlan& p = st.plan;
  p.scheduler_delay_ms = prng_.between(2, 25);
  const bool warm = !stage.warm_executors.insert(executor).second;
  p.deserialize_ms = warm ? prng_.between(4, 40) : prng_.between(300, 900);
  p.run_ms = std::max<int64_t>(1, prng_.jitter(work.run_ms * info.slowdown_permille / 1000, 120));
  p.serialize_ms = prng_.between(0, 2);
  p.getting_result_ms = work.large_result ? prng_.between(40, 400) : 0;
  p.fetch_wait_ms = work.shuffle_read_bytes > 0 ? p.run_ms * prng_.between(1, 4) / 100 : 0;
  p.cpu_permille = static_cast<int32_t>(prng_.between(650, 900));
  p.deserialize_cpu_permille = static_cast<int32_t>(prng_.between(500, 900));
  p.gc_permille = static_cast<int32_t>(work.spills ? prng_.between(80, 160) : prng_.between(15, 60));

  // What this attempt is going to do, unless a kill or a lost executor ends it first.
  int64_t partial_run = -1;
  if (script.doomed && script.doomed->first == task.index) {
    st.planned_end = TaskEndKind::kExceptionFailure;
    st.planned_reason = script.doomed->second;
    partial_run = p.run_ms * prng_.between(10, 40) / 100;
  } else if (auto it = script.failing.find(task.index);
             it != script.failing.end() && index.exception_failures < static_cast<int32_t>(it->second.size())) {
    st.planned_end = TaskEndKind::kExceptionFailure;
    st.planned_reason = it->second[static_cast<size_t>(index.exception_failures)];
    partial_run = p.run_ms * prng_.between(15, 60) / 100;
  } else if (script.fetch_failure && script.fetch_failure->first == stage.launches && !task.speculative) {
    st.planned_end = TaskEndKind::kFetchFailed;
    st.planned_reason = script.fetch_failure->second;
    partial_run = p.run_ms * prng_.between(5, 30) / 100;
  }
  st.planned_finish_ms = partial_run >= 0
                             ? launch_ms + p.scheduler_delay_ms + p.deserialize_ms + std::max<int64_t>(1, partial_run)
                             : launch_ms + success_duration(p);
  st.slot = slot;

  const auto id = static_cast<int32_t>(out_.attempts.size());
  out_.attempts.push_back(a);
  states_.push_back(st);
  slots_[static_cast<size_t>(slot)].attempt = id;
  running_.push_back(id);
  ++index.running;
  ++stage.launches;
  push_timeline(launch_ms, TimelineKind::kTaskStart, id);
  push_heap(st.planned_finish_ms, HeapKind::kAttemptEnd, id);

  if (script_.executor_loss && script_.executor_loss->stage == task.stage &&
      script_.executor_loss->after_launches == stage.launches) {
    push_heap(launch_ms + script_.executor_loss->delay_ms, HeapKind::kExecutorLoss, script_.executor_loss->executor);
  }
  if (script.speculation && !stage.check_scheduled) {
    stage.check_scheduled = true;
    push_heap(launch_ms + 1000, HeapKind::kSpeculationCheck, task.stage);
  }
}

void WaveSimulator::end_attempt(int32_t attempt, TaskEndKind kind, int64_t time_ms, int32_t reason) {
  AttemptState& st = states_[static_cast<size_t>(attempt)];
  TaskAttempt& a = out_.attempts[static_cast<size_t>(attempt)];
  st.ended = true;
  a.end = kind;
  a.reason = kind == TaskEndKind::kSuccess ? -1 : reason;
  a.finish_ms = std::max(time_ms, a.launch_ms + 1);
  a.getting_result_ms =
      kind == TaskEndKind::kSuccess && st.plan.getting_result_ms > 0 ? a.finish_ms - st.plan.getting_result_ms : 0;
  StageState& stage = stages_[static_cast<size_t>(a.stage)];
  fill_metrics(a, st.plan, stage.script->work[static_cast<size_t>(a.index)], hosts_);
  --stage.indices[static_cast<size_t>(a.index)].running;
  if (st.slot >= 0 && static_cast<size_t>(st.slot) < slots_.size() &&
      slots_[static_cast<size_t>(st.slot)].attempt == attempt) {
    slots_[static_cast<size_t>(st.slot)].attempt = -1;
  }
  running_.erase(std::find(running_.begin(), running_.end(), attempt));
  push_timeline(a.finish_ms, TimelineKind::kTaskEnd, attempt);
}

void WaveSimulator::drop_pending(int32_t stage) {
  std::erase_if(pending_, [&](const PendingTask& t) { return t.stage == stage; });
}

void WaveSimulator::complete_stage(int32_t stage_index, int64_t time_ms) {
  StageState& stage = stages_[static_cast<size_t>(stage_index)];
  stage.finished = true;
  StageOutcome& outcome = out_.outcomes[static_cast<size_t>(stage_index)];
  outcome.completion_ms = time_ms;
  push_timeline(time_ms, TimelineKind::kStageCompleted, stage_index);
  drop_pending(stage_index);
}

void WaveSimulator::fail_stage(int32_t stage_index, int64_t time_ms, std::string reason, bool aborted) {
  StageState& stage = stages_[static_cast<size_t>(stage_index)];
  stage.finished = true;
  StageOutcome& outcome = out_.outcomes[static_cast<size_t>(stage_index)];
  outcome.failed = true;
  outcome.aborted = aborted;
  outcome.completion_ms = time_ms;
  outcome.failure_reason = std::move(reason);
  push_timeline(time_ms, TimelineKind::kStageCompleted, stage_index);
  drop_pending(stage_index);
}

void WaveSimulator::on_attempt_end(int32_t attempt, int64_t now) {
  AttemptState& st = states_[static_cast<size_t>(attempt)];
  if (st.ended) return;
  const TaskAttempt& a = out_.attempts[static_cast<size_t>(attempt)];
  const int32_t stage_index = a.stage;
  const int32_t task_index = a.index;
  StageState& stage = stages_[static_cast<size_t>(stage_index)];
  IndexState& index = stage.indices[static_cast<size_t>(task_index)];

  switch (st.planned_end) {
    case TaskEndKind::kSuccess: {
      if (index.done) {  // another copy won in the meantime
        end_attempt(attempt, TaskEndKind::kKilled, now, another_attempt_succeeded_);
        return;
      }
      end_attempt(attempt, TaskEndKind::kSuccess, now, -1);
      index.done = true;
      ++stage.done;
      const TaskAttempt& ended = out_.attempts[static_cast<size_t>(attempt)];
      stage.success_durations.push_back(ended.finish_ms - ended.launch_ms);
      out_.outcomes[static_cast<size_t>(stage_index)].success_executor[static_cast<size_t>(task_index)] =
          ended.executor;
      for (int32_t r : running_) {
        const TaskAttempt& other = out_.attempts[static_cast<size_t>(r)];
        if (other.stage == stage_index && other.index == task_index) {
          push_heap(now + prng_.between(2, 25), HeapKind::kKill, r, another_attempt_succeeded_);
        }
      }
      if (!stage.finished && stage.done == static_cast<int32_t>(stage.indices.size())) {
        complete_stage(stage_index, now + 1);
      }
      return;
    }
    case TaskEndKind::kExceptionFailure: {
      end_attempt(attempt, TaskEndKind::kExceptionFailure, now, st.planned_reason);
      ++index.exception_failures;
      if (stage.finished) return;
      const StageScript& script = *stage.script;
      if (script.doomed && script.doomed->first == task_index && index.exception_failures >= 4) {
        const StageAttemptDesc& desc = *script.desc;
        const TaskAttempt& last = out_.attempts[static_cast<size_t>(attempt)];
        const ExecutorInfo& executor = cluster_.executor(last.executor);
        const TaskEndReason& cause = out_.reasons[static_cast<size_t>(st.planned_reason)];
        std::string message = fmt::format(
            "Job aborted due to stage failure: Task {} in stage {}.{} failed 4 times, most recent failure: Lost task "
            "{}.{} in stage {}.{} (TID {}) ({} executor {}): {}: {}\nDriver stacktrace:",
            task_index, desc.stage_id, desc.attempt_id, task_index, last.attempt, desc.stage_id, desc.attempt_id,
            last.task_id, executor.host, executor.id, cause.text, cause.description);
        TaskEndReason cancelled;
        cancelled.kind = TaskEndKind::kKilled;
        cancelled.text = "Stage cancelled: " + message;
        const int32_t kill_reason = add_reason(std::move(cancelled));
        for (int32_t r : running_) {
          if (out_.attempts[static_cast<size_t>(r)].stage == stage_index) {
            push_heap(now + prng_.between(3, 30), HeapKind::kKill, r, kill_reason);
          }
        }
        fail_stage(stage_index, now, std::move(message), true);
        return;
      }
      pending_.push_front(PendingTask{stage_index, task_index, false});
      return;
    }
    case TaskEndKind::kFetchFailed: {
      end_attempt(attempt, TaskEndKind::kFetchFailed, now, st.planned_reason);
      if (!stage.finished) {
        fail_stage(stage_index, now, out_.reasons[static_cast<size_t>(st.planned_reason)].text, false);
      }
      return;
    }
    case TaskEndKind::kExecutorLost:
    case TaskEndKind::kKilled: return;  // never planned; these come from outside
  }
}

void WaveSimulator::on_executor_loss(int32_t executor, int64_t now) {
  const ExecutorLossScript& loss = *script_.executor_loss;
  ExecutorInfo& lost = cluster_.executor(executor);
  lost.remove_ms = now;
  lost.remove_reason = loss.reason;
  // The backend posts the removal before the scheduler's task-end events reach the bus.
  push_timeline(now, TimelineKind::kExecutorRemoved, executor);
  push_timeline(now, TimelineKind::kBlockManagerRemoved, executor);
  TaskEndReason reason;
  reason.kind = TaskEndKind::kExecutorLost;
  reason.text = loss.reason;
  reason.executor_id = lost.id;
  reason.exit_caused_by_app = false;
  const int32_t reason_index = add_reason(std::move(reason));
  const std::vector<int32_t> running = running_;
  for (int32_t r : running) {
    const TaskAttempt& a = out_.attempts[static_cast<size_t>(r)];
    if (a.executor != executor) continue;
    const int32_t stage_index = a.stage;
    const int32_t task_index = a.index;
    end_attempt(r, TaskEndKind::kExecutorLost, now, reason_index);
    const StageState& stage = stages_[static_cast<size_t>(stage_index)];
    if (!stage.finished && !stage.indices[static_cast<size_t>(task_index)].done) {
      pending_.push_front(PendingTask{stage_index, task_index, false});
    }
  }
  std::erase_if(slots_, [&](const Slot& s) { return s.executor == executor; });
  cursor_ = 0;
  hosts_ = static_cast<int64_t>(cluster_.live_host_count(now));

  const int32_t replacement = cluster_.add_executor(now + loss.replacement_delay_ms, true);
  const ExecutorInfo& added = cluster_.executor(replacement);
  push_timeline(added.add_ms, TimelineKind::kExecutorAdded, replacement);
  push_timeline(added.block_manager_add_ms, TimelineKind::kBlockManagerAdded, replacement);
  push_heap(added.block_manager_add_ms, HeapKind::kExecutorJoin, replacement);
}

void WaveSimulator::on_speculation_check(int32_t stage_index, int64_t now) {
  StageState& stage = stages_[static_cast<size_t>(stage_index)];
  if (stage.finished) return;
  const auto tasks = static_cast<int32_t>(stage.indices.size());
  // spark.speculation.quantile 0.75, multiplier 1.5, minTaskRuntime 100 ms
  const int32_t min_finished = std::max(1, tasks * 3 / 4);
  if (stage.done >= min_finished && !stage.success_durations.empty()) {
    std::vector<int64_t> durations = stage.success_durations;
    auto middle = durations.begin() + static_cast<std::ptrdiff_t>(durations.size() / 2);
    std::nth_element(durations.begin(), middle, durations.end());
    const int64_t threshold = std::max<int64_t>(*middle * 3 / 2, 100);
    for (int32_t r : running_) {
      const TaskAttempt& a = out_.attempts[static_cast<size_t>(r)];
      if (a.stage != stage_index) continue;
      IndexState& index = stage.indices[static_cast<size_t>(a.index)];
      if (index.done || index.copy_queued || index.running != 1 || now - a.launch_ms <= threshold) continue;
      index.copy_queued = true;
      pending_.push_back(PendingTask{stage_index, a.index, true});
    }
  }
  push_heap(now + 1000, HeapKind::kSpeculationCheck, stage_index);
}

WaveRun WaveSimulator::run() {
  TaskEndReason another;
  another.kind = TaskEndKind::kKilled;
  another.text = "another attempt succeeded";
  out_.reasons = script_.reasons;
  another_attempt_succeeded_ = add_reason(std::move(another));

  for (size_t s = 0; s < script_.stages.size(); ++s) {
    const StageScript& script = script_.stages[s];
    StageState state;
    state.script = &script;
    state.indices.resize(script.work.size());
    stages_.push_back(std::move(state));
    StageOutcome outcome;
    outcome.success_executor.assign(script.work.size(), -1);
    out_.outcomes.push_back(std::move(outcome));
    for (size_t i = 0; i < script.work.size(); ++i) {
      pending_.push_back(PendingTask{static_cast<int32_t>(s), static_cast<int32_t>(i), false});
    }
  }
  rebuild_slots(script_.start_ms);

  int64_t now = script_.start_ms + prng_.between(8, 40);
  launch(now);
  while (!heap_.empty()) {
    const HeapEvent event = heap_.top();
    heap_.pop();
    now = event.time_ms;
    switch (event.kind) {
      case HeapKind::kAttemptEnd: on_attempt_end(event.ref, now); break;
      case HeapKind::kKill:
        if (!states_[static_cast<size_t>(event.ref)].ended)
          end_attempt(event.ref, TaskEndKind::kKilled, now, event.arg);
        break;
      case HeapKind::kExecutorLoss: on_executor_loss(event.ref, now); break;
      case HeapKind::kExecutorJoin:
        add_slots(event.ref);
        hosts_ = static_cast<int64_t>(cluster_.live_host_count(now));
        break;
      case HeapKind::kSpeculationCheck: on_speculation_check(event.ref, now); break;
    }
    launch(now);
  }
  for (const StageState& stage : stages_) {
    if (!stage.finished) throw std::logic_error("loggen: a stage of the wave never finished (no executors left?)");
  }
  std::sort(out_.timeline.begin(), out_.timeline.end(), [](const TimelineEvent& a, const TimelineEvent& b) {
    return a.time_ms != b.time_ms ? a.time_ms < b.time_ms : a.seq < b.seq;
  });
  out_.end_ms = out_.timeline.empty() ? script_.start_ms : out_.timeline.back().time_ms;
  return std::move(out_);
}

}  // namespace

WaveRun simulate_wave(const WaveScript& script, Cluster& cluster, Prng& prng, int64_t& next_task_id) {
  WaveSimulator simulator(script, cluster, prng, next_task_id);
  return simulator.run();
}

}  // namespace sf::loggen
