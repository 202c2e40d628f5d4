#include "corpus/field_tally.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <sstream>

namespace sf::corpus_testing {

namespace {

struct Recorded {
  TallyCounts counts;
  std::map<std::string, std::pair<std::string, int64_t>> skipped;
  std::map<std::string, std::pair<std::string, int64_t>> documented;
  std::map<std::string, std::pair<std::string, int64_t>> bounded;
};

// oracle -> file -> counts
std::map<std::string, std::map<std::string, Recorded>>& registry() {
  static std::map<std::string, std::map<std::string, Recorded>> recorded;
  return recorded;
}

std::string quoted(const std::string& text) {
  constexpr size_t kMax = 160;
  std::string shown =
      text.size() > kMax ? text.substr(0, kMax) + "...(" + std::to_string(text.size()) + " chars)" : text;
  return "\"" + shown + "\"";
}

bool equal(const FieldValue& a, const FieldValue& b) {
  // An integer and a real number compare by value (JSON does not keep the difference).
  if (std::holds_alternative<int64_t>(a) && std::holds_alternative<double>(b)) {
    return static_cast<double>(std::get<int64_t>(a)) == std::get<double>(b);
  }
  if (std::holds_alternative<double>(a) && std::holds_alternative<int64_t>(b)) return equal(b, a);
  return a == b;
}

void print_line(std::ostream& out, const std::string& oracle, const std::string& file, const TallyCounts& c) {
  out << "[fidelity] " << oracle << " | " << file << " | compared " << c.compared << " | matched " << c.matched
      << " | mismatched " << c.mismatched;
  if (c.bounded > 0) out << " | within documented bounds " << c.bounded;
  if (c.documented > 0) out << " | documented differences " << c.documented;
  out << " | skipped " << c.skipped << "\n";
}

// Prints the summary of the whole run after the last test.
class SummaryEnvironment : public ::testing::Environment {
 public:
  void TearDown() override {
    if (registry().empty()) return;
    std::cout << "\n[fidelity] ===== summary: fields compared against each oracle =====\n";
    print_tally_summary(std::cout);
  }
};

[[maybe_unused]] ::testing::Environment* const kSummaryEnvironment =
    ::testing::AddGlobalTestEnvironment(new SummaryEnvironment);

}  // namespace

TallyCounts& TallyCounts::operator+=(const TallyCounts& other) {
  compared += other.compared;
  matched += other.matched;
  mismatched += other.mismatched;
  documented += other.documented;
  bounded += other.bounded;
  skipped += other.skipped;
  return *this;
}

std::string describe(const FieldValue& value) {
  struct Visitor {
    std::string operator()(std::nullptr_t) const { return "(none)"; }
    std::string operator()(int64_t v) const { return std::to_string(v); }
    std::string operator()(double v) const {
      std::ostringstream out;
      out.precision(17);
      out << v;
      return out.str();
    }
    std::string operator()(bool v) const { return v ? "true" : "false"; }
    std::string operator()(const std::string& v) const { return quoted(v); }
    std::string operator()(const std::vector<int64_t>& v) const {
      std::string out = "[";
      for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
      return out + "]";
    }
    std::string operator()(const std::vector<std::string>& v) const {
      std::string out = "[";
      for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + quoted(v[i]);
      return out + "]";
    }
  };
  return std::visit(Visitor{}, value);
}

FieldTally::FieldTally(std::string oracle, std::string file) : oracle_(std::move(oracle)), file_(std::move(file)) {}

FieldTally::~FieldTally() {
  Recorded& recorded = registry()[oracle_][file_];
  recorded.counts += counts_;
  for (const auto& [field, entry] : skipped_) {
    auto& slot = recorded.skipped[field];
    slot.first = entry.first;
    slot.second += entry.second;
  }
  for (const auto& [field, entry] : documented_) {
    auto& slot = recorded.documented[field];
    slot.first = entry.first;
    slot.second += entry.second;
  }
  for (const auto& [field, entry] : bounded_) {
    auto& slot = recorded.bounded[field];
    slot.first = entry.first;
    slot.second += entry.second;
  }
  print_line(std::cout, oracle_, file_, counts_);
  for (const auto& [field, entry] : documented_) {
    std::cout << "[fidelity]   documented difference in " << field << " (" << entry.second << "x): " << entry.first
              << "\n";
  }
  for (const auto& [field, entry] : bounded_) {
    std::cout << "[fidelity]   bounded, not exact: " << field << " (" << entry.second << "x): " << entry.first << "\n";
  }
  for (const auto& [field, entry] : skipped_) {
    std::cout << "[fidelity]   not compared: " << field << " (" << entry.second << "x): " << entry.first << "\n";
  }
}

bool FieldTally::check(std::string_view where, std::string_view field, const FieldValue& oracle,
                       const FieldValue& model) {
  ++counts_.compared;
  if (equal(oracle, model)) {
    ++counts_.matched;
    return true;
  }
  ++counts_.mismatched;
  ADD_FAILURE() << oracle_ << " " << file_ << ": " << where << ": field " << field << ": oracle says "
                << describe(oracle) << ", model has " << describe(model);
  return false;
}

bool FieldTally::check_near(std::string_view where, std::string_view field, double oracle, double model,
                            double tolerance) {
  ++counts_.compared;
  if (std::fabs(oracle - model) <= tolerance) {
    ++counts_.matched;
    return true;
  }
  ++counts_.mismatched;
  ADD_FAILURE() << oracle_ << " " << file_ << ": " << where << ": field " << field << ": oracle says "
                << describe(oracle) << ", model gives " << describe(model) << " (tolerance " << tolerance << ")";
  return false;
}

bool FieldTally::check_range(std::string_view where, std::string_view field, double oracle, double low, double high,
                             std::string_view why) {
  ++counts_.compared;
  if (oracle >= low && oracle <= high) {
    if (low == high) {
      ++counts_.matched;
    } else {
      ++counts_.bounded;
      auto& slot = bounded_[std::string(field)];
      slot.first = std::string(why);
      ++slot.second;
    }
    return true;
  }
  ++counts_.mismatched;
  ADD_FAILURE() << oracle_ << " " << file_ << ": " << where << ": field " << field << ": oracle says "
                << describe(oracle) << ", outside the bound the model gives [" << describe(low) << ", "
                << describe(high) << "] (" << why << ")";
  return false;
}

bool FieldTally::check_documented(std::string_view where, std::string_view field, const FieldValue& oracle,
                                  const FieldValue& model, const FieldValue& documented, std::string_view reason) {
  ++counts_.compared;
  if (!equal(model, documented)) {
    ++counts_.mismatched;
    ADD_FAILURE() << oracle_ << " " << file_ << ": " << where << ": field " << field
                  << ": the model should hold its documented value " << describe(documented) << " but has "
                  << describe(model) << " (oracle says " << describe(oracle) << "; " << reason << ")";
    return false;
  }
  if (equal(oracle, model)) {
    ++counts_.matched;
    return true;
  }
  ++counts_.documented;
  auto& slot = documented_[std::string(field)];
  slot.first = std::string(reason);
  ++slot.second;
  return true;
}

void FieldTally::skip(std::string_view field, std::string_view reason) {
  ++counts_.skipped;
  auto& slot = skipped_[std::string(field)];
  slot.first = std::string(reason);
  ++slot.second;
}

void print_tally_summary(std::ostream& out) {
  for (const auto& [oracle, files] : registry()) {
    TallyCounts total;
    for (const auto& [file, recorded] : files) {
      print_line(out, oracle, file, recorded.counts);
      total += recorded.counts;
    }
    print_line(out, oracle, "TOTAL (" + std::to_string(files.size()) + " expectation files)", total);
  }
}

}  // namespace sf::corpus_testing
