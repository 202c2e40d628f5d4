#include "analysis/models/stage_graph.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <queue>

#include "analysis/models/time_split.h"

namespace sf::analysis {

namespace {

Interval clip(Interval window, Interval bounds) {
  window.start_ms = std::clamp(window.start_ms, bounds.start_ms, bounds.end_ms);
  window.end_ms = std::clamp(window.end_ms, window.start_ms, bounds.end_ms);
  return window;
}

// The job that submitted the attempt: the latest-submitted job that ran it and was submitted
// before it; failing the attempt's own list, any job that lists its stage and was running.
size_t owner_job(const model::StageAttempt& s, const StageGraph& graph, const model::AppModel& model,
                 const std::map<int64_t, size_t>& job_by_id, double submitted) {
  size_t best = kNoJob;
  auto consider = [&](size_t j) {
    if (graph.jobs[j].window.start_ms > submitted) return;
    if (best == kNoJob || graph.jobs[j].window.start_ms >= graph.jobs[best].window.start_ms) best = j;
  };
  for (int64_t id : s.job_ids) {
    if (auto it = job_by_id.find(id); it != job_by_id.end()) consider(it->second);
  }
  if (best != kNoJob) return best;
  for (size_t j = 0; j < graph.jobs.size(); ++j) {
    const model::Job& job = model.jobs[graph.jobs[j].job_index];
    if (std::binary_search(job.stage_ids.begin(), job.stage_ids.end(), s.stage_id) &&
        graph.jobs[j].window.end_ms >= submitted) {
      consider(j);
    }
  }
  return best;
}

}  // namespace

std::optional<StageGraph> build_stage_graph(const model::AppModel& model) {
  const std::optional<double> end = app_end_ms(model);
  if (!end) return std::nullopt;
  StageGraph graph;
  graph.app = {epoch_ms(*model.app.start_time_ms), *end};
  graph.app_finished = model.app.finished;

  for (size_t i = 0; i < model.jobs.size(); ++i) {
    const model::Job& j = model.jobs[i];
    if (!j.submission_time_ms) continue;
    GraphJob job;
    job.job_index = i;
    job.completed = j.completion_time_ms.has_value();
    job.window =
        clip({epoch_ms(*j.submission_time_ms), job.completed ? epoch_ms(*j.completion_time_ms) : *end}, graph.app);
    graph.jobs.push_back(job);
  }
  std::stable_sort(graph.jobs.begin(), graph.jobs.end(),
                   [](const GraphJob& a, const GraphJob& b) { return a.window.start_ms < b.window.start_ms; });
  graph.jobs_by_completion.resize(graph.jobs.size());
  std::iota(graph.jobs_by_completion.begin(), graph.jobs_by_completion.end(), size_t{0});
  std::stable_sort(graph.jobs_by_completion.begin(), graph.jobs_by_completion.end(),
                   [&](size_t a, size_t b) { return graph.jobs[a].window.end_ms < graph.jobs[b].window.end_ms; });
  std::vector<double> completions;
  for (size_t j : graph.jobs_by_completion) completions.push_back(graph.jobs[j].window.end_ms);
  std::vector<size_t> position(graph.jobs.size());
  for (size_t k = 0; k < graph.jobs_by_completion.size(); ++k) position[graph.jobs_by_completion[k]] = k;
  for (size_t j = 0; j < graph.jobs.size(); ++j) {
    GraphJob& job = graph.jobs[j];
    const auto done = static_cast<size_t>(
        std::upper_bound(completions.begin(), completions.end(), job.window.start_ms) - completions.begin());
    // A job of no length completes when it is submitted: it does not wait for itself.
    job.jobs_done_before = std::min(done, position[j]);
  }

  std::map<int64_t, size_t> job_by_id;
  for (size_t j = 0; j < graph.jobs.size(); ++j) job_by_id[model.jobs[graph.jobs[j].job_index].job_id] = j;
  for (size_t i = 0; i < model.stages.size(); ++i) {
    const model::StageAttempt& s = model.stages[i];
    if (!s.submission_time_ms) continue;
    GraphStage stage;
    stage.stage_index = i;
    const double submitted = epoch_ms(*s.submission_time_ms);
    stage.job = owner_job(s, graph, model, job_by_id, submitted);
    const Interval bounds = stage.job == kNoJob ? graph.app : graph.jobs[stage.job].window;
    stage.completed = s.completion_time_ms.has_value();
    stage.window = clip({submitted, stage.completed ? epoch_ms(*s.completion_time_ms) : bounds.end_ms}, bounds);
    if (s.first_task_launched_time_ms) {
      stage.launched_tasks = true;
      stage.wait_ms = std::clamp(epoch_ms(*s.first_task_launched_time_ms) - stage.window.start_ms, 0.0,
                                 stage.window.end_ms - stage.window.start_ms);
    }
    graph.stages.push_back(std::move(stage));
  }
  std::stable_sort(graph.stages.begin(), graph.stages.end(),
                   [](const GraphStage& a, const GraphStage& b) { return a.window.start_ms < b.window.start_ms; });
  // Stages still running at each submission: ends of the stages submitted before, soonest first.
  std::priority_queue<double, std::vector<double>, std::greater<>> running_ends;
  for (GraphStage& stage : graph.stages) {
    while (!running_ends.empty() && running_ends.top() <= stage.window.start_ms) running_ends.pop();
    stage.submitted_while_busy = !running_ends.empty();
    running_ends.push(stage.window.end_ms);
  }

  // Attempts by stage id, in attempt order, to find each one's predecessors.
  std::map<int64_t, std::vector<size_t>> attempts;
  for (size_t g = 0; g < graph.stages.size(); ++g) {
    attempts[model.stages[graph.stages[g].stage_index].stage_id].push_back(g);
  }
  auto latest_done_by = [&](int64_t stage_id, double by, size_t self) -> std::optional<size_t> {
    auto it = attempts.find(stage_id);
    if (it == attempts.end()) return std::nullopt;
    std::optional<size_t> found;
    for (size_t g : it->second) {
      if (g == self || graph.stages[g].window.end_ms > by) continue;
      if (!found || graph.stages[g].window.end_ms >= graph.stages[*found].window.end_ms) found = g;
    }
    return found;
  };
  for (size_t g = 0; g < graph.stages.size(); ++g) {
    GraphStage& stage = graph.stages[g];
    const model::StageAttempt& s = model.stages[stage.stage_index];
    for (int64_t parent : s.parent_ids) {
      if (auto p = latest_done_by(parent, stage.window.start_ms, g)) stage.predecessors.push_back(*p);
    }
    if (auto earlier = latest_done_by(s.stage_id, stage.window.start_ms, g)) stage.predecessors.push_back(*earlier);
    std::sort(stage.predecessors.begin(), stage.predecessors.end());
    stage.predecessors.erase(std::unique(stage.predecessors.begin(), stage.predecessors.end()),
                             stage.predecessors.end());
    if (stage.job != kNoJob) graph.jobs[stage.job].stages.push_back(g);
  }
  return graph;
}

}  // namespace sf::analysis
