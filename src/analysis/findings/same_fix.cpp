#include "analysis/findings/same_fix.h"

#include <algorithm>
#include <map>
#include <span>
#include <string_view>

#include "analysis/findings/finding_types.h"

namespace sf::analysis {

namespace {

// Two kinds of finding that, on a stage attempt both name, ask for one change.
struct SameFix {
  const char* type_a;
  const char* rule_a;  // nullptr: any rule; "": the type's own rule
  const char* type_b;
  const char* rule_b;
  const char* why;
  // a only points at where the time went (stageSlowness): b, which says what to change, keeps
  // the entry whatever the two estimates, and a's upper bound is not b's recoverable time.
  bool a_only_points = false;
  // b must be a's alone: about a's stages only, and the only such b. Task failures spread over
  // other stages are a cause of their own (gpu_oom_eventlog: one GPU OOM failed tasks of three
  // stages, of which one was later cancelled by the shutdown); of several causes on one stage,
  // which failed it is the stage's own message (tasks_executors_fail: a lost executor, then the
  // fetch failures that failed the stage), not a pairing.
  bool b_within_a = false;
  // a and b need not share a stage: one event (the SparkContext's shutdown) explains both.
  bool any_stage = false;
  // A further condition on the pair, or none.
  bool (*when)(const Finding& a, const Finding& b) = nullptr;
};

const Evidence* evidence_named(const Finding& f, std::string_view name) {
  for (const Evidence& e : f.evidence) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

// The jobs the finding counts as failed include some the shutdown cancelled.
bool shutdown_cancelled_jobs(const Finding& rate, const Finding&) {
  const Evidence* cancelled = evidence_named(rate, evidence_key::kCancelledByShutdown);
  return cancelled != nullptr && cancelled->value > 0;
}

// One job failed, and of the one stage attempt the pair names: the stage's failure is the job's.
bool one_job_failed_of_the_stage(const Finding& rate, const Finding& stage) {
  const Evidence* failed = evidence_named(rate, evidence_key::kFailedJobs);
  return failed != nullptr && failed->value == 1 && rate.stages == stage.stages;
}

// The pairs, in the order they are tried.
std::span<const SameFix> same_fixes() {
  namespace type = finding_type;
  namespace rule = finding_rule;
  static constexpr SameFix kSameFixes[] = {
      // skew's max/median branch and straggler judge the same longest task.
      {type::kSkew, rule::kDurationMax, type::kStraggler, nullptr, "both react to the same longest task"},
      // partitionSizing's largest partition is what makes skew's longest task, when the data is skewed.
      {type::kSkew, nullptr, type::kPartitionSizing, rule::kShufflePartitionSkew,
       "both react to the same largest partition"},
      {type::kSkew, nullptr, type::kPartitionSizing, rule::kMaxPartitionTooBig,
       "both react to the same largest partition"},
      // Too few tasks for the cores, and too few partitions for the bytes: one fix, more partitions.
      {type::kStageShape, rule::kLowParallelism, type::kPartitionSizing, rule::kLowShuffleParallelism,
       "both ask for more partitions of this stage"},
      {type::kStageShape, rule::kLowParallelism, type::kPartitionSizing, rule::kMaxPartitionTooBig,
       "both ask for more partitions of this stage"},
      {type::kConfigAudit, rule::kDefaultShufflePartitions, type::kPartitionSizing, rule::kLowShuffleParallelism,
       "both raise the partitions of this stage's shuffle"},
      // One task holding the stage is the longest task the skew, straggler and partition findings
      // explain, or the tail more partitions shorten.
      {type::kStageShape, rule::kTaskStageSkew, type::kSkew, nullptr, "both react to the stage's longest task"},
      {type::kStageShape, rule::kTaskStageSkew, type::kStraggler, nullptr, "both react to the stage's longest task"},
      {type::kStageShape, rule::kTaskStageSkew, type::kPartitionSizing, nullptr,
       "both react to the stage's longest task"},
      {type::kStageShape, rule::kTaskStageSkew, type::kStageShape, rule::kLowParallelism,
       "more, smaller tasks shorten the longest one"},
      // After those (so what they folded follows): a spill's fix splits the stage's partitions too
      // (or gives each task more memory, which the entry keeps saying): junoHourly stage 1.0, 40
      // tasks of 1.7 GiB on 200 cores, spilling.
      {type::kStageShape, rule::kLowParallelism, type::kSpill, nullptr, "both ask for more partitions of this stage"},
      {type::kPartitionSizing, nullptr, type::kSpill, nullptr, "both ask for more partitions of this stage"},
      // A stage the application spent its time in points at what made it slow; a finding that
      // says what is that pointer's answer.
      {type::kStageSlowness, nullptr, type::kStageShape, nullptr, "the stage's shape is why it was slow", true},
      {type::kStageSlowness, nullptr, type::kPartitionSizing, nullptr, "the stage's partitions are why it was slow",
       true},
      {type::kStageSlowness, nullptr, type::kSkew, nullptr, "the stage's skew is why it was slow", true},
      {type::kStageSlowness, nullptr, type::kStraggler, nullptr, "the stage's straggler is why it was slow", true},
      {type::kStageSlowness, nullptr, type::kGc, nullptr, "the stage's garbage collection is why it was slow", true},
      {type::kStageSlowness, nullptr, type::kSpill, nullptr, "the stage's spill is why it was slow", true},
      {type::kStageSlowness, nullptr, type::kShuffle, nullptr, "the stage's shuffle is why it was slow", true},
      // A stage attempt that failed, and the task failures that made it fail: one root cause.
      {type::kStageFailed, rule::kNone, type::kFailures, nullptr, "the failed tasks are why the stage attempt failed",
       false, true},
      // local-1422981780767: "1 of 3 jobs failed" beside "stage 2.0 failed and its job failed".
      {type::kJobFailureRate, nullptr, type::kStageFailed, rule::kNone,
       "the failed stage attempt is why the job failed", true, false, false, &one_job_failed_of_the_stage},
      // One shutdown cancels every stage and job still running: one entry, not one per stage
      // (gpu_oom_eventlog: four stages cancelled, four entries).
      {type::kJobFailureRate, nullptr, type::kStageFailed, rule::kCancelledByShutdown,
       "the shutdown that cancelled the jobs cancelled this stage", false, false, true, &shutdown_cancelled_jobs},
      {type::kStageFailed, rule::kCancelledByShutdown, type::kStageFailed, rule::kCancelledByShutdown,
       "the same shutdown cancelled this stage", false, false, true},
      {type::kStageFailed, nullptr, type::kRetryWaste, rule::kFailedStageAttempt,
       "the failed attempt is what the retry wasted"},
  };
  return kSameFixes;
}

bool is(const Finding& f, const char* type, const char* rule) {
  return f.type == type && (rule == nullptr || f.rule == rule);
}

bool within(const Finding& inner, const Finding& outer) {
  return std::all_of(inner.stages.begin(), inner.stages.end(), [&](const StageRef& s) {
    return std::find(outer.stages.begin(), outer.stages.end(), s) != outer.stages.end();
  });
}

bool share_a_stage(const Finding& a, const Finding& b) {
  return std::any_of(a.stages.begin(), a.stages.end(), [&](const StageRef& s) {
    return std::find(b.stages.begin(), b.stages.end(), s) != b.stages.end();
  });
}

double high_ms(const Finding& f) { return f.impact.wall_clock ? f.impact.wall_clock->high_ms : -1; }

// The one that keeps the entry: the most wall-clock to recover, then the higher band, then the
// pair's first kind.
bool keeps_over(const Finding& a, const Finding& b) {
  if (high_ms(a) != high_ms(b)) return high_ms(a) > high_ms(b);
  if (a.band != b.band) return a.band < b.band;
  return true;
}

// A straggler, or a skew of task time alone (skew's duration rules), is the slow host's when the
// data is even (a time outlier), the longest task ran on a host a slowHost finding on the same
// stage attempt names with a wall-clock claim, and that task is typical of the host (at most this
// many times the host's mean task): every task there ran that slow, so repairing the host
// recovers both figures' time once, and slowHost's advice (take the host out, speculation until
// then) is theirs. Kept, they lead "Fix these first" with one cause two or three times (the
// slow_host scenario on real Spark: slowHost 4.4 s, then skew 1.9 s of the same tasks). A task
// far slower than even its host's others is an outlier of its own and stays.
constexpr double kTypicalOfItsHost = 1.5;

bool is_time_outlier(const Finding& f) {
  if (f.type == finding_type::kStraggler) return true;
  return f.type == finding_type::kSkew &&
         (f.rule == finding_rule::kDurationMax || f.rule == finding_rule::kDurationP95);
}

// The slowHost finding a time outlier belongs to, or -1.
std::ptrdiff_t slow_host_of(const model::AppModel& model, const Thresholds& t, const std::vector<Finding>& findings,
                            const Finding& outlier) {
  if (!is_time_outlier(outlier) || outlier.stages.size() != 1) return -1;
  const Evidence* data = evidence_named(outlier, evidence_key::kDataMaxToMedianRatio);
  const Evidence* longest = evidence_named(outlier, evidence_key::kTaskDurationMaxMs);
  if (data == nullptr || longest == nullptr || data->value >= t.skew_bytes_max_to_median_ratio) return -1;
  const model::StageAttempt* stage = model.stage(outlier.stages[0].stage_id, outlier.stages[0].attempt_id);
  if (stage == nullptr || stage->max_task_duration_host.empty()) return -1;
  const std::string suffix = ":" + stage->max_task_duration_host;
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& host = findings[i];
    const Evidence* mean = evidence_named(host, evidence_key::kHostMeanTaskMs);
    if (host.type != finding_type::kSlowHost || host.stages != outlier.stages ||
        host.claim.kind != WasteClaim::Kind::kStages || mean == nullptr || !host.id.ends_with(suffix)) {
      continue;
    }
    if (longest->value <= kTypicalOfItsHost * mean->value) return static_cast<std::ptrdiff_t>(i);
  }
  return -1;
}

}  // namespace

void merge_same_fixes(const model::AppModel& model, const Thresholds& thresholds, std::vector<Finding>& findings) {
  // keeper[i]: the finding i folds into (itself when it keeps its entry).
  std::vector<size_t> keeper(findings.size());
  for (size_t i = 0; i < findings.size(); ++i) keeper[i] = i;
  auto root = [&](size_t i) {
    while (keeper[i] != i) i = keeper[i];
    return i;
  };
  std::map<size_t, std::vector<std::pair<size_t, const char*>>> absorbed;  // keeper -> (finding, why)
  auto fold = [&](size_t loser, size_t winner, const char* why) {
    keeper[loser] = winner;
    absorbed[winner].push_back({loser, why});
  };

  for (size_t i = 0; i < findings.size(); ++i) {
    const std::ptrdiff_t host = slow_host_of(model, thresholds, findings, findings[i]);
    if (host >= 0) fold(i, static_cast<size_t>(host), "the slow host ran the longest task, as it ran all of its tasks");
  }
  for (const SameFix& pair : same_fixes()) {
    for (size_t a = 0; a < findings.size(); ++a) {
      if (keeper[a] != a || !is(findings[a], pair.type_a, pair.rule_a)) continue;
      if (pair.b_within_a && std::count_if(findings.begin(), findings.end(), [&](const Finding& b) {
                               return is(b, pair.type_b, pair.rule_b) && within(b, findings[a]);
                             }) != 1) {
        continue;
      }
      for (size_t b = 0; b < findings.size(); ++b) {
        if (a == b || keeper[b] != b || !is(findings[b], pair.type_b, pair.rule_b) ||
            (!pair.any_stage && !share_a_stage(findings[a], findings[b])) ||
            (pair.b_within_a && !within(findings[b], findings[a])) ||
            (pair.when != nullptr && !pair.when(findings[a], findings[b]))) {
          continue;
        }
        if (!pair.a_only_points && keeps_over(findings[a], findings[b])) {
          fold(b, a, pair.why);
        } else {
          fold(a, b, pair.why);
          break;  // a has left its entry: it pairs with nothing more
        }
      }
    }
  }
  if (absorbed.empty()) return;

  // Each absorbed finding joins the entry it ends in, through any chain of folds, best first.
  std::map<size_t, std::vector<std::pair<size_t, const char*>>> by_keeper;
  for (const auto& [winner, losers] : absorbed) {
    for (const auto& loser : losers) by_keeper[root(winner)].push_back(loser);
  }
  for (auto& [winner, losers] : by_keeper) {
    std::stable_sort(losers.begin(), losers.end(), [&](const auto& x, const auto& y) {
      return high_ms(findings[x.first]) > high_ms(findings[y.first]);
    });
    // Losers are never roots, so none carries answered findings of its own: none nest.
    for (const auto& [loser, why] : losers) findings[winner].also_answers.push_back({std::move(findings[loser]), why});
  }
  std::vector<Finding> kept;
  kept.reserve(findings.size());
  for (size_t i = 0; i < findings.size(); ++i) {
    if (keeper[i] == i) kept.push_back(std::move(findings[i]));
  }
  findings = std::move(kept);
}

}  // namespace sf::analysis
