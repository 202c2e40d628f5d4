#include "corpus/json_structural_diff.h"

#include <algorithm>
#include <cmath>

namespace sf::corpus_testing {

namespace {

using nlohmann::json;

std::string shown(const json& value) {
  std::string text = value.dump();
  if (text.size() > 160) text = text.substr(0, 157) + "...";
  return text;
}

bool numbers_equal(const json& a, const json& b, double tolerance) {
  if (a.is_number_integer() && b.is_number_integer()) return a.get<int64_t>() == b.get<int64_t>();
  const double x = a.get<double>();
  const double y = b.get<double>();
  if (x == y) return true;
  return std::fabs(x - y) <= tolerance * std::max(std::fabs(x), std::fabs(y));
}

void compare(const json& expected, const json& got, const std::string& path, const std::set<std::string>& ignored,
             double tolerance, JsonComparison& out) {
  if (expected.is_object() && got.is_object()) {
    for (const auto& [key, value] : expected.items()) {
      if (ignored.contains(key)) continue;
      const std::string field = path + "." + key;
      if (!got.contains(key)) {
        ++out.values_compared;
        out.differences.push_back({field, shown(value), "(absent)"});
        continue;
      }
      compare(value, got.at(key), field, ignored, tolerance, out);
    }
    for (const auto& [key, value] : got.items()) {
      if (ignored.contains(key) || expected.contains(key)) continue;
      ++out.values_compared;
      out.differences.push_back({path + "." + key, "(absent)", shown(value)});
    }
    return;
  }
  if (expected.is_array() && got.is_array()) {
    if (expected.size() != got.size()) {
      ++out.values_compared;
      out.differences.push_back({path + ".length", std::to_string(expected.size()), std::to_string(got.size())});
    }
    for (size_t i = 0; i < std::min(expected.size(), got.size()); ++i) {
      compare(expected[i], got[i], path + "[" + std::to_string(i) + "]", ignored, tolerance, out);
    }
    return;
  }
  ++out.values_compared;
  const bool equal =
      expected.is_number() && got.is_number() ? numbers_equal(expected, got, tolerance) : expected == got;
  if (!equal) out.differences.push_back({path.empty() ? "(document)" : path, shown(expected), shown(got)});
}

}  // namespace

JsonComparison compare_json(const json& expected, const json& got, const std::set<std::string>& ignored_fields,
                            double relative_tolerance) {
  JsonComparison out;
  compare(expected, got, "", ignored_fields, relative_tolerance, out);
  return out;
}

std::string first_difference(const std::string& written, const std::string& reparsed) {
  size_t i = 0;
  while (i < written.size() && i < reparsed.size() && written[i] == reparsed[i]) ++i;
  const size_t from = i < 60 ? 0 : i - 60;
  std::string out = "at byte ";
  out.append(std::to_string(i)).append(":\n  written:  ").append(written, from, 120);
  out.append("\n  reparsed: ").append(reparsed, from, 120);
  return out;
}

}  // namespace sf::corpus_testing
