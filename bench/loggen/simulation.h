// The simulated cluster and task scheduler.
//
// A Cluster is the set of executors the application ever had. simulate_wave() runs one wave
// (the stage attempts that run at the same time) on it: a FIFO scheduler places task attempts
// on free task slots, and the wave's script decides which attempts fail, which executor is lost,
// which task hits a fetch failure, which partition aborts the stage, and whether slow tasks get
// speculative copies. The result is every attempt with its final metrics and a timeline of the
// events to log, sorted by time; the caller writes them and the truth from the same values.
//
// Memory is bounded by the wave: attempts and timeline of its stages only. Deterministic: all
// randomness comes from the Prng passed in. Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loggen/generated_events.h"
#include "loggen/prng.h"

namespace sf::loggen {

inline constexpr int64_t kMiB = int64_t{1} << 20;

struct ClusterConfig {
  std::string container_prefix;  // "container_e42_1717200000000_0042_01_"
  int32_t cores_per_executor = 4;
  int32_t executors_per_host = 2;
  int64_t executor_memory_mb = 8192;
  int32_t subnet = 16;  // second octet of the hosts' addresses
};

class Cluster {
 public:
  explicit Cluster(ClusterConfig config) : config_(std::move(config)) {}

  // A new executor (the next id) that registers at `time_ms`, on a host shared with the
  // executors before it (`executors_per_host` per host), or on a fresh host when `fresh_host`.
  int32_t add_executor(int64_t time_ms, bool fresh_host);
  ExecutorInfo& executor(int32_t index) { return executors_[static_cast<size_t>(index)]; }
  const ExecutorInfo& executor(int32_t index) const { return executors_[static_cast<size_t>(index)]; }
  const std::vector<ExecutorInfo>& executors() const { return executors_; }
  // Executors registered by `time_ms` and not removed, in id order.
  std::vector<int32_t> live_at(int64_t time_ms) const;
  size_t live_host_count(int64_t time_ms) const;
  int32_t cores_per_executor() const { return config_.cores_per_executor; }

 private:
  std::string host_name(int32_t host_index) const;

  ClusterConfig config_;
  std::vector<ExecutorInfo> executors_;
  int32_t next_host_ = 0;
  int32_t on_current_host_ = 0;
};

// What one task of a stage has to do on a normal executor, before per-attempt noise.
struct PartitionWork {
  int32_t partition = 0;
  int64_t run_ms = 0;
  int64_t input_bytes = 0;
  int64_t input_records = 0;
  int64_t shuffle_read_bytes = 0;
  int64_t shuffle_read_records = 0;
  int32_t shuffle_read_blocks = 0;  // map outputs it fetches
  int64_t shuffle_write_bytes = 0;
  int64_t shuffle_write_records = 0;
  int64_t output_bytes = 0;
  int64_t output_records = 0;
  int64_t memory_spilled_bytes = 0;
  int64_t disk_spilled_bytes = 0;
  int64_t peak_execution_memory_bytes = 0;
  int64_t result_bytes = 0;
  bool large_result = false;  // the driver fetches it (Getting Result Time)
  bool spills = false;        // heavier GC
};

// The scenario of one stage attempt within a wave.
struct StageScript {
  StageAttemptDesc* desc = nullptr;  // owned by the caller
  std::vector<PartitionWork> work;   // by task-set index
  Locality locality = Locality::kProcessLocal;
  // Task-set index -> the reasons (into WaveScript::reasons) of its first attempts, which fail
  // with ExceptionFailure; the attempt after them succeeds.
  std::map<int32_t, std::vector<int32_t>> failing;
  // A task-set index whose every attempt fails with this reason: after 4 failures
  // (spark.task.maxFailures) the stage is aborted and its running attempts killed.
  std::optional<std::pair<int32_t, int32_t>> doomed;
  // The attempt launched as the stage's n-th launch ends in FetchFailed (reason index): the
  // stage attempt fails, its running attempts finish as zombies.
  std::optional<std::pair<int32_t, int32_t>> fetch_failure;
  bool speculation = false;  // spark.speculation checks for this stage
};

// An executor lost while a wave runs, and its replacement.
struct ExecutorLossScript {
  int32_t stage = 0;           // index into WaveScript::stages
  int32_t after_launches = 0;  // the loss comes `delay_ms` after this many launches of the stage
  int64_t delay_ms = 3000;
  int32_t executor = 0;  // cluster index
  std::string reason;    // Removed Reason and Loss Reason
  int64_t replacement_delay_ms = 6000;
};

struct WaveScript {
  int64_t start_ms = 0;  // stages are submitted at this time
  std::vector<StageScript> stages;
  std::optional<ExecutorLossScript> executor_loss;
  std::vector<TaskEndReason> reasons;
};

enum class TimelineKind : uint8_t {
  kTaskStart,
  kTaskEnd,
  kStageCompleted,
  kExecutorRemoved,
  kBlockManagerRemoved,
  kExecutorAdded,
  kBlockManagerAdded,
};

struct TimelineEvent {
  int64_t time_ms = 0;
  uint64_t seq = 0;  // causal order among events of the same millisecond
  TimelineKind kind = TimelineKind::kTaskStart;
  int32_t ref = 0;  // attempt, stage or cluster executor index
};

struct StageOutcome {
  bool failed = false;  // fetch failure or abort
  bool aborted = false;
  int64_t completion_ms = 0;
  std::string failure_reason;
  std::vector<int32_t> success_executor;  // by task-set index: cluster index, -1 if none
};

struct WaveRun {
  std::vector<TaskAttempt> attempts;
  std::vector<TaskEndReason> reasons;   // the script's, then those the simulation added
  std::vector<TimelineEvent> timeline;  // sorted by (time, seq)
  std::vector<StageOutcome> outcomes;   // by stage
  int64_t end_ms = 0;                   // the last event's time
};

// Runs `script` on `cluster` (whose executors it may remove and add). Task ids continue from
// `next_task_id`.
WaveRun simulate_wave(const WaveScript& script, Cluster& cluster, Prng& prng, int64_t& next_task_id);

}  // namespace sf::loggen
