// What each action of the generated application does: its name, its stages and how much data
// each task handles, and which scenarios (features) are placed on it.
//
// The application is a nightly sales ETL of eight kinds of action, repeated: ingest orders (SQL),
// load and cache the customer dimension (RDD), join orders with customers (SQL, two scans
// running together), score customers from the cache (RDD), daily aggregates (SQL), reconcile the
// ledger (RDD), export to the warehouse (SQL) and publish a summary (SQL, collected by the
// driver). Action i of a cycle is kind i % 8. Each feature has a home kind; it is placed on the
// first action of each cycle whose kind is its home (or, with fewer than eight actions, on action
// home % actions). README.md lists them. Deterministic; no global state.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loggen/generated_events.h"
#include "loggen/log_generator.h"
#include "loggen/prng.h"
#include "loggen/simulation.h"
#include "loggen/sql_plans.h"

namespace sf::loggen {

inline constexpr int kActionKinds = 8;

struct ActionTemplate {
  std::string_view description;  // spark.job.description, and the SQL description
  std::string_view class_name;   // com.acme.etl.IngestOrders
  std::string_view file;         // IngestOrders.scala
  int32_t line = 0;
  bool sql = false;               // a DataFrame action (when config.sql), else an RDD action
  bool join = false;              // two scans feeding a join
  bool collect = false;           // the result goes to the driver instead of being written
  bool large_results = false;     // results big enough that the driver fetches them
  std::string_view tables[2];     // scanned tables
  std::string_view target;        // written location
  std::string_view rdd_verbs[3];  // RDD stage names: first stage, middle stages, last stage
};

const ActionTemplate& action_template(int kind);

// The scenarios placed on one action.
struct ActionFeatures {
  bool skew = false;            // a few partitions of the first shuffle-reading stage, 10-25x
  bool spill = false;           // spill in the skewed tasks, and in every task of spill_stage
  bool spill_heavy = false;     // the first shuffle-reading stage spills everywhere
  bool speculation = false;     // speculative copies in the skewed stage / on the slow executor
  bool slow_executor = false;   // one executor 4x slower during the first stage
  bool failed_tasks = false;    // a few attempts of the first stage fail, then succeed
  bool executor_loss = false;   // an executor lost during the first stage, then replaced
  bool boundary_churn = false;  // before the action: an executor removed, another added, same ms
  bool stage_retry = false;     // a fetch failure in the first shuffle-reading stage
  bool failed_job = false;      // a partition of the last stage fails 4 times
  bool cache_write = false;     // the first stage persists the customer dimension
  bool cache_read = false;      // the first stage reads it back from the cache
};

ActionFeatures features_for(const GeneratorConfig& config, int action_index);

// One stage of an action's DAG, as planned: every job that runs or lists it sees these.
struct LogicalStage {
  int32_t index = 0;
  std::vector<int32_t> parents;  // logical indices whose shuffle it reads
  int32_t partitions = 0;
  bool final = false;  // the action's last stage (a ResultTask stage)
  SegmentRole role = SegmentRole::kScan;
  std::string name;
  std::string details;
  std::vector<RddDesc> rdds;
  std::vector<PartitionWork> work;  // by partition
  int64_t shuffle_id = -1;          // of the shuffle it writes
  Locality locality = Locality::kProcessLocal;
};

struct ActionShape {
  std::vector<LogicalStage> stages;         // topological order
  std::vector<std::vector<int32_t>> waves;  // logical stages that run together, in order
  std::optional<QuerySpec> query;           // SQL actions
};

// Counters the whole application shares.
struct IdCounters {
  int64_t job = 0;
  int64_t stage = 0;
  int64_t rdd = 0;
  int64_t shuffle = 0;
  int64_t task = 0;
  int64_t accumulator = 0;
  int64_t sql_execution = 0;
};

// Plans action `kind` with the given features. `cached` is the persisted customer dimension when
// one exists (read by cache_read; set by cache_write).
ActionShape plan_action(const GeneratorConfig& config, int kind, const ActionFeatures& features, Prng& prng,
                        IdCounters& ids, std::optional<RddDesc>& cached);

}  // namespace sf::loggen
