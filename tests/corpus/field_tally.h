// Field-by-field comparison of the model with an oracle, with a tally per expectation file.
//
// Each comparison is counted (compared / matched / mismatched); a mismatch is a gtest failure
// that names the oracle, the expectation file, the entity and the field, with both values.
// Fields an oracle shows but the model does not hold are counted as skipped, with the reason,
// never compared loosely. When a FieldTally is destroyed it prints its summary line and adds
// its counts to a process-wide registry, which a gtest Environment prints at the end of the run.
//
// Not thread-safe: gtest runs the tests of one process on one thread.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace sf::corpus_testing {

// A value as an oracle or the model states it. null: the oracle or the model has no value.
using FieldValue =
    std::variant<std::nullptr_t, int64_t, double, bool, std::string, std::vector<int64_t>, std::vector<std::string>>;

std::string describe(const FieldValue& value);

struct TallyCounts {
  int64_t compared = 0;
  int64_t matched = 0;
  int64_t mismatched = 0;
  // Differences that are a documented model choice (docs/corpus-fidelity.md): the model's
  // documented value is asserted instead; counted apart from matches and mismatches.
  int64_t documented = 0;
  // Oracle figures the model cannot reproduce exactly but bounds (e.g. a sum of per-task
  // truncated values against the model's exact sum): matched when inside the bound.
  int64_t bounded = 0;
  int64_t skipped = 0;  // fields the oracle shows that the model does not hold

  TallyCounts& operator+=(const TallyCounts& other);
};

class FieldTally {
 public:
  FieldTally(std::string oracle, std::string file);
  ~FieldTally();
  FieldTally(const FieldTally&) = delete;
  FieldTally& operator=(const FieldTally&) = delete;

  // Compares one field exactly. Returns whether it matched; a mismatch fails the current test.
  bool check(std::string_view where, std::string_view field, const FieldValue& oracle, const FieldValue& model);

  // Compares a real number within an absolute tolerance (the oracle printed it rounded).
  bool check_near(std::string_view where, std::string_view field, double oracle, double model, double tolerance);

  // An oracle figure the model can only bound: within [low, high] is counted as bounded
  // (not as an exact match); outside is a mismatch.
  bool check_range(std::string_view where, std::string_view field, double oracle, double low, double high,
                   std::string_view why);

  // A field where the model differs from the oracle on purpose, as docs/corpus-fidelity.md
  // says: the model must hold `documented` (else the test fails); a difference from the oracle
  // is counted as documented, not as a mismatch.
  bool check_documented(std::string_view where, std::string_view field, const FieldValue& oracle,
                        const FieldValue& model, const FieldValue& documented, std::string_view reason);

  // A field the oracle shows that the model does not hold: counted with its reason.
  void skip(std::string_view field, std::string_view reason);

  const TallyCounts& counts() const { return counts_; }
  const std::string& file() const { return file_; }

 private:
  std::string oracle_;
  std::string file_;
  TallyCounts counts_;
  std::map<std::string, std::pair<std::string, int64_t>> skipped_;  // field -> reason, times
  std::map<std::string, std::pair<std::string, int64_t>> documented_;
  std::map<std::string, std::pair<std::string, int64_t>> bounded_;
};

// Prints every tally recorded so far in this process: one line per expectation file and a
// total per oracle.
void print_tally_summary(std::ostream& out);

}  // namespace sf::corpus_testing
