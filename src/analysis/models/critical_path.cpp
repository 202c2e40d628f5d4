#include "analysis/models/critical_path.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "analysis/models/stage_graph.h"
#include "analysis/models/time_split.h"
#include "analysis/settings/cluster_shape.h"

namespace sf::analysis {

namespace {

struct Chain {
  double length_ms = 0;
  std::vector<size_t> stages;  // into graph.stages, in time order
};

// The longest chain of `weight` through the graph. Nodes are visited in time order (a job's
// completion before stages submitted at that instant); a predecessor not yet visited counts as
// nothing, which can only shorten a chain. Stages no job submitted are left out: their windows
// may lie outside the jobs' time.
Chain longest_chain(const StageGraph& graph, const std::vector<double>& weight) {
  const size_t n = graph.stages.size();
  std::vector<double> value(n, -1);
  std::vector<size_t> previous(n, kNoStage);
  // (time, kind, index): kind 0 is a job's completion, 1 a stage's submission.
  std::vector<std::tuple<double, int, size_t>> events;
  for (size_t j = 0; j < graph.jobs.size(); ++j) events.emplace_back(graph.jobs[j].window.end_ms, 0, j);
  for (size_t s = 0; s < n; ++s) events.emplace_back(graph.stages[s].window.start_ms, 1, s);
  std::sort(events.begin(), events.end());

  // Completed jobs in completion order: the best chain ending in any of the first k.
  std::vector<double> prefix_best;
  std::vector<size_t> prefix_stage;
  for (const auto& [time, kind, index] : events) {
    if (kind == 0) {
      double best = prefix_best.empty() ? 0.0 : prefix_best.back();
      size_t best_stage = prefix_stage.empty() ? kNoStage : prefix_stage.back();
      for (size_t s : graph.jobs[index].stages) {
        if (value[s] > best) {
          best = value[s];
          best_stage = s;
        }
      }
      prefix_best.push_back(best);
      prefix_stage.push_back(best_stage);
      continue;
    }
    const GraphStage& stage = graph.stages[index];
    if (stage.job == kNoJob) continue;
    double base = 0;
    size_t from = kNoStage;
    const size_t done = std::min(graph.jobs[stage.job].jobs_done_before, prefix_best.size());
    if (done > 0) {
      base = prefix_best[done - 1];
      from = prefix_stage[done - 1];
    }
    for (size_t p : stage.predecessors) {
      if (value[p] > base) {
        base = value[p];
        from = p;
      }
    }
    value[index] = weight[index] + base;
    previous[index] = from;
  }

  Chain chain;
  size_t last = kNoStage;
  for (size_t s = 0; s < n; ++s) {
    if (value[s] > chain.length_ms) {
      chain.length_ms = value[s];
      last = s;
    }
  }
  for (size_t s = last; s != kNoStage; s = previous[s]) chain.stages.push_back(s);
  std::reverse(chain.stages.begin(), chain.stages.end());
  return chain;
}

}  // namespace

std::optional<CriticalPath> critical_path(const model::AppModel& model) {
  const std::optional<StageGraph> graph = build_stage_graph(model);
  const std::optional<WindowSplit> split = app_time_split(model);
  if (!graph || !split) return std::nullopt;
  CriticalPath path;
  path.wall_clock_ms = split->duration_ms;
  path.driver_only_ms = split->outside_ms();
  path.cores = model.peak_concurrent_cores > 0 ? model.peak_concurrent_cores : cluster_shape(model).total_cores();

  const size_t n = graph->stages.size();
  std::vector<double> floors(n, 0);
  std::vector<double> even(n, 0);
  for (size_t g = 0; g < n; ++g) {
    const GraphStage& stage = graph->stages[g];
    if (!stage.launched_tasks) continue;  // no task ran: nothing an executor count could change
    const model::StageAttempt& s = model.stages[stage.stage_index];
    const double window = stage.window.end_ms - stage.window.start_ms;
    floors[g] = std::min(window, stage.fixed_wait_ms() + static_cast<double>(s.max_task_duration_ms));
    const double attempts = static_cast<double>(s.tasks_succeeded + s.tasks_failed + s.tasks_killed);
    if (attempts > 0) {
      const double mean = static_cast<double>(s.metric(model::TaskMetric::kDurationMs)) / attempts;
      even[g] = std::min(window, stage.fixed_wait_ms() + mean * std::ceil(attempts / std::max(1.0, path.cores)));
    }
  }
  const Chain chain = longest_chain(*graph, floors);
  path.chain_ms = chain.length_ms;
  path.length_ms = path.driver_only_ms + path.chain_ms;
  path.ideal_chain_ms = longest_chain(*graph, even).length_ms;
  path.ideal_ms = path.driver_only_ms + path.ideal_chain_ms;
  for (size_t g : chain.stages) {
    const GraphStage& stage = graph->stages[g];
    const model::StageAttempt& s = model.stages[stage.stage_index];
    path.stages.push_back(
        {{s.stage_id, s.attempt_id}, stage.fixed_wait_ms(), static_cast<double>(s.max_task_duration_ms), floors[g]});
  }
  return path;
}

}  // namespace sf::analysis
