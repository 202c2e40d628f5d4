// The wording of every figure, one table for C++ and the dashboard: tests/golden/figure_words.json.
// Each case's text is what the library writes; web/tests/figure_words.mjs checks that the
// dashboard's format.ts writes the same. SF_UPDATE_GOLDEN=1 rewrites the texts from the library
// (review the diff: the dashboard's test then says where it disagrees).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "common/units.h"
#include "report/economics_text.h"

namespace sf {
namespace {

using nlohmann::ordered_json;

std::string words_of(const std::string& kind, const ordered_json& c) {
  if (kind == "duration") return units::format_duration_ms(c[0].get<int64_t>());
  if (kind == "bytes") return units::format_bytes(c[0].get<int64_t>());
  if (kind == "count") return units::format_count(c[0].get<int64_t>());
  if (kind == "percent") return units::format_percent(c[0].get<double>());
  if (kind == "money") return report::format_money(c[0].get<double>(), c[1].get<std::string>());
  ADD_FAILURE() << "no wording for figures of kind " << kind;
  return "";
}

TEST(FigureWords, EveryCaseIsTheLibrarys) {
  const std::filesystem::path path = std::filesystem::path(SF_SOURCE_DIR) / "tests" / "golden" / "figure_words.json";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::stringstream text;
  text << in.rdbuf();
  ordered_json table = ordered_json::parse(text.str());
  const bool update = std::getenv("SF_UPDATE_GOLDEN") != nullptr && std::string(std::getenv("SF_UPDATE_GOLDEN")) == "1";
  size_t cases = 0;
  for (auto& [kind, list] : table.items()) {
    if (kind == "about") continue;
    for (ordered_json& c : list) {
      const std::string words = words_of(kind, c);
      ordered_json& expected = c.back();
      if (update) expected = words;
      EXPECT_EQ(expected.get<std::string>(), words) << kind << " " << c.dump() << ": SF_UPDATE_GOLDEN=1 rewrites it";
      ++cases;
    }
  }
  EXPECT_GT(cases, 30u);
  if (update) {
    std::ofstream out(path);
    // One case a line: the table reads as a list.
    out << "{\n  \"about\": " << table["about"].dump();
    for (auto& [kind, list] : table.items()) {
      if (kind == "about") continue;
      out << ",\n  \"" << kind << "\": [";
      for (size_t i = 0; i < list.size(); ++i) out << (i == 0 ? "" : ", ") << list[i].dump();
      out << "]";
    }
    out << "\n}\n";
  }
}

}  // namespace
}  // namespace sf
