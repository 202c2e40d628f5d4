// The threshold registry and config files: every field named once, overrides applied, and
// every mistake in a config file an error that names the file and the key.
#include "analysis/thresholds.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace sf::analysis {
namespace {

std::string write_config(const std::string& name, const std::string& text) {
  auto path = std::filesystem::temp_directory_path() / ("sf-thresholds-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(path) << text;
  return path.string();
}

TEST(Thresholds, RegistryNamesAreUniqueAndCoverDistinctFields) {
  std::set<std::string_view> names;
  // Member pointers have no order; a field's address in one instance stands for it.
  Thresholds probe;
  std::set<const double*> fields;
  for (const auto& info : threshold_registry()) {
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_TRUE(fields.insert(&(probe.*(info.field))).second) << info.name;
    EXPECT_FALSE(info.description.empty()) << info.name;
    EXPECT_NE(info.name.find('.'), std::string_view::npos) << info.name;
  }
  // Every double member of Thresholds is registered (the struct holds nothing else).
  EXPECT_EQ(names.size() * sizeof(double), sizeof(Thresholds));
}

TEST(Thresholds, OverridesApply) {
  std::vector<std::string> overridden;
  auto t = load_thresholds(write_config("ok.json", R"({"thresholds": {"skew.maxToMedianRatio": 4, "gc.warnRatio": 0.2}})"),
                           overridden);
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_DOUBLE_EQ(t->skew_max_to_median_ratio, 4);
  EXPECT_DOUBLE_EQ(t->gc_warn_ratio, 0.2);
  EXPECT_DOUBLE_EQ(t->spill_min_disk_bytes, Thresholds{}.spill_min_disk_bytes);
  EXPECT_EQ(overridden.size(), 2u);
}

TEST(Thresholds, MistakesNameTheFileAndKey) {
  std::vector<std::string> overridden;
  auto unknown = load_thresholds(write_config("unknown.json", R"({"thresholds": {"skew.maxToMedianRatoi": 4}})"), overridden);
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message().find("skew.maxToMedianRatoi"), std::string::npos);
  EXPECT_NE(unknown.error().message().find("unknown.json"), std::string::npos);
  auto wrong_type = load_thresholds(write_config("type.json", R"({"thresholds": {"gc.warnRatio": "high"}})"), overridden);
  ASSERT_FALSE(wrong_type);
  EXPECT_NE(wrong_type.error().message().find("must be a number"), std::string::npos);
  auto negative = load_thresholds(write_config("neg.json", R"({"thresholds": {"gc.warnRatio": -1}})"), overridden);
  ASSERT_FALSE(negative);
  // Found by fuzz_thresholds_config: a number too large for a double threw out of the parser.
  auto overflow = load_thresholds(write_config("huge.json", R"({"thresholds": {"gc.warnRatio": 1E3333333}})"), overridden);
  ASSERT_FALSE(overflow);
  EXPECT_NE(overflow.error().message().find("huge.json: not valid JSON"), std::string::npos) << overflow.error().message();
  auto not_json = load_thresholds(write_config("bad.json", "{thresholds:"), overridden);
  ASSERT_FALSE(not_json);
  EXPECT_NE(not_json.error().message().find("not valid JSON"), std::string::npos);
  auto stray = load_thresholds(write_config("stray.json", R"({"threshold": {}})"), overridden);
  ASSERT_FALSE(stray);
  auto missing = load_thresholds("/nonexistent/sf.json", overridden);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace sf::analysis
