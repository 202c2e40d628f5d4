// The aligner: two runs in, stage pairs out.
//
// Level one lines up the SQL executions of the two runs (align_sequences over execution
// profiles); if fewer than half of the smaller run's executions pair, the runs are not treated
// as one job and no stage pairs. Level two pairs the stages inside each aligned execution pair
// (pair_stages_within), and the two pseudo-executions of stages outside SQL executions with
// each other. Leftover stages of an aligned SQL execution pair whose stage counts differ form
// a replanned group (the plan changed shape: a broadcast join took out an exchange); with
// equal counts they stay unmatched. Delta bookkeeping stages are set aside before all this.
//
// Runtime coverage: the share of both runs' executor run time (every task attempt) that sits
// in paired stages, plus replanned stages when replanned_counts_toward_coverage (otherwise
// those count in the denominator only). nullopt when neither run recorded any run time.
//
// Pins: pairs the caller makes by hand (the dashboard's pin panel, compare --pin). Each pinned
// stage is taken out before the executions' stages are paired, and pairs with method pinned and
// score 1, counted in the coverage like any pair; a pin naming a stage a run does not have (or a
// Delta bookkeeping stage) is ignored here: check_pins says so first.
//
// Every consumer of a comparison reads these pairs; nothing else pairs stages. Pure function.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "compare/normalize.h"
#include "compare/run_index.h"
#include "compare/sequence_alignment.h"
#include "compare/stage_pairing.h"
#include "model/app_model.h"

namespace sf::compare {

inline constexpr double kMinExecutionAgreement = 0.5;

// A baseline stage and a candidate stage paired by hand.
struct StagePin {
  int64_t base_stage_id = 0;
  int64_t cand_stage_id = 0;
};

struct AlignmentOptions {
  ComparisonNormalizer normalizer;
  std::vector<StagePin> pins;
  SequenceAlignmentOptions sequence;
  double min_execution_agreement = kMinExecutionAgreement;
  bool replanned_counts_toward_coverage = true;
};

struct StagePair {
  int64_t base_stage_id = 0;
  int64_t cand_stage_id = 0;
  std::optional<int64_t> base_execution_id;  // nullopt: outside any SQL execution
  std::optional<int64_t> cand_execution_id;
  PairMethod method = PairMethod::kExact;
  double score = 1;
  // Stages that fit as well by place in the job and bytes read (stage_pairing.h): baseline stages
  // that could take the candidate's, candidate stages that could take the baseline's.
  std::vector<int64_t> ambiguous_base_stage_ids;
  std::vector<int64_t> ambiguous_cand_stage_ids;

  bool ambiguous() const { return !ambiguous_base_stage_ids.empty() || !ambiguous_cand_stage_ids.empty(); }
};

struct ReplannedGroup {
  int64_t base_execution_id = 0;
  int64_t cand_execution_id = 0;
  std::vector<int64_t> base_stage_ids;
  std::vector<int64_t> cand_stage_ids;
  StageTotals base_totals;
  StageTotals cand_totals;
};

struct ExecutionPair {
  int64_t base_execution_id = 0;
  int64_t cand_execution_id = 0;
  double score = 0;
};

struct ExecutionAlignment {
  size_t base_executions = 0;
  size_t cand_executions = 0;
  size_t paired = 0;
  std::optional<double> agreement;  // paired / min(base, cand); nullopt when a side has none
  bool accepted = false;
  bool bounded = false;
  std::vector<ExecutionPair> pairs;
};

struct StageAlignment {
  std::vector<StagePair> pairs;         // by baseline stage id
  std::vector<int64_t> unmatched_base;  // sorted
  std::vector<int64_t> unmatched_cand;
  std::vector<ReplannedGroup> replanned;  // by baseline execution id
  std::vector<int64_t> bookkeeping_base;  // Delta bookkeeping stages, sorted
  std::vector<int64_t> bookkeeping_cand;
  int64_t paired_run_time_ms = 0;     // both sides
  int64_t replanned_run_time_ms = 0;  // both sides
  int64_t total_run_time_ms = 0;      // both sides, bookkeeping excluded
  std::optional<double> runtime_coverage;
  ExecutionAlignment executions;
};

// "B:C" (baseline stage id, candidate stage id), as compare --pin and the dashboard write a pin.
Result<StagePin> parse_pin(std::string_view text);
// InvalidArgument naming the first pin whose stage a run does not have, that is a Delta
// bookkeeping stage, or whose stage is pinned twice.
Status check_pins(const model::AppModel& base, const model::AppModel& cand, const std::vector<StagePin>& pins);

// Aligns two indexed runs (indexed with one TokenDictionary).
StageAlignment align_indexed(const RunIndex& base, const RunIndex& cand, const AlignmentOptions& options);

// Indexes both runs and aligns them.
StageAlignment align_stages(const model::AppModel& base, const model::AppModel& cand,
                            const AlignmentOptions& options = {});

}  // namespace sf::compare
