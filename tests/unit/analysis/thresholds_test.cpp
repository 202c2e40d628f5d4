// The threshold registry and config files: every field named once, overrides applied, and
// every mistake in a config file an error that names the file and the key.
#include "analysis/settings/thresholds.h"
#include "analysis/analysis_config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "common/units.h"

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
  auto options = load_analysis_options(
      write_config("ok.json", R"({"thresholds": {"skew.maxToMedianRatio": 4, "gc.warnRatio": 0.2}})"));
  ASSERT_TRUE(options) << options.error().message();
  const Thresholds& t = options->thresholds;
  EXPECT_DOUBLE_EQ(t.skew_max_to_median_ratio, 4);
  EXPECT_DOUBLE_EQ(t.gc_warn_ratio, 0.2);
  EXPECT_DOUBLE_EQ(t.spill_min_disk_bytes, Thresholds{}.spill_min_disk_bytes);
  EXPECT_EQ(options->overridden_thresholds.size(), 2u);
}

TEST(Thresholds, MistakesNameTheFileAndKey) {
  auto unknown = load_analysis_options(write_config("unknown.json", R"({"thresholds": {"skew.maxToMedianRatoi": 4}})"));
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message().find("skew.maxToMedianRatoi"), std::string::npos);
  EXPECT_NE(unknown.error().message().find("unknown.json"), std::string::npos);
  auto wrong_type = load_analysis_options(write_config("type.json", R"({"thresholds": {"gc.warnRatio": "high"}})"));
  ASSERT_FALSE(wrong_type);
  EXPECT_NE(wrong_type.error().message().find("must be a number"), std::string::npos);
  auto negative = load_analysis_options(write_config("neg.json", R"({"thresholds": {"gc.warnRatio": -1}})"));
  ASSERT_FALSE(negative);
  // Found by fuzz_thresholds_config: a number too large for a double threw out of the parser.
  auto overflow = load_analysis_options(write_config("huge.json", R"({"thresholds": {"gc.warnRatio": 1E3333333}})"));
  ASSERT_FALSE(overflow);
  EXPECT_NE(overflow.error().message().find("huge.json: not valid JSON"), std::string::npos)
      << overflow.error().message();
  auto not_json = load_analysis_options(write_config("bad.json", "{thresholds:"));
  ASSERT_FALSE(not_json);
  EXPECT_NE(not_json.error().message().find("not valid JSON"), std::string::npos);
  auto stray = load_analysis_options(write_config("stray.json", R"({"threshold": {}})"));
  ASSERT_FALSE(stray);
  auto missing = load_analysis_options("/nonexistent/sf.json");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), StatusCode::kNotFound);
}

// docs/thresholds.md, written from the registry: every threshold with its unit, default and
// meaning, and the detector reference that explains it (the first page under docs/ that names it).
std::string text_of(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Whether `text` names the threshold as a whole word ("skew.minTasks", not "skew.minTasksX").
bool names_threshold(const std::string& text, std::string_view name) {
  const auto is_name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.'; };
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    const size_t end = at + name.size();
    if ((at == 0 || !is_name_char(text[at - 1])) && (end == text.size() || !is_name_char(text[end]))) return true;
  }
  return false;
}

// "30000", "0.05", "134217728 (128 MiB)".
std::string default_text(double value, std::string_view unit) {
  std::string text =
      value == std::floor(value) && std::abs(value) < 1e15 ? fmt::format("{:.0f}", value) : fmt::format("{:g}", value);
  if (unit == "bytes" && value >= 1024) text += " (" + units::format_bytes(static_cast<int64_t>(value)) + ")";
  return text;
}

std::string thresholds_page() {
  const std::filesystem::path docs = std::filesystem::path(SF_SOURCE_DIR) / "docs";
  std::vector<std::filesystem::path> references;
  for (const auto& entry : std::filesystem::directory_iterator(docs / "detectors")) references.push_back(entry.path());
  std::sort(references.begin(), references.end());
  references.push_back(docs / "impact-model.md");
  std::vector<std::pair<std::string, std::string>> texts;
  for (const auto& path : references) {
    texts.emplace_back(std::filesystem::relative(path, docs).string(), text_of(path));
  }
  const Thresholds defaults;
  std::ostringstream out;
  out << "# Thresholds\n\n"
      << "Written from the registry in `src/analysis/settings/thresholds.cpp` by\n"
      << "`Thresholds.TheReferencePageIsTheRegistry` (`SF_UPDATE_GOLDEN=1` rewrites it). Every one can be\n"
      << "overridden with `analyze --config FILE` (`{\"thresholds\": {\"NAME\": VALUE}}`); a finding names\n"
      << "the ones that decided it. \"Explained in\" is the reference page that says how it is used.\n\n"
      << "| threshold | unit | default | what it is | explained in |\n|---|---|---|---|---|\n";
  for (const ThresholdInfo& info : threshold_registry()) {
    std::string explained = "(nowhere)";
    for (const auto& [name, text] : texts) {
      if (!names_threshold(text, info.name)) continue;
      explained = fmt::format("[{}]({})", name, name);
      break;
    }
    out << "| `" << info.name << "` | " << info.unit << " | " << default_text(defaults.*(info.field), info.unit)
        << " | " << info.description << " | " << explained << " |\n";
  }
  return out.str();
}

TEST(Thresholds, TheReferencePageIsTheRegistry) {
  const std::filesystem::path page = std::filesystem::path(SF_SOURCE_DIR) / "docs" / "thresholds.md";
  const std::string expected = thresholds_page();
  EXPECT_EQ(expected.find("(nowhere)"), std::string::npos) << "a threshold no reference page explains:\n" << expected;
  if (const char* update = std::getenv("SF_UPDATE_GOLDEN"); update != nullptr && std::string(update) == "1") {
    std::ofstream(page) << expected;
    GTEST_SKIP() << "rewrote " << page << ": review the diff";
  }
  EXPECT_EQ(text_of(page), expected) << page << " is not the registry: SF_UPDATE_GOLDEN=1 rewrites it";
}

}  // namespace
}  // namespace sf::analysis
