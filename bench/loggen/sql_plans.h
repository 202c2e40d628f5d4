// SQL physical plans of the generated application, with adaptive (AQE) versions.
//
// A query is a chain of segments, one per logical stage of its action: scan segments read
// tables, later segments read the shuffles of earlier ones, every segment but the last ends in an
// Exchange. plan(m) is the plan once the first m exchanges have been materialized as query
// stages (ShuffleQueryStage, read through AQEShuffleRead): plan(0) is the initial plan,
// plan(exchanges()) the final one (AdaptiveSparkPlan isFinalPlan=true).
//
// Every plan metric has an accumulator id, allocated from the application's counter the first
// time a plan version shows the node (so AQEShuffleRead ids come later, as in Spark). Metrics
// that tasks update are bound to the segment whose tasks update them (task_metrics); the others
// are driver-side and reported through DriverAccumUpdates (take_driver_updates). Not thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "loggen/generated_events.h"

namespace sf::loggen {

enum class SegmentRole {
  kScan,            // FileScan -> ColumnarToRow -> Filter -> Project
  kScanAggregate,   // the same, then a partial HashAggregate
  kJoinAggregate,   // SortMergeJoin of two shuffles, then a partial HashAggregate
  kFinalAggregate,  // HashAggregate of a shuffle
  kWindow,          // Window over Sort of a shuffle
  kSort,            // Sort of a shuffle
};

struct QuerySpec {
  std::vector<SegmentRole> roles;            // one per segment
  std::vector<std::vector<int32_t>> inputs;  // per segment: the segments whose shuffle it reads
  std::vector<int32_t> partitions;           // per segment: its tasks
  std::vector<std::string> tables;           // per scan segment, in segment order
  std::string key_column = "customer_id";
  std::string target_path;  // the final write's location; "" for a collect
};

class SqlQuery {
 public:
  SqlQuery(QuerySpec spec, int64_t& next_accumulator_id);

  int32_t segments() const { return static_cast<int32_t>(spec_.roles.size()); }
  int32_t exchanges() const { return segments() - 1; }
  bool adaptive() const { return exchanges() > 0; }

  PlanDesc plan(int32_t materialized);
  // The metrics the tasks of `segment` update, sorted by accumulator id; their totals live in
  // this query, which must outlive the stage attempts that use them.
  std::vector<SqlMetricBinding> task_metrics(int32_t segment);
  // Driver-side metric values not reported yet, sorted by id.
  std::vector<std::pair<int64_t, int64_t>> take_driver_updates();
  // The final write's statistics, which the driver reports once the job has committed.
  void set_write_results(int64_t files, int64_t bytes, int64_t rows, int64_t commit_ms);

 private:
  struct TreeNode {
    std::string name;
    std::string simple_string;
    std::vector<std::pair<std::string, std::string>> metadata;
    std::vector<PlanMetricDesc> metrics;
    std::vector<TreeNode> children;
  };
  struct Registered {
    int64_t id = 0;
    std::string_view name;
    int32_t segment = -1;  // -1: driver-side
    MetricSource source;
    int64_t driver_value = 0;
    bool has_driver_value = false;
    bool reported = false;
    int64_t total = 0;  // the task updates so far
  };

  PlanMetricDesc metric(const std::string& key, std::string_view name, std::string_view type, int32_t segment,
                        MetricSource source = {});
  PlanMetricDesc driver_metric(const std::string& key, std::string_view name, std::string_view type,
                               std::optional<int64_t> value);
  TreeNode segment_tree(int32_t segment, int32_t materialized);
  TreeNode shuffle_read(int32_t writer, int32_t reader, int32_t materialized, int32_t share_num, int32_t share_den);
  TreeNode scan_chain(int32_t segment);
  static void flatten(const TreeNode& node, PlanDesc& plan);
  static void describe(const TreeNode& node, const std::string& prefix, bool last, int& counter, std::string& tree,
                       std::string& details, bool codegen = false);

  QuerySpec spec_;
  int64_t& next_accumulator_id_;
  std::map<std::string, size_t> by_key_;
  std::deque<Registered> registered_;  // stable addresses: bindings point at totals
};

}  // namespace sf::loggen
