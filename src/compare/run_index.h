// One run, indexed for alignment: its stages with their keys and totals, grouped by SQL
// execution, and each execution's profile.
//
// A stage here is a stage id with every attempt summed (failed and speculative attempts cost
// run time too); stages listed by a job but never submitted are left out. Stages whose scans
// only read the Delta log are set aside as bookkeeping. Stages with no SQL execution (RDD jobs,
// or an execution the log never started) form one pseudo-execution.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compare/execution_similarity.h"
#include "compare/normalize.h"
#include "model/app_model.h"

namespace sf::compare {

// A stage's figures, summed over all its attempts (skew: of its latest attempt).
struct StageTotals {
  int64_t executor_run_time_ms = 0;
  int64_t executor_cpu_time_ms = 0;
  int64_t task_time_ms = 0;  // sum of task attempt durations
  int64_t duration_ms = 0;   // wall-clock of the latest attempt
  int64_t jvm_gc_time_ms = 0;
  int64_t input_bytes = 0;
  int64_t output_bytes = 0;
  int64_t shuffle_read_bytes = 0;
  int64_t shuffle_write_bytes = 0;
  int64_t memory_spill_bytes = 0;
  int64_t disk_spill_bytes = 0;
  int64_t tasks = 0;  // attempts that ended or are running
  int64_t failed_tasks = 0;
  std::optional<double> task_skew;  // longest / median successful task duration

  StageTotals& operator+=(const StageTotals& other);
};

struct StageRecord {
  int64_t stage_id = 0;
  int32_t attempts = 0;
  std::string name;                     // as Spark printed it (latest attempt)
  std::optional<int64_t> execution_id;  // nullopt: outside any SQL execution
  std::string exact_key;                // normalized name | fingerprint of what it ran
  std::string structural_key;           // "" when no plan node was attributed to it
  std::vector<std::string> tokens;      // name and normalized node (or call-site) text
  bool has_plan_nodes = false;
  bool delta_bookkeeping = false;
  int32_t height = 0;  // its place in the job: stages in the longest chain of parents above it
  StageTotals totals;

  int64_t bytes_read() const { return totals.input_bytes + totals.shuffle_read_bytes; }
};

struct ExecutionRecord {
  std::optional<int64_t> execution_id;  // nullopt: the pseudo-execution
  std::vector<size_t> stages;           // indices into RunIndex::stages, stage-id order
  ExecutionProfile profile;
};

struct RunIndex {
  std::vector<StageRecord> stages;          // every stage that ran, by stage id
  std::vector<ExecutionRecord> executions;  // SQL executions with a stage, by id
  ExecutionRecord outside;                  // stages outside any SQL execution
  std::vector<size_t> bookkeeping;          // Delta bookkeeping stages (not in any execution above)
  int64_t total_run_time_ms = 0;            // executor run time of every non-bookkeeping stage
};

// User-code frames of a long call site: framework frames (Spark, Scala, Java, py4j) dropped,
// digits collapsed.
std::vector<std::string> user_frames(std::string_view call_site);

RunIndex index_run(const model::AppModel& model, const ComparisonNormalizer& normalizer, TokenDictionary& dictionary);

// The key a stage has in the legacy count-based matching (matchedCoverage): the exact-key
// recipe with plan-text id removal only, no comparison patches.
std::string stage_identity(const model::AppModel& model, int64_t stage_id);

}  // namespace sf::compare
