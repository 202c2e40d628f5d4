// Finding: one problem a detector saw, what it costs, and what to change.
//
// A detector fills in what it knows (type, rule, scope, evidence, recommendation, and a
// WasteClaim: the formula's magnitude, per stage where it is stage-tied). The impact estimator
// then turns the claim into an ImpactEstimate (basis, wall-clock range, raw waste) with the
// occupancy model of docs/impact-model.md, and the analyzer sets the impact band. Findings are
// plain values, rendered by src/report like every other document.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sf::analysis {

enum class Scope { kApp, kStage, kSql, kConfig };
enum class Confidence { kLow, kMedium, kHigh };
enum class ImpactBand { kCritical, kHigh, kMedium, kLow, kInfo };

// How the wall-clock figure was reached; see the impact specification.
enum class Basis {
  kSerial,         // the stage ran alone: low == high
  kContended,      // it shared the cluster: high optimistic, low the guaranteed floor
  kResourceOnly,   // no defensible wall-clock claim; the magnitude is in raw_waste
  kInformational,  // nothing to quantify
};

// How the formula's magnitude was derived (distinct from how much to trust the finding).
enum class EstimateMethod {
  kMeasured,  // recorded per-stage fields
  kModeled,   // an assumed constant (a throughput) applied to measured fields
  kNone,      // informational: no formula
};

enum class WasteUnit { kMs, kCoreMs, kBytes, kCoreHours, kMbSeconds };

std::string_view to_string(Scope scope);            // app, stage, sql, config
std::string_view to_string(Confidence confidence);  // low, medium, high
std::string_view to_string(ImpactBand band);        // critical, high, medium, low, info
std::string_view to_string(Basis basis);            // serial, contended, resourceOnly, informational
std::string_view to_string(EstimateMethod method);  // measured, modeled, none
std::string_view to_string(WasteUnit unit);         // ms, coreMs, bytes, coreHours, mbSeconds

struct RawWaste {
  double value = 0;
  WasteUnit unit = WasteUnit::kMs;
};

struct WallClockRange {
  double low_ms = 0;
  double high_ms = 0;
};

struct ImpactEstimate {
  Basis basis = Basis::kInformational;
  std::optional<WallClockRange> wall_clock;  // nullopt for resourceOnly and informational
  EstimateMethod method = EstimateMethod::kNone;
  std::optional<RawWaste> raw_waste;
};

// A stage attempt, as findings name them.
struct StageRef {
  int64_t stage_id = 0;
  int32_t attempt_id = 0;
  bool operator==(const StageRef&) const = default;
  auto operator<=>(const StageRef&) const = default;
};

// What a detector claims, before the impact estimator clips and gates it.
struct WasteClaim {
  enum class Kind {
    kStages,         // wall-clock waste on each named stage attempt (gate-clipped)
    kSerial,         // wall-clock waste that overlaps no stage (cold start): reported as is
    kResourceOnly,   // a cost with no wall-clock claim: raw only
    kInformational,  // nothing to quantify
  };
  Kind kind = Kind::kInformational;
  struct StageWaste {
    StageRef stage;
    double waste_ms = 0;
    // The waste is the whole attempt (a failed attempt that was run again): removing it removes
    // its window, so no floor of its own applies and the clip is the window itself.
    bool whole_window = false;
    // The stage's floor once the fix is made, when the fix lowers it: a fix that reshapes the
    // stage's tasks shrinks the longest task itself (stage_reshape.h), and retryWaste's takes the
    // failed attempts' run time out of the stage. The clip is duration - this floor, not
    // duration - ceiling, whose figures include the very work the fix removes.
    std::optional<double> floor_after_fix_ms = std::nullopt;
  };
  std::vector<StageWaste> stages;  // kStages
  double serial_ms = 0;            // kSerial
  std::optional<RawWaste> raw;     // the formula's own magnitude, in its own unit
  EstimateMethod method = EstimateMethod::kNone;

  // A wall-clock claim on the application as a whole, its raw waste the same ms.
  static WasteClaim serial(double ms, EstimateMethod method) {
    WasteClaim claim;
    claim.kind = Kind::kSerial;
    claim.method = method;
    claim.serial_ms = ms;
    claim.raw = RawWaste{ms, WasteUnit::kMs};
    return claim;
  }
};

// A figure that supports the finding, with its unit ("ms", "bytes", "ratio", "count", ...).
struct Evidence {
  std::string name;
  double value = 0;
  std::string unit;
};

// A concrete setting to change, with the value to try where one can be computed.
struct SettingChange {
  enum class Direction { kSet, kRaise, kLower };
  std::string key;                        // "spark.sql.shuffle.partitions"
  std::string suggested_value;            // "" when no value can be computed
  std::string current_value;              // "" when the log does not say (the default applies)
  std::string effective_value;            // the application's value, else its Spark's default; "" unknown
  Direction direction = Direction::kSet;  // which way the suggestion moves from the value in effect
};

struct AnsweredFinding;

struct Finding {
  std::string id;    // stable: type, rule and scope key, e.g. "skew/max/stage-12.0"
  std::string type;  // the spec's finding type, e.g. "skew"
  std::string rule;  // variant or rule within the type ("max", "heapNearCapacity"); may be ""
  Scope scope = Scope::kStage;
  std::vector<StageRef> stages;  // stage attempts it is about, sorted
  std::optional<int64_t> sql_execution_id;
  std::string title;           // one line
  std::string explanation;     // the evidence, in words, with its figures
  std::string recommendation;  // what to change
  std::vector<SettingChange> settings;
  std::vector<Evidence> evidence;
  std::vector<std::string> thresholds;  // names of the thresholds it was tested against
  Confidence confidence = Confidence::kMedium;
  ImpactBand band = ImpactBand::kInfo;
  std::string validation_caveat;              // what to check before trusting the magnitude
  WasteClaim claim;                           // set by the detector
  ImpactEstimate impact;                      // set by the impact estimator
  std::vector<AnsweredFinding> also_answers;  // set by the analyzer: findings the same fix answers

  std::vector<int64_t> stage_ids() const;  // distinct stage ids of `stages`, sorted
  std::string type_and_rule() const;       // "skew/durationMax", or "skew" when the rule is empty
};

// A finding the same change answers, folded into the one that names the change
// (analysis/findings/same_fix.h): whole, as evidence, its wall-clock not counted again.
struct AnsweredFinding {
  Finding finding;
  std::string why;  // what the two share ("both ask for more partitions of this stage")
};

}  // namespace sf::analysis
