#include "loggen/sql_plans.h"

#include <fmt/format.h>

#include <algorithm>

namespace sf::loggen {

using spark::TaskMetric;

namespace {

constexpr MetricSource from(TaskMetric base, int32_t num = 1, int32_t den = 1) { return MetricSource{base, num, den}; }
constexpr MetricSource kZero = MetricSource{TaskMetric::kCount, 0, 1};

std::string column(std::string_view name, int id) { return fmt::format("{}#{}L", name, id); }

}  // namespace

SqlQuery::SqlQuery(QuerySpec spec, int64_t& next_accumulator_id)
    : spec_(std::move(spec)), next_accumulator_id_(next_accumulator_id) {}

PlanMetricDesc SqlQuery::metric(const std::string& key, std::string_view name, std::string_view type, int32_t segment,
                                MetricSource source) {
  auto it = by_key_.find(key);
  if (it == by_key_.end()) {
    Registered r;
    r.id = next_accumulator_id_++;
    r.name = name;
    r.segment = segment;
    r.source = source;
    it = by_key_.emplace(key, registered_.size()).first;
    registered_.push_back(r);
  }
  return PlanMetricDesc{name, type, registered_[it->second].id};
}

PlanMetricDesc SqlQuery::driver_metric(const std::string& key, std::string_view name, std::string_view type,
                                       std::optional<int64_t> value) {
  const PlanMetricDesc desc = metric(key, name, type, -1);
  Registered& r = registered_[by_key_.at(key)];
  if (value && !r.has_driver_value) {
    r.driver_value = *value;
    r.has_driver_value = true;
  }
  return desc;
}

std::vector<SqlMetricBinding> SqlQuery::task_metrics(int32_t segment) {
  std::vector<SqlMetricBinding> out;
  for (Registered& r : registered_) {
    if (r.segment == segment) out.push_back(SqlMetricBinding{r.id, r.name, r.source, &r.total});
  }
  std::sort(out.begin(), out.end(),
            [](const SqlMetricBinding& a, const SqlMetricBinding& b) { return a.accumulator_id < b.accumulator_id; });
  return out;
}

std::vector<std::pair<int64_t, int64_t>> SqlQuery::take_driver_updates() {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (Registered& r : registered_) {
    if (r.segment != -1 || !r.has_driver_value || r.reported) continue;
    r.reported = true;
    out.emplace_back(r.id, r.driver_value);
  }
  std::sort(out.begin(), out.end());
  return out;
}

void SqlQuery::set_write_results(int64_t files, int64_t bytes, int64_t rows, int64_t commit_ms) {
  auto set = [&](const char* key, int64_t value) {
    auto it = by_key_.find(key);
    if (it == by_key_.end()) return;
    registered_[it->second].driver_value = value;
    registered_[it->second].has_driver_value = true;
  };
  set("write:files", files);
  set("write:bytes", bytes);
  set("write:rows", rows);
  set("write:task_commit", commit_ms * 3 / 4);
  set("write:job_commit", commit_ms);
}

// ---------------------------------------------------------------------------------------------
// Plan trees

SqlQuery::TreeNode SqlQuery::scan_chain(int32_t segment) {
  int scan_index = 0;
  for (int32_t s = 0; s < segment; ++s) {
    if (spec_.roles[static_cast<size_t>(s)] == SegmentRole::kScan ||
        spec_.roles[static_cast<size_t>(s)] == SegmentRole::kScanAggregate) {
      ++scan_index;
    }
  }
  const std::string& table = spec_.tables.at(static_cast<size_t>(scan_index));
  const std::string k = fmt::format("s{}:", segment);
  const int base = 10 + segment * 20;
  const std::string key = column(spec_.key_column, base + 2);
  const int64_t files = spec_.partitions[static_cast<size_t>(segment)] * 2;

  TreeNode scan;
  scan.name = "Scan parquet spark_catalog." + table;
  scan.simple_string = fmt::format(
      "FileScan parquet spark_catalog.{}[{},{},amount#{},event_date#{}] Batched: true, DataFilters: [isnotnull({})], "
      "Format: Parquet, Location: InMemoryFileIndex(1 paths)[s3a://lake/{}], PartitionFilters: [], "
      "PushedFilters: [IsNotNull({})], ReadSchema: struct<id:bigint,{}:bigint,amount:decimal(18,2),event_date:date>",
      table, column("id", base + 1), key, base + 3, base + 4, key, table, spec_.key_column, spec_.key_column);
  scan.metadata = {{"Batched", "true"},
                   {"DataFilters", fmt::format("[isnotnull({})]", key)},
                   {"Format", "Parquet"},
                   {"Location", fmt::format("InMemoryFileIndex(1 paths)[s3a://lake/{}]", table)},
                   {"PartitionFilters", "[]"},
                   {"PushedFilters", fmt::format("[IsNotNull({})]", spec_.key_column)},
                   {"ReadSchema", "struct<id:bigint,amount:decimal(18,2),event_date:date>"}};
  scan.metrics = {metric(k + "scan:rows", "number of output rows", "sum", segment, from(TaskMetric::kInputRecords)),
                  driver_metric(k + "scan:files", "number of files read", "sum", files),
                  driver_metric(k + "scan:metadata", "metadata time", "timing", 40 + segment * 7),
                  driver_metric(k + "scan:size", "size of files read", "size", files * 62914560),
                  metric(k + "scan:time", "scan time", "timing", segment, from(TaskMetric::kExecutorRunTimeMs, 3, 10))};

  TreeNode to_rows{"ColumnarToRow", "ColumnarToRow", {}, {}, {}};
  to_rows.metrics = {
      metric(k + "c2r:rows", "number of output rows", "sum", segment, from(TaskMetric::kInputRecords)),
      metric(k + "c2r:batches", "number of input batches", "sum", segment, from(TaskMetric::kInputRecords, 1, 4096))};
  to_rows.children.push_back(std::move(scan));

  TreeNode filter{"Filter", fmt::format("Filter isnotnull({})", key), {}, {}, {}};
  filter.metrics = {
      metric(k + "filter:rows", "number of output rows", "sum", segment, from(TaskMetric::kInputRecords, 4, 5))};
  filter.children.push_back(std::move(to_rows));

  TreeNode project{"Project", fmt::format("Project [{}, amount#{}]", key, base + 3), {}, {}, {}};
  project.children.push_back(std::move(filter));
  return project;
}

SqlQuery::TreeNode SqlQuery::shuffle_read(int32_t writer, int32_t reader, int32_t materialized, int32_t share_num,
                                          int32_t share_den) {
  const std::string k = fmt::format("x{}:", writer);
  const int32_t partitions = spec_.partitions[static_cast<size_t>(reader)];
  auto read = [&](TaskMetric base) { return from(base, share_num, share_den); };
  TreeNode exchange;
  exchange.name = "Exchange";
  exchange.simple_string = fmt::format("Exchange hashpartitioning({}, {}), ENSURE_REQUIREMENTS, [plan_id={}]",
                                       column(spec_.key_column, 12 + writer * 20), partitions, 57 + writer * 13);
  exchange.metrics = {
      metric(k + "records_written", "shuffle records written", "sum", writer, from(TaskMetric::kShuffleWriteRecords)),
      metric(k + "write_time", "shuffle write time", "nsTiming", writer, from(TaskMetric::kShuffleWriteTimeNs)),
      metric(k + "records_read", "records read", "sum", reader, read(TaskMetric::kShuffleRecordsRead)),
      metric(k + "local_bytes", "local bytes read", "size", reader, read(TaskMetric::kShuffleLocalBytesRead)),
      metric(k + "fetch_wait", "fetch wait time", "timing", reader, read(TaskMetric::kShuffleFetchWaitTimeMs)),
      metric(k + "remote_bytes", "remote bytes read", "size", reader, read(TaskMetric::kShuffleRemoteBytesRead)),
      metric(k + "local_blocks", "local blocks read", "sum", reader, read(TaskMetric::kShuffleLocalBlocksFetched)),
      metric(k + "remote_blocks", "remote blocks read", "sum", reader, read(TaskMetric::kShuffleRemoteBlocksFetched)),
      metric(k + "data_size", "data size", "size", writer, from(TaskMetric::kShuffleWriteBytes, 3, 2)),
      driver_metric(k + "partitions", "number of partitions", "sum", partitions),
      metric(k + "remote_to_disk", "remote bytes read to disk", "size", reader,
             read(TaskMetric::kShuffleRemoteBytesReadToDisk)),
      metric(k + "bytes_written", "shuffle bytes written", "size", writer, from(TaskMetric::kShuffleWriteBytes))};
  exchange.children.push_back(segment_tree(writer, materialized));
  if (writer >= materialized) return exchange;

  TreeNode stage{"ShuffleQueryStage", fmt::format("ShuffleQueryStage {}", writer), {}, {}, {}};
  stage.children.push_back(std::move(exchange));
  TreeNode aqe_read{"AQEShuffleRead", "AQEShuffleRead coalesced", {}, {}, {}};
  aqe_read.metrics = {driver_metric(k + "aqe_partitions", "number of partitions", "sum", partitions),
                      driver_metric(k + "aqe_size", "partition data size", "size", int64_t{partitions} * 67108864)};
  aqe_read.children.push_back(std::move(stage));
  return aqe_read;
}

SqlQuery::TreeNode SqlQuery::segment_tree(int32_t segment, int32_t materialized) {
  const auto s = static_cast<size_t>(segment);
  const std::string k = fmt::format("s{}:", segment);
  const std::vector<int32_t>& inputs = spec_.inputs[s];
  const std::string key = column(spec_.key_column, 12 + segment * 20);
  auto aggregate = [&](bool partial, TreeNode child) {
    TreeNode agg{
        "HashAggregate",
        fmt::format("HashAggregate(keys=[{}], functions=[{}(amount#13)])", key, partial ? "partial_sum" : "sum"),
        {},
        {},
        {}};
    agg.metrics = {
        metric(k + "agg:spill", "spill size", "size", segment, from(TaskMetric::kMemoryBytesSpilled)),
        metric(k + "agg:build", "time in aggregation build", "timing", segment,
               from(TaskMetric::kExecutorRunTimeMs, 2, 5)),
        metric(k + "agg:peak", "peak memory", "size", segment, from(TaskMetric::kPeakExecutionMemoryBytes)),
        metric(k + "agg:rows", "number of output rows", "sum", segment,
               partial ? from(TaskMetric::kShuffleWriteRecords) : from(TaskMetric::kShuffleRecordsRead, 1, 4)),
        metric(k + "agg:fallback", "number of sort fallback tasks", "sum", segment, kZero),
        metric(k + "agg:probe", "avg hash probe bucket list iters", "average", segment,
               MetricSource{TaskMetric::kCount, 12, 1})};
    agg.children.push_back(std::move(child));
    return agg;
  };
  auto sort = [&](const std::string& tag, int32_t time_den, int32_t share_num, int32_t share_den, TreeNode child) {
    TreeNode node{"Sort", fmt::format("Sort [{} ASC NULLS FIRST], false, 0", key), {}, {}, {}};
    node.metrics = {
        metric(k + tag + ":time", "sort time", "timing", segment, from(TaskMetric::kExecutorRunTimeMs, 1, time_den)),
        metric(k + tag + ":peak", "peak memory", "size", segment,
               from(TaskMetric::kPeakExecutionMemoryBytes, share_num, share_den)),
        metric(k + tag + ":spill", "spill size", "size", segment,
               from(TaskMetric::kMemoryBytesSpilled, share_num, share_den))};
    node.children.push_back(std::move(child));
    return node;
  };
  auto codegen = [&](TreeNode child) {
    TreeNode node{fmt::format("WholeStageCodegen ({})", segment + 1),
                  fmt::format("WholeStageCodegen ({})", segment + 1),
                  {},
                  {},
                  {}};
    node.metrics = {metric(k + "wscg", "duration", "timing", segment, from(TaskMetric::kExecutorRunTimeMs, 4, 5))};
    node.children.push_back(std::move(child));
    return node;
  };

  switch (spec_.roles[s]) {
    case SegmentRole::kScan: return codegen(scan_chain(segment));
    case SegmentRole::kScanAggregate: return codegen(aggregate(true, scan_chain(segment)));
    case SegmentRole::kJoinAggregate: {
      TreeNode join{"SortMergeJoin",
                    fmt::format("SortMergeJoin [{}], [{}], Inner", column(spec_.key_column, 12 + inputs.at(0) * 20),
                                column(spec_.key_column, 12 + inputs.at(1) * 20)),
                    {},
                    {},
                    {}};
      join.metrics = {metric(k + "smj:rows", "number of output rows", "sum", segment,
                             from(TaskMetric::kShuffleRecordsRead, 9, 10))};
      join.children.push_back(sort("sortl", 4, 3, 4, shuffle_read(inputs.at(0), segment, materialized, 3, 4)));
      join.children.push_back(sort("sortr", 8, 1, 4, shuffle_read(inputs.at(1), segment, materialized, 1, 4)));
      TreeNode project{"Project", fmt::format("Project [{}, amount#13, region#{}]", key, 40 + segment), {}, {}, {}};
      project.children.push_back(std::move(join));
      return codegen(aggregate(true, std::move(project)));
    }
    case SegmentRole::kFinalAggregate:
      return codegen(aggregate(false, shuffle_read(inputs.at(0), segment, materialized, 1, 1)));
    case SegmentRole::kWindow: {
      TreeNode window{"Window",
                      fmt::format("Window [row_number() windowspecdefinition({}, total#{} DESC NULLS LAST, "
                                  "specifiedwindowframe(RowFrame, unboundedpreceding$(), currentrow$())) AS rank#{}]",
                                  key, 50 + segment, 60 + segment),
                      {},
                      {},
                      {}};
      window.metrics = {metric(k + "window:spill", "spill size", "size", segment, from(TaskMetric::kDiskBytesSpilled))};
      window.children.push_back(sort("sort", 3, 1, 1, shuffle_read(inputs.at(0), segment, materialized, 1, 1)));
      return codegen(std::move(window));
    }
    case SegmentRole::kSort:
      return codegen(sort("sort", 3, 1, 1, shuffle_read(inputs.at(0), segment, materialized, 1, 1)));
  }
  return {};
}

PlanDesc SqlQuery::plan(int32_t materialized) {
  const int32_t last = segments() - 1;
  TreeNode top = segment_tree(last, materialized);
  if (!spec_.target_path.empty()) {
    TreeNode write_files{"WriteFiles", "WriteFiles", {}, {}, {}};
    write_files.children.push_back(std::move(top));
    TreeNode command{"Execute InsertIntoHadoopFsRelationCommand",
                     fmt::format("Execute InsertIntoHadoopFsRelationCommand {}, false, Parquet, [path={}], Overwrite, "
                                 "[{}, total]",
                                 spec_.target_path, spec_.target_path, spec_.key_column),
                     {},
                     {},
                     {}};
    command.metrics = {driver_metric("write:files", "number of written files", "sum", std::nullopt),
                       driver_metric("write:bytes", "written output", "size", std::nullopt),
                       driver_metric("write:rows", "number of output rows", "sum", std::nullopt),
                       driver_metric("write:parts", "number of dynamic part", "sum", std::nullopt),
                       driver_metric("write:task_commit", "task commit time", "timing", std::nullopt),
                       driver_metric("write:job_commit", "job commit time", "timing", std::nullopt)};
    command.children.push_back(std::move(write_files));
    top = std::move(command);
  } else {
    TreeNode take{
        "TakeOrderedAndProject",
        fmt::format("TakeOrderedAndProject(limit=1000, orderBy=[total#{} DESC NULLS LAST], output=[{},total#{}])",
                    50 + last, column(spec_.key_column, 12 + last * 20), 50 + last),
        {},
        {},
        {}};
    take.children.push_back(std::move(top));
    top = std::move(take);
  }
  if (adaptive()) {
    TreeNode root{
        "AdaptiveSparkPlan",
        materialized >= exchanges() ? "AdaptiveSparkPlan isFinalPlan=true" : "AdaptiveSparkPlan isFinalPlan=false",
        {},
        {},
        {}};
    root.children.push_back(std::move(top));
    top = std::move(root);
  }
  PlanDesc plan;
  flatten(top, plan);
  std::string tree = "== Physical Plan ==\n";
  std::string details;
  int counter = 0;
  describe(top, "", true, counter, tree, details);
  plan.description = tree + "\n\n" + details;
  return plan;
}

void SqlQuery::flatten(const TreeNode& node, PlanDesc& plan) {
  const auto index = plan.nodes.size();
  plan.nodes.push_back(PlanNodeDesc{node.name, node.simple_string, node.metadata, node.metrics, {}});
  for (const TreeNode& child : node.children) {
    plan.nodes[index].children.push_back(static_cast<int32_t>(plan.nodes.size()));
    flatten(child, plan);
  }
}

// Spark's explain("formatted") layout: the tree with numbered operators (those inside a
// whole-stage codegen marked with "*", the codegen wrappers themselves not shown), then one
// paragraph per operator.
void SqlQuery::describe(const TreeNode& node, const std::string& prefix, bool last, int& counter, std::string& tree,
                        std::string& details, bool codegen) {
  if (node.name.rfind("WholeStageCodegen", 0) == 0 && node.children.size() == 1) {
    describe(node.children.front(), prefix, last, counter, tree, details, true);
    return;
  }
  const bool boundary = node.name == "Exchange" || node.name == "ShuffleQueryStage" || node.name == "AQEShuffleRead" ||
                        node.name.rfind("Scan ", 0) == 0;
  const bool marked = codegen && !boundary;
  const int number = ++counter;
  const std::string label = fmt::format("{}{} ({})", marked ? "* " : "", node.name, number);
  if (counter == 1) {
    tree += label + "\n";
  } else {
    tree += prefix + (last ? "+- " : ":- ") + label + "\n";
  }
  details +=
      fmt::format("({}) {}{}\nArguments: {}\n\n", number, node.name, marked ? " [codegen]" : "", node.simple_string);
  const std::string child_prefix = counter == 1 ? std::string() : prefix + (last ? "   " : ":  ");
  for (size_t i = 0; i < node.children.size(); ++i) {
    describe(node.children[i], child_prefix, i + 1 == node.children.size(), counter, tree, details, marked);
  }
}

}  // namespace sf::loggen
