// The parallel loader and the accumulator-id saving change nothing: every way of loading a log
// gives the model the plainest way gives (one thread, streamed, every id handed over), byte for
// byte as the analysis JSON renders it. Checked on generated logs in every codec and layout, cut
// into batches from a few lines to the default, on damaged and cut logs, and on every log of the
// shared corpus.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "corpus/corpus_catalog.h"
#include "eventlog/event_batch.h"
#include "io/byte_stream.h"
#include "loggen/codec_writers.h"
#include "loggen/log_generator.h"
#include "model/load.h"
#include "model/part_reader.h"
#include "report/model_json.h"
#include "support/corpus.h"

namespace sf::model {
namespace {

namespace fs = std::filesystem;

std::string model_json(const std::string& path, const LoadOptions& options) {
  auto model = load_event_log(path, options);
  if (!model) return "error: " + model.error().message();
  report::JsonOptions json;
  json.indent = -1;
  return report::analysis_json(*model, nullptr, json);
}

// The plainest load: what every other way must reproduce.
LoadOptions reference_options() {
  LoadOptions options;
  options.threads = 1;
  options.omit_repeated_accumulator_ids = false;
  options.map_plain_files = false;
  return options;
}

struct Variant {
  const char* name;
  unsigned threads;
  size_t batch_bytes;
  bool map_plain_files;
  bool omit_repeated_accumulator_ids;
};

// Threads from 1 to 4, batches of a few lines to the default, each saving on and off.
constexpr Variant kVariants[] = {
    {"default", 0, 0, true, true},
    {"one thread", 1, 0, true, true},
    {"two threads, 4 KiB batches", 2, 4096, true, true},
    {"three threads, 64 KiB batches, streamed", 3, 65536, false, true},
    {"four threads, 4 KiB batches, ids all handed over", 4, 4096, true, false},
};

LoadOptions options_of(const Variant& v, size_t max_line_bytes = size_t{1} << 30) {
  LoadOptions options;
  options.threads = v.threads;
  options.batch_bytes = v.batch_bytes;
  options.map_plain_files = v.map_plain_files;
  options.omit_repeated_accumulator_ids = v.omit_repeated_accumulator_ids;
  options.max_line_bytes = max_line_bytes;
  return options;
}

void expect_every_variant_matches(const std::string& path, size_t max_line_bytes = size_t{1} << 30) {
  LoadOptions reference = reference_options();
  reference.max_line_bytes = max_line_bytes;
  const std::string expected = model_json(path, reference);
  ASSERT_FALSE(expected.starts_with("error:")) << path << ": " << expected;
  for (const Variant& v : kVariants) {
    const std::string got = model_json(path, options_of(v, max_line_bytes));
    EXPECT_TRUE(got == expected) << path << ": the model differs when loaded with " << v.name
                                 << " (first difference at byte "
                                 << std::distance(
                                        got.begin(),
                                        std::mismatch(got.begin(), got.end(), expected.begin(), expected.end()).first)
                                 << ")";
  }
}

class ParallelLoad : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sf-parallel-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

class EveryCodec : public ParallelLoad, public ::testing::WithParamInterface<io::Codec> {};

TEST_P(EveryCodec, FileAndRollingLayouts) {
  const io::Codec codec = GetParam();
  loggen::LogWriteOptions file;
  file.codec = codec;
  const auto single = loggen::write_event_log(loggen::GeneratorConfig::small(), file, dir_ / "file", nullptr);
  expect_every_variant_matches(single.path.string());

  loggen::LogWriteOptions rolling = file;
  rolling.layout = loggen::LogLayout::kRolling;
  rolling.rolling_max_part_bytes = 256 << 10;
  const auto rolled = loggen::write_event_log(loggen::GeneratorConfig::small(), rolling, dir_ / "rolling", nullptr);
  ASSERT_GT(rolled.parts.size(), 2u);
  expect_every_variant_matches(rolled.path.string());
}

INSTANTIATE_TEST_SUITE_P(Codecs, EveryCodec,
                         ::testing::Values(io::Codec::kNone, io::Codec::kZstd, io::Codec::kLz4, io::Codec::kSnappy,
                                           io::Codec::kLzf, io::Codec::kGzip),
                         [](const ::testing::TestParamInfo<io::Codec>& param_info) {
                           return std::string(io::codec_name(param_info.param));
                         });

TEST_F(ParallelLoad, DemoLogPlainAndZstd) {
  for (io::Codec codec : {io::Codec::kNone, io::Codec::kZstd}) {
    loggen::LogWriteOptions options;
    options.codec = codec;
    const auto log = loggen::write_event_log(loggen::GeneratorConfig::demo(), options,
                                             dir_ / std::string(io::codec_name(codec)), nullptr);
    expect_every_variant_matches(log.path.string());
  }
}

TEST_F(ParallelLoad, LargeStagesWithSpeculationAndFailures) {
  // Stages of 3,000 tasks: accumulator ids repeat across thousands of tasks and batches.
  loggen::GeneratorConfig config = loggen::GeneratorConfig::large(1, 3000);
  const auto log = loggen::write_event_log(config, {}, dir_, nullptr);
  expect_every_variant_matches(log.path.string());
}

TEST_F(ParallelLoad, InProgressLogsCutMidLine) {
  for (io::Codec codec : {io::Codec::kNone, io::Codec::kZstd, io::Codec::kLz4}) {
    const auto log = loggen::write_in_progress_log(loggen::GeneratorConfig::small(), codec, /*cut_last_line=*/true,
                                                   dir_ / std::string(io::codec_name(codec)), nullptr);
    expect_every_variant_matches(log.path.string());
  }
}

TEST_F(ParallelLoad, DamagedLinesBlankLinesCrLfAndAnOverLongLine) {
  std::vector<std::string> lines;
  loggen::generate(
      loggen::GeneratorConfig::small(), [&](std::string_view line) { lines.emplace_back(line); }, nullptr);
  // Damage spread over the log, so it falls inside batches and at their edges.
  for (size_t i = 7; i < lines.size(); i += 97) {
    switch ((i / 97) % 6) {
      case 0: lines[i] = lines[i].substr(0, lines[i].size() / 2) + "\n"; break;               // cut short
      case 1: lines[i] = "\n"; break;                                                         // blank
      case 2: lines[i].insert(lines[i].size() - 1, "\r"); break;                              // CRLF
      case 3: lines[i] = "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":\"x\"}\n"; break;  // wrong type
      case 4: lines[i].insert(lines[i].size() - 1, " trailing"); break;                       // text after the object
      case 5: lines[i] = std::string(100000, 'x') + "\n"; break;                              // over the limit below
    }
  }
  std::string text;
  for (const auto& line : lines) text += line;
  text += R"({"Event":"SparkListenerTaskEnd","Stage ID":1)";  // cut last line, no newline
  const fs::path path = dir_ / "app-damaged";
  std::ofstream(path, std::ios::binary) << text;
  expect_every_variant_matches(path.string(), /*max_line_bytes=*/65536);

  const fs::path zstd = dir_ / "app-damaged.zstd";
  std::ofstream(zstd, std::ios::binary) << loggen::compress(io::Codec::kZstd, text, 50);
  expect_every_variant_matches(zstd.string(), 65536);
}

// Issue 21: 20 MB of one-byte malformed lines took 1 GB with two threads (107 MB with one): every
// batch in flight kept a reason for each of its half-million lines, though the diagnostics list
// only the first 20 of the whole log. A batch keeps as many and counts the rest.
TEST(BatchOutcomeTest, ABatchOfMalformedLinesKeepsTheFirstFewAndCountsTheRest) {
  constexpr uint64_t kLines = 200000;
  std::string text;
  for (uint64_t i = 0; i < kLines; ++i) text += "x\n";
  text += R"({"Event":"SparkListenerTaskEnd","Stage ID":1)";  // the cut last line, kept apart
  auto stream = io::memory_stream(text);
  io::LineBatcher batcher(*stream, size_t{1} << 30, size_t{4} << 20);
  io::LineBatch batch;
  ASSERT_TRUE(batcher.next(batch));
  eventlog::Decoder decoder;
  eventlog::EventBatch events;
  events.set_text_range(batch.text);
  BatchOutcome outcome;
  decode_batch(batch, size_t{1} << 30, decoder, events, outcome);
  EXPECT_EQ(outcome.lines, kLines + 1);
  EXPECT_EQ(outcome.malformed_count, kLines);
  ASSERT_EQ(outcome.malformed.size(), BatchOutcome::kMaxMalformedKept);
  EXPECT_EQ(outcome.malformed.front().line_index, 0u);
  EXPECT_EQ(outcome.malformed.back().line_index, BatchOutcome::kMaxMalformedKept - 1);
  EXPECT_FALSE(outcome.malformed.back().reason.empty());
  ASSERT_TRUE(outcome.cut_short.has_value()) << "the cut last line is reported however many lines came before";
  EXPECT_EQ(outcome.cut_short->line_index, kLines);
}

TEST_F(ParallelLoad, ManyMalformedLinesAreCountedAndTheFirstListedWhateverTheBatches) {
  std::vector<std::string> lines;
  loggen::generate(
      loggen::GeneratorConfig::small(), [&](std::string_view line) { lines.emplace_back(line); }, nullptr);
  std::string text = lines.at(0) + lines.at(1);
  for (int i = 0; i < 100000; ++i) text += "x\n";
  for (size_t i = 2; i < lines.size(); ++i) text += lines[i];
  const fs::path path = dir_ / "app-malformed";
  std::ofstream(path, std::ios::binary) << text;
  expect_every_variant_matches(path.string());
  LoadOptions options;
  options.threads = 2;
  options.batch_bytes = 4096;
  auto model = load_event_log(path.string(), options);
  ASSERT_TRUE(model) << model.error().message();
  EXPECT_EQ(model->diagnostics.malformed_lines, 100000u);
  ASSERT_EQ(model->diagnostics.malformed.size(), Diagnostics::kMaxMalformedKept);
  EXPECT_EQ(model->diagnostics.malformed.front().line_number, 3u);
  EXPECT_EQ(model->diagnostics.malformed.back().line_number, 2 + Diagnostics::kMaxMalformedKept);
}

// A line of zeros longer than kControlByteCheckBytes is skipped for its first zero, whether the
// file is mapped or streamed, compressed or not, and whatever the batches: the same model.
TEST_F(ParallelLoad, ALongLineOfZerosIsSkippedTheSameWayEverywhere) {
  std::vector<std::string> lines;
  loggen::generate(
      loggen::GeneratorConfig::small(), [&](std::string_view line) { lines.emplace_back(line); }, nullptr);
  std::string text = lines.at(0) + lines.at(1);
  text += "{\"Event\":\"" + std::string(2 * io::kControlByteCheckBytes, '\0') + "\n";
  for (size_t i = 2; i < lines.size(); ++i) text += lines[i];
  text += std::string(3 * io::kControlByteCheckBytes, '\0');  // and a last line of zeros, cut
  const fs::path plain = dir_ / "app-zeros";
  std::ofstream(plain, std::ios::binary) << text;
  expect_every_variant_matches(plain.string());
  const fs::path gzip = dir_ / "app-zeros.gz";
  std::ofstream(gzip, std::ios::binary) << loggen::compress(io::Codec::kGzip, text);
  expect_every_variant_matches(gzip.string());
  auto model = load_event_log(gzip.string());
  ASSERT_TRUE(model) << model.error().message();
  ASSERT_EQ(model->diagnostics.malformed_lines, 2u) << "a skipped line is malformed, cut last or not";
  EXPECT_EQ(model->diagnostics.malformed.at(0).line_number, 3u);
  EXPECT_NE(model->diagnostics.malformed.at(0).reason.find("holds the control byte 0x00 at byte 10"), std::string::npos)
      << model->diagnostics.malformed.at(0).reason;
  EXPECT_EQ(
      model->diagnostics.malformed.at(1).reason.find("line of 3145728 bytes holds the control byte 0x00 at byte 0"), 0u)
      << model->diagnostics.malformed.at(1).reason;
  EXPECT_EQ(model->stages.size(), load_event_log(plain.string())->stages.size());
}

TEST_F(ParallelLoad, TruncatedCompressedFile) {
  loggen::LogWriteOptions options;
  options.codec = io::Codec::kZstd;
  const auto log = loggen::write_event_log(loggen::GeneratorConfig::small(), options, dir_ / "whole", nullptr);
  std::string bytes;
  {
    std::ifstream in(log.path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const fs::path cut = dir_ / (log.path.filename().string());
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() * 2 / 3);
  expect_every_variant_matches(cut.string());
}

// Every log of the shared corpus: what real Spark versions wrote, in all their field variants.
TEST(ParallelLoadCorpus, EveryCorpusLog) {
  const auto root = sf::testing::corpus_dir();
  if (!root) GTEST_SKIP() << sf::testing::corpus_missing_reason();
  const auto logs = corpus_testing::discover_corpus_logs(*root);
  ASSERT_FALSE(logs.empty());
  for (const auto& relative : logs) {
    SCOPED_TRACE(relative);
    const std::string path = (*root / relative).string();
    const std::string expected = model_json(path, reference_options());
    if (expected.starts_with("error:")) continue;  // the corpus tests say which logs must load
    // The default and small batches on two threads (the other variants are covered above; the
    // corpus is read often enough).
    for (const Variant* v : {&kVariants[0], &kVariants[2]}) {
      EXPECT_TRUE(model_json(path, options_of(*v)) == expected) << relative << ": differs with " << v->name;
    }
  }
}

}  // namespace
}  // namespace sf::model
