#include "service/read_settings.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "analysis/settings/thresholds.h"

namespace sf::service {
namespace {

TEST(ReadSettings, AFlagWinsOverTheDocumentAndTheDocumentOverTheDefault) {
  const std::string document = R"({"limits": {"maxLineBytes": 4096, "maxOpenTasks": 77}})";
  ReadFlags flags;
  flags.max_line_bytes = 1024;
  flags.threads = 1;
  auto settings = read_settings(ConfigDocument::of_text(document), flags);
  ASSERT_TRUE(settings) << settings.error().message();
  EXPECT_EQ(settings->load.max_line_bytes, 1024u);                     // the flag
  EXPECT_EQ(settings->load.builder_limits.max_open_task_values, 77u);  // the document
  EXPECT_EQ(settings->load.decompress_limits.max_ratio, model::LoadOptions{}.decompress_limits.max_ratio);
  EXPECT_EQ(settings->load.threads, 1u);
}

TEST(ReadSettings, TextAndFileGiveTheSameSettings) {
  const std::string document = R"({"thresholds": {"skew.maxToMedianRatio": 7}})";
  const std::string path = ::testing::TempDir() + "/read_settings_test.json";
  std::ofstream(path) << document;
  auto from_text = read_settings(ConfigDocument::of_text(document));
  auto from_file = read_settings(ConfigDocument::file(path));
  ASSERT_TRUE(from_text && from_file);
  EXPECT_EQ(from_text->analysis.overridden_thresholds, from_file->analysis.overridden_thresholds);
  EXPECT_EQ(from_text->analysis.overridden_thresholds, std::vector<std::string>{"skew.maxToMedianRatio"});
}

TEST(ReadSettings, AnErrorNamesWhereTheDocumentCameFromAndTheKey) {
  auto settings = read_settings(ConfigDocument::of_text(R"({"limits": {"maxLineByte": 1}})", "notebook config"));
  ASSERT_FALSE(settings);
  EXPECT_NE(settings.error().message().find("notebook config"), std::string::npos) << settings.error().message();
  EXPECT_NE(settings.error().message().find("maxLineByte"), std::string::npos) << settings.error().message();
  auto missing = read_settings(ConfigDocument::file(::testing::TempDir() + "/no-such-config.json"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), StatusCode::kNotFound);
}

TEST(ReadSettings, NoDocumentIsTheDefaults) {
  auto settings = read_settings({});
  ASSERT_TRUE(settings);
  EXPECT_EQ(settings->load.max_line_bytes, model::LoadOptions{}.max_line_bytes);
  EXPECT_TRUE(settings->analysis.overridden_thresholds.empty());
}

}  // namespace
}  // namespace sf::service
