#include "loggen/log_generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <set>

#include "loggen/action_plans.h"
#include "loggen/log_emitter.h"
#include "loggen/prng.h"
#include "loggen/simulation.h"
#include "loggen/sql_plans.h"

namespace sf::loggen {

// ---------------------------------------------------------------------------------------------
// Presets

GeneratorConfig GeneratorConfig::demo() {
  GeneratorConfig config;
  config.seed = 20240601;
  config.tasks_per_stage = 120;
  return config;
}

GeneratorConfig GeneratorConfig::small() {
  GeneratorConfig config;
  config.seed = 7;
  config.executors = 4;
  config.cores_per_executor = 2;
  config.executors_per_host = 2;
  config.executor_memory_mb = 4096;
  config.actions = 8;
  config.stages_per_action = 3;
  config.tasks_per_stage = 12;
  return config;
}

GeneratorConfig GeneratorConfig::benchmark(int scale) {
  GeneratorConfig config = demo();
  config.scale = std::max(1, scale);
  return config;
}

GeneratorConfig GeneratorConfig::large(int scale, int big_stage_tasks) {
  GeneratorConfig config;
  config.seed = 20240615;
  config.executors = 64;
  config.cores_per_executor = 4;
  config.executors_per_host = 2;
  config.tasks_per_stage = 400;
  config.big_action_tasks_per_stage = std::max(1, big_stage_tasks);
  config.scale = std::max(1, scale);
  return config;
}

namespace {

int64_t cluster_start_ms(const GeneratorConfig& config) {
  return 1717200000000 + static_cast<int64_t>(config.seed % 997) * 3600000;  // June 2024 onwards
}

int64_t application_start_ms(const GeneratorConfig& config) {
  return config.start_time_ms != 0 ? config.start_time_ms : cluster_start_ms(config) + 3 * 86400000 + 7200000;
}

std::string application_number(const std::string& app_id) {
  const auto underscore = app_id.rfind('_');
  return underscore == std::string::npos ? "0001" : app_id.substr(underscore + 1);
}

}  // namespace

std::string application_id(const GeneratorConfig& config) {
  if (!config.app_id.empty()) return config.app_id;
  return fmt::format("application_{}_{:04d}", cluster_start_ms(config), 1 + config.seed % 9999);
}

namespace {

constexpr std::string_view kDriverHost = "ip-10-16-3-10.ec2.internal";

// ---------------------------------------------------------------------------------------------
// The application

class Generator {
 public:
  Generator(const GeneratorConfig& config, const LineSink& sink, GroundTruth* truth)
      : config_(config),
        emitter_(sink, truth, config.cut_last_line),
        prng_(config.seed),
        cluster_(ClusterConfig{fmt::format("container_e42_{}_{}_01_", cluster_start_ms(config),
                                           application_number(application_id(config))),
                               std::max(1, config.cores_per_executor), std::max(1, config.executors_per_host),
                               std::max(512, config.executor_memory_mb), static_cast<int32_t>(16 + config.seed % 200)}),
        app_id_(application_id(config)) {}

  void run();

 private:
  void start_application();
  void run_action(int action_index, int cycle);
  Properties spark_properties() const;

  const GeneratorConfig& config_;
  LogEmitter emitter_;
  Prng prng_;
  Cluster cluster_;
  IdCounters ids_;
  std::string app_id_;
  int64_t now_ = 0;
  std::optional<RddDesc> cached_;
  bool last_action_ = false;
};

Properties Generator::spark_properties() const {
  Properties p = {
      {"spark.app.id", app_id_},
      {"spark.app.name", config_.app_name},
      {"spark.app.startTime", std::to_string(application_start_ms(config_))},
      {"spark.driver.host", std::string(kDriverHost)},
      {"spark.driver.memory", "4g"},
      {"spark.driver.port", "38211"},
      {"spark.dynamicAllocation.enabled", "false"},
      {"spark.eventLog.dir", "hdfs:///spark-history"},
      {"spark.eventLog.enabled", "true"},
      {"spark.executor.cores", std::to_string(config_.cores_per_executor)},
      {"spark.executor.id", "driver"},
      {"spark.executor.instances", std::to_string(config_.executors)},
      {"spark.executor.memory", fmt::format("{}m", config_.executor_memory_mb)},
      {"spark.files.fetchFailure.unRegisterOutputOnHost", "true"},
      {"spark.master", "yarn"},
      {"spark.serializer", "org.apache.spark.serializer.KryoSerializer"},
      {"spark.shuffle.service.enabled", "true"},
      {"spark.sql.adaptive.enabled", config_.sql ? "true" : "false"},
      {"spark.sql.adaptive.skewJoin.enabled", "false"},
      {"spark.sql.shuffle.partitions", std::to_string(config_.tasks_per_stage)},
      {"spark.submit.deployMode", "cluster"},
      {"spark.task.maxFailures", "4"},
      {"spark.yarn.queue", "etl"},
  };
  if (!config_.event_log_codec_property.empty()) {
    p.emplace_back("spark.eventLog.compress", "true");
    p.emplace_back("spark.eventLog.compression.codec", config_.event_log_codec_property);
  }
  if (config_.event_log_rolling_property) {
    p.emplace_back("spark.eventLog.rolling.enabled", "true");
    p.emplace_back("spark.eventLog.rolling.maxFileSize", "128m");
  }
  if (config_.speculation) {
    p.emplace_back("spark.speculation", "true");
    p.emplace_back("spark.speculation.multiplier", "1.5");
    p.emplace_back("spark.speculation.quantile", "0.75");
  }
  std::sort(p.begin(), p.end());
  return p;
}

void Generator::start_application() {
  const int64_t start = application_start_ms(config_);
  emitter_.log_start(config_.spark_version);
  emitter_.resource_profile_added(config_.cores_per_executor, config_.executor_memory_mb);
  emitter_.block_manager_added("driver", kDriverHost, 38213, (4096 - 300) * kMiB * 6 / 10, start + 1834);
  const Properties jvm = {{"Java Home", "/usr/lib/jvm/java-17-amazon-corretto"},
                          {"Java Version", "17.0.10 (Amazon.com Inc.)"},
                          {"Scala Version", "version 2.12.18"}};
  const Properties hadoop = {{"fs.defaultFS", "hdfs://ip-10-16-0-5.ec2.internal:8020"},
                             {"fs.s3a.connection.maximum", "200"},
                             {"yarn.resourcemanager.address", "ip-10-16-0-5.ec2.internal:8032"}};
  const Properties system = {
      {"file.encoding", "UTF-8"},
      {"java.version", "17.0.10"},
      {"os.name", "Linux"},
      {"sun.java.command", "org.apache.spark.deploy.yarn.ApplicationMaster --class com.acme.etl.NightlySalesEtl"},
      {"user.name", config_.user}};
  const Properties classpath = {
      {"/usr/lib/spark/jars/spark-core_2.12-" + config_.spark_version + ".jar", "System Classpath"},
      {"/usr/lib/spark/jars/spark-sql_2.12-" + config_.spark_version + ".jar", "System Classpath"},
      {"/mnt/yarn/usercache/etl/appcache/sales-etl-assembly-2.4.1.jar", "Added By User"}};
  emitter_.environment_update(jvm, spark_properties(), hadoop, system, classpath);
  const std::string logs =
      fmt::format("http://{}:8042/node/containerlogs/container_e42_{}_{}_01_000001/{}", kDriverHost,
                  cluster_start_ms(config_), application_number(app_id_), config_.user);
  emitter_.application_start(config_.app_name, app_id_, start, config_.user,
                             {{"stdout", logs + "/stdout?start=-4096"}, {"stderr", logs + "/stderr?start=-4096"}});
  int64_t t = start + 6000;
  for (int i = 0; i < std::max(1, config_.executors); ++i) {
    const int32_t index = cluster_.add_executor(t, false);
    const ExecutorInfo& e = cluster_.executor(index);
    emitter_.executor_added(e, config_.user);
    emitter_.block_manager_added(e.id, e.host, e.port, e.max_memory_bytes, e.block_manager_add_ms);
    t = e.block_manager_add_ms + prng_.between(50, 900);
  }
  now_ = t + 3000;
}

void Generator::run() {
  try {
    start_application();
    const int cycles = std::max(1, config_.scale);
    const int actions = std::max(1, config_.actions);
    for (int cycle = 0; cycle < cycles; ++cycle) {
      for (int a = 0; a < actions; ++a) {
        last_action_ = cycle + 1 == cycles && a + 1 == actions;
        run_action(a, cycle);
      }
    }
    if (config_.finished) {
      if (cached_) emitter_.unpersist_rdd(cached_->id);
      emitter_.application_end(now_ + prng_.between(800, 2500));
    }
  } catch (const LogEnded&) {
    // The log's last line is written.
  }
  emitter_.finish();
}

// ---------------------------------------------------------------------------------------------
// One action: its jobs, its waves of stage attempts, retries, and its SQL execution

// A stage as one job knows it: its id in that job, and how many attempts it has had.
struct StageObject {
  int64_t stage_id = 0;
  int32_t logical = 0;
  int32_t attempts = 0;
  StageAttemptDesc* listed = nullptr;  // attempt 0, as the job's start lists it
};

struct JobRun {
  int64_t job_id = 0;
  int32_t final_logical = 0;  // the stage whose completion ends the job
  std::vector<StageObject> objects;
  bool ended = false;

  StageObject* object(int32_t logical) {
    for (StageObject& o : objects) {
      if (o.logical == logical) return &o;
    }
    return nullptr;
  }
};

// One stage attempt to run in a wave.
struct StageRun {
  int32_t logical = 0;
  std::vector<int32_t> partitions;  // which of the logical stage's partitions
  JobRun* job = nullptr;
  bool first = true;  // its first attempt in this action: scenarios apply
};

TaskEndReason exception_reason(std::string class_name, std::string description) {
  TaskEndReason r;
  r.kind = TaskEndKind::kExceptionFailure;
  r.text = std::move(class_name);
  r.description = std::move(description);
  return r;
}

void Generator::run_action(int action_index, int cycle) {
  const int kind = action_index % kActionKinds;
  const ActionTemplate& t = action_template(kind);
  const ActionFeatures f = features_for(config_, action_index);
  ActionShape shape;
  if (action_index == 0 && config_.big_action_tasks_per_stage > 0) {
    GeneratorConfig big = config_;
    big.tasks_per_stage = config_.big_action_tasks_per_stage;
    shape = plan_action(big, kind, f, prng_, ids_, cached_);
  } else {
    shape = plan_action(config_, kind, f, prng_, ids_, cached_);
  }
  const auto logical_count = static_cast<int32_t>(shape.stages.size());
  int32_t first_reader = logical_count - 1;
  for (const LogicalStage& stage : shape.stages) {
    if (!stage.parents.empty()) {
      first_reader = stage.index;
      break;
    }
  }
  JobProperties props{std::string(t.description), fmt::format("nightly_sales_etl-batch-{}", cycle + 1), std::nullopt};

  // Between actions: an executor removed and another added in the same millisecond.
  if (f.boundary_churn) {
    const std::vector<int32_t> live = cluster_.live_at(now_);
    if (!live.empty()) {
      ExecutorInfo& gone = cluster_.executor(live.front());
      gone.remove_ms = now_;
      gone.remove_reason = fmt::format("Container {} exited from explicit termination request.", gone.container_id);
      emitter_.executor_removed(gone);
      emitter_.block_manager_removed(gone, now_);
      const ExecutorInfo& added = cluster_.executor(cluster_.add_executor(now_, true));
      emitter_.executor_added(added, config_.user);
      emitter_.block_manager_added(added.id, added.host, added.port, added.max_memory_bytes,
                                   added.block_manager_add_ms);
      now_ = added.block_manager_add_ms + prng_.between(200, 900);
    }
  }

  std::optional<SqlQuery> query;
  int64_t sql_id = -1;
  if (shape.query) {
    sql_id = ids_.sql_execution++;
    props.sql_execution_id = sql_id;
    query.emplace(*shape.query, ids_.accumulator);
    emitter_.sql_execution_start(sql_id, t.description, shape.stages.back().details, query->plan(0), now_);
    emitter_.driver_accum_updates(sql_id, query->take_driver_updates());
    now_ += prng_.between(40, 160);
  }
  // With adaptive execution every shuffle map stage is its own job (a query stage), and each
  // later job lists the stages before it again, under new ids, to be skipped.
  const bool adaptive = query && query->adaptive();

  std::deque<StageAttemptDesc> descs;
  std::deque<JobRun> jobs;
  auto new_desc = [&](int32_t logical, int64_t stage_id, int32_t attempt, int32_t tasks,
                      JobRun& job) -> StageAttemptDesc& {
    const LogicalStage& stage = shape.stages[static_cast<size_t>(logical)];
    StageAttemptDesc& d = descs.emplace_back();
    d.stage_id = stage_id;
    d.attempt_id = attempt;
    d.name = stage.name;
    d.details = stage.details;
    d.num_tasks = tasks;
    for (int32_t parent : stage.parents) d.parent_ids.push_back(job.object(parent)->stage_id);
    std::sort(d.parent_ids.begin(), d.parent_ids.end());
    d.rdds = stage.rdds;
    d.result_stage = stage.final;
    d.properties = &props;
    return d;
  };
  auto start_job = [&](int32_t final_logical) -> JobRun& {
    std::vector<bool> listed(static_cast<size_t>(logical_count), false);
    listed[static_cast<size_t>(final_logical)] = true;
    for (int32_t l = final_logical; l >= 0; --l) {
      if (!listed[static_cast<size_t>(l)]) continue;
      for (int32_t parent : shape.stages[static_cast<size_t>(l)].parents) listed[static_cast<size_t>(parent)] = true;
    }
    JobRun& job = jobs.emplace_back();
    job.job_id = ids_.job++;
    job.final_logical = final_logical;
    for (int32_t l = 0; l < logical_count; ++l) {
      if (listed[static_cast<size_t>(l)]) job.objects.push_back(StageObject{0, l, 0, nullptr});
    }
    std::vector<const StageAttemptDesc*> infos;
    for (StageObject& o : job.objects) {
      o.stage_id = ids_.stage++;
      o.listed = &new_desc(o.logical, o.stage_id, 0, shape.stages[static_cast<size_t>(o.logical)].partitions, job);
      infos.push_back(o.listed);
    }
    emitter_.job_start(job.job_id, now_, infos, props);
    return job;
  };

  JobRun* single_job = adaptive ? nullptr : &start_job(logical_count - 1);
  std::deque<std::vector<StageRun>> waves;
  for (const std::vector<int32_t>& wave : shape.waves) {
    std::vector<StageRun> runs;
    for (int32_t l : wave) {
      StageRun run;
      run.logical = l;
      for (int32_t p = 0; p < shape.stages[static_cast<size_t>(l)].partitions; ++p) run.partitions.push_back(p);
      run.job = single_job;
      runs.push_back(std::move(run));
    }
    waves.push_back(std::move(runs));
  }

  std::vector<std::vector<int32_t>> success_executor(static_cast<size_t>(logical_count));
  for (const LogicalStage& stage : shape.stages) {
    success_executor[static_cast<size_t>(stage.index)].assign(static_cast<size_t>(stage.partitions), -1);
  }
  std::vector<bool> logical_done(static_cast<size_t>(logical_count), false);
  int32_t materialized = 0;
  std::optional<std::string> abort_message;
  int64_t written_files = 0;
  int64_t written_bytes = 0;
  int64_t written_rows = 0;

  while (!waves.empty() && !abort_message) {
    std::vector<StageRun> wave = std::move(waves.front());
    waves.pop_front();
    now_ += prng_.between(20, 250);
    for (StageRun& run : wave) {
      if (run.job == nullptr) run.job = &start_job(run.logical);
    }

    WaveScript script;
    script.start_ms = now_;
    std::vector<StageAttemptDesc*> wave_descs;
    std::vector<std::string> fetch_hosts(wave.size());
    int32_t slowed = -1;
    for (size_t s = 0; s < wave.size(); ++s) {
      const StageRun& run = wave[s];
      const LogicalStage& stage = shape.stages[static_cast<size_t>(run.logical)];
      StageObject& object = *run.job->object(run.logical);
      const auto tasks = static_cast<int32_t>(run.partitions.size());
      StageAttemptDesc* d = object.attempts == 0
                                ? object.listed
                                : &new_desc(run.logical, object.stage_id, object.attempts, tasks, *run.job);
      ++object.attempts;
      d->num_tasks = tasks;
      d->submission_ms = now_;
      d->internal_accumulator_base = ids_.accumulator;
      ids_.accumulator += static_cast<int64_t>(kInternalAccumulatorCount);
      if (query) d->sql_metrics = query->task_metrics(run.logical);
      wave_descs.push_back(d);

      StageScript st;
      st.desc = d;
      for (int32_t p : run.partitions) st.work.push_back(stage.work[static_cast<size_t>(p)]);
      st.locality = stage.locality;
      const bool first_stage = run.logical == 0;
      const int32_t stage_index = static_cast<int32_t>(s);
      if (run.first && f.failed_tasks && first_stage) {
        const auto io = static_cast<int32_t>(script.reasons.size());
        script.reasons.push_back(exception_reason("java.io.IOException", "Connection reset by peer"));
        script.reasons.push_back(exception_reason("java.lang.IllegalStateException",
                                                  "Unexpected end of stream while decoding a block of customer_dim"));
        const int32_t count = std::max(1, tasks * 4 / 100);
        std::set<int32_t> chosen;
        for (int guard = 0; static_cast<int32_t>(chosen.size()) < std::min(count, tasks) && guard < 1000; ++guard) {
          chosen.insert(static_cast<int32_t>(prng_.between(0, tasks - 1)));
        }
        bool twice = chosen.size() >= 2;
        for (int32_t index : chosen) {
          st.failing[index] = twice ? std::vector<int32_t>{io, io + 1} : std::vector<int32_t>{io};
          twice = false;
        }
      }
      if (run.first && f.failed_job && stage.final) {
        const auto reason = static_cast<int32_t>(script.reasons.size());
        script.reasons.push_back(
            exception_reason("org.apache.spark.SparkException",
                             fmt::format("[TASK_WRITE_FAILED] Task failed while writing rows to {}.",
                                         t.target.empty() ? std::string_view("the result") : t.target)));
        st.doomed = std::pair{tasks / 3, reason};
      }
      if (run.first && f.stage_retry && run.logical == first_reader && !stage.parents.empty()) {
        const int32_t parent = stage.parents.front();
        const int32_t source = success_executor[static_cast<size_t>(parent)].front();
        if (source >= 0) {
          const ExecutorInfo& e = cluster_.executor(source);
          TaskEndReason r;
          r.kind = TaskEndKind::kFetchFailed;
          r.executor_id = e.id;
          r.host = e.host;
          r.port = 7337;
          r.shuffle_id = shape.stages[static_cast<size_t>(parent)].shuffle_id;
          r.map_id = ids_.task - 1 - prng_.between(0, 50);
          r.map_index = 0;
          r.reduce_id = std::max(1, tasks * 30 / 100);
          r.text = fmt::format(
              "org.apache.spark.shuffle.FetchFailedException: Failed to connect to {}:7337\n"
              "\tat org.apache.spark.errors.SparkCoreErrors$.fetchFailedError(SparkCoreErrors.scala:437)\n"
              "\tat org.apache.spark.storage.ShuffleBlockFetcherIterator.throwFetchFailedException("
              "ShuffleBlockFetcherIterator.scala:1239)\n",
              e.host);
          fetch_hosts[s] = e.host;
          st.fetch_failure = std::pair{std::max(1, tasks * 30 / 100), static_cast<int32_t>(script.reasons.size())};
          script.reasons.push_back(std::move(r));
        }
      }
      st.speculation = f.speculation && ((f.skew && run.logical == first_reader) || (f.slow_executor && first_stage));
      if (run.first && f.slow_executor && first_stage) {
        const std::vector<int32_t> live = cluster_.live_at(now_);
        slowed = live[1 % live.size()];
        cluster_.executor(slowed).slowdown_permille = 4000;
      }
      if (run.first && f.executor_loss && first_stage && !script.executor_loss) {
        const std::vector<int32_t> live = cluster_.live_at(now_);
        const ExecutorInfo& victim = cluster_.executor(live[live.size() / 2]);
        ExecutorLossScript loss;
        loss.stage = stage_index;
        loss.after_launches = std::max(1, tasks * 40 / 100);
        loss.delay_ms = prng_.between(2500, 4000);
        loss.executor = live[live.size() / 2];
        loss.reason = fmt::format("Container {} on host: {} was preempted.", victim.container_id, victim.host);
        loss.replacement_delay_ms = prng_.between(5000, 8000);
        script.executor_loss = std::move(loss);
      }
      script.stages.push_back(std::move(st));
    }

    WaveRun run = simulate_wave(script, cluster_, prng_, ids_.task);
    if (slowed >= 0) cluster_.executor(slowed).slowdown_permille = 1000;
    bool wave_aborted = false;
    bool wave_fetch_failed = false;
    for (const StageOutcome& o : run.outcomes) {
      wave_aborted = wave_aborted || o.aborted;
      wave_fetch_failed = wave_fetch_failed || (o.failed && !o.aborted);
    }

    for (StageAttemptDesc* d : wave_descs) emitter_.stage_submitted(*d);
    const bool final_wave = wave_aborted || (waves.empty() && !wave_fetch_failed);
    if (!config_.finished && last_action_ && final_wave) {
      const double fraction = std::clamp(config_.unfinished_cut_fraction, 0.0, 1.0);
      emitter_.stop_after(static_cast<uint64_t>(fraction * static_cast<double>(run.timeline.size())));
    }
    for (const TimelineEvent& event : run.timeline) {
      switch (event.kind) {
        case TimelineKind::kTaskStart: {
          const TaskAttempt& a = run.attempts[static_cast<size_t>(event.ref)];
          emitter_.task_start(*wave_descs[static_cast<size_t>(a.stage)], a, cluster_.executor(a.executor));
          break;
        }
        case TimelineKind::kTaskEnd: {
          const TaskAttempt& a = run.attempts[static_cast<size_t>(event.ref)];
          const TaskEndReason* reason = a.reason >= 0 ? &run.reasons[static_cast<size_t>(a.reason)] : nullptr;
          emitter_.task_end(*wave_descs[static_cast<size_t>(a.stage)], a, cluster_.executor(a.executor), reason);
          if (shape.stages[static_cast<size_t>(wave[static_cast<size_t>(a.stage)].logical)].final &&
              a.end == TaskEndKind::kSuccess) {
            ++written_files;
            written_bytes += a.metrics[spark::index_of(spark::TaskMetric::kOutputBytes)];
            written_rows += a.metrics[spark::index_of(spark::TaskMetric::kOutputRecords)];
          }
          break;
        }
        case TimelineKind::kStageCompleted: {
          const StageOutcome& o = run.outcomes[static_cast<size_t>(event.ref)];
          StageAttemptDesc& d = *wave_descs[static_cast<size_t>(event.ref)];
          d.completion_ms = o.completion_ms;
          if (o.failed) d.failure_reason = o.failure_reason;
          emitter_.stage_completed(d);
          const StageRun& stage_run = wave[static_cast<size_t>(event.ref)];
          JobRun& job = *stage_run.job;
          if (!job.ended && (o.aborted || (!o.failed && job.final_logical == stage_run.logical))) {
            job.ended = true;
            emitter_.job_end(job.job_id, o.completion_ms,
                             o.aborted ? std::optional<std::string>(o.failure_reason) : std::nullopt);
          }
          break;
        }
        case TimelineKind::kExecutorRemoved: emitter_.executor_removed(cluster_.executor(event.ref)); break;
        case TimelineKind::kBlockManagerRemoved:
          emitter_.block_manager_removed(cluster_.executor(event.ref), event.time_ms);
          break;
        case TimelineKind::kExecutorAdded: emitter_.executor_added(cluster_.executor(event.ref), config_.user); break;
        case TimelineKind::kBlockManagerAdded: {
          const ExecutorInfo& e = cluster_.executor(event.ref);
          emitter_.block_manager_added(e.id, e.host, e.port, e.max_memory_bytes, e.block_manager_add_ms);
          break;
        }
      }
    }
    now_ = std::max(now_, run.end_ms);

    // What the wave left behind: map outputs by executor, retries after a fetch failure.
    std::vector<std::vector<StageRun>> retries;
    for (size_t s = 0; s < wave.size(); ++s) {
      const StageRun& stage_run = wave[s];
      const StageOutcome& o = run.outcomes[s];
      for (size_t i = 0; i < stage_run.partitions.size(); ++i) {
        if (o.success_executor[i] >= 0) {
          success_executor[static_cast<size_t>(stage_run.logical)][static_cast<size_t>(stage_run.partitions[i])] =
              o.success_executor[i];
        }
      }
      if (o.aborted) abort_message = o.failure_reason;
      if (!o.failed) logical_done[static_cast<size_t>(stage_run.logical)] = true;
      if (o.failed && !o.aborted) {
        // The map outputs on the failed host are gone: recompute them, then retry what is missing.
        const int32_t parent = shape.stages[static_cast<size_t>(stage_run.logical)].parents.front();
        StageRun recompute;
        recompute.logical = parent;
        recompute.job = stage_run.job;
        recompute.first = false;
        const std::vector<int32_t>& outputs = success_executor[static_cast<size_t>(parent)];
        for (size_t p = 0; p < outputs.size(); ++p) {
          if (outputs[p] >= 0 && cluster_.executor(outputs[p]).host == fetch_hosts[s]) {
            recompute.partitions.push_back(static_cast<int32_t>(p));
          }
        }
        StageRun retry;
        retry.logical = stage_run.logical;
        retry.job = stage_run.job;
        retry.first = false;
        for (size_t i = 0; i < stage_run.partitions.size(); ++i) {
          if (o.success_executor[i] < 0) retry.partitions.push_back(stage_run.partitions[i]);
        }
        if (!recompute.partitions.empty()) retries.push_back({std::move(recompute)});
        if (!retry.partitions.empty()) retries.push_back({std::move(retry)});
      }
    }
    for (auto it = retries.rbegin(); it != retries.rend(); ++it) waves.push_front(std::move(*it));
    if (!retries.empty()) now_ += 200;  // DAGScheduler.RESUBMIT_TIMEOUT

    if (adaptive && !abort_message) {
      int32_t m = 0;
      while (m < query->exchanges() && logical_done[static_cast<size_t>(m)]) ++m;
      if (m > materialized) {
        materialized = m;
        now_ += prng_.between(20, 120);
        emitter_.sql_adaptive_execution_update(sql_id, query->plan(materialized));
        emitter_.driver_accum_updates(sql_id, query->take_driver_updates());
      }
    }
  }

  if (query) {
    if (abort_message) {
      emitter_.sql_execution_end(sql_id, now_ + prng_.between(5, 40), *abort_message);
    } else {
      if (!t.target.empty()) {
        query->set_write_results(written_files, written_bytes, written_rows, prng_.between(300, 2500));
        emitter_.driver_accum_updates(sql_id, query->take_driver_updates());
      }
      emitter_.sql_execution_end(sql_id, now_ + prng_.between(30, 150), "");
    }
  }
  now_ += prng_.between(1500, 6000);
}

}  // namespace

// ---------------------------------------------------------------------------------------------

void generate(const GeneratorConfig& config, const LineSink& sink, GroundTruth* truth) {
  if (truth != nullptr) *truth = GroundTruth{};
  Generator generator(config, sink, truth);
  generator.run();
}

}  // namespace sf::loggen
