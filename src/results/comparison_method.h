// Comparison methods: their configuration, their outcome, and the verdicts they give.
//
// A method has a stable name and version; its whole configuration is copied into every
// verdict document so the document can be reproduced. Two methods exist:
// - "dispersion-scaled" v1 (history and run mode): a change is indicated when
//   |effect| > k x noise (dispersion_scaled.h);
// - "paired-ratio" v1 (run mode only): the ratio of the sides over paired rounds with a 95%
//   confidence interval, a verdict only when the interval excludes 1 and the effect passes a
//   minimum (paired_ratio.h).
// Deterministic quantities are compared exactly by both.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "results/result.h"

namespace sf::results {

enum class Verdict { kImproved, kRegressed, kChanged, kNoChangeDetected, kIndeterminate };
std::string_view to_string(Verdict verdict);  // improved, regressed, changed, no-change-detected, indeterminate

inline constexpr std::string_view kDispersionScaled = "dispersion-scaled";
inline constexpr std::string_view kPairedRatio = "paired-ratio";

struct MethodConfig {
  std::string name = std::string(kDispersionScaled);
  int version = 1;
  double k = 3.0;          // dispersion-scaled: indicated when |effect| > k x noise
  int64_t window = 20;     // history: at most this many nearest eligible reference points
  int64_t min_points = 5;  // history: reference points needed to estimate noise;
                           // run mode: paired rounds needed
  // dispersion-scaled, history: relative noise assumed when there are fewer than min_points
  // (but at least one) reference points; the output marks the estimate provisional.
  std::optional<double> provisional_relative_noise;
  double min_effect = 0.01;                              // paired-ratio: |ratio - 1| below this is no change detected
  std::string ordering = "ancestry-or-native";           // or "ancestry" (never fall back), or "native"
  std::string duplicates = "reject";                     // or "mean": a revision's points are averaged
  std::vector<std::string> reference_statuses = {"ok"};  // statuses a reference point may have
};

// Reads {"method": "...", "k": 3, ...} over `start` (a key the text does not name keeps start's
// value); unknown keys and out-of-range values are errors naming `source` and the key.
Result<MethodConfig> parse_method_config(std::string_view text, std::string_view source,
                                         const MethodConfig& start = {});
// Checks ranges and names; used by the parser and by the CLI after flag overrides.
Status validate(const MethodConfig& config);

// One attempt of each side, paired by procedure.round.
struct Pair {
  int64_t round = 0;
  double baseline = 0;
  double target = 0;
};

// What a method says about one target: every number that led to the verdict.
struct MethodOutcome {
  std::optional<double> reference_estimate;
  std::optional<double> target_estimate;
  std::string effect_measure;  // "relative", "absolute", "ratio"
  std::optional<double> effect;
  std::optional<double> noise;  // on the effect's scale
  std::string noise_source;
  bool provisional = false;
  std::optional<double> threshold;     // the |effect| an indicated change must exceed
  std::optional<double> interval_low;  // paired-ratio: 95% interval of the ratio
  std::optional<double> interval_high;
  int64_t evidence_count = 0;  // reference points or pairs used
  Verdict verdict = Verdict::kIndeterminate;
  std::string reason;
};

// improved or regressed for a directed quantity, changed otherwise; `effect` > 0 means the
// target is larger than the reference.
Verdict directed_verdict(double effect, Direction direction);

}  // namespace sf::results
