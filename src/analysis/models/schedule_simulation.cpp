#include "analysis/models/schedule_simulation.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "analysis/models/task_durations.h"
#include "common/parallel_for.h"

namespace sf::analysis {

namespace {

// Milestones: the application's start and end, each job's submission and completion, each stage
// attempt's submission and completion.
constexpr size_t kStart = 0;
constexpr size_t kEnd = 1;
size_t job_submitted(size_t j) { return 2 + 2 * j; }
size_t job_completed(size_t j) { return 3 + 2 * j; }

enum class EventKind : uint8_t {
  kMilestone,
  kStageReady,
  kTaskEnd,
  kRegistration,
  kExecutorLost,
  kIdleCheck,
  kAllocationTick
};

// Spark's allocation manager looks at its timers every 100 ms: no ramp round comes sooner.
constexpr double kAllocationTickMs = 100;

struct Event {
  double time_ms = 0;
  uint64_t sequence = 0;  // ties: the order events were made, so every run is the same
  EventKind kind = EventKind::kMilestone;
  size_t first = 0;   // milestone, stage or executor
  size_t second = 0;  // executor of a task; idle stamp of a check
};

// The replay's events, earliest first; at one instant, in the order they were made. A binary
// heap whose sift-down takes the earlier child without a branch: which child is earlier is a coin
// toss a branch predictor loses, and popping the next event was most of a replay's time.
class EventQueue {
 public:
  bool empty() const { return heap_.empty(); }
  const Event& top() const { return heap_.front(); }

  void push(const Event& event) {
    heap_.push_back(event);
    rise(heap_.size() - 1, event);
  }

  // Floyd's pop: the hole at the root goes down along the earlier children to a leaf, and the
  // last event fills it from there, rising as far as it must (rarely far: it was a leaf).
  void pop() {
    const Event last = heap_.back();
    heap_.pop_back();
    const size_t size = heap_.size();
    if (size == 0) return;
    size_t hole = 0;
    size_t child = 1;
    for (; child + 1 < size; child = 2 * hole + 1) {
      child += static_cast<size_t>(earlier(heap_[child + 1], heap_[child]));
      heap_[hole] = heap_[child];
      hole = child;
    }
    if (child < size) {
      heap_[hole] = heap_[child];
      hole = child;
    }
    rise(hole, last);
  }

 private:
  // A strict order (sequences are unique), so the events come out in one order whatever the
  // heap's layout.
  static bool earlier(const Event& a, const Event& b) {
    return (a.time_ms < b.time_ms) | ((a.time_ms == b.time_ms) & (a.sequence < b.sequence));
  }

  void rise(size_t hole, const Event& event) {
    while (hole > 0) {
      const size_t parent = (hole - 1) / 2;
      if (!earlier(event, heap_[parent])) break;
      heap_[hole] = heap_[parent];
      hole = parent;
    }
    heap_[hole] = event;
  }

  std::vector<Event> heap_;
};

struct Executor {
  double arrived_ms = 0;
  double removed_ms = -1;  // -1: alive
  size_t idle_stamp = 0;   // bumped when it starts a task: an older idle check is stale
  struct Running {
    size_t stage = 0;
    double end_ms = 0;
    double duration_ms = 0;
    bool operator==(const Running&) const = default;
  };
  std::vector<Running> tasks;
  int32_t running() const { return static_cast<int32_t>(tasks.size()); }
};

}  // namespace

ScheduleSimulation::ScheduleSimulation(const model::AppModel& model, unsigned threads)
    : graph_(build_stage_graph(model)) {
  if (!graph_) return;
  const StageGraph& g = *graph_;
  const double origin = g.app.start_ms;
  const size_t jobs = g.jobs.size();
  const size_t stages = g.stages.size();
  stage_submitted_base_ = 2 + 2 * jobs;
  milestones_.resize(stage_submitted_base_ + 2 * stages);
  auto submitted = [&](size_t s) { return stage_submitted_base_ + 2 * s; };
  auto completed = [&](size_t s) { return stage_submitted_base_ + 2 * s + 1; };
  auto edge = [&](size_t from, size_t to) {
    milestones_[from].dependents.push_back(to);
    ++milestones_[to].waiting;
  };
  // Each milestone follows the latest of its predecessors in the log by what it did then.
  auto set_delay = [&](size_t m, const std::vector<size_t>& predecessors) {
    double binding = 0;
    for (size_t p : predecessors) binding = std::max(binding, milestones_[p].real_ms);
    milestones_[m].delay_ms = std::max(0.0, milestones_[m].real_ms - binding);
  };

  milestones_[kEnd].real_ms = g.app.end_ms - origin;
  for (size_t j = 0; j < jobs; ++j) {
    milestones_[job_submitted(j)].real_ms = g.jobs[j].window.start_ms - origin;
    milestones_[job_completed(j)].real_ms = g.jobs[j].window.end_ms - origin;
  }
  for (size_t s = 0; s < stages; ++s) {
    milestones_[submitted(s)].real_ms = g.stages[s].window.start_ms - origin;
    milestones_[completed(s)].real_ms = g.stages[s].window.end_ms - origin;
  }

  // Jobs: after the application start and, through a gate, the jobs completed before them.
  job_gates_.resize(jobs);
  for (size_t j = 0; j < jobs; ++j) {
    edge(kStart, job_submitted(j));
    const size_t done = g.jobs[j].jobs_done_before;
    job_gates_[j] = done;
    double binding = 0;
    if (done > 0) {
      ++milestones_[job_submitted(j)].waiting;
      binding = g.jobs[g.jobs_by_completion[done - 1]].window.end_ms - origin;
    }
    milestones_[job_submitted(j)].delay_ms = std::max(0.0, milestones_[job_submitted(j)].real_ms - binding);
  }

  // Stages: a wait for free cores is the simulation's to work out, so a stage submitted while an
  // earlier one was still running keeps no wait of its own.
  plans_.resize(stages);
  // Each stage's durations come from its own quantiles alone: the costly part (a search per stage)
  // shares the threads out.
  parallel_for(stages, threads, [&](size_t s) {
    const GraphStage& stage = g.stages[s];
    if (stage.launched_tasks && stage.completed) {
      plans_[s].tasks_ms = replay_task_durations(model.stages[stage.stage_index]);
    }
  });
  for (size_t s = 0; s < stages; ++s) {
    const GraphStage& stage = g.stages[s];
    const model::StageAttempt& attempt = model.stages[stage.stage_index];
    StagePlan& plan = plans_[s];
    plan.job_id =
        stage.job == kNoJob ? std::numeric_limits<int64_t>::max() : model.jobs[g.jobs[stage.job].job_index].job_id;
    plan.stage_id = attempt.stage_id;
    plan.attempt_id = attempt.attempt_id;
    plan.fixed_duration_ms = stage.window.end_ms - stage.window.start_ms;
    plan.ready_after_ms = stage.fixed_wait_ms();

    std::vector<size_t> predecessors;
    predecessors.push_back(stage.job == kNoJob ? kStart : job_submitted(stage.job));
    for (size_t p : stage.predecessors) predecessors.push_back(completed(p));
    for (size_t p : predecessors) edge(p, submitted(s));
    set_delay(submitted(s), predecessors);
    if (plan.tasks_ms.empty()) {
      edge(submitted(s), completed(s));
      milestones_[completed(s)].delay_ms = plan.fixed_duration_ms;
    } else {
      ++milestones_[completed(s)].waiting;  // its tasks: reached when the last one ends
    }
  }

  std::vector<size_t> end_predecessors = {kStart};
  for (size_t j = 0; j < jobs; ++j) {
    std::vector<size_t> predecessors = {job_submitted(j)};
    for (size_t s : g.jobs[j].stages) predecessors.push_back(completed(s));
    for (size_t p : predecessors) edge(p, job_completed(j));
    set_delay(job_completed(j), predecessors);
    end_predecessors.push_back(job_completed(j));
  }
  for (size_t s = 0; s < stages; ++s) end_predecessors.push_back(completed(s));
  for (size_t p : end_predecessors) edge(p, kEnd);
  set_delay(kEnd, end_predecessors);
}

// One run of the simulation on one cluster: the state of every milestone, stage and executor.
class ScheduleSimulation::Replay {
 public:
  Replay(const ScheduleSimulation& simulation, const SimulatedCluster& cluster)
      : sim_(simulation),
        graph_(*simulation.graph_),
        cluster_(cluster),
        slots_(std::max(1, cluster.slots_per_executor)),
        most_executors_(std::max(1, cluster.executors)),
        waiting_(simulation.milestones_.size()),
        latest_(simulation.milestones_.size(), 0),
        reached_at_(simulation.milestones_.size(), -1),
        job_done_(graph_.jobs.size(), false),
        gates_by_need_(graph_.jobs.size()),
        next_task_(simulation.plans_.size(), 0),
        requeued_(simulation.plans_.size()),
        finished_tasks_(simulation.plans_.size(), 0) {
    for (size_t m = 0; m < waiting_.size(); ++m) waiting_[m] = sim_.milestones_[m].waiting;
    // Each later registration of the log follows the latest stage submitted before it.
    for (const LoggedExecutor& logged : cluster.later) {
      const double at = graph_.app.start_ms + logged.registered_ms;
      auto after = std::upper_bound(graph_.stages.begin(), graph_.stages.end(), at,
                                    [](double t, const GraphStage& s) { return t < s.window.start_ms; });
      if (after == graph_.stages.begin()) {
        later_anchors_.push_back({kNoStage, logged.registered_ms});
      } else {
        const auto stage = static_cast<size_t>(after - graph_.stages.begin() - 1);
        later_anchors_.push_back({stage, at - graph_.stages[stage].window.start_ms});
      }
    }
    for (size_t j = 0; j < gates_by_need_.size(); ++j) gates_by_need_[j] = j;
    std::stable_sort(gates_by_need_.begin(), gates_by_need_.end(),
                     [&](size_t a, size_t b) { return sim_.job_gates_[a] < sim_.job_gates_[b]; });
  }

  SimulationResult run() {
    const int32_t first =
        cluster_.dynamic_allocation ? std::clamp(cluster_.initial_executors, 0, most_executors_) : most_executors_;
    target_ = first;
    for (int32_t k = 0; k < first; ++k) ask_for_executor(true);
    push(0, EventKind::kMilestone, kStart);
    while (reached_at_[kEnd] < 0) {
      if (queue_.empty()) {
        if (!release_stuck_milestone()) break;
        continue;
      }
      const Event event = queue_.top();
      queue_.pop();
      now_ = event.time_ms;
      handle(event);
      if (queue_.empty() || queue_.top().time_ms > now_) {
        dispatch();
        follow_the_tasks();
      }
    }
    return result();
  }

 private:
  void push(double time, EventKind kind, size_t first, size_t second = 0) {
    queue_.push({time, sequence_++, kind, first, second});
  }

  void handle(const Event& event) {
    switch (event.kind) {
      case EventKind::kMilestone:
        if (reached_at_[event.first] < 0) reach(event.first);
        break;
      case EventKind::kStageReady: mark_ready(event.first); break;
      case EventKind::kTaskEnd: task_end(event.first, event.second); break;
      case EventKind::kRegistration: register_executor(event.first); break;
      case EventKind::kExecutorLost: lose_executor(event.first); break;
      case EventKind::kIdleCheck: idle_check(event.first, event.second); break;
      case EventKind::kAllocationTick:
        break;  // the ramp's round is taken after the instant's events (follow_the_tasks)
    }
  }

  // --- milestones ------------------------------------------------------------------------------

  void schedule_if_free(size_t m) {
    if (waiting_[m] == 0) push(latest_[m] + sim_.milestones_[m].delay_ms, EventKind::kMilestone, m);
  }

  void satisfy(size_t m, double time) {
    latest_[m] = std::max(latest_[m], time);
    --waiting_[m];
    schedule_if_free(m);
  }

  void reach(size_t m) {
    reached_at_[m] = now_;
    const size_t base = sim_.stage_submitted_base_;
    if (m >= base && (m - base) % 2 == 0) {
      const size_t s = (m - base) / 2;
      unpark(s);
      const StagePlan& plan = sim_.plans_[s];
      if (!plan.tasks_ms.empty()) {
        pending_tasks_ += static_cast<int64_t>(plan.tasks_ms.size());
        push(now_ + plan.ready_after_ms, EventKind::kStageReady, s);
        backlogged();
      }
    }
    if (m >= 2 && m < base && (m - 2) % 2 == 1) complete_job((m - 2) / 2);
    for (size_t d : sim_.milestones_[m].dependents) satisfy(d, now_);
  }

  // A job completed: the jobs waiting for every job before it in the log's completion order may go.
  void complete_job(size_t j) {
    job_done_[j] = true;
    const std::vector<size_t>& order = graph_.jobs_by_completion;
    while (prefix_latest_.size() - 1 < order.size() && job_done_[order[prefix_latest_.size() - 1]]) {
      const size_t done = order[prefix_latest_.size() - 1];
      prefix_latest_.push_back(std::max(prefix_latest_.back(), reached_at_[job_completed(done)]));
    }
    const size_t done = prefix_latest_.size() - 1;
    for (; next_gate_ < gates_by_need_.size() && sim_.job_gates_[gates_by_need_[next_gate_]] <= done; ++next_gate_) {
      const size_t waiting = gates_by_need_[next_gate_];
      const size_t need = sim_.job_gates_[waiting];
      if (need > 0) satisfy(job_submitted(waiting), prefix_latest_[need]);
    }
  }

  // Only a degenerate log (windows of no length at one instant waiting on each other) leaves
  // milestones waiting with nothing left to happen: release the earliest, as the log ordered them.
  bool release_stuck_milestone() {
    size_t stuck = waiting_.size();
    for (size_t m = 0; m < waiting_.size(); ++m) {
      if (reached_at_[m] < 0 && waiting_[m] > 0 &&
          (stuck == waiting_.size() || sim_.milestones_[m].real_ms < sim_.milestones_[stuck].real_ms)) {
        stuck = m;
      }
    }
    if (stuck == waiting_.size()) return false;
    waiting_[stuck] = 0;
    latest_[stuck] = std::max(latest_[stuck], now_);
    schedule_if_free(stuck);
    return true;
  }

  // --- tasks -----------------------------------------------------------------------------------

  std::tuple<int64_t, int64_t, int32_t, size_t> ready_key(size_t s) const {
    const StagePlan& plan = sim_.plans_[s];
    return {plan.job_id, plan.stage_id, plan.attempt_id, s};
  }

  bool has_tasks_to_hand_out(size_t s) const {
    return !requeued_[s].empty() || next_task_[s] < sim_.plans_[s].tasks_ms.size();
  }

  void mark_ready(size_t s) {
    if (has_tasks_to_hand_out(s)) ready_.insert(ready_key(s));
  }

  // Drops free cores of removed executors from the front; true when a free core is left.
  bool take_free_core() {
    while (!free_cores_.empty() && executors_[free_cores_.front()].removed_ms >= 0) free_cores_.pop_front();
    return !free_cores_.empty();
  }

  void dispatch() {
    while (!ready_.empty() && take_free_core()) {
      const size_t s = std::get<3>(*ready_.begin());
      const size_t e = free_cores_.front();
      free_cores_.pop_front();
      Executor& executor = executors_[e];
      if (executor.tasks.empty()) ++executor.idle_stamp;
      double duration = 0;
      if (!requeued_[s].empty()) {
        duration = requeued_[s].back();
        requeued_[s].pop_back();
      } else {
        duration = sim_.plans_[s].tasks_ms[next_task_[s]++];
      }
      executor.tasks.push_back({s, now_ + duration, duration});
      push(now_ + duration, EventKind::kTaskEnd, s, e);
      --pending_tasks_;
      ++running_tasks_;
      if (!has_tasks_to_hand_out(s)) ready_.erase(ready_.begin());
    }
  }

  void task_end(size_t s, size_t e) {
    Executor& executor = executors_[e];
    if (executor.removed_ms >= 0) return;  // lost with the executor, started again elsewhere
    std::erase_if(executor.tasks, [&](const Executor::Running& t) { return t.stage == s && t.end_ms == now_; });
    free_cores_.push_back(e);
    --running_tasks_;
    if (executor.tasks.empty()) executor_idle(e);
    if (++finished_tasks_[s] == sim_.plans_[s].tasks_ms.size()) satisfy(sim_.stage_submitted_base_ + 2 * s + 1, now_);
  }

  // --- executors -------------------------------------------------------------------------------

  // An executor asked for now: when it registers and whether it will be lost. The initial ones
  // register as the log's first ones did (more than it had: as its last). A later one registers
  // a startup after it was asked for and, while it keeps the cluster within today's size, no
  // sooner after the replayed submission of the stage the log's next later registration followed
  // than that registration came after the real one (before any stage: at its own time); it is then
  // lost as that executor was. Beyond today's size the log says nothing of the cluster's pace.
  void ask_for_executor(bool initial) {
    Request request;
    request.initial = initial;
    request.asked_ms = initial ? now_ : now_ + cluster_.startup_ms;
    request.time_ms = request.asked_ms;
    const std::vector<LoggedExecutor>& logged = initial ? cluster_.initial : cluster_.later;
    size_t& next = initial ? next_initial_ : next_later_;
    const bool paced = initial || alive_ + paced_pending_ < cluster_.today_executors;
    const size_t id = requests_.size();
    if (paced && !logged.empty()) {
      const size_t k = std::min(next, logged.size() - 1);
      if (next < logged.size()) request.lost_after_ms = logged[next].lost_after_ms;
      request.ordinal = next++;
      request.paced = true;
      ++paced_pending_;
      const Anchor anchor = initial ? Anchor{kNoStage, logged[k].registered_ms} : later_anchors_[k];
      if (anchor.stage != kNoStage) {
        const double submitted = reached_at_[sim_.stage_submitted_base_ + 2 * anchor.stage];
        if (submitted < 0) {
          // The replay has not come that far: the executor comes once it has.
          request.time_ms = std::numeric_limits<double>::infinity();
          parked_[anchor.stage].push_back(id);
          requests_.push_back(request);
          pending_.insert({request.time_ms, id});
          return;
        }
        request.time_ms = std::max(request.time_ms, submitted + anchor.offset_ms);
      } else {
        request.time_ms = std::max(request.time_ms, anchor.offset_ms);
      }
    }
    requests_.push_back(request);
    pending_.insert({request.time_ms, id});
    push(request.time_ms, EventKind::kRegistration, id);
  }

  // The stage a parked request waited for was submitted: it now has a time.
  void unpark(size_t stage) {
    auto it = parked_.find(stage);
    if (it == parked_.end()) return;
    for (size_t id : it->second) {
      Request& request = requests_[id];
      if (pending_.erase({request.time_ms, id}) == 0) continue;  // withdrawn meanwhile
      request.time_ms = std::max(request.asked_ms,
                                 now_ + later_anchors_[std::min(request.ordinal, later_anchors_.size() - 1)].offset_ms);
      pending_.insert({request.time_ms, id});
      push(request.time_ms, EventKind::kRegistration, id);
    }
    parked_.erase(it);
  }

  // Dynamic allocation no longer needs it: the request registering last goes (never an initial one).
  bool withdraw_request() {
    for (auto it = pending_.rbegin(); it != pending_.rend(); ++it) {
      Request& request = requests_[it->second];
      if (request.initial) continue;
      if (request.paced) {
        --paced_pending_;
        if (request.ordinal + 1 == next_later_) --next_later_;  // the log's registration is free again
      }
      pending_.erase(std::next(it).base());
      return true;
    }
    return false;
  }

  void register_executor(size_t id) {
    Request& request = requests_[id];
    if (pending_.erase({request.time_ms, id}) == 0) return;  // withdrawn
    if (request.paced) --paced_pending_;
    const size_t e = executors_.size();
    executors_.push_back({now_, -1, 0, {}});
    if (request.lost_after_ms > 0) push(now_ + request.lost_after_ms, EventKind::kExecutorLost, e);
    ++alive_;
    peak_executors_ = std::max(peak_executors_, alive_);
    for (int32_t c = 0; c < slots_; ++c) free_cores_.push_back(e);
    executor_idle(e);
  }

  void remove_executor(size_t e) {
    Executor& executor = executors_[e];
    executor.removed_ms = now_;  // its free cores leave free_cores_ as they come up
    --alive_;
  }

  // The tasks it ran start again from the beginning; a static cluster asks for a replacement.
  void lose_executor(size_t e) {
    Executor& executor = executors_[e];
    if (executor.removed_ms >= 0) return;
    for (const Executor::Running& task : executor.tasks) {
      requeued_[task.stage].push_back(task.duration_ms);
      ++pending_tasks_;
      --running_tasks_;
      ready_.insert(ready_key(task.stage));  // it was ready: it ran tasks
    }
    remove_executor(e);
    if (!cluster_.dynamic_allocation) {
      ask_for_executor(false);
    } else if (!executor.tasks.empty()) {
      backlogged();  // Spark's listener too: a failed task waits to run again
    }
  }

  void executor_idle(size_t e) {
    if (cluster_.dynamic_allocation)
      push(now_ + cluster_.idle_timeout_ms, EventKind::kIdleCheck, e, executors_[e].idle_stamp);
  }

  // Spark lowers its target to the need before it looks at idle executors, and keeps one while
  // the cluster would fall below the target without it.
  void idle_check(size_t e, size_t stamp) {
    const Executor& executor = executors_[e];
    if (executor.removed_ms >= 0 || !executor.tasks.empty() || executor.idle_stamp != stamp) return;
    lower_target_to_need();
    if (alive_ > target_) {
      remove_executor(e);
    } else {
      executor_idle(e);  // looked at again a timeout later
    }
  }

  // --- dynamic allocation's target (schedule_simulation.h) -------------------------------------

  // The executors the pending and running tasks would fill, at the allocation ratio, within
  // [minExecutors, N].
  int32_t needed_executors() const {
    const double tasks = static_cast<double>(pending_tasks_ + running_tasks_);
    const double filled = std::ceil(tasks * cluster_.allocation_ratio / slots_);
    const auto need = static_cast<int32_t>(std::min<double>(filled, most_executors_));
    return std::max(need, std::min(cluster_.min_executors, most_executors_));
  }

  // A stage's tasks were submitted: the backlog timer starts unless it runs already.
  void backlogged() {
    initializing_ = false;
    if (!add_at_ms_) add_at_ms_ = now_ + std::max(kAllocationTickMs, cluster_.backlog_timeout_ms);
  }

  // The replay is woken for the next round only when it could add (until then, the events that
  // raise the need look at the timer themselves), once per round.
  void wake_for_ramp() {
    if (add_at_ms_ && *add_at_ms_ != woken_at_ms_ && target_ < needed_executors()) {
      woken_at_ms_ = *add_at_ms_;
      push(*add_at_ms_, EventKind::kAllocationTick, 0);
    }
  }

  void lower_target_to_need() {
    if (initializing_) return;
    const int32_t need = needed_executors();
    if (need < target_) {
      target_ = need;
      to_add_ = 1;
    }
  }

  // One round of the ramp: one more executor, or twice the last round's when that one was met in
  // full; never beyond the need nor N.
  void ramp_round() {
    if (target_ >= most_executors_) {
      to_add_ = 1;
      return;
    }
    const int32_t before = target_;
    const int64_t raised = int64_t{std::max(target_, alive_)} + to_add_;
    target_ = static_cast<int32_t>(std::min<int64_t>(raised, needed_executors()));
    const int32_t delta = target_ - before;
    to_add_ = delta > 0 && delta == to_add_ ? std::min(to_add_ * 2, most_executors_) : 1;
  }

  void follow_the_tasks() {
    if (!cluster_.dynamic_allocation) return;
    if (pending_tasks_ == 0) {  // the queue drained: the timer and the doubling start again
      add_at_ms_.reset();
      to_add_ = 1;
    }
    const int32_t before = target_;
    lower_target_to_need();
    if (target_ == before && add_at_ms_ && now_ >= *add_at_ms_ && !initializing_) {
      ramp_round();
      add_at_ms_ = now_ + std::max(kAllocationTickMs, cluster_.sustained_backlog_timeout_ms);
    }
    wake_for_ramp();
    const auto have = alive_ + static_cast<int32_t>(pending_.size());
    for (int32_t k = have; k < target_; ++k) ask_for_executor(false);
    for (int32_t k = target_; k < have && withdraw_request(); ++k) {
    }
  }

  SimulationResult result() const {
    SimulationResult r;
    r.wall_clock_ms = reached_at_[kEnd] >= 0 ? reached_at_[kEnd] : now_;
    r.peak_executors = peak_executors_;
    for (const Executor& e : executors_) {
      const double until = e.removed_ms >= 0 ? e.removed_ms : r.wall_clock_ms;
      r.executor_ms_held += std::max(0.0, until - e.arrived_ms);
    }
    const size_t base = sim_.stage_submitted_base_;
    r.stage_windows.resize(sim_.plans_.size());
    for (size_t s = 0; s < sim_.plans_.size(); ++s) {
      r.stage_windows[s] = {reached_at_[base + 2 * s], reached_at_[base + 2 * s + 1]};
    }
    return r;
  }

  const ScheduleSimulation& sim_;
  const StageGraph& graph_;
  const SimulatedCluster& cluster_;
  const int32_t slots_;
  const int32_t most_executors_;

  EventQueue queue_;
  uint64_t sequence_ = 0;
  double now_ = 0;

  // Milestones, and jobs completed in the log's completion order (the gates of later jobs).
  std::vector<size_t> waiting_;
  std::vector<double> latest_;
  std::vector<double> reached_at_;
  std::vector<bool> job_done_;
  std::vector<double> prefix_latest_ = {0.0};  // [k]: the latest completion among the first k
  std::vector<size_t> gates_by_need_;
  size_t next_gate_ = 0;

  // Stages: ready ones with tasks to hand out, in FIFO order.
  std::set<std::tuple<int64_t, int64_t, int32_t, size_t>> ready_;
  std::vector<size_t> next_task_;
  std::vector<std::vector<double>> requeued_;  // tasks of a lost executor, to run again
  std::vector<size_t> finished_tasks_;
  int64_t pending_tasks_ = 0;  // tasks of submitted stages not handed out
  int64_t running_tasks_ = 0;

  // Executors and requests not registered yet.
  std::vector<Executor> executors_;
  // One entry per free core of an alive executor, in the order they came free: tasks go round the
  // executors, as Spark's offers spread them. Entries of a removed executor are dropped when met.
  std::deque<size_t> free_cores_;
  int32_t alive_ = 0;
  int32_t peak_executors_ = 0;
  // Dynamic allocation's target, the next round's increase and when it is due (unset: no backlog).
  int32_t target_ = 0;
  int32_t to_add_ = 1;
  std::optional<double> add_at_ms_;
  double woken_at_ms_ = -1;   // the round a wake-up is queued for
  bool initializing_ = true;  // no stage submitted yet: the target stays at the initial executors
  struct Request {
    double asked_ms = 0;  // when it was asked for, plus the startup
    double time_ms = 0;   // when it registers (infinity while it waits for a stage)
    bool initial = false;
    bool paced = false;  // by the log's registrations
    size_t ordinal = 0;  // which of them
    double lost_after_ms = 0;
  };
  // Where a later registration of the log sits: after the submission of a stage (an index into
  // the graph), or at a time of its own (kNoStage).
  struct Anchor {
    size_t stage = kNoStage;
    double offset_ms = 0;
  };
  std::vector<Anchor> later_anchors_;
  std::map<size_t, std::vector<size_t>> parked_;  // stage -> requests waiting for its submission
  std::vector<Request> requests_;
  std::set<std::pair<double, size_t>> pending_;  // requests not registered yet, by time
  size_t next_initial_ = 0;
  size_t next_later_ = 0;
  int32_t paced_pending_ = 0;  // requests not registered yet that keep the cluster within today's size
};

SimulationResult ScheduleSimulation::run(const SimulatedCluster& cluster) const {
  if (!graph_) return {};
  return Replay(*this, cluster).run();
}

}  // namespace sf::analysis
