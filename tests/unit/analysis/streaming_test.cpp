// The streaming figures and findings on hand-built query runs: the trigger read from the batches'
// schedule (and not read where the schedule does not show one), state that only grows against
// state a watermark bounds, a small batch in many state partitions, and the trigger's waits kept
// out of driverTime.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/analyzer.h"
#include "analysis/findings/finding_types.h"
#include "analysis/models/streaming_summary.h"

namespace sf::analysis {
namespace {

using model::StreamingBatch;
using model::StreamingQuery;

constexpr int64_t kEpoch = 1796652000000;  // on every usual grid

StreamingBatch batch(int64_t id, int64_t start_ms, int64_t duration_ms, int64_t rows = 100) {
  StreamingBatch b;
  b.batch_id = id;
  b.start_ms = start_ms;
  b.duration_ms = duration_ms;
  b.phase_ms[static_cast<size_t>(model::StreamingPhase::kTriggerExecution)] = duration_ms;
  b.phase_ms[static_cast<size_t>(model::StreamingPhase::kAddBatch)] = duration_ms * 8 / 10;
  b.input_rows = rows;
  return b;
}

// Batches as Spark's trigger loop runs them with `interval`: each starts at the grid point after
// the previous start, or at once (plus `loop_ms`) after a batch that ran past it.
StreamingQuery scheduled(int64_t interval, const std::vector<int64_t>& durations, int64_t loop_ms = 4) {
  StreamingQuery q;
  q.id = "q";
  q.run_id = "r";
  q.name = "events";
  q.start_ms = kEpoch - 500;
  q.terminated = true;
  int64_t start = kEpoch + 3;
  for (size_t i = 0; i < durations.size(); ++i) {
    q.batches.push_back(batch(static_cast<int64_t>(i), start, durations[i]));
    const int64_t next_point = start / interval * interval + interval;
    const int64_t end = start + durations[i];
    start = end >= next_point ? end + loop_ms : next_point + loop_ms;
  }
  return q;
}

model::AppModel app_with(std::vector<StreamingQuery> queries, int32_t cores = 2) {
  model::AppModel m;
  m.app.start_time_ms = kEpoch - 10000;
  m.app.end_time_ms = kEpoch + 120000;
  m.app.finished = true;
  m.app.spark_version = "4.0.1";
  m.peak_concurrent_cores = cores;
  m.streaming_queries = std::move(queries);
  return m;
}

std::vector<const Finding*> of_type(const Analysis& a, std::string_view type) {
  std::vector<const Finding*> out;
  for (const Finding& f : a.findings) {
    if (f.type == type) out.push_back(&f);
  }
  return out;
}

TEST(StreamingTrigger, TheIntervalIsReadFromBatchesThatWaitedForIt) {
  // Every third batch overruns a 1 s trigger; the others wait for the grid.
  const StreamingQuery q = scheduled(1000, {2500, 300, 200, 1400, 250, 300, 1600, 200, 220, 1300, 210, 240});
  const StreamingQuerySummary s = summarize(q);
  EXPECT_EQ(s.trigger_basis, TriggerBasis::kAlignedStarts);
  EXPECT_EQ(s.trigger_interval_ms, int64_t{1000});
  EXPECT_EQ(s.batches_over_trigger, 4);
  EXPECT_EQ(s.time_over_trigger_ms, 1500 + 400 + 600 + 300);
}

TEST(StreamingTrigger, AMultipleOfTheIntervalDoesNotFitTheBatchesThatWaitedBetweenItsPoints) {
  // Starts on a 2 s grid fit 1 s too; 2 s is the longest that fits all of them.
  EXPECT_EQ(summarize(scheduled(2000, {300, 400, 350, 300, 500, 300})).trigger_interval_ms, int64_t{2000});
  // With a 1 s trigger, half the starts fall on 2 s points, but the batches between them do not fit 2 s.
  EXPECT_EQ(summarize(scheduled(1000, {300, 400, 350, 300, 500, 300, 320})).trigger_interval_ms, int64_t{1000});
}

TEST(StreamingTrigger, BatchesThatNeverWaitClaimNoInterval) {
  const StreamingQuerySummary s = summarize(scheduled(1000, {1500, 1600, 1400, 1700, 1550}));
  EXPECT_EQ(s.trigger_basis, TriggerBasis::kBackToBack);
  EXPECT_FALSE(s.trigger_interval_ms);
  EXPECT_EQ(s.batches_over_trigger, 0);
}

TEST(StreamingTrigger, StartsOnNoGridClaimNoInterval) {
  StreamingQuery q = scheduled(1000, {100, 100, 100, 100, 100, 100});
  const int64_t offsets[] = {0, 137, 1290, 2655, 4011, 5520};
  for (size_t i = 0; i < q.batches.size(); ++i) q.batches[i].start_ms = kEpoch + 3 + offsets[i] + 400 * int64_t(i);
  const StreamingQuerySummary s = summarize(q);
  EXPECT_EQ(s.trigger_basis, TriggerBasis::kUnknown);
  EXPECT_FALSE(s.trigger_interval_ms);
}

TEST(StreamingFindings, BatchesOverTheTriggerSuggestOneNineInTenFit) {
  const Analysis a =
      analyze(app_with({scheduled(1000, {2500, 300, 200, 1400, 250, 300, 1600, 200, 220, 1300, 210, 240})}));
  const auto found = of_type(a, finding_type::kStreamingFallingBehind);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->rule, finding_rule::kBatchOverTrigger);
  EXPECT_EQ(found[0]->id, "streamingFallingBehind/batchOverTrigger/query-q");
  // The 90th percentile after the first batch is 1,400 ms: with a tenth to spare, 2 s.
  EXPECT_NE(found[0]->recommendation.find("processingTime=\"2 seconds\""), std::string::npos)
      << found[0]->recommendation;
  EXPECT_EQ(found[0]->impact.basis, Basis::kInformational);
}

TEST(StreamingFindings, BatchesInTimeAreNotFallingBehind) {
  const Analysis a = analyze(app_with({scheduled(1000, {900, 300, 200, 400, 250, 300, 350, 200})}));
  EXPECT_TRUE(of_type(a, finding_type::kStreamingFallingBehind).empty());
}

StreamingQuery stateful(bool evicts) {
  StreamingQuery q = scheduled(1000, std::vector<int64_t>(15, 300));
  q.state_operators = {"dedupe"};
  for (size_t i = 0; i < q.batches.size(); ++i) {
    StreamingBatch& b = q.batches[i];
    b.state_rows = evicts ? 600 : 200 * static_cast<int64_t>(i + 1);
    b.state_rows_removed = evicts && i > 2 ? 200 : 0;
    b.state_memory_bytes = b.state_rows * 230;
    b.shuffle_partitions = 2;
  }
  return q;
}

TEST(StreamingFindings, StateThatOnlyGrowsIsUnboundedAndAWatermarkThatEvictsIsNot) {
  const Analysis grows = analyze(app_with({stateful(false)}));
  const auto found = of_type(grows, finding_type::kStreamingStateGrowth);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0]->recommendation.find("dropDuplicatesWithinWatermark"), std::string::npos);
  // 690 KiB of state: far from where RocksDB would matter.
  EXPECT_TRUE(found[0]->settings.empty());
  EXPECT_TRUE(of_type(analyze(app_with({stateful(true)})), finding_type::kStreamingStateGrowth).empty());
}

TEST(StreamingFindings, ManyStatePartitionsForASmallBatchAskForTheCores) {
  StreamingQuery q = stateful(true);
  for (auto& b : q.batches) b.shuffle_partitions = 200;
  const Analysis a = analyze(app_with({q}, 2));
  const auto found = of_type(a, finding_type::kStreamingShufflePartitions);
  ASSERT_EQ(found.size(), 1u);
  ASSERT_EQ(found[0]->settings.size(), 1u);
  EXPECT_EQ(found[0]->settings[0].key, "spark.sql.shuffle.partitions");
  EXPECT_EQ(found[0]->settings[0].suggested_value, "2");
  EXPECT_NE(found[0]->recommendation.find("new checkpoint location"), std::string::npos);
  // Eight times the cores is over the ratio; on 64 cores 200 partitions are not.
  EXPECT_TRUE(of_type(analyze(app_with({q}, 64)), finding_type::kStreamingShufflePartitions).empty());
}

TEST(StreamingFindings, TheWaitsBetweenBatchesAreNotDriverTime) {
  // One job at the start, then a query that runs for two minutes with tiny batches: the time
  // between batches is the trigger's, not the driver's own code.
  model::AppModel m = app_with({scheduled(1000, std::vector<int64_t>(100, 50))});
  model::Job job;
  job.job_id = 0;
  job.submission_time_ms = kEpoch - 9000;
  job.completion_time_ms = kEpoch - 8000;
  job.status = model::JobStatus::kSucceeded;
  m.jobs.push_back(job);
  m.streaming_queries[0].start_ms = kEpoch - 7000;
  m.streaming_queries[0].terminated = false;
  EXPECT_TRUE(of_type(analyze(m), finding_type::kDriverTime).empty());
}

}  // namespace
}  // namespace sf::analysis
