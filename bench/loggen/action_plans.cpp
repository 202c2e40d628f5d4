#include "loggen/action_plans.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace sf::loggen {

namespace {

// clang-format off
constexpr std::array<ActionTemplate, kActionKinds> kTemplates = {{
    {"Ingest raw orders into bronze.orders", "com.acme.etl.IngestOrders", "IngestOrders.scala", 42,
     true, false, false, false, {"raw.orders", ""}, "s3a://lake/bronze/orders",
     {"textFile", "reduceByKey", "saveAsTextFile"}},
    {"Load the customer dimension", "com.acme.etl.CustomerDim", "CustomerDim.scala", 31,
     false, false, true, false, {"raw.customers", ""}, "",
     {"map", "reduceByKey", "count"}},
    {"Join orders with customers", "com.acme.etl.EnrichOrders", "EnrichOrders.scala", 77,
     true, true, false, false, {"bronze.orders", "silver.customers"}, "s3a://lake/silver/orders_enriched",
     {"textFile", "cogroup", "saveAsTextFile"}},
    {"Score customers from the cached dimension", "com.acme.etl.CustomerScores", "CustomerScores.scala", 58,
     false, false, false, false, {"raw.customers", ""}, "s3a://lake/gold/customer_scores",
     {"mapPartitions", "aggregateByKey", "saveAsTextFile"}},
    {"Compute daily sales aggregates", "com.acme.etl.DailyAggregates", "DailyAggregates.scala", 64,
     true, false, false, false, {"silver.orders_enriched", ""}, "s3a://lake/gold/daily_sales",
     {"textFile", "reduceByKey", "saveAsTextFile"}},
    {"Reconcile the ledger with payments", "com.acme.etl.Reconcile", "Reconcile.scala", 95,
     false, false, false, false, {"raw.ledger", ""}, "s3a://lake/gold/reconciliation",
     {"textFile", "reduceByKey", "saveAsTextFile"}},
    {"Export daily sales to the warehouse", "com.acme.etl.ExportWarehouse", "ExportWarehouse.scala", 51,
     true, false, false, false, {"gold.daily_sales", ""}, "s3a://warehouse/exports/daily_sales",
     {"textFile", "reduceByKey", "saveAsTextFile"}},
    {"Publish the regional summary", "com.acme.etl.PublishSummary", "PublishSummary.scala", 39,
     true, false, true, true, {"gold.daily_sales", ""}, "",
     {"textFile", "reduceByKey", "collect"}},
}};
// clang-format on

// Where each feature lives: the action kind it is placed on.
enum Home : int {
  kIngest = 0,
  kCache = 1,
  kJoin = 2,
  kScore = 3,
  kDaily = 4,
  kReconcile = 5,
  kExport = 6,
  kPublish = 7
};

std::string scope(int64_t id, std::string_view name) { return fmt::format(R"({{"id":"{}","name":"{}"}})", id, name); }

RddDesc make_rdd(IdCounters& ids, std::string name, std::string scope_json, const std::string& callsite,
                 std::vector<int64_t> parents, int32_t partitions) {
  RddDesc rdd;
  rdd.id = ids.rdd++;
  rdd.name = std::move(name);
  rdd.scope_json = std::move(scope_json);
  rdd.callsite = callsite;
  rdd.parent_ids = std::move(parents);
  rdd.num_partitions = partitions;
  return rdd;
}

std::string details_for(const ActionTemplate& t, bool sql, std::string_view entry) {
  const std::string api = sql ? (t.collect ? "org.apache.spark.sql.Dataset.collect(Dataset.scala:3580)"
                                           : "org.apache.spark.sql.DataFrameWriter.parquet(DataFrameWriter.scala:802)")
                              : fmt::format("org.apache.spark.rdd.RDD.{}(RDD.scala:{})", entry, 1100 + t.line);
  return fmt::format(
      "{}\n{}$.run({}:{})\ncom.acme.etl.NightlySalesEtl$.main(NightlySalesEtl.scala:27)\n"
      "com.acme.etl.NightlySalesEtl.main(NightlySalesEtl.scala)\n"
      "java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)\n"
      "java.base/java.lang.reflect.Method.invoke(Method.java:580)\n"
      "org.apache.spark.deploy.yarn.ApplicationMaster$$anon$2.run(ApplicationMaster.scala:741)",
      api, t.class_name, t.file, t.line);
}

}  // namespace

const ActionTemplate& action_template(int kind) { return kTemplates[static_cast<size_t>(kind % kActionKinds)]; }

ActionFeatures features_for(const GeneratorConfig& config, int action_index) {
  const int actions = std::max(1, config.actions);
  auto placed = [&](int home) { return action_index == (actions >= kActionKinds ? home : home % actions); };
  ActionFeatures f;
  f.skew = config.skew && placed(kJoin);
  f.spill = config.spill && placed(kJoin);
  f.spill_heavy = config.spill && placed(kDaily);
  f.speculation = config.speculation && (placed(kJoin) || placed(kPublish));
  f.slow_executor = config.speculation && placed(kPublish);
  f.failed_tasks = config.failed_tasks && placed(kScore);
  f.executor_loss = config.executor_churn && placed(kDaily);
  f.boundary_churn = config.executor_churn && placed(kReconcile);
  f.stage_retry = config.stage_retry && placed(kReconcile);
  f.failed_job = config.failed_job && placed(kExport);
  f.cache_write = config.cached_rdds && placed(kCache);
  f.cache_read = config.cached_rdds && placed(kScore);
  return f;
}

ActionShape plan_action(const GeneratorConfig& config, int kind, const ActionFeatures& f, Prng& prng, IdCounters& ids,
                        std::optional<RddDesc>& cached) {
  const ActionTemplate& t = action_template(kind);
  const bool sql = t.sql && config.sql;
  const int32_t readers = std::max(1, config.stages_per_action) - 1;  // shuffle-reading stages after the first
  const int32_t tasks = std::max(1, config.tasks_per_stage);
  const int64_t task_memory =
      int64_t{config.executor_memory_mb} * kMiB * 55 / 100 / std::max(1, config.cores_per_executor);
  const bool reads_cache = f.cache_read && cached.has_value();

  ActionShape shape;
  // --- the DAG: scans, then the shuffle readers in a chain
  auto add_stage = [&](std::vector<int32_t> parents, int32_t partitions, SegmentRole role) {
    LogicalStage stage;
    stage.index = static_cast<int32_t>(shape.stages.size());
    stage.parents = std::move(parents);
    stage.partitions = partitions;
    stage.role = role;
    shape.stages.push_back(std::move(stage));
    return shape.stages.back().index;
  };
  if (t.join) {
    const int32_t a = add_stage({}, tasks, SegmentRole::kScan);
    const int32_t b = add_stage({}, std::max(1, (tasks + 1) / 2), SegmentRole::kScan);
    shape.waves.push_back({a, b});
    int32_t previous = add_stage({a, b}, tasks, SegmentRole::kJoinAggregate);
    shape.waves.push_back({previous});
    for (int32_t r = 0; r < readers; ++r) {
      const SegmentRole role =
          r == 0 ? SegmentRole::kFinalAggregate : (r + 1 == readers ? SegmentRole::kSort : SegmentRole::kWindow);
      previous = add_stage({previous}, tasks, role);
      shape.waves.push_back({previous});
    }
  } else {
    const int32_t scan_partitions = reads_cache ? cached->num_partitions : tasks;
    int32_t previous = add_stage({}, scan_partitions, readers > 0 ? SegmentRole::kScanAggregate : SegmentRole::kScan);
    shape.waves.push_back({previous});
    for (int32_t r = 0; r < readers; ++r) {
      const SegmentRole role =
          r == 0 ? SegmentRole::kFinalAggregate : (r + 1 == readers ? SegmentRole::kSort : SegmentRole::kWindow);
      previous = add_stage({previous}, tasks, role);
      shape.waves.push_back({previous});
    }
  }
  shape.stages.back().final = true;
  // The stage whose partitions skew and spill: the first that reads a shuffle (or the only one).
  int32_t first_reader = static_cast<int32_t>(shape.stages.size()) - 1;
  for (const LogicalStage& stage : shape.stages) {
    if (!stage.parents.empty()) {
      first_reader = stage.index;
      break;
    }
  }

  // --- names, RDDs and work
  const std::string sql_name = fmt::format("{} at {}:{}", t.collect ? "collect" : "parquet", t.file, t.line);
  int scan_number = 0;
  for (LogicalStage& stage : shape.stages) {
    const bool scan = stage.parents.empty();
    const std::string_view verb = stage.final ? t.rdd_verbs[2] : (scan ? t.rdd_verbs[0] : t.rdd_verbs[1]);
    stage.name = sql ? sql_name
                     : fmt::format("{} at {}:{}", verb, t.file, stage.final ? t.line : t.line - 7 - 9 * (scan ? 1 : 0));
    stage.details = details_for(t, sql, verb);
    stage.locality = scan && !reads_cache ? Locality::kNodeLocal : Locality::kProcessLocal;
    if (!stage.final) stage.shuffle_id = ids.shuffle++;

    // RDDs
    const std::string& callsite = stage.name;
    std::vector<int64_t> inputs;
    if (scan) {
      const std::string_view table = t.tables[scan_number < 2 ? scan_number : 0];
      ++scan_number;
      if (reads_cache && stage.index == 0) {
        stage.rdds.push_back(*cached);
        inputs.push_back(cached->id);
      } else if (sql) {
        stage.rdds.push_back(make_rdd(ids, "FileScanRDD",
                                      scope(ids.rdd, fmt::format("WholeStageCodegen ({})", stage.index + 1)), callsite,
                                      {}, stage.partitions));
        inputs.push_back(stage.rdds.back().id);
      } else {
        stage.rdds.push_back(make_rdd(ids, fmt::format("s3a://lake/{}", table), scope(ids.rdd, "textFile"), callsite,
                                      {}, stage.partitions));
        stage.rdds.push_back(make_rdd(ids, "MapPartitionsRDD", scope(ids.rdd - 1, "textFile"), callsite,
                                      {stage.rdds.back().id}, stage.partitions));
        inputs.push_back(stage.rdds.back().id);
      }
    } else {
      std::vector<int64_t> parents;
      for (int32_t p : stage.parents) parents.push_back(shape.stages[static_cast<size_t>(p)].rdds.back().id);
      stage.rdds.push_back(make_rdd(ids, sql ? "ShuffledRowRDD" : "ShuffledRDD",
                                    scope(ids.rdd, sql ? "Exchange" : t.rdd_verbs[1]), callsite, parents,
                                    stage.partitions));
      inputs.push_back(stage.rdds.back().id);
    }
    stage.rdds.push_back(
        make_rdd(ids, "MapPartitionsRDD",
                 scope(ids.rdd, sql ? fmt::format("WholeStageCodegen ({})", stage.index + 1) : std::string(verb)),
                 callsite, inputs, stage.partitions));
    if (f.cache_write && stage.index == 0 && !sql) {
      RddDesc persisted =
          make_rdd(ids, "customer_dim", scope(ids.rdd, "map"), callsite, {stage.rdds.back().id}, stage.partitions);
      persisted.storage = StorageLevel{true, true, true, 1};  // MEMORY_AND_DISK
      stage.rdds.push_back(persisted);
      cached = persisted;
    }
    if (stage.final && sql && !t.collect) {
      stage.rdds.push_back(make_rdd(ids, "MapPartitionsRDD", scope(ids.rdd, "WriteFiles"), callsite,
                                    {stage.rdds.back().id}, stage.partitions));
    }

    // Work per partition
    int64_t parent_bytes = 0;
    int64_t parent_records = 0;
    int32_t parent_blocks = 0;
    for (int32_t p : stage.parents) {
      const LogicalStage& parent = shape.stages[static_cast<size_t>(p)];
      parent_blocks += parent.partitions;
      for (const PartitionWork& w : parent.work) {
        parent_bytes += w.shuffle_write_bytes;
        parent_records += w.shuffle_write_records;
      }
    }
    std::vector<int32_t> skewed;
    if (f.skew && stage.index == first_reader) {
      const int32_t count = std::max(1, stage.partitions / 80);
      for (int32_t i = 0; i < count; ++i) skewed.push_back(static_cast<int32_t>(prng.between(0, stage.partitions - 1)));
    }
    for (int32_t p = 0; p < stage.partitions; ++p) {
      PartitionWork w;
      w.partition = p;
      const bool is_skewed = std::find(skewed.begin(), skewed.end(), p) != skewed.end();
      const int64_t skew = is_skewed ? prng.between(10, 25) : 1;
      int64_t volume = 0;
      if (scan) {
        volume = reads_cache ? prng.jitter(48 * kMiB, 100) : prng.jitter(115 * kMiB, 150);
        volume *= skew;
        w.input_bytes = volume;
        w.input_records = volume / 110;
        w.run_ms = volume / (reads_cache ? 15000 : 5500) + 600;
        w.peak_execution_memory_bytes = std::min<int64_t>(task_memory, 64 * kMiB + volume / 8);
        if (!stage.final) {
          w.shuffle_write_bytes = volume * 30 / 100;
          w.shuffle_write_records = w.input_records * 55 / 100;
        }
      } else {
        volume = prng.jitter(parent_bytes / stage.partitions, 200) * skew;
        w.shuffle_read_bytes = volume;
        w.shuffle_read_records = prng.jitter(parent_records / stage.partitions, 200) * skew;
        w.shuffle_read_blocks = parent_blocks;
        w.run_ms = volume / 1750 + 3000;
        w.peak_execution_memory_bytes = std::min<int64_t>(task_memory, 16 * kMiB + volume * 12 / 10);
        if (!stage.final) {
          w.shuffle_write_bytes = volume * 60 / 100;
          w.shuffle_write_records = w.shuffle_read_records * 50 / 100;
        }
      }
      if (stage.final) {
        if (t.collect) {
          w.result_bytes = t.large_results ? prng.between(1 * kMiB, 3 * kMiB) : prng.between(1800, 2600);
          w.large_result = t.large_results;
        } else {
          w.output_bytes = volume * 40 / 100;
          w.output_records = (scan ? w.input_records : w.shuffle_read_records) * 40 / 100;
        }
      }
      if (w.result_bytes == 0) w.result_bytes = prng.between(2400, 6200);
      const bool spills = (f.spill && is_skewed) || (f.spill_heavy && stage.index == first_reader);
      if (spills) {
        w.spills = true;
        w.memory_spilled_bytes = volume * 26 / 10;
        w.disk_spilled_bytes = volume * 9 / 10;
        w.peak_execution_memory_bytes = task_memory;
        w.run_ms += volume / 25000;
      }
      stage.work.push_back(w);
    }
  }

  if (sql) {
    QuerySpec query;
    for (const LogicalStage& stage : shape.stages) {
      query.roles.push_back(stage.role);
      query.inputs.push_back(stage.parents);
      query.partitions.push_back(stage.partitions);
    }
    for (const std::string_view table : t.tables) {
      if (!table.empty()) query.tables.emplace_back(table);
    }
    query.target_path = std::string(t.target);
    shape.query = std::move(query);
  }
  return shape;
}

}  // namespace sf::loggen
