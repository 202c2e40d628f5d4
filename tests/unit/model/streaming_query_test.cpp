// Structured Streaming queries in the model: the listener events Spark writes (the corpus's Spark
// 3.1 log and lines shaped as Spark 4 writes them) become query runs with their batches, and each
// batch's jobs and tasks; the parallel reader gives the same runs as the serial one.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <string>

#include "model/load.h"
#include "support/corpus.h"

namespace sf::model {
namespace {

constexpr char kStreamingLog[] = "apache__spark/sql/core/src/test/resources/spark-events/local-1596020211915";

AppModel load(const std::string& path, unsigned threads = 1, BuilderLimits limits = {}) {
  LoadOptions options;
  options.threads = threads;
  options.builder_limits = limits;
  auto model = load_event_log(path, options);
  EXPECT_TRUE(model.has_value()) << (model ? "" : model.error().message());
  return model ? std::move(*model) : AppModel{};
}

std::string write_log(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  std::ofstream(path) << text;
  return path.string();
}

// Two batches of one query as Spark 4.3 writes them (from a real run of a windowed count with a
// watermark), its end, and a job of the second batch.
const std::string kSpark4Lines = R"({"Event":"SparkListenerLogStart","Spark Version":"4.3.0"}
{"Event":"SparkListenerApplicationStart","App Name":"s","App ID":"local-1","Timestamp":1796652890000,"User":"u"}
{"Event":"SparkListenerEnvironmentUpdate","Spark Properties":{"spark.sql.redaction.string.regex":"(?i)password=[a-z0-9]+"}}
{"Event":"org.apache.spark.sql.streaming.StreamingQueryListener$QueryStartedEvent","id":"q1","runId":"r1","name":"agg","timestamp":"2026-12-07T14:14:51.229Z","jobTags":["t"]}
{"Event":"org.apache.spark.sql.streaming.StreamingQueryListener$QueryProgressEvent","progress":{"id":"q1","runId":"r1","name":"agg","timestamp":"2026-12-07T14:14:51.756Z","batchId":0,"batchDuration":8459,"durationMs":{"triggerExecution":8448,"queryPlanning":1485,"getBatch":3,"commitOffsets":261,"latestOffset":0,"addBatch":6355,"walCommit":259},"eventTime":{"watermark":"1970-01-01T00:00:00.000Z"},"stateOperators":[{"operatorName":"stateStoreSave","numRowsTotal":0,"numRowsUpdated":0,"allUpdatesTimeMs":192,"numRowsRemoved":0,"memoryUsedBytes":2112,"numRowsDroppedByWatermark":0,"numShufflePartitions":8,"numStateStoreInstances":8,"customMetrics":{"stateOnCurrentVersionSizeBytes":960}}],"sources":[{"description":"RateStreamV2[rowsPerSecond=200]","startOffset":null,"endOffset":"0","numInputRows":0,"inputRowsPerSecond":0.0,"processedRowsPerSecond":0.0,"metrics":{}}],"sink":{"description":"MemorySink","numOutputRows":0,"metrics":{}},"observedMetrics":{}}}
{"Event":"SparkListenerJobStart","Job ID":7,"Submission Time":1796652900300,"Stage Infos":[{"Stage ID":3,"Stage Attempt ID":0,"Stage Name":"s","Number of Tasks":8,"RDD Info":[],"Parent IDs":[],"Details":"","Accumulables":[]}],"Stage IDs":[3],"Properties":{"sql.streaming.queryId":"q1","streaming.sql.batchId":"1","spark.jobGroup.id":"r1"}}
{"Event":"SparkListenerStageSubmitted","Stage Info":{"Stage ID":3,"Stage Attempt ID":0,"Stage Name":"s","Number of Tasks":8,"RDD Info":[],"Parent IDs":[],"Details":"","Submission Time":1796652900310,"Accumulables":[]},"Properties":{}}
{"Event":"SparkListenerTaskEnd","Stage ID":3,"Stage Attempt ID":0,"Task Type":"ResultTask","Task End Reason":{"Reason":"Success"},"Task Info":{"Task ID":1,"Index":0,"Attempt":0,"Partition ID":0,"Launch Time":1796652900320,"Executor ID":"driver","Host":"h","Locality":"PROCESS_LOCAL","Speculative":false,"Getting Result Time":0,"Finish Time":1796652900800,"Failed":false,"Killed":false,"Accumulables":[]}}
{"Event":"SparkListenerStageCompleted","Stage Info":{"Stage ID":3,"Stage Attempt ID":0,"Stage Name":"s","Number of Tasks":8,"RDD Info":[],"Parent IDs":[],"Details":"","Submission Time":1796652900310,"Completion Time":1796652900890,"Accumulables":[]}}
{"Event":"SparkListenerJobEnd","Job ID":7,"Completion Time":1796652900900,"Job Result":{"Result":"JobSucceeded"}}
{"Event":"org.apache.spark.sql.streaming.StreamingQueryListener$QueryProgressEvent","progress":{"id":"q1","runId":"r1","name":"agg","timestamp":"2026-12-07T14:15:00.215Z","batchId":1,"batchDuration":912,"durationMs":{"triggerExecution":912,"addBatch":700},"eventTime":{"avg":"2026-12-07T14:14:55.000Z","max":"2026-12-07T14:14:59.995Z","min":"2026-12-07T14:14:51.000Z","watermark":"2026-12-07T14:14:57.995Z"},"stateOperators":[{"operatorName":"stateStoreSave","numRowsTotal":9,"numRowsUpdated":9,"numRowsRemoved":2,"memoryUsedBytes":9000,"numRowsDroppedByWatermark":3,"numShufflePartitions":8}],"sources":[{"description":"RateStreamV2[rowsPerSecond=200]","numInputRows":1700,"inputRowsPerSecond":"Infinity","processedRowsPerSecond":1864.0}],"sink":{"description":"MemorySink","numOutputRows":-1}}}
{"Event":"org.apache.spark.sql.streaming.StreamingQueryListener$QueryIdleEvent","id":"q1","runId":"r1","timestamp":"2026-12-07T14:15:02.000Z"}
{"Event":"org.apache.spark.sql.streaming.StreamingQueryListener$QueryTerminatedEvent","id":"q1","runId":"r1","exception":"boom at jdbc:postgresql://db/x?password=hunter2","errorClassOnException":"X"}
)";

TEST(StreamingQueries, Spark4EventsBecomeARunWithItsBatches) {
  const AppModel m = load(write_log("sf-streaming-spark4", kSpark4Lines));
  ASSERT_EQ(m.streaming_queries.size(), 1u);
  const StreamingQuery& q = m.streaming_queries[0];
  EXPECT_EQ(q.id, "q1");
  EXPECT_EQ(q.run_id, "r1");
  EXPECT_EQ(q.label(), "agg");
  EXPECT_EQ(q.start_ms, int64_t{1796652891229});
  EXPECT_EQ(q.job_tags, std::vector<std::string>{"t"});
  EXPECT_EQ(q.state_operators, std::vector<std::string>{"stateStoreSave"});
  EXPECT_EQ(q.sink, "MemorySink");
  EXPECT_TRUE(q.terminated);
  ASSERT_TRUE(q.exception);
  // Free text, redacted as failure messages are: by the application's string pattern.
  EXPECT_EQ(q.exception->find("hunter2"), std::string::npos) << *q.exception;
  EXPECT_EQ(q.idle_events, 1);
  ASSERT_EQ(q.batches.size(), 2u);

  const StreamingBatch& first = q.batches[0];
  EXPECT_EQ(first.duration_ms, 8459);
  EXPECT_EQ(first.phase(StreamingPhase::kAddBatch), int64_t{6355});
  EXPECT_EQ(first.phase(StreamingPhase::kQueryPlanning), int64_t{1485});
  EXPECT_FALSE(first.watermark_ms) << "the epoch is Spark's 'no watermark yet'";
  EXPECT_EQ(first.shuffle_partitions, 8);
  EXPECT_EQ(first.output_rows, int64_t{0});

  const StreamingBatch& second = q.batches[1];
  EXPECT_EQ(second.batch_id, 1);
  EXPECT_EQ(second.start_ms, int64_t{1796652900215});
  EXPECT_EQ(second.input_rows, 1700);
  EXPECT_FALSE(second.input_rows_per_second) << "Infinity is a rate Spark could not compute";
  EXPECT_DOUBLE_EQ(second.processed_rows_per_second.value_or(0), 1864.0);
  EXPECT_EQ(second.state_rows, 9);
  EXPECT_EQ(second.state_rows_removed, int64_t{2});
  EXPECT_EQ(second.rows_dropped_by_watermark, int64_t{3});
  EXPECT_EQ(second.state_memory_bytes, 9000);
  EXPECT_EQ(second.watermark_ms, int64_t{1796652897995});
  EXPECT_EQ(second.event_time_max_ms, int64_t{1796652899995});
  EXPECT_FALSE(second.output_rows) << "-1 is a sink that does not count";
  EXPECT_EQ(second.jobs, 1);
  EXPECT_EQ(second.tasks, 1) << "the task that ran, of the stage's 8";
  EXPECT_EQ(first.jobs, 0);
}

TEST(StreamingQueries, BatchesPastTheLimitAreCountedAndNoted) {
  BuilderLimits limits;
  limits.max_streaming_batches = 1;
  const AppModel m = load(write_log("sf-streaming-limit", kSpark4Lines), 1, limits);
  ASSERT_EQ(m.streaming_queries.size(), 1u);
  EXPECT_EQ(m.streaming_queries[0].batches.size(), 1u);
  EXPECT_EQ(m.streaming_queries[0].batches_not_kept, 1);
  bool noted = false;
  for (const auto& note : m.diagnostics.notes)
    noted = noted || note.find("past the model's limit of 1") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(StreamingQueries, AHostileProgressIsHeldAtTheBoundAndSumsDoNotOverflow) {
  const std::string huge = "9000000000000000000";
  const std::string lines =
      R"({"Event":"org.apache.spark.sql.streaming.StreamingQueryListener$QueryProgressEvent","progress":{"id":"q","runId":"r","batchId":0,"timestamp":"2026-12-07T14:15:00.215Z","batchDuration":)" +
      huge + R"(,"durationMs":{"addBatch":-5},"stateOperators":[{"numRowsTotal":)" + huge + R"(},{"numRowsTotal":)" +
      huge + R"(}],"sources":[{"numInputRows":)" + huge + R"(},{"numInputRows":)" + huge + "}]}}\n";
  const AppModel m = load(write_log("sf-streaming-hostile", lines));
  ASSERT_EQ(m.streaming_queries.size(), 1u);
  const StreamingBatch& b = m.streaming_queries[0].batches.at(0);
  EXPECT_EQ(b.duration_ms, 1'000'000'000'000);
  EXPECT_EQ(b.state_rows, 1'000'000'000'000);
  EXPECT_EQ(b.input_rows, 1'000'000'000'000);
  EXPECT_EQ(b.phase(StreamingPhase::kAddBatch), int64_t{0});
}

TEST(StreamingQueries, TheSpark31CorpusLogHasOneQueryOfEightBatches) {
  SF_REQUIRE_CORPUS_FILE(path, kStreamingLog);
  const AppModel serial = load(path.string(), 1);
  ASSERT_EQ(serial.streaming_queries.size(), 1u);
  const StreamingQuery& q = serial.streaming_queries[0];
  EXPECT_EQ(q.id, "8d268dc2-bc9c-4be8-97a9-b135d2943028");
  EXPECT_EQ(q.run_id, "e225d92f-2545-48f8-87a2-9c0309580f8a");
  EXPECT_EQ(q.name, "");
  EXPECT_FALSE(q.terminated) << "the log ends without the query's end";
  ASSERT_EQ(q.batches.size(), 8u);
  EXPECT_EQ(q.batches[0].duration_ms, 7110);
  EXPECT_EQ(q.batches[0].phase(StreamingPhase::kLatestOffset), int64_t{3524});
  EXPECT_EQ(q.sources, std::vector<std::string>{"KafkaV2[Subscribe[test5]]"});
  int64_t jobs = 0;
  for (const StreamingBatch& b : q.batches) jobs += b.jobs;
  EXPECT_EQ(jobs, 8) << "every job of the log is a micro-batch's";
  for (const auto& [name, count] : serial.diagnostics.unknown_events) {
    EXPECT_EQ(name.find("StreamingQueryListener"), std::string::npos) << name << " is modeled now";
  }

  const AppModel parallel = load(path.string(), 2);
  ASSERT_EQ(parallel.streaming_queries.size(), 1u);
  EXPECT_EQ(parallel.streaming_queries[0].batches.size(), 8u);
  EXPECT_EQ(parallel.streaming_queries[0].batches[7].state_rows, q.batches[7].state_rows);
}

}  // namespace
}  // namespace sf::model
