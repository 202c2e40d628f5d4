// Reading SQL plan nodes, shared by the plan detectors (sql_plans, python_udf, caching,
// config_audit): their text without per-run ids, what kind of node they are, where they sit
// (below a reuse, in which stage pipeline), and their metrics and metadata, in all and stage by
// stage as they ran.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/app_model.h"

namespace sf::analysis {

// Expression ids (#123) and exchange ids ([id=#42], [plan_id=42]) differ between two copies of
// the same computation; everything else in a node's text describes what it computes.
std::string normalized_plan_text(std::string_view text);
// The same text as a person reads it in advice: the ids dropped rather than emptied
// ("hashpartitioning(customer_id#12L, 12), ENSURE_REQUIREMENTS, [plan_id=80]" reads
// "hashpartitioning(customer_id, 12), ENSURE_REQUIREMENTS").
std::string readable_plan_text(std::string_view text);

// The first line of a plan text, trailing blanks dropped, cut to `limit` characters with "~".
std::string shortened_plan_text(std::string_view text, size_t limit);

// The names one plan metric goes by: Spark's own, its older spellings with the unit in brackets,
// and Databricks Photon's, whose operators (PhotonScan, PhotonShuffleExchangeSink, ...) measure
// the same things under names of their own. Readers take the first name a node has. A set is
// either one of the named sets below or a braced list at the call; it refers to its names, so
// it lives no longer than the call it is passed to.
class MetricNames {
 public:
  constexpr MetricNames(std::initializer_list<std::string_view> names) : names_(names.begin(), names.size()) {}
  template <size_t N>
  constexpr MetricNames(const std::array<std::string_view, N>& names) : names_(names) {}  // NOLINT: implicit
  auto begin() const { return names_.begin(); }
  auto end() const { return names_.end(); }

 private:
  std::span<const std::string_view> names_;
};

namespace plan_metric {
// A file scan's file count and bytes; Photon's scans say "files read".
inline constexpr std::array<std::string_view, 3> kFilesRead = {"number of files read", "number of files", "files read"};
inline constexpr std::array<std::string_view, 1> kFileBytesRead = {"size of files read"};
// The time a scan spent reading: Photon's scans time themselves as "cumulative time" (a scan
// has no children, so it is the scan's own).
inline constexpr std::array<std::string_view, 2> kScanTime = {"scan time", "cumulative time"};
inline constexpr std::array<std::string_view, 2> kMetadataTime = {"metadata time", "metadata time (ms)"};
// What a shuffle exchange wrote, as rows in memory: Spark's "data size"; Photon's sink counts
// the bytes it wrote before compression.
inline constexpr std::array<std::string_view, 3> kExchangeBytes = {"data size", "data size (bytes)",
                                                                   "num uncompressed bytes written"};
inline constexpr std::array<std::string_view, 2> kShuffleWriteTime = {"shuffle write time",
                                                                      "total time spent producing shuffle files"};
}  // namespace plan_metric

// Scans of stored data (files, tables, JDBC, DSv2 sources; Spark's, the RAPIDS plugin's and
// Photon's). Scans of RDDs, local rows, caches and streams are not.
bool is_source_scan(const model::PlanNode& node);

// Photon's stage wrappers (PhotonShuffleMapStage, PhotonResultStage, PhotonUnionShuffleMapStage):
// the part of a stage Photon runs, as WholeStageCodegen is the part Spark compiled.
bool is_photon_stage(const model::PlanNode& node);

// A shuffle exchange (not a broadcast, not a reuse of another exchange): on Photon, its writing
// side, PhotonShuffleExchangeSink, which carries what was written.
bool is_shuffle_exchange(const model::PlanNode& node);
// A join that shuffles both sides: sort-merge or shuffled hash (Photon's included).
bool is_shuffled_join(const model::PlanNode& node);

// The plan was run by adaptive query execution (AdaptiveSparkPlan at the root, or under a write
// command's node on Spark 3.0 and 3.1).
bool is_adaptive(const model::PlanTree& plan);

// A micro-batch of a streaming query (its description names the run, or its plan reads or
// writes micro-batches or keeps state): one plan run over new data each time.
bool is_streaming_batch(const model::SqlExecution& sql);

// The value of the first of `names` the node has a value for.
std::optional<int64_t> metric_value(const model::PlanNode& node, MetricNames names);

// The accumulator of the first of `names` the node has.
std::optional<int64_t> metric_accumulator(const model::PlanNode& node, MetricNames names);

// A metadata entry of the node ("Location", "ReadSchema", ...), or null.
const std::string* metadata_value(const model::PlanNode& node, std::string_view key);

// Nodes whose children were not computed again where they appear: Spark reused an exchange or
// a subquery computed elsewhere, or an in-memory scan read a cache (its child is the cached
// plan, computed once when the cache was filled).
bool is_reuse_boundary(const model::PlanNode& node);

// For each node of the tree: whether it sits below a reuse boundary.
std::vector<bool> nodes_below_reuse(const model::PlanTree& tree);

// Nodes that end a stage's pipeline: shuffle and broadcast exchanges (and their reuses; on
// Photon both sides of one), the AQE query stages around them, and subqueries (which run as
// jobs of their own).
bool is_pipeline_boundary(const model::PlanNode& node);

// The stages that ran a node, from its own metrics' accumulator evidence or, when it has none
// (Python nodes before Spark 3.4 carry no metric), from the nodes of the same pipeline: up to
// and down to the nearest boundary, whose own metrics belong to other stages as well.
std::vector<int64_t> pipeline_stage_ids(const model::PlanTree& tree, int32_t node_id);

// One metric of a plan node in one stage attempt, in the metric's unit (timings in ms).
struct StageMetricPart {
  const model::StageAttempt* stage = nullptr;
  double value = 0;
};

// The first of `names` the node has, stage attempt by stage attempt, from the attempts'
// accumulables. Spark logs a stage's accumulable as the accumulator's running total at the
// stage's last update (DAGScheduler.updateAccumulators), so an accumulator several attempts
// updated shows cumulative values: each attempt's part is its value less the largest value
// logged by the attempts that completed before it. "nsTiming" metrics are converted to ms.
// Attempts with no part are left out; driver-side updates are not stage work and are not here.
// Only the stages of node.stage_ids are looked at: the model's plan attribution lists there every
// stage whose accumulables carry one of the node's metrics.
std::vector<StageMetricPart> metric_parts_by_stage(const model::AppModel& model, const model::PlanNode& node,
                                                   MetricNames names);

// The first of `names` the node has, in all, as it ran and as Spark's UI totals it: the stage
// attempts' parts (running totals undone, so a stage updated twice is not counted twice) plus its
// driver-side value (the model keeps each accumulator's last driver update); in the metric's
// unit (timings in whole ms). nullopt when neither a stage nor the driver reported it.
std::optional<int64_t> metric_as_ran(const model::AppModel& model, const model::SqlExecution& sql,
                                     const model::PlanNode& node, MetricNames names);

// The part of `parts` that is this stage attempt's (0 when it has none).
double stage_part(const std::vector<StageMetricPart>& parts, const model::StageAttempt* stage);

}  // namespace sf::analysis
