// The decoder on single lines: every modeled event, the field variants of Spark 1.x to 4.x, and
// lines that must be reported as malformed rather than half-decoded.
#include "eventlog/decoder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/text.h"
#include "eventlog/event_batch.h"

namespace sf::eventlog {
namespace {

// Keeps copies of what the decoder hands over (task events hold views into the line).
struct Recorder : EventHandler {
  using EventHandler::on;
  std::vector<std::string> kinds;
  TaskEnd task_end;  // its views are dangling once decode() returns: read the copies below
  std::string task_executor, task_host, task_exception_class, task_kill_reason;
  std::string task_description, task_stack_trace, task_loss_reason, task_fetch_failed_message;
  TaskStart task_start;
  StageSubmitted stage_submitted;
  StageCompleted stage_completed;
  JobStart job_start;
  JobEnd job_end;
  ExecutorAdded executor_added;
  SqlExecutionStart sql_start;
  SqlAdaptiveExecutionUpdate sql_update;
  DriverAccumUpdates accum_updates;
  ExclusionChange exclusion;
  ApplicationStart app_start;
  EnvironmentUpdate environment;
  ResourceProfileAdded profile;
  std::vector<std::string> unknown;
  LogStart log_start;

  void on(const TaskEnd& e) override {
    kinds.push_back("TaskEnd");
    task_end = e;
    task_executor = std::string(e.info.executor_id);
    task_host = std::string(e.info.host);
    task_exception_class = std::string(e.exception_class);
    task_kill_reason = std::string(e.kill_reason);
    task_description = std::string(e.description);
    task_stack_trace = std::string(e.full_stack_trace);
    task_loss_reason = std::string(e.loss_reason);
    task_fetch_failed_message = std::string(e.fetch_failed_message);
  }
  void on(const TaskStart& e) override {
    kinds.push_back("TaskStart");
    task_start = e;
  }
  void on(const StageSubmitted& e) override {
    kinds.push_back("StageSubmitted");
    stage_submitted = e;
  }
  void on(const StageCompleted& e) override {
    kinds.push_back("StageCompleted");
    stage_completed = e;
  }
  void on(const JobStart& e) override {
    kinds.push_back("JobStart");
    job_start = e;
  }
  void on(const JobEnd& e) override {
    kinds.push_back("JobEnd");
    job_end = e;
  }
  void on(const ExecutorAdded& e) override {
    kinds.push_back("ExecutorAdded");
    executor_added = e;
  }
  void on(const SqlExecutionStart& e) override {
    kinds.push_back("SqlExecutionStart");
    sql_start = e;
  }
  void on(const SqlAdaptiveExecutionUpdate& e) override {
    kinds.push_back("SqlAdaptiveExecutionUpdate");
    sql_update = e;
  }
  void on(const DriverAccumUpdates& e) override {
    kinds.push_back("DriverAccumUpdates");
    accum_updates = e;
  }
  void on(const ExclusionChange& e) override {
    kinds.push_back("ExclusionChange");
    exclusion = e;
  }
  void on(const ApplicationStart& e) override {
    kinds.push_back("ApplicationStart");
    app_start = e;
  }
  void on(const LogStart& e) override {
    kinds.push_back("LogStart");
    log_start = e;
  }
  void on(const EnvironmentUpdate& e) override {
    kinds.push_back("EnvironmentUpdate");
    environment = e;
  }
  void on(const ResourceProfileAdded& e) override {
    kinds.push_back("ResourceProfileAdded");
    profile = e;
  }
  void on_unknown_event(std::string_view name) override { unknown.emplace_back(name); }
};

// Decodes `line` from a padded copy, as the line reader provides it.
DecodeResult decode(Decoder& decoder, const std::string& line, EventHandler& handler) {
  std::string padded = line + std::string(kLinePadding, '\0');
  return decoder.decode(std::string_view(padded.data(), line.size()), handler);
}

using spark::index_of;
using spark::TaskMetric;

TEST(Decoder, TaskEndOfSpark3WithEveryMetricGroup) {
  Decoder decoder;
  Recorder r;
  const std::string line =
      R"({"Event":"SparkListenerTaskEnd","Stage ID":3,"Stage Attempt ID":1,"Task Type":"ResultTask",)"
      R"("Task End Reason":{"Reason":"Success"},"Task Info":{"Task ID":42,"Index":7,"Attempt":2,"Partition ID":7,)"
      R"("Launch Time":1000,"Executor ID":"5","Host":"node-1","Locality":"NODE_LOCAL","Speculative":true,)"
      R"("Getting Result Time":0,"Finish Time":1900,"Failed":false,"Killed":false,"Accumulables":[)"
      R"({"ID":71,"Name":"number of output rows","Update":"12","Value":"12","Internal":true,"Count Failed Values":true,"Metadata":"sql"},)"
      R"({"ID":74,"Name":"internal.metrics.executorRunTime","Update":800,"Value":800,"Internal":true,"Count Failed Values":true}]},)"
      R"("Task Executor Metrics":{"JVMHeapMemory":5000,"MajorGCTime":7},)"
      R"("Task Metrics":{"Executor Deserialize Time":10,"Executor Deserialize CPU Time":11,"Executor Run Time":800,)"
      R"("Executor CPU Time":700000000,"Peak Execution Memory":4096,"Result Size":2000,"JVM GC Time":30,)"
      R"("Result Serialization Time":2,"Memory Bytes Spilled":100,"Disk Bytes Spilled":50,)"
      R"("Shuffle Read Metrics":{"Remote Blocks Fetched":3,"Local Blocks Fetched":4,"Fetch Wait Time":5,"Remote Bytes Read":600,)"
      R"("Remote Bytes Read To Disk":6,"Local Bytes Read":400,"Total Records Read":90,"Remote Requests Duration":8,)"
      R"("Push Based Shuffle":{"Corrupt Merged Block Chunks":1,"Merged Fetch Fallback Count":2,"Merged Remote Bytes Read":3}},)"
      R"("Shuffle Write Metrics":{"Shuffle Bytes Written":777,"Shuffle Write Time":12345,"Shuffle Records Written":77},)"
      R"("Input Metrics":{"Bytes Read":1024,"Records Read":10},"Output Metrics":{"Bytes Written":2048,"Records Written":20},)"
      R"("Updated Blocks":[]}})";
  ASSERT_EQ(decode(decoder, line, r).outcome, DecodeOutcome::kEvent);
  ASSERT_EQ(r.kinds, std::vector<std::string>{"TaskEnd"});
  const TaskEnd& e = r.task_end;
  EXPECT_EQ(e.stage_id, 3);
  EXPECT_EQ(e.stage_attempt_id, 1);
  EXPECT_EQ(e.reason, TaskEndReason::kSuccess);
  EXPECT_EQ(e.info.task_id, 42);
  EXPECT_EQ(e.info.index, 7);
  EXPECT_EQ(e.info.attempt, 2);
  EXPECT_EQ(e.info.partition_id, 7);
  EXPECT_EQ(e.info.launch_time_ms, 1000);
  EXPECT_EQ(e.info.finish_time_ms, 1900);
  EXPECT_TRUE(e.info.speculative);
  EXPECT_EQ(r.task_executor, "5");
  EXPECT_EQ(r.task_host, "node-1");
  EXPECT_EQ(e.accumulator_ids, (std::vector<int64_t>{71, 74}));
  ASSERT_TRUE(e.has_metrics);
  EXPECT_EQ(e.metrics[index_of(TaskMetric::kExecutorRunTimeMs)], 800);
  EXPECT_EQ(e.metrics[index_of(TaskMetric::kExecutorCpuTimeNs)], 700000000);
  EXPECT_EQ(e.metrics[index_of(TaskMetric::kShuffleRemoteBytesRead)], 600);
  EXPECT_EQ(e.metrics[index_of(TaskMetric::kShuffleLocalBytesRead)], 400);
  EXPECT_EQ(e.metrics[index_of(TaskMetric::kShuffleRecordsRead)], 90);
  EXPECT_EQ(e.metrics[index_of(TaskMetric::kPushMergedFetchFallbackCount)], 2);
  EXPECT_EQ(e.metrics[index_of(TaskMetric::kShuffleWriteBytes)], 777);
  EXPECT_EQ(e.metrics[index_of(TaskMetric::kShuffleWriteTimeNs)], 12345);
  EXPECT_EQ(e.metrics[index_of(TaskMetric::kInputBytes)], 1024);
  EXPECT_EQ(e.metrics[index_of(TaskMetric::kOutputRecords)], 20);
  EXPECT_EQ(e.metrics[index_of(TaskMetric::kMemoryBytesSpilled)], 100);
  EXPECT_EQ(e.metrics[index_of(TaskMetric::kDiskBytesSpilled)], 50);
  ASSERT_TRUE(e.executor_metrics.present);
  EXPECT_EQ(e.executor_metrics.values[index_of(spark::ExecutorMetric::kJvmHeapMemory)], 5000);
  EXPECT_EQ(e.executor_metrics.values[index_of(spark::ExecutorMetric::kMajorGcTime)], 7);
}

TEST(Decoder, TaskEndOfSpark1WithoutNewerFields) {
  // Spark 1.x: no Stage Attempt ID in old logs' task events, no CPU time, no Killed flag,
  // "Host Name" and "Data Read Method" in the metrics.
  Decoder decoder;
  Recorder r;
  const std::string line =
      R"({"Event":"SparkListenerTaskEnd","Stage ID":0,"Task Type":"ShuffleMapTask","Task End Reason":{"Reason":"Success"},)"
      R"("Task Info":{"Task ID":1,"Index":1,"Attempt":0,"Launch Time":1422981768163,"Executor ID":"<driver>",)"
      R"("Host":"localhost","Locality":"PROCESS_LOCAL","Speculative":false,"Getting Result Time":0,)"
      R"("Finish Time":1422981768276,"Failed":false,"Accumulables":[]},"Task Metrics":{"Host Name":"localhost",)"
      R"("Executor Deserialize Time":13,"Executor Run Time":86,"Result Size":1887,"JVM GC Time":0,)"
      R"("Result Serialization Time":1,"Memory Bytes Spilled":0,"Disk Bytes Spilled":0,)"
      R"("Shuffle Write Metrics":{"Shuffle Bytes Written":1648,"Shuffle Write Time":1174000},)"
      R"("Input Metrics":{"Data Read Method":"Hadoop","Bytes Read":3500}}})";
  ASSERT_EQ(decode(decoder, line, r).outcome, DecodeOutcome::kEvent);
  const TaskEnd& e = r.task_end;
  EXPECT_EQ(e.stage_attempt_id, 0);
  EXPECT_FALSE(e.info.partition_id.has_value());
  EXPECT_EQ(e.metrics[index_of(TaskMetric::kExecutorRunTimeMs)], 86);
  EXPECT_EQ(e.metrics[index_of(TaskMetric::kExecutorCpuTimeNs)], 0);
  EXPECT_EQ(e.metrics[index_of(TaskMetric::kShuffleWriteBytes)], 1648);
  EXPECT_EQ(e.metrics[index_of(TaskMetric::kInputBytes)], 3500);
}

TEST(Decoder, FailedTaskReasonsAndMissingMetrics) {
  Decoder decoder;
  Recorder r;
  const std::string line =
      R"({"Event":"SparkListenerTaskEnd","Stage ID":1,"Stage Attempt ID":0,"Task Type":"ResultTask",)"
      R"("Task End Reason":{"Reason":"ExceptionFailure","Class Name":"java.lang.OutOfMemoryError","Description":"Java heap space",)"
      R"("Stack Trace":[{"Declaring Class":"x","Method Name":"y","File Name":null,"Line Number":-1}],"Full Stack Trace":"...",)"
      R"("Accumulator Updates":[{"ID":9,"Update":"1","Internal":false,"Count Failed Values":true}]},)"
      R"("Task Info":{"Task ID":5,"Index":0,"Attempt":0,"Launch Time":10,"Executor ID":"1","Host":"h","Locality":"ANY",)"
      R"("Speculative":false,"Getting Result Time":0,"Finish Time":20,"Failed":true,"Killed":false,"Accumulables":[]}})";
  ASSERT_EQ(decode(decoder, line, r).outcome, DecodeOutcome::kEvent);
  EXPECT_EQ(r.task_end.reason, TaskEndReason::kExceptionFailure);
  EXPECT_EQ(r.task_exception_class, "java.lang.OutOfMemoryError");
  EXPECT_EQ(r.task_description, "Java heap space");
  EXPECT_EQ(r.task_stack_trace, "...");
  EXPECT_FALSE(r.task_end.has_metrics);
  EXPECT_EQ(r.task_end.accumulator_ids, std::vector<int64_t>{9});

  // FetchFailed's Message is the FetchFailedException's whole trace, escapes decoded.
  const std::string fetch_failed =
      R"({"Event":"SparkListenerTaskEnd","Stage ID":1,"Stage Attempt ID":0,"Task Type":"ResultTask",)"
      R"("Task End Reason":{"Reason":"FetchFailed","Block Manager Address":{"Executor ID":"1","Host":"h","Port":7337},)"
      R"("Shuffle ID":54,"Map ID":8347,"Map Index":9,"Reduce ID":72,)"
      R"("Message":"org.apache.spark.shuffle.FetchFailedException: /d/shuffle_54_8347_0.index\n\tat x.y(Z.scala:1)\nCaused by: java.nio.file.NoSuchFileException: /d/shuffle_54_8347_0.index\n\t... 16 more\n"},)"
      R"("Task Info":{"Task ID":7,"Index":0,"Attempt":0,"Launch Time":10,"Executor ID":"7","Host":"h","Locality":"ANY",)"
      R"("Speculative":false,"Getting Result Time":0,"Finish Time":20,"Failed":true,"Killed":false,"Accumulables":[]}})";
  ASSERT_EQ(decode(decoder, fetch_failed, r).outcome, DecodeOutcome::kEvent);
  EXPECT_EQ(r.task_end.reason, TaskEndReason::kFetchFailed);
  EXPECT_EQ(r.task_fetch_failed_message,
            "org.apache.spark.shuffle.FetchFailedException: /d/shuffle_54_8347_0.index\n\tat x.y(Z.scala:1)\n"
            "Caused by: java.nio.file.NoSuchFileException: /d/shuffle_54_8347_0.index\n\t... 16 more\n");
  EXPECT_TRUE(r.task_description.empty()) << "fields of the previous task must not leak into the next";

  const std::string killed =
      R"({"Event":"SparkListenerTaskEnd","Stage ID":1,"Stage Attempt ID":0,"Task Type":"ResultTask",)"
      R"("Task End Reason":{"Reason":"TaskKilled","Kill Reason":"another attempt succeeded","Accumulator Updates":[]},)"
      R"("Task Info":{"Task ID":6,"Index":0,"Attempt":1,"Launch Time":10,"Executor ID":"1","Host":"h","Locality":"ANY",)"
      R"("Speculative":true,"Getting Result Time":0,"Finish Time":20,"Failed":true,"Killed":true,"Accumulables":[]},)"
      R"("Task Metrics":null})";
  ASSERT_EQ(decode(decoder, killed, r).outcome, DecodeOutcome::kEvent);
  EXPECT_EQ(r.task_end.reason, TaskEndReason::kTaskKilled);
  EXPECT_EQ(r.task_kill_reason, "another attempt succeeded");
  EXPECT_FALSE(r.task_end.has_metrics);
  EXPECT_TRUE(r.task_end.accumulator_ids.empty()) << "ids of the previous task must not leak into the next";
}

TEST(Decoder, StageEventsWithRddInfoAndAccumulables) {
  Decoder decoder;
  Recorder r;
  const std::string line =
      R"({"Event":"SparkListenerStageCompleted","Stage Info":{"Stage ID":4,"Stage Attempt ID":0,"Stage Name":"count at <console>:23",)"
      R"("Number of Tasks":10,"RDD Info":[{"RDD ID":7,"Name":"MapPartitionsRDD","Scope":"{}","Callsite":"c","Parent IDs":[6,5],)"
      R"("Storage Level":{"Use Disk":false,"Use Memory":true,"Deserialized":true,"Replication":1},"Barrier":false,)"
      R"("Number of Partitions":10,"Number of Cached Partitions":4,"Memory Size":1000,"Disk Size":0}],"Parent IDs":[3,1],)"
      R"("Details":"org.apache.spark.rdd.RDD.count","Submission Time":100,"Completion Time":250,"Failure Reason":"boom",)"
      R"("Accumulables":[{"ID":36,"Name":"number of output rows","Value":"12","Internal":true,"Count Failed Values":true,"Metadata":"sql"},)"
      R"({"ID":40,"Name":"internal.metrics.executorRunTime","Value":158,"Internal":true,"Count Failed Values":true}],)"
      R"("Resource Profile Id":0,"Shuffle Push Enabled":false,"Shuffle Push Mergers Count":0}})";
  ASSERT_EQ(decode(decoder, line, r).outcome, DecodeOutcome::kEvent);
  const StageInfo& info = r.stage_completed.info;
  EXPECT_EQ(info.stage_id, 4);
  EXPECT_EQ(info.num_tasks, 10);
  EXPECT_EQ(info.parent_ids, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(info.submission_time_ms, 100);
  EXPECT_EQ(info.completion_time_ms, 250);
  EXPECT_EQ(info.failure_reason, "boom");
  ASSERT_EQ(info.rdds.size(), 1u);
  EXPECT_EQ(info.rdds[0].storage_level, "Memory Deserialized 1x Replicated");
  EXPECT_EQ(info.rdds[0].num_cached_partitions, 4);
  ASSERT_EQ(info.accumulables.size(), 2u);
  EXPECT_EQ(info.accumulables[0].value, "12");
  EXPECT_EQ(info.accumulables[1].value, "158");
}

TEST(Decoder, JobStartPropertiesAndJobEndFailure) {
  Decoder decoder;
  Recorder r;
  const std::string start =
      R"({"Event":"SparkListenerJobStart","Job ID":2,"Submission Time":500,"Stage Infos":[{"Stage ID":5,"Stage Attempt ID":0,)"
      R"("Stage Name":"a","Number of Tasks":3,"RDD Info":[],"Parent IDs":[],"Details":"","Accumulables":[]}],"Stage IDs":[5],)"
      R"("Properties":{"spark.sql.execution.id":"7","spark.job.description":"nightly load","spark.jobGroup.id":"g1"}})";
  ASSERT_EQ(decode(decoder, start, r).outcome, DecodeOutcome::kEvent);
  EXPECT_EQ(r.job_start.job_id, 2);
  EXPECT_EQ(r.job_start.properties.sql_execution_id, 7);
  EXPECT_EQ(r.job_start.properties.job_description, "nightly load");
  EXPECT_EQ(r.job_start.properties.job_group, "g1");
  ASSERT_EQ(r.job_start.stage_infos.size(), 1u);

  const std::string end =
      R"({"Event":"SparkListenerJobEnd","Job ID":2,"Completion Time":900,"Job Result":{"Result":"JobFailed",)"
      R"("Exception":{"Message":"Job aborted due to stage failure","Stack Trace":[]}}})";
  ASSERT_EQ(decode(decoder, end, r).outcome, DecodeOutcome::kEvent);
  EXPECT_FALSE(r.job_end.succeeded);
  EXPECT_EQ(r.job_end.failure_message, "Job aborted due to stage failure");
}

TEST(Decoder, SqlEventsWithPlanTreeInPreorder) {
  Decoder decoder;
  Recorder r;
  const std::string start =
      R"({"Event":"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart","executionId":3,"rootExecutionId":3,)"
      R"("description":"q","details":"d","physicalPlanDescription":"== Physical Plan ==","sparkPlanInfo":{"nodeName":"A",)"
      R"("simpleString":"A","children":[{"nodeName":"B","simpleString":"B","children":[{"nodeName":"C","simpleString":"C",)"
      R"("children":[],"metadata":{},"metrics":[{"name":"rows","accumulatorId":11,"metricType":"sum"}]}],"metadata":{},)"
      R"("metrics":[]},{"nodeName":"D","simpleString":"D","children":[],"metadata":{"Format":"Parquet"},"metrics":[]}],)"
      R"("metadata":{},"metrics":[{"name":"time","accumulatorId":10,"metricType":"timing"}]},"time":1234,"modifiedConfigs":{}})";
  ASSERT_EQ(decode(decoder, start, r).outcome, DecodeOutcome::kEvent);
  const auto& nodes = r.sql_start.plan.nodes;
  ASSERT_EQ(nodes.size(), 4u);
  EXPECT_EQ(nodes[0].node_name, "A");
  EXPECT_EQ(nodes[0].children, (std::vector<int32_t>{1, 3}));
  EXPECT_EQ(nodes[1].node_name, "B");
  EXPECT_EQ(nodes[1].children, std::vector<int32_t>{2});
  EXPECT_EQ(nodes[2].metrics.at(0).accumulator_id, 11);
  EXPECT_EQ(nodes[3].metadata.at(0).second, "Parquet");
  EXPECT_EQ(r.sql_start.time_ms, 1234);

  const std::string accum =
      R"({"Event":"org.apache.spark.sql.execution.ui.SparkListenerDriverAccumUpdates","executionId":3,"accumUpdates":[[10,5],[11,"6"]]})";
  ASSERT_EQ(decode(decoder, accum, r).outcome, DecodeOutcome::kEvent);
  EXPECT_EQ(r.accum_updates.updates, (std::vector<std::pair<int64_t, int64_t>>{{10, 5}, {11, 6}}));
}

TEST(Decoder, ExclusionEventsOfBothNamings) {
  Decoder decoder;
  Recorder r;
  ASSERT_EQ(
      decode(
          decoder,
          R"({"Event":"org.apache.spark.scheduler.SparkListenerExecutorBlacklistedForStage","time":1,"executorId":"3","taskFailures":2,"stageId":4,"stageAttemptId":0})",
          r)
          .outcome,
      DecodeOutcome::kEvent);
  EXPECT_EQ(r.exclusion.id, "3");
  EXPECT_EQ(r.exclusion.stage_id, 4);
  EXPECT_TRUE(r.exclusion.excluded);
  ASSERT_EQ(
      decode(decoder, R"({"Event":"org.apache.spark.scheduler.SparkListenerNodeUnexcluded","time":2,"hostId":"h1"})", r)
          .outcome,
      DecodeOutcome::kEvent);
  EXPECT_EQ(r.exclusion.target, ExclusionChange::Target::kNode);
  EXPECT_FALSE(r.exclusion.excluded);
}

TEST(Decoder, ExecutorAddedWithResources) {
  Decoder decoder;
  Recorder r;
  const std::string line =
      R"({"Event":"SparkListenerExecutorAdded","Timestamp":5,"Executor ID":"2","Executor Info":{"Host":"h2","Total Cores":4,)"
      R"("Log Urls":{"stdout":"u1"},"Attributes":{},"Resources":{"gpu":{"name":"gpu","addresses":["0","1"]}},"Resource Profile Id":1}})";
  ASSERT_EQ(decode(decoder, line, r).outcome, DecodeOutcome::kEvent);
  EXPECT_EQ(r.executor_added.executor_id, "2");
  EXPECT_EQ(r.executor_added.total_cores, 4);
  EXPECT_TRUE(r.executor_added.has_total_cores);
  EXPECT_EQ(r.executor_added.resource_profile_id, 1);
  ASSERT_EQ(r.executor_added.resources.size(), 1u);
  EXPECT_EQ(r.executor_added.resources[0].addresses, (std::vector<std::string>{"0", "1"}));
}

// Spark 3.4+ (SPARK-36664) writes when an executor was asked for and when it registered; this
// line is the one pyspark 4.3.0 wrote on local-cluster[2,1,1024] under dynamic allocation
// (JsonProtocol.executorInfoToJson: registrationTime.foreach, then requestTime.foreach).
TEST(Decoder, ExecutorAddedWithRequestAndRegistrationTimes) {
  Decoder decoder;
  Recorder r;
  const std::string line =
      R"({"Event":"SparkListenerExecutorAdded","Timestamp":1796653000947,"Executor ID":"0","Executor Info":)"
      R"({"Host":"192.0.2.2","Total Cores":1,"Log Urls":{"stdout":"u","stderr":"e"},"Attributes":{},"Resources":{},)"
      R"("Resource Profile Id":0,"Registration Time":1796653000947,"Request Time":1796652993705}})";
  ASSERT_EQ(decode(decoder, line, r).outcome, DecodeOutcome::kEvent);
  EXPECT_EQ(r.executor_added.registration_time_ms, 1796653000947);
  EXPECT_EQ(r.executor_added.request_time_ms, 1796652993705);

  // Static allocation's executors carry a registration time only; older Spark neither.
  const std::string registered_only =
      R"({"Event":"SparkListenerExecutorAdded","Timestamp":10,"Executor ID":"1","Executor Info":)"
      R"({"Host":"h","Total Cores":1,"Log Urls":{},"Attributes":{},"Resources":{},"Resource Profile Id":0,)"
      R"("Registration Time":10}})";
  ASSERT_EQ(decode(decoder, registered_only, r).outcome, DecodeOutcome::kEvent);
  EXPECT_EQ(r.executor_added.registration_time_ms, 10);
  EXPECT_FALSE(r.executor_added.request_time_ms) << "a time of the previous executor must not leak into the next";
}

TEST(Decoder, UnknownEventsAreCountedNotFailed) {
  Decoder decoder;
  Recorder r;
  auto result = decode(decoder, R"({"Event":"com.example.MyListenerEvent","payload":{"a":[1,2,3]}})", r);
  EXPECT_EQ(result.outcome, DecodeOutcome::kUnknownEvent);
  EXPECT_EQ(r.unknown, std::vector<std::string>{"com.example.MyListenerEvent"});
  EXPECT_TRUE(r.kinds.empty());
}

TEST(Decoder, MalformedLinesAreReportedWithAReason) {
  Decoder decoder;
  Recorder r;
  const std::vector<std::string> bad = {
      R"({"Event":"SparkListenerTaskEnd","Stage ID":1,"Task Info":{"Task ID":)",      // cut mid-line
      R"({"Event":"SparkListenerJobStart","Job ID":"not a number","Stage IDs":[]})",  // wrong type
      R"({"Event":"SparkListenerJobStart","Job ID":1} trailing)",                     // text after the object
      R"({"NotAnEvent":1})",                                                          // no Event field
      R"([1,2,3])",                                                                   // not an object
      "\x01\x02\xff\xfe binary",                                                      // not JSON at all
      R"({"Event":"SparkListenerTaskEnd","Task Info":{}})",                           // no Stage ID
  };
  for (const auto& line : bad) {
    auto result = decode(decoder, line, r);
    EXPECT_EQ(result.outcome, DecodeOutcome::kMalformed) << line;
    EXPECT_FALSE(result.error.empty()) << line;
  }
  EXPECT_TRUE(r.kinds.empty()) << "no half-decoded event may reach the handler";
}

TEST(Decoder, BlankLinesAndWhitespace) {
  Decoder decoder;
  Recorder r;
  EXPECT_EQ(decode(decoder, "", r).outcome, DecodeOutcome::kBlank);
  EXPECT_EQ(decode(decoder, "   \r", r).outcome, DecodeOutcome::kBlank);
  EXPECT_EQ(decode(decoder, R"(  {"Event":"SparkListenerLogStart","Spark Version":"3.5.1"}  )", r).outcome,
            DecodeOutcome::kEvent);
}

TEST(Decoder, EnvironmentAndResourceProfile) {
  Decoder decoder;
  Recorder r;
  ASSERT_EQ(
      decode(
          decoder,
          R"({"Event":"SparkListenerEnvironmentUpdate","JVM Information":{"Java Version":"17"},)"
          R"("Spark Properties":{"spark.z":"1","spark.a":"2"},"System Properties":{},"Classpath Entries":{"/a.jar":"System Classpath"}})",
          r)
          .outcome,
      DecodeOutcome::kEvent);
  ASSERT_EQ(r.environment.spark_properties.size(), 2u);
  EXPECT_EQ(r.environment.spark_properties[0].first, "spark.a") << "properties are sorted by key";
  ASSERT_EQ(
      decode(decoder,
             R"({"Event":"SparkListenerResourceProfileAdded","Resource Profile Id":1,"Executor Resource Requests":)"
             R"({"cores":{"Resource Name":"cores","Amount":4,"Discovery Script":"","Vendor":""}},)"
             R"("Task Resource Requests":{"cpus":{"Resource Name":"cpus","Amount":1.0}}})",
             r)
          .outcome,
      DecodeOutcome::kEvent);
  EXPECT_EQ(r.profile.profile.id, 1);
  ASSERT_EQ(r.profile.profile.executor_resources.size(), 1u);
  EXPECT_DOUBLE_EQ(r.profile.profile.executor_resources[0].amount, 4.0);
}

// Issue 21: a 1 GB Spark version was kept whole (4.9 GB of memory, a 1 GB report, and every MCP
// listing page that held it too big to send). Every string an event carries is cut at
// kMaxNameBytes or kMaxTextBytes, and says so.
bool cut_with_mark(const std::string& kept, size_t max_bytes, size_t whole_bytes) {
  const std::string mark = " [cut: " + std::to_string(whole_bytes) + " bytes in all]";
  // At most max_bytes kept, and no more than a UTF-8 character's continuation bytes fewer.
  return kept.ends_with(mark) && kept.size() - mark.size() <= max_bytes && kept.size() - mark.size() + 3 >= max_bytes;
}

TEST(DecoderStringLimits, NamesAndTextsLongerThanTheirLimitAreCutAndMarked) {
  Decoder decoder;
  Recorder r;
  const std::string version(100000, '9');
  ASSERT_EQ(decode(decoder, R"({"Event":"SparkListenerLogStart","Spark Version":")" + version + R"("})", r).outcome,
            DecodeOutcome::kEvent);
  EXPECT_TRUE(cut_with_mark(r.log_start.spark_version, kMaxNameBytes, version.size()))
      << r.log_start.spark_version.size();
  EXPECT_TRUE(r.log_start.spark_version.starts_with("9999"));

  // An escaped string (unescaped into the parser's buffer) is cut the same way.
  std::string app_name;
  for (int i = 0; i < 1000; ++i) app_name += R"(a\"b)";
  ASSERT_EQ(decode(decoder,
                   R"({"Event":"SparkListenerApplicationStart","App Name":")" + app_name +
                       R"(","App ID":"app-1","Timestamp":1,"User":"u"})",
                   r)
                .outcome,
            DecodeOutcome::kEvent);
  EXPECT_TRUE(cut_with_mark(r.app_start.app_name, kMaxNameBytes, 3000)) << r.app_start.app_name;
  EXPECT_TRUE(r.app_start.app_name.starts_with("a\"ba\"b"));
  EXPECT_EQ(r.app_start.app_id, "app-1");

  // Property keys are names, values texts.
  const std::string key(2000, 'k');
  const std::string value(kMaxTextBytes + 10, 'v');
  ASSERT_EQ(decode(decoder,
                   R"({"Event":"SparkListenerEnvironmentUpdate","Spark Properties":{")" + key + R"(":")" + value +
                       R"(","spark.app.name":"short"}})",
                   r)
                .outcome,
            DecodeOutcome::kEvent);
  ASSERT_EQ(r.environment.spark_properties.size(), 2u);
  EXPECT_TRUE(cut_with_mark(r.environment.spark_properties[0].first, kMaxNameBytes, key.size()));
  EXPECT_TRUE(cut_with_mark(r.environment.spark_properties[0].second, kMaxTextBytes, value.size()));
  EXPECT_EQ(r.environment.spark_properties[1], (std::pair<std::string, std::string>{"spark.app.name", "short"}));

  // Plan text, and an unknown event's name.
  const std::string plan(kMaxTextBytes * 2, 'p');
  ASSERT_EQ(decode(decoder,
                   R"({"Event":"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart","executionId":1,)"
                   R"("description":"d","details":"","physicalPlanDescription":")" +
                       plan + R"(","sparkPlanInfo":{"nodeName":"N","simpleString":")" + plan +
                       R"(","children":[],"metadata":{},"metrics":[]},"time":1})",
                   r)
                .outcome,
            DecodeOutcome::kEvent);
  EXPECT_TRUE(cut_with_mark(r.sql_start.physical_plan_description, kMaxTextBytes, plan.size()));
  ASSERT_EQ(r.sql_start.plan.nodes.size(), 1u);
  EXPECT_TRUE(cut_with_mark(r.sql_start.plan.nodes[0].simple_string, kMaxTextBytes, plan.size()));
  const std::string event(5000, 'E');
  ASSERT_EQ(decode(decoder, R"({"Event":")" + event + R"("})", r).outcome, DecodeOutcome::kUnknownEvent);
  ASSERT_EQ(r.unknown.size(), 1u);
  EXPECT_TRUE(cut_with_mark(r.unknown[0], kMaxNameBytes, event.size()));
}

// Task events hold views into the line: a cut string is a view into the decoder's copy, valid
// through the handler call, and copied by an EventBatch that keeps the event longer.
TEST(DecoderStringLimits, TaskEventViewsAreCutAndSurviveABatch) {
  const std::string trace(kMaxTextBytes + 1000, 't');
  const std::string host(3000, 'h');
  const std::string line =
      R"({"Event":"SparkListenerTaskEnd","Stage ID":1,"Stage Attempt ID":0,"Task Type":"ResultTask",)"
      R"("Task End Reason":{"Reason":"ExceptionFailure","Class Name":"C","Description":"d","Full Stack Trace":")" +
      trace + R"("},"Task Info":{"Task ID":5,"Index":0,"Attempt":0,"Launch Time":10,"Executor ID":"1","Host":")" +
      host +
      R"(","Locality":"ANY","Speculative":false,"Getting Result Time":0,"Finish Time":20,"Failed":true,"Killed":false,"Accumulables":[]}})";
  Decoder decoder;
  Recorder direct;
  ASSERT_EQ(decode(decoder, line, direct).outcome, DecodeOutcome::kEvent);
  EXPECT_TRUE(cut_with_mark(direct.task_stack_trace, kMaxTextBytes, trace.size()));
  EXPECT_TRUE(cut_with_mark(direct.task_host, kMaxNameBytes, host.size()));
  EXPECT_EQ(direct.task_executor, "1");

  std::string padded = line + std::string(kLinePadding, '\0');
  EventBatch batch;
  batch.set_text_range(padded);
  ASSERT_EQ(decoder.decode(std::string_view(padded.data(), line.size()), batch).outcome, DecodeOutcome::kEvent);
  // The next line clears the decoder's cut copies; the batch has its own.
  ASSERT_EQ(decode(decoder, R"({"Event":"SparkListenerLogStart","Spark Version":"3.5.1"})", direct).outcome,
            DecodeOutcome::kEvent);
  Recorder replayed;
  batch.replay(replayed);
  EXPECT_EQ(replayed.task_stack_trace, direct.task_stack_trace);
  EXPECT_EQ(replayed.task_host, direct.task_host);
}

TEST(DecoderStringLimits, ACutNeverSplitsAUtf8Character) {
  // "é" is two bytes: a cut at an odd length falls inside one and backs up to its start.
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "\xc3\xa9";
  const std::string cut = text::cut_text(text, 1001);
  EXPECT_EQ(cut, text.substr(0, 1000) + " [cut: 2000 bytes in all]");
  EXPECT_EQ(text::cut_text(text, 2000), text) << "a text at its limit is kept whole";
  EXPECT_EQ(text::cut_text("\xe2\x82\xac\xe2\x82\xac", 4), "\xe2\x82\xac [cut: 6 bytes in all]");
}

}  // namespace
}  // namespace sf::eventlog
