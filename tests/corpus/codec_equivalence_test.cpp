// A log re-encoded in another codec or re-packaged in another layout gives exactly the model of
// its source log: the whole analysis document is compared, less its "source" object (file
// names, codecs and sizes, which differ by construction).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "corpus/corpus_catalog.h"
#include "corpus/model_cache.h"
#include "report/model_json.h"
#include "support/corpus.h"

namespace sf::corpus_testing {
namespace {

struct SameModelPair {
  std::string_view copy;    // re-encoded or re-packaged
  std::string_view source;  // the log it was made from
};

constexpr std::string_view kAqeShuffle =
    "NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/aqeshuffle_eventlog.zstd";
constexpr std::string_view kSpark41 =
    "kubeflow__mcp-apache-spark-history-server/skills/cli/e2e/spark-events/local-1776286786993.zstd";
constexpr std::string_view kTasksFail =
    "NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling/"
    "tasks_executors_fail_compressed_eventlog.zstd";

const std::vector<SameModelPair>& pairs() {
  static const std::vector<SameModelPair> list = {
      {"codecs/local-1422981780767.lz4", "spark-events/local-1422981780767"},
      {"codecs/local-1422981780767.snappy", "spark-events/local-1422981780767"},
      {"codecs/local-1422981780767.lzf", "spark-events/local-1422981780767"},
      {"codecs/local-1651694304852.lz4", kAqeShuffle},
      {"codecs/local-1651694304852.snappy", kAqeShuffle},
      {"codecs/local-1651694304852.lzf", kAqeShuffle},
      {"codecs/local-1776286786993.lz4", kSpark41},
      {"codecs/local-1776286786993.snappy", kSpark41},
      {"codecs/application_1603128018386_7846.lz4", kTasksFail},
      {"codecs/eventlog_v2_local-1642039451826", "spark-events/local-1642039451826"},
      // The Databricks-layout directory holds the same application as the rolling directory.
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/db_sim_eventlog",
       "NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/"
       "eventlog_v2_local-1623876083964"},
  };
  return list;
}

// gtest prints a failing case's parameter with this.
void PrintTo(const SameModelPair& pair, std::ostream* out) { *out << pair.copy << " vs " << pair.source; }

// The analysis document without what depends on the file layout.
nlohmann::json comparable_document(const model::AppModel& m) {
  auto doc = nlohmann::json::parse(report::analysis_json(m, nullptr));
  doc.erase("source");
  return doc;
}

class SameModel : public ::testing::TestWithParam<SameModelPair> {};

TEST_P(SameModel, AsItsSourceLog) {
  const SameModelPair& pair = GetParam();
  SF_REQUIRE_CORPUS_FILE(copy_path, std::string(pair.copy));
  SF_REQUIRE_CORPUS_FILE(source_path, std::string(pair.source));
  const auto& copy = cached_model(copy_path);
  const auto& source = cached_model(source_path);
  ASSERT_TRUE(copy.has_value()) << pair.copy << ": " << copy.error().message();
  ASSERT_TRUE(source.has_value()) << pair.source << ": " << source.error().message();

  // The same lines were read, whatever the layout.
  uint64_t copy_bytes = 0, source_bytes = 0;
  for (const auto& part : copy->source.parts) copy_bytes += part.uncompressed_bytes;
  for (const auto& part : source->source.parts) source_bytes += part.uncompressed_bytes;
  EXPECT_EQ(copy_bytes, source_bytes) << pair.copy << " vs " << pair.source << ": uncompressed bytes";

  const auto a = comparable_document(*copy);
  const auto b = comparable_document(*source);
  if (a == b) return;
  const auto patch = nlohmann::json::diff(b, a);
  std::string shown;
  size_t count = 0;
  for (const auto& op : patch) {
    if (++count > 25) {
      shown += "\n  ... " + std::to_string(patch.size() - 25) + " more";
      break;
    }
    std::string value = op.contains("value") ? op["value"].dump() : "";
    if (value.size() > 200) value = value.substr(0, 200) + "...";
    const std::string path = op["path"].get<std::string>();
    std::string before;
    if (op["op"] != "add") {
      before = b.at(nlohmann::json::json_pointer(path)).dump();
      if (before.size() > 200) before = before.substr(0, 200) + "...";
    }
    shown += "\n  " + op["op"].get<std::string>() + " " + path + ": source " + before + " -> copy " + value;
  }
  ADD_FAILURE() << pair.copy << " does not give the model of " << pair.source << " (" << patch.size()
                << " differences in the analysis document, source -> copy):" << shown;
}

INSTANTIATE_TEST_SUITE_P(Corpus, SameModel, ::testing::ValuesIn(pairs()),
                         [](const ::testing::TestParamInfo<SameModelPair>& param_info) {
                           return log_test_name(param_info.param.copy);
                         });

}  // namespace
}  // namespace sf::corpus_testing
