// One fix, one entry. Several detectors can see one problem from different sides: a stage with
// too few tasks for its cores (stageShape/lowParallelism) reads too much shuffle per partition
// (partitionSizing/lowShuffleParallelism) and runs long (stageSlowness); a stage's longest task
// is skew, a straggler and taskStageSkew at once; a stage failed (stageFailed) because its tasks
// did (failures). Reported apart, one change appears two to four times in "Fix these first" with
// the same recoverable time (sparklint's junoHourly stage 1.0: 15m 04s from each of two).
//
// After the impact estimate, the findings that name the same change on a stage they share fold
// into one: the finding with the most wall-clock to recover (then the higher band) keeps the
// entry, and the others become its `also_answers` evidence. Their time is not counted again.
//
// A straggler, or a skew of task time alone, whose longest task ran on a host a slowHost finding
// on the same stage names (and was typical of that host) folds into that slowHost finding: every
// task there ran that slow, so repairing the host recovers the time once.
#pragma once

#include <vector>

#include "analysis/findings/finding.h"
#include "analysis/settings/thresholds.h"
#include "model/app_model.h"

namespace sf::analysis {

// Folds `findings` in place: absorbed findings leave the vector and join their keeper's
// `also_answers`. Findings keep their relative order.
void merge_same_fixes(const model::AppModel& model, const Thresholds& thresholds, std::vector<Finding>& findings);

}  // namespace sf::analysis
