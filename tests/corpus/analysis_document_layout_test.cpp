// The analysis document of every corpus log is written by a streaming writer (common/json_writer.h)
// with no tree in between. Its bytes must be what nlohmann::json gives when it parses the document
// and dumps it again with the same indent: one layout policy, pretty and compact, whatever the log
// holds (control characters, invalid UTF-8, repeated keys, doubles of any size); streamed in
// pieces, as analyze writes it, the same bytes. One case per log.
// The timeline the HTML page inlines beside it (report/timeline_json.h) is held to the same policy,
// with its members in their documented order and its times integers.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/analyzer.h"
#include "common/json_writer.h"
#include "corpus/corpus_catalog.h"
#include "corpus/json_structural_diff.h"
#include "corpus/model_cache.h"
#include "report/model_json.h"
#include "report/timeline_json.h"
#include "support/corpus.h"

namespace sf::corpus_testing {
namespace {

using Json = nlohmann::ordered_json;

// analyze -f json streams the document to its output: the pieces, in order, are `whole`, and each
// but the last is at least JsonWriter::kDrainBytes, whether the analysis is in hand or being made.
void expect_streamed_in_pieces(const model::AppModel& model, const analysis::Analysis& analysis,
                               const report::JsonOptions& options, const std::string& whole, std::string_view log) {
  std::vector<std::string> pieces;
  const report::TextSink collect = [&](std::string_view text) { pieces.emplace_back(text); };
  report::stream_analysis_json(model, &analysis, options, collect);
  const size_t streamed_pieces = pieces.size();
  report::stream_analysis_json_while_analyzing(
      model, [&]() -> const analysis::Analysis& { return analysis; }, options, collect);
  std::string first, second;
  for (size_t i = 0; i < pieces.size(); ++i) {
    (i < streamed_pieces ? first : second) += pieces[i];
    const bool last_of_its_document = i + 1 == streamed_pieces || i + 1 == pieces.size();
    if (!last_of_its_document) {
      EXPECT_GE(pieces[i].size(), JsonWriter::kDrainBytes) << log << " piece " << i;
    }
  }
  EXPECT_TRUE(first == whole) << log << " indent " << options.indent << " " << first_difference(first, whole);
  EXPECT_TRUE(second == whole) << log << " indent " << options.indent << " " << first_difference(second, whole);
}

class AnalysisDocumentLayout : public ::testing::TestWithParam<CorpusLog> {};

TEST_P(AnalysisDocumentLayout, IsNlohmannsDumpOfTheSameDocument) {
  const CorpusLog& log = GetParam();
  SF_REQUIRE_CORPUS_FILE(path, std::string(log.path));
  const auto& model = cached_model(path);
  ASSERT_TRUE(model.has_value()) << log.path << ": " << model.error().message();
  const analysis::Analysis analysis = analysis::analyze(*model);
  for (int indent : {2, -1}) {
    report::JsonOptions options;
    options.indent = indent;
    const std::string written = report::analysis_json(*model, &analysis, options);
    Json parsed;
    ASSERT_NO_THROW(parsed = Json::parse(written))
        << log.path << ": the document is not JSON (indent " << indent << ")";
    const std::string reparsed = parsed.dump(indent, ' ', false, Json::error_handler_t::replace) + "\n";
    ASSERT_EQ(written.size(), reparsed.size())
        << log.path << " indent " << indent << " " << first_difference(written, reparsed);
    ASSERT_TRUE(written == reparsed) << log.path << " indent " << indent << " " << first_difference(written, reparsed);
    expect_streamed_in_pieces(*model, analysis, options, written, log.path);
  }
}

TEST_P(AnalysisDocumentLayout, TimelineIsNlohmannsDumpOfTheSameDocument) {
  const CorpusLog& log = GetParam();
  SF_REQUIRE_CORPUS_FILE(path, std::string(log.path));
  const auto& model = cached_model(path);
  ASSERT_TRUE(model.has_value()) << log.path << ": " << model.error().message();
  const std::string written = report::timeline_json(*model);
  Json parsed;
  ASSERT_NO_THROW(parsed = Json::parse(written)) << log.path << ": the timeline is not JSON";
  const std::string reparsed = parsed.dump(-1, ' ', false, Json::error_handler_t::replace);
  ASSERT_TRUE(written == reparsed) << log.path << " " << first_difference(written, reparsed);
  std::string keys;
  for (const auto& [key, value] : parsed.items()) keys += key + " ";
  EXPECT_EQ(keys, "kind schemaVersion stages coresAllocated coresBusy ");
  for (const Json& stage : parsed["stages"]) {
    keys.clear();
    for (const auto& [key, value] : stage.items()) keys += key + " ";
    ASSERT_EQ(keys, "stageId attemptId startMs endMs gate coreWeight windowCores ") << log.path;
    ASSERT_TRUE(stage["startMs"].is_number_integer()) << log.path;
  }
  for (const char* series : {"coresAllocated", "coresBusy"}) {
    for (const Json& step : parsed[series]) {
      ASSERT_TRUE(step.size() == 2 && step[0].is_number_integer() && step[1].is_number_float())
          << log.path << " " << series;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, AnalysisDocumentLayout, ::testing::ValuesIn(corpus_logs()),
                         [](const ::testing::TestParamInfo<CorpusLog>& param_info) {
                           return log_test_name(param_info.param.path);
                         });

}  // namespace
}  // namespace sf::corpus_testing
