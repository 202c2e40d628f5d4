// load_event_log on every input layout and on bad input: a clear error naming the file, or a
// partial load that says what stopped it; never a crash.
#include "model/load.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "eventlog/events.h"
#include "loggen/codec_writers.h"

namespace sf::model {
namespace {

namespace fs = std::filesystem;

// A small, hand-written Spark 3 log: one executor, one job of one stage with `tasks` tasks.
std::vector<std::string> small_log_lines(int tasks, bool finished = true) {
  std::vector<std::string> lines = {
      R"({"Event":"SparkListenerLogStart","Spark Version":"3.5.1"})",
      R"({"Event":"SparkListenerExecutorAdded","Timestamp":1000,"Executor ID":"1","Executor Info":{"Host":"h1","Total Cores":4,"Log Urls":{},"Attributes":{},"Resources":{},"Resource Profile Id":0}})",
      R"({"Event":"SparkListenerApplicationStart","App Name":"tiny","App ID":"app-1","Timestamp":900,"User":"me"})",
      R"({"Event":"SparkListenerJobStart","Job ID":0,"Submission Time":1100,"Stage Infos":[{"Stage ID":0,"Stage Attempt ID":0,"Stage Name":"count","Number of Tasks":)" +
          std::to_string(tasks) +
          R"(,"RDD Info":[],"Parent IDs":[],"Details":"","Accumulables":[]}],"Stage IDs":[0],"Properties":{}})",
      R"({"Event":"SparkListenerStageSubmitted","Stage Info":{"Stage ID":0,"Stage Attempt ID":0,"Stage Name":"count","Number of Tasks":)" +
          std::to_string(tasks) +
          R"(,"RDD Info":[],"Parent IDs":[],"Details":"","Submission Time":1100,"Accumulables":[]},"Properties":{}})",
  };
  for (int i = 0; i < tasks; ++i) {
    const std::string id = std::to_string(i);
    const std::string launch = std::to_string(1200 + i);
    const std::string finish = std::to_string(1300 + 2 * i);
    lines.push_back(
        R"({"Event":"SparkListenerTaskEnd","Stage ID":0,"Stage Attempt ID":0,"Task Type":"ResultTask","Task End Reason":{"Reason":"Success"},"Task Info":{"Task ID":)" +
        id + R"(,"Index":)" + id + R"(,"Attempt":0,"Launch Time":)" + launch +
        R"(,"Executor ID":"1","Host":"h1","Locality":"PROCESS_LOCAL","Speculative":false,"Getting Result Time":0,"Finish Time":)" +
        finish + R"(,"Failed":false,"Killed":false,"Accumulables":[]},"Task Metrics":{"Executor Run Time":)" +
        std::to_string(50 + i) + R"(,"JVM GC Time":1,"Input Metrics":{"Bytes Read":100,"Records Read":1}}})");
  }
  lines.push_back(
      R"({"Event":"SparkListenerStageCompleted","Stage Info":{"Stage ID":0,"Stage Attempt ID":0,"Stage Name":"count","Number of Tasks":)" +
      std::to_string(tasks) +
      R"(,"RDD Info":[],"Parent IDs":[],"Details":"","Submission Time":1100,"Completion Time":5000,"Accumulables":[]}})");
  lines.push_back(
      R"({"Event":"SparkListenerJobEnd","Job ID":0,"Completion Time":5001,"Job Result":{"Result":"JobSucceeded"}})");
  if (finished) lines.push_back(R"({"Event":"SparkListenerApplicationEnd","Timestamp":6000})");
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return text;
}

class LoadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sf-load-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& bytes) {
    fs::path path = dir_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  fs::path dir_;
};

TEST_F(LoadTest, PlainFile) {
  auto path = write("app-1", join_lines(small_log_lines(5)));
  auto model = load_event_log(path.string());
  ASSERT_TRUE(model) << model.error().message();
  EXPECT_EQ(model->app.id, "app-1");
  EXPECT_EQ(model->app.name, "tiny");
  EXPECT_EQ(model->app.spark_version, "3.5.1");
  EXPECT_TRUE(model->app.finished);
  EXPECT_EQ(model->app.duration_ms(), 5100);
  ASSERT_EQ(model->stages.size(), 1u);
  EXPECT_EQ(model->stages[0].tasks_succeeded, 5);
  EXPECT_EQ(model->stages[0].metric(TaskMetric::kExecutorRunTimeMs), 50 + 51 + 52 + 53 + 54);
  EXPECT_EQ(model->stages[0].quantile(QuantileMetric::kExecutorRunTimeMs).p50, 52);
  EXPECT_EQ(model->peak_concurrent_cores, 4);
  EXPECT_EQ(model->diagnostics.malformed_lines, 0u);
  EXPECT_EQ(model->source.layout, "file");
}

TEST_F(LoadTest, EveryCodecGivesTheSameModel) {
  const std::string plain = join_lines(small_log_lines(200));
  auto reference = load_event_log(write("app-1", plain).string());
  ASSERT_TRUE(reference);
  const std::vector<std::pair<io::Codec, std::string>> codecs = {
      {io::Codec::kZstd, "zstd"},     {io::Codec::kZstd, "zst"}, {io::Codec::kLz4, "lz4"},
      {io::Codec::kSnappy, "snappy"}, {io::Codec::kLzf, "lzf"},  {io::Codec::kGzip, "gz"}};
  for (const auto& [codec, extension] : codecs) {
    auto path = write("app-1." + extension, loggen::compress(codec, plain, 50));
    auto model = load_event_log(path.string());
    ASSERT_TRUE(model) << extension << ": " << model.error().message();
    EXPECT_EQ(model->source.parts.at(0).codec, io::codec_name(codec));
    EXPECT_EQ(model->stages.at(0).tasks_succeeded, 200) << extension;
    EXPECT_EQ(model->stages.at(0).metric_sums, reference->stages.at(0).metric_sums) << extension;
    EXPECT_EQ(model->diagnostics.lines_read, reference->diagnostics.lines_read) << extension;
  }
}

TEST_F(LoadTest, InProgressFileWithACutLastLine) {
  std::string text = join_lines(small_log_lines(5, /*finished=*/false));
  text += R"({"Event":"SparkListenerTaskEnd","Stage ID":0,"Stage Attempt)";  // the writer is mid-line
  auto path = write("app-1.inprogress", text);
  auto model = load_event_log(path.string());
  ASSERT_TRUE(model) << model.error().message();
  EXPECT_TRUE(model->source.in_progress);
  EXPECT_TRUE(model->diagnostics.incomplete);
  EXPECT_TRUE(model->diagnostics.truncated_last_line);
  EXPECT_EQ(model->diagnostics.malformed_lines, 0u) << "a cut last line is reported, not counted as malformed";
  EXPECT_EQ(model->stages.at(0).tasks_succeeded, 5);
  EXPECT_FALSE(model->app.finished);
  ASSERT_TRUE(model->app.duration_ms().has_value()) << "an unfinished app runs until its last event";
}

TEST_F(LoadTest, MalformedLinesAreCountedAndTheRestLoads) {
  auto lines = small_log_lines(30);
  std::vector<std::string> damaged;
  for (size_t i = 0; i < lines.size(); ++i) {
    damaged.push_back(lines[i]);
    if (i >= 5 && i < 30) damaged.push_back("{not json at all");  // 25 bad lines
  }
  auto model = load_event_log(write("app-1", join_lines(damaged)).string());
  ASSERT_TRUE(model) << model.error().message();
  EXPECT_EQ(model->diagnostics.malformed_lines, 25u);
  ASSERT_EQ(model->diagnostics.malformed.size(), Diagnostics::kMaxMalformedKept);
  EXPECT_EQ(model->diagnostics.malformed[0].line_number, 7u);
  EXPECT_EQ(model->diagnostics.malformed[0].part, "app-1");
  EXPECT_FALSE(model->diagnostics.malformed[0].reason.empty());
  EXPECT_EQ(model->stages.at(0).tasks_succeeded, 30) << "every good line still counts";
}

TEST_F(LoadTest, HostileTaskIndicesCostNoMoreThanTheirLines) {
  // Task indices near 2^31 in 64 stage attempts: a bit per index up to them would be 16 GiB.
  auto lines = small_log_lines(3);
  const std::string task = lines[5];  // the first TaskEnd, index 0
  for (int attempt = 1; attempt <= 64; ++attempt) {
    for (const char* index : {"2147483647", "2147483600", "0"}) {
      std::string hostile = task;
      hostile.replace(hostile.find(R"("Stage Attempt ID":0)"), 20, R"("Stage Attempt ID":)" + std::to_string(attempt));
      hostile.replace(hostile.find(R"("Index":0)"), 9, std::string(R"("Index":)") + index);
      lines.insert(lines.end() - 3, hostile);
    }
  }
  auto model = load_event_log(write("app-1", join_lines(lines)).string());
  ASSERT_TRUE(model) << model.error().message();
  ASSERT_EQ(model->stages.size(), 65u);
  EXPECT_EQ(model->stages.at(0).completed_indices, 3);
  for (size_t i = 1; i < model->stages.size(); ++i) EXPECT_EQ(model->stages[i].completed_indices, 3) << i;
}

TEST_F(LoadTest, OpenStagesHoldNoMoreTaskValuesThanTheLimit) {
  const auto path = write("app-1", join_lines(small_log_lines(10))).string();
  LoadOptions options;
  options.builder_limits.max_open_task_values = 10;
  auto within = load_event_log(path, options);
  ASSERT_TRUE(within) << within.error().message();
  EXPECT_EQ(within->stages.at(0).quantile(QuantileMetric::kExecutorRunTimeMs).count, 10);

  options.builder_limits.max_open_task_values = 9;
  auto past = load_event_log(path, options);
  ASSERT_TRUE(past) << past.error().message();
  const auto& stage = past->stages.at(0);
  EXPECT_EQ(stage.quantile(QuantileMetric::kExecutorRunTimeMs).count, 0);
  // Only the quantiles go: counts and sums stay exact.
  EXPECT_EQ(stage.tasks_succeeded, 10);
  EXPECT_EQ(stage.metric(TaskMetric::kExecutorRunTimeMs), within->stages.at(0).metric(TaskMetric::kExecutorRunTimeMs));
  const auto& notes = past->diagnostics.notes;
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& note) {
    return note.find("stage 0 attempt 0: task quantiles not kept") != std::string::npos &&
           note.find("--max-open-tasks") != std::string::npos;
  })) << ::testing::PrintToString(notes);
}

TEST_F(LoadTest, ACompletedStageGivesBackItsTaskValues) {
  // Stage 0 (5 tasks) completes before stage 1 (5 tasks) starts: a limit of 5 holds both.
  auto lines = small_log_lines(5, /*finished=*/false);
  std::vector<std::string> second(lines.begin() + 4, lines.end() - 1);  // submit, tasks, completion
  for (auto& line : second) {
    line.replace(line.find(R"("Stage ID":0)"), 12, R"("Stage ID":1)");
    const auto task_id = line.find(R"("Task ID":)");
    if (task_id != std::string::npos) line.insert(task_id + 10, "10");
  }
  lines.insert(lines.end() - 1, second.begin(), second.end());
  LoadOptions options;
  options.builder_limits.max_open_task_values = 5;
  auto model = load_event_log(write("app-1", join_lines(lines)).string(), options);
  ASSERT_TRUE(model) << model.error().message();
  ASSERT_EQ(model->stages.size(), 2u);
  for (const auto& stage : model->stages) {
    EXPECT_EQ(stage.quantile(QuantileMetric::kDurationMs).count, 5) << stage.stage_id;
  }
}

TEST_F(LoadTest, AJobStartedTwiceWhileItsStageRuns) {
  // Found by fuzz_decode_line: the second JobStart freed the job its running stage pointed to.
  auto lines = small_log_lines(4);
  lines.insert(lines.begin() + 7, lines[3]);  // JobStart 0 again, after the stage and two tasks
  auto model = load_event_log(write("app-1", join_lines(lines)).string());
  ASSERT_TRUE(model) << model.error().message();
  ASSERT_EQ(model->jobs.size(), 1u);
  EXPECT_EQ(model->stages.at(0).tasks_succeeded, 4);
  EXPECT_EQ(model->stages.at(0).job_ids, std::vector<int64_t>{0});
}

TEST_F(LoadTest, EmptyFileIsAClearError) {
  auto model = load_event_log(write("app-1", "").string());
  ASSERT_FALSE(model);
  EXPECT_NE(model.error().message().find("app-1"), std::string::npos);
  EXPECT_NE(model.error().message().find("empty"), std::string::npos) << model.error().message();
}

TEST_F(LoadTest, MissingPathIsNotFound) {
  auto model = load_event_log((dir_ / "nope").string());
  ASSERT_FALSE(model);
  EXPECT_EQ(model.error().code(), StatusCode::kNotFound);
  EXPECT_NE(model.error().message().find("nope"), std::string::npos);
}

TEST_F(LoadTest, BinaryGarbageIsAnUnknownFormat) {
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage.push_back(static_cast<char>((i * 7919 + 13) % 251));
  garbage[0] = '\x01';
  auto model = load_event_log(write("app-1", garbage).string());
  ASSERT_FALSE(model);
  EXPECT_NE(model.error().message().find("unknown format"), std::string::npos) << model.error().message();
}

TEST_F(LoadTest, JsonThatIsNotAnEventLog) {
  auto model = load_event_log(write("data.json", "{\"a\":1}\n{\"b\":2}\n").string());
  ASSERT_FALSE(model);
  EXPECT_NE(model.error().message().find("not a Spark event log"), std::string::npos) << model.error().message();
}

TEST_F(LoadTest, WrongExtensionNamesBothCodecs) {
  const std::string plain = join_lines(small_log_lines(3));
  auto zstd_as_lz4 = load_event_log(write("app-1.lz4", loggen::compress(io::Codec::kZstd, plain)).string());
  ASSERT_FALSE(zstd_as_lz4);
  EXPECT_NE(zstd_as_lz4.error().message().find("lz4"), std::string::npos);
  EXPECT_NE(zstd_as_lz4.error().message().find("zstd"), std::string::npos) << zstd_as_lz4.error().message();

  auto plain_as_zstd = load_event_log(write("app-2.zstd", plain).string());
  ASSERT_FALSE(plain_as_zstd);
  EXPECT_NE(plain_as_zstd.error().message().find("app-2.zstd"), std::string::npos);
}

TEST_F(LoadTest, UnknownCodecExtension) {
  auto model = load_event_log(write("app-1.bz2", "BZh91AY&SY garbage").string());
  ASSERT_FALSE(model);
  EXPECT_EQ(model.error().code(), StatusCode::kUnsupported) << model.error().message();
}

TEST_F(LoadTest, CorruptBlockGivesAPartialLoadNamingTheFile) {
  const std::string plain = join_lines(small_log_lines(2000));
  std::string compressed = loggen::compress(io::Codec::kLz4, plain, 50);
  compressed[compressed.size() / 2] ^= 0x40;  // a bit flip inside a block in the middle
  auto model = load_event_log(write("app-1.lz4", compressed).string());
  ASSERT_TRUE(model) << "a corrupt block part-way is a partial load, not a failure: " << model.error().message();
  ASSERT_TRUE(model->diagnostics.read_error.has_value());
  EXPECT_NE(model->diagnostics.read_error->find("app-1.lz4"), std::string::npos) << *model->diagnostics.read_error;
  EXPECT_GT(model->stages.at(0).tasks_succeeded, 0);
  EXPECT_LT(model->stages.at(0).tasks_succeeded, 2000);
}

TEST_F(LoadTest, EveryCodecCutAnywhereKeepsWhatCameBeforeAndSaysSo) {
  const std::string plain = join_lines(small_log_lines(600));
  for (io::Codec codec : {io::Codec::kZstd, io::Codec::kLz4, io::Codec::kSnappy, io::Codec::kLzf, io::Codec::kGzip}) {
    const std::string compressed = loggen::compress(codec, plain, 40);  // a block every 40 lines
    const std::string name = "app-1." + std::string(codec == io::Codec::kGzip ? "gz" : io::codec_name(codec));
    int64_t previous = -1;
    for (int tenth = 1; tenth <= 9; ++tenth) {
      auto model = load_event_log(write(name, compressed.substr(0, compressed.size() * tenth / 10)).string());
      if (!model) {  // nothing decoded before the cut: an error naming the file and the cut
        EXPECT_NE(model.error().message().find(name + ": "), std::string::npos) << model.error().message();
        EXPECT_NE(model.error().message().find("truncated"), std::string::npos) << model.error().message();
        continue;
      }
      const auto& d = model->diagnostics;
      EXPECT_TRUE(d.read_error || d.truncated_last_line || d.incomplete) << name << " cut at " << tenth << "/10";
      if (d.read_error) {
        EXPECT_NE(d.read_error->find(name), std::string::npos) << *d.read_error;
      }
      const int64_t tasks = model->stages.empty() ? 0 : model->stages[0].tasks_succeeded;
      EXPECT_GE(tasks, previous) << name << ": a longer prefix never yields fewer tasks";
      EXPECT_LT(tasks, 600) << name;
      previous = tasks;
    }
    EXPECT_GT(previous, 0) << name << ": nine tenths of the file hold tasks";
  }
}

TEST_F(LoadTest, AFileThatFailsToReadIsAClearError) {
  // Readable by permissions even for root, yet every read fails (EIO at offset 0).
  if (!fs::exists("/proc/self/mem")) GTEST_SKIP() << "no /proc/self/mem on this system";
  auto model = load_event_log("/proc/self/mem");
  if (model) {
    ASSERT_TRUE(model->diagnostics.read_error) << "a read error must not pass silently";
    EXPECT_NE(model->diagnostics.read_error->find("/proc/self/mem"), std::string::npos);
  } else {
    EXPECT_NE(model.error().message().find("/proc/self/mem"), std::string::npos) << model.error().message();
  }
}

TEST_F(LoadTest, AFileGrowingWhileReadGivesAConsistentPrefix) {
  const auto lines = small_log_lines(20000);
  const fs::path path = dir_ / "app-1.inprogress";
  std::ofstream out(path, std::ios::binary);
  for (size_t i = 0; i < 200; ++i) out << lines[i] << "\n";
  out.flush();
  std::atomic<bool> stop = false;
  std::thread writer([&] {
    // Appends the rest in pieces that cut lines in two, as a running driver's flushes do.
    const std::string rest = join_lines(std::vector<std::string>(lines.begin() + 200, lines.end()));
    for (size_t at = 0; at < rest.size() && !stop; at += 4093) {
      out << rest.substr(at, 4093);
      out.flush();
    }
  });
  auto model = load_event_log(path.string());
  stop = true;
  writer.join();
  ASSERT_TRUE(model) << model.error().message();
  ASSERT_FALSE(model->stages.empty());
  EXPECT_GE(model->stages[0].tasks_succeeded, 195) << "everything present when reading began is read";
  EXPECT_LE(model->stages[0].tasks_succeeded, 20000);
  EXPECT_EQ(model->diagnostics.malformed_lines, 0u) << "a line cut by the writer is the last line, not malformed";
}

TEST_F(LoadTest, TruncatedCompressedFile) {
  const std::string plain = join_lines(small_log_lines(2000));
  std::string compressed = loggen::compress(io::Codec::kZstd, plain, 50);
  compressed.resize(compressed.size() * 2 / 3);
  auto model = load_event_log(write("app-1.zstd", compressed).string());
  ASSERT_TRUE(model) << model.error().message();
  EXPECT_TRUE(model->diagnostics.read_error.has_value() || model->diagnostics.truncated_last_line);
  EXPECT_GT(model->stages.at(0).tasks_succeeded, 0);
}

TEST_F(LoadTest, InProgressLz4WithoutItsEndMarker) {
  // An lz4 stream still being written has no end-marker block yet (21 bytes: magic, token,
  // two lengths and a checksum).
  std::string compressed = loggen::compress(io::Codec::kLz4, join_lines(small_log_lines(500, false)), 50);
  compressed.resize(compressed.size() - 21);
  auto in_progress = load_event_log(write("app-1.lz4.inprogress", compressed).string());
  ASSERT_TRUE(in_progress) << in_progress.error().message();
  EXPECT_FALSE(in_progress->diagnostics.read_error.has_value()) << "expected of a running application, not damage";
  EXPECT_TRUE(in_progress->diagnostics.truncated_last_line);
  EXPECT_EQ(in_progress->stages.at(0).tasks_succeeded, 500);

  auto finished_name = load_event_log(write("app-2.lz4", compressed).string());
  ASSERT_TRUE(finished_name);
  EXPECT_TRUE(finished_name->diagnostics.read_error.has_value()) << "a finished log's file should not end mid-stream";
}

TEST_F(LoadTest, FiftyMegabyteLine) {
  auto lines = small_log_lines(3);
  std::string big =
      R"({"Event":"SparkListenerEnvironmentUpdate","Spark Properties":{"x":")" + std::string(50u << 20, 'a') + "\"}}";
  lines.insert(lines.begin() + 2, big);
  const auto path = write("app-1", join_lines(lines));

  auto unlimited = load_event_log(path.string());
  ASSERT_TRUE(unlimited) << unlimited.error().message();
  EXPECT_EQ(unlimited->diagnostics.malformed_lines, 0u) << "a 50 MB line within the limit is just a line";
  EXPECT_EQ(unlimited->stages.at(0).tasks_succeeded, 3);

  LoadOptions options;
  options.max_line_bytes = 1 << 20;
  auto limited = load_event_log(path.string(), options);
  ASSERT_TRUE(limited) << limited.error().message();
  EXPECT_EQ(limited->diagnostics.malformed_lines, 1u);
  EXPECT_NE(limited->diagnostics.malformed.at(0).reason.find("longer than the limit"), std::string::npos);
  EXPECT_EQ(limited->diagnostics.malformed.at(0).line_number, 3u);
  EXPECT_EQ(limited->stages.at(0).tasks_succeeded, 3) << "lines after the long one still load";
}

// Issue 21: one 1 GB string field (a Spark version) took 4.9 GB and made a 1 GB report. The model
// keeps every string cut at its limit (eventlog/events.h), the model's figures untouched.
TEST_F(LoadTest, HugeStringFieldsAreKeptCutAtTheirLimit) {
  auto lines = small_log_lines(3);
  const std::string huge(size_t{8} << 20, 'x');
  lines[0] = R"({"Event":"SparkListenerLogStart","Spark Version":")" + huge + R"("})";
  lines[2] = R"({"Event":"SparkListenerApplicationStart","App Name":")" + huge +
             R"(","App ID":"app-1","Timestamp":900,"User":")" + huge + R"("})";
  lines[3].replace(lines[3].find(R"("Properties":{})"), 15,
                   R"("Properties":{"spark.job.description":")" + huge + R"("})");
  lines.insert(lines.begin() + 2, R"({"Event":"SparkListenerEnvironmentUpdate","Spark Properties":{"spark.huge":")" +
                                      huge + R"("},"Hadoop Properties":{")" + huge + R"(":"v"}})");
  auto model = load_event_log(write("app-1", join_lines(lines)).string());
  ASSERT_TRUE(model) << model.error().message();
  const std::string mark = " [cut: " + std::to_string(huge.size()) + " bytes in all]";
  for (const std::string* name : {&model->app.spark_version, &model->app.name, &model->app.user}) {
    EXPECT_EQ(*name, huge.substr(0, eventlog::kMaxNameBytes) + mark);
  }
  EXPECT_EQ(model->app.id, "app-1");
  ASSERT_EQ(model->jobs.size(), 1u);
  EXPECT_EQ(model->jobs[0].description, huge.substr(0, eventlog::kMaxTextBytes) + mark);
  const std::string* property = model->environment.spark_property("spark.huge");
  ASSERT_NE(property, nullptr);
  EXPECT_EQ(*property, huge.substr(0, eventlog::kMaxTextBytes) + mark);
  ASSERT_EQ(model->environment.hadoop_properties.size(), 1u);
  EXPECT_EQ(model->environment.hadoop_properties[0].first, huge.substr(0, eventlog::kMaxNameBytes) + mark);
  EXPECT_EQ(model->stages.at(0).tasks_succeeded, 3);
}

TEST_F(LoadTest, DirectoryThatIsNotALog) {
  write("random/readme.txt", "hello");
  auto model = load_event_log((dir_ / "random").string());
  ASSERT_FALSE(model);
  EXPECT_NE(model.error().message().find("not an event log"), std::string::npos) << model.error().message();
}

// Writes `lines` as a rolling log: parts of `per_part` lines each, named as Spark names them.
fs::path write_rolling(const fs::path& root, const std::vector<std::string>& lines, size_t per_part, io::Codec codec,
                       const std::vector<size_t>& skip_parts = {}, bool in_progress = false) {
  fs::path dir = root / "eventlog_v2_app-1";
  fs::create_directories(dir);
  size_t part = 0;
  for (size_t start = 0; start < lines.size(); start += per_part) {
    ++part;
    std::vector<std::string> slice(
        lines.begin() + static_cast<std::ptrdiff_t>(start),
        lines.begin() + static_cast<std::ptrdiff_t>(std::min(lines.size(), start + per_part)));
    if (std::find(skip_parts.begin(), skip_parts.end(), part) != skip_parts.end()) continue;
    std::string name = "events_" + std::to_string(part) + "_app-1";
    if (codec != io::Codec::kNone) name += "." + std::string(io::codec_name(codec));
    std::ofstream(dir / name, std::ios::binary) << loggen::compress(codec, join_lines(slice), 50);
  }
  std::ofstream(dir / (in_progress ? "appstatus_app-1.inprogress" : "appstatus_app-1"));
  return dir;
}

TEST_F(LoadTest, RollingDirectoryInIndexOrder) {
  auto lines = small_log_lines(40);
  auto dir = write_rolling(dir_, lines, 7, io::Codec::kZstd, {}, /*in_progress=*/true);
  auto model = load_event_log(dir.string());
  ASSERT_TRUE(model) << model.error().message();
  EXPECT_EQ(model->source.layout, "rolling");
  EXPECT_TRUE(model->source.in_progress);
  EXPECT_EQ(model->source.parts.size(), (lines.size() + 6) / 7);
  EXPECT_EQ(model->source.parts.at(1).name, "events_2_app-1.zstd");
  EXPECT_EQ(model->stages.at(0).tasks_succeeded, 40);
  EXPECT_TRUE(model->app.finished);
}

TEST_F(LoadTest, RollingDirectoryWithAMissingMiddlePart) {
  auto dir = write_rolling(dir_, small_log_lines(40), 7, io::Codec::kNone, {3});
  auto model = load_event_log(dir.string());
  ASSERT_TRUE(model) << model.error().message();
  ASSERT_EQ(model->diagnostics.missing_parts.size(), 1u) << "the gap in part numbers is reported";
  EXPECT_NE(model->diagnostics.missing_parts[0].find("rolling parts 3 to 3 are missing"), std::string::npos)
      << model->diagnostics.missing_parts[0];
  EXPECT_EQ(model->stages.at(0).tasks_succeeded, 40 - 7);
}

TEST_F(LoadTest, RollingPartsThatCannotBeReadAreLeftOutWithAWarningAndTheRestKept) {
  // One rule for a part named as one that cannot be read, whatever the reason: it is reported as
  // missing (a warning and an incomplete-run finding) and every part that can be read is kept.
  auto dir = write_rolling(dir_, small_log_lines(40), 7, io::Codec::kNone, {3, 4});
  fs::create_directory(dir / "events_3_app-1");
  fs::create_symlink(dir / "loop-partner", dir / "events_4_app-1");
  fs::create_symlink(dir / "events_4_app-1", dir / "loop-partner");
  std::ofstream(dir / "events_99999999999999999999_app-1") << "{\"Event\":\"SparkListenerLogStart\"}\n";
  auto model = load_event_log(dir.string());
  ASSERT_TRUE(model) << model.error().message();
  const auto& missing = model->diagnostics.missing_parts;
  ASSERT_EQ(missing.size(), 3u);
  auto says = [&missing](const std::string& what) {
    return std::any_of(missing.begin(), missing.end(),
                       [&](const std::string& m) { return m.find(what) != std::string::npos; });
  };
  EXPECT_TRUE(says("events_99999999999999999999_app-1: its index does not fit in 64 bits"));
  EXPECT_TRUE(says("rolling part 3 (events_3_app-1) is a directory, not a file"));
  EXPECT_TRUE(says("rolling part 4 (events_4_app-1) is a loop of symbolic links"));
  EXPECT_EQ(model->stages.at(0).tasks_succeeded, 40 - 14);
}

TEST_F(LoadTest, RollingDirectoryReadsFromTheLastCompactPart) {
  auto lines = small_log_lines(10);
  fs::path dir = dir_ / "eventlog_v2_app-1";
  fs::create_directories(dir);
  // Parts 1 and 2 were compacted into 2.compact; part 3 follows.
  std::ofstream(dir / "events_1_app-1") << "{this part was compacted away and must not be read\n";
  std::vector<std::string> head(lines.begin(), lines.begin() + 8);
  std::vector<std::string> tail(lines.begin() + 8, lines.end());
  std::ofstream(dir / "events_2_app-1.compact") << join_lines(head);
  std::ofstream(dir / "events_3_app-1") << join_lines(tail);
  auto model = load_event_log(dir.string());
  ASSERT_TRUE(model) << model.error().message();
  EXPECT_EQ(model->diagnostics.malformed_lines, 0u);
  ASSERT_EQ(model->source.parts.size(), 2u);
  EXPECT_EQ(model->source.parts[0].name, "events_2_app-1.compact");
  EXPECT_EQ(model->stages.at(0).tasks_succeeded, 10);
}

TEST_F(LoadTest, DatabricksDirectory) {
  auto lines = small_log_lines(10);
  lines[0] =
      R"({"Event":"DBCEventLoggingListenerMetadata","Spark Version":"3.3.0","Timestamp":800,"Rollover Number":0,"SparkContext Id":1})";
  std::vector<std::string> first(lines.begin(), lines.begin() + 6), second(lines.begin() + 6, lines.begin() + 12),
      active(lines.begin() + 12, lines.end());
  write("db/eventlog-2021-06-15--15-00.gz", loggen::compress(io::Codec::kGzip, join_lines(first)));
  write("db/eventlog-2021-06-15--16-00.gz", loggen::compress(io::Codec::kGzip, join_lines(second)));
  write("db/eventlog", join_lines(active));
  auto model = load_event_log((dir_ / "db").string());
  ASSERT_TRUE(model) << model.error().message();
  EXPECT_EQ(model->source.layout, "databricks");
  ASSERT_EQ(model->source.parts.size(), 3u);
  EXPECT_EQ(model->source.parts[2].name, "eventlog");
  EXPECT_TRUE(model->app.databricks);
  EXPECT_EQ(model->app.spark_version, "3.3.0");
  EXPECT_EQ(model->stages.at(0).tasks_succeeded, 10);
}

// A zip as the History Server's /logs endpoint returns it, written with libarchive.
void write_zip(const fs::path& path, const std::vector<std::pair<std::string, std::string>>& entries) {
  archive* a = archive_write_new();
  archive_write_set_format_zip(a);
  ASSERT_EQ(archive_write_open_filename(a, path.c_str()), ARCHIVE_OK);
  for (const auto& [name, bytes] : entries) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, name.c_str());
    archive_entry_set_size(entry, static_cast<la_int64_t>(bytes.size()));
    archive_entry_set_filetype(entry, AE_IFREG);
    archive_entry_set_perm(entry, 0644);
    archive_write_header(a, entry);
    archive_write_data(a, bytes.data(), bytes.size());
    archive_entry_free(entry);
  }
  archive_write_close(a);
  archive_write_free(a);
}

TEST_F(LoadTest, HistoryServerZipOfARollingLog) {
  auto lines = small_log_lines(12);
  std::vector<std::string> a(lines.begin(), lines.begin() + 9), b(lines.begin() + 9, lines.end());
  const fs::path zip = dir_ / "eventLogs-app-1.zip";
  write_zip(zip, {{"eventlog_v2_app-1/events_2_app-1.zstd", loggen::compress(io::Codec::kZstd, join_lines(b))},
                  {"eventlog_v2_app-1/events_1_app-1.zstd", loggen::compress(io::Codec::kZstd, join_lines(a))},
                  {"eventlog_v2_app-1/appstatus_app-1", ""}});
  auto model = load_event_log(zip.string());
  ASSERT_TRUE(model) << model.error().message();
  EXPECT_EQ(model->source.layout, "zip");
  EXPECT_EQ(model->source.parts.at(0).name, "events_1_app-1.zstd");
  EXPECT_EQ(model->stages.at(0).tasks_succeeded, 12);
}

TEST_F(LoadTest, HistoryServerZipOfOneFile) {
  const fs::path zip = dir_ / "logs.zip";
  write_zip(zip, {{"app-1.lz4", loggen::compress(io::Codec::kLz4, join_lines(small_log_lines(4)))}});
  auto model = load_event_log(zip.string());
  ASSERT_TRUE(model) << model.error().message();
  EXPECT_EQ(model->stages.at(0).tasks_succeeded, 4);
}

TEST_F(LoadTest, ZipBombStopsWithAClearErrorAndKeepsWhatWasRead) {
  // A real log, then 16 MiB of blank lines: deflate packs them about 1000:1.
  std::string bomb = join_lines(small_log_lines(4));
  bomb.append(size_t{16} << 20, '\n');
  const fs::path zip = dir_ / "logs.zip";
  write_zip(zip, {{"app-1", bomb}});
  ASSERT_LT(fs::file_size(zip), size_t{1} << 20);
  LoadOptions options;
  options.decompress_limits.max_ratio = 10;
  auto model = load_event_log(zip.string(), options);
  ASSERT_TRUE(model) << model.error().message();
  ASSERT_TRUE(model->diagnostics.read_error);
  EXPECT_NE(model->diagnostics.read_error->find("logs.zip!app-1: the zip entry inflates past"), std::string::npos)
      << *model->diagnostics.read_error;
  EXPECT_EQ(model->stages.at(0).tasks_succeeded, 4) << "what was read before the limit stays";
  // The default ratio reads the same archive to its end.
  auto whole = load_event_log(zip.string());
  ASSERT_TRUE(whole) << whole.error().message();
  EXPECT_FALSE(whole->diagnostics.read_error) << *whole->diagnostics.read_error;
}

// Issue 21: a zstd bomb of zeros with no event before it said "none of its 1 lines is a Spark
// listener event (the only line is cut short)"; the limit it hit is why there is no event.
TEST_F(LoadTest, ABombWithNoEventBeforeItNamesTheLimitItHit) {
  const std::string zeros(size_t{64} << 20, '\0');
  for (const auto& [codec, extension] : std::vector<std::pair<io::Codec, std::string>>{
           {io::Codec::kZstd, "zstd"}, {io::Codec::kGzip, "gz"}, {io::Codec::kLz4, "lz4"}}) {
    const auto path = write("app-1." + extension, loggen::compress(codec, zeros));
    LoadOptions options;
    options.decompress_limits.max_ratio = 100;  // within what lz4 can reach (255:1)
    auto model = load_event_log(path.string(), options);
    ASSERT_FALSE(model) << extension;
    EXPECT_EQ(model.error().code(), StatusCode::kLimitExceeded) << model.error().message();
    EXPECT_NE(model.error().message().find("app-1." + extension + ": "), std::string::npos) << model.error().message();
    EXPECT_NE(model.error().message().find("decompression ratio passed 100:1"), std::string::npos)
        << model.error().message();
  }
}

TEST_F(LoadTest, ZipWithSeveralLogsAsksForOne) {
  const fs::path zip = dir_ / "logs.zip";
  write_zip(zip, {{"app-1_1", join_lines(small_log_lines(2))}, {"app-1_2", join_lines(small_log_lines(2))}});
  auto model = load_event_log(zip.string());
  ASSERT_FALSE(model);
  EXPECT_NE(model.error().message().find("2 event logs"), std::string::npos) << model.error().message();
}

TEST_F(LoadTest, UnreadableFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: file permissions cannot make a file unreadable";
  auto path = write("app-1", join_lines(small_log_lines(2)));
  fs::permissions(path, fs::perms::none);
  auto model = load_event_log(path.string());
  ASSERT_FALSE(model);
  EXPECT_NE(model.error().message().find("app-1"), std::string::npos);
}

TEST_F(LoadTest, CancellationStopsTheLoad) {
  auto path = write("app-1", join_lines(small_log_lines(20000)));
  std::atomic<bool> cancel{true};
  LoadOptions options;
  options.cancel = &cancel;
  auto model = load_event_log(path.string(), options);
  ASSERT_FALSE(model);
  EXPECT_EQ(model.error().code(), StatusCode::kCancelled);
}

}  // namespace
}  // namespace sf::model
