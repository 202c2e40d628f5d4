#include "report/analysis_text.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "common/units.h"
#include "model/slowest.h"
#include "report/connect_text.h"
#include "report/economics_text.h"
#include "report/finding_text.h"
#include "report/streaming_text.h"

namespace sf::report {

namespace {

using namespace sf::model;
using namespace sf::units;

struct Totals {
  // Attempts that ran (complete, failed or still running); skipped ones (their output was
  // already there) and pending ones (their job ended or the log stopped first) did not.
  int64_t stage_attempts = 0, stages_failed = 0, stages_skipped = 0, stages_active = 0, stages_pending = 0;
  int64_t tasks = 0, tasks_failed = 0, tasks_killed = 0, tasks_speculative = 0;
  int64_t jobs_failed = 0, jobs_running = 0;
  int64_t run_time_ms = 0, cpu_time_ns = 0, gc_time_ms = 0;
  int64_t input_bytes = 0, output_bytes = 0, shuffle_read_bytes = 0, shuffle_write_bytes = 0;
  int64_t memory_spill_bytes = 0, disk_spill_bytes = 0;
  int64_t executors_removed = 0;
};

Totals totals_of(const AppModel& model) {
  Totals t;
  for (const StageAttempt& s : model.stages) {
    if (s.status == StageStatus::kSkipped) {
      ++t.stages_skipped;
      continue;
    }
    if (s.status == StageStatus::kPending) {
      ++t.stages_pending;
      continue;
    }
    ++t.stage_attempts;
    t.stages_failed += s.status == StageStatus::kFailed ? 1 : 0;
    t.stages_active += s.status == StageStatus::kActive ? 1 : 0;
    t.tasks += s.tasks_succeeded + s.tasks_failed + s.tasks_killed;
    t.tasks_failed += s.tasks_failed;
    t.tasks_killed += s.tasks_killed;
    t.tasks_speculative += s.tasks_speculative;
    t.run_time_ms += s.metric(TaskMetric::kExecutorRunTimeMs);
    t.cpu_time_ns += s.metric(TaskMetric::kExecutorCpuTimeNs);
    t.gc_time_ms += s.metric(TaskMetric::kJvmGcTimeMs);
    t.input_bytes += s.metric(TaskMetric::kInputBytes);
    t.output_bytes += s.metric(TaskMetric::kOutputBytes);
    t.shuffle_read_bytes += s.shuffle_read_bytes();
    t.shuffle_write_bytes += s.metric(TaskMetric::kShuffleWriteBytes);
    t.memory_spill_bytes += s.metric(TaskMetric::kMemoryBytesSpilled);
    t.disk_spill_bytes += s.metric(TaskMetric::kDiskBytesSpilled);
  }
  for (const Job& j : model.jobs) {
    t.jobs_failed += j.status == JobStatus::kFailed ? 1 : 0;
    t.jobs_running += j.status == JobStatus::kRunning ? 1 : 0;
  }
  for (const Executor& e : model.executors) t.executors_removed += e.remove_time_ms ? 1 : 0;
  return t;
}

void line(std::string& out, std::string_view label, const std::string& text) {
  out += fmt::format("{:<13}{}\n", label, text);
}

std::string truncate(std::string_view text, size_t width) {
  if (text.size() <= width) return std::string(text);
  return std::string(text.substr(0, width - 1)) + "~";
}

void application_section(std::string& out, const AppModel& model) {
  const AppInfo& app = model.app;
  std::string who = app.name.empty() ? std::string("(unnamed application)") : app.name;
  std::string id = app.id.empty() ? std::string("id unknown") : app.id;
  if (app.attempt_id) id += ", attempt " + *app.attempt_id;
  std::string version = app.spark_version.empty()
                            ? std::string("Spark version not logged")
                            : "Spark " + app.spark_version + (app.databricks ? " (Databricks)" : "");
  line(out, "Application",
       fmt::format("{} ({}) · {}{}", who, id, version, app.user.empty() ? "" : " · user " + app.user));

  std::string when;
  if (app.start_time_ms) when = format_time_utc(*app.start_time_ms);
  std::string status = app.finished ? "finished" : "INCOMPLETE: no ApplicationEnd (still running, or the log was cut)";
  line(out, "Duration",
       fmt::format("{}{} · {}", format_optional_duration(app.duration_ms()), when.empty() ? "" : " from " + when,
                   status));
}

// The notes joined with ", ".
std::string join_notes(const std::vector<std::string>& notes) {
  std::string text;
  for (size_t i = 0; i < notes.size(); ++i) text += (i == 0 ? "" : ", ") + notes[i];
  return text;
}

void work_section(std::string& out, const AppModel& model, const Totals& t) {
  const auto added = static_cast<int64_t>(model.executors.size());
  std::string peak =
      fmt::format("peak {} on {}{}", format_counted(model.peak_concurrent_cores, "core"),
                  format_counted(model.peak_concurrent_executors, "executor"),
                  model.peak_cores_from_executor_count ? " (cores estimated from spark.executor.cores)" : "");
  line(out, "Executors",
       fmt::format("{} seen, {} removed · {}", format_counted(added, "executor"), t.executors_removed, peak));

  std::string jobs = format_counted(static_cast<int64_t>(model.jobs.size()), "job");
  std::vector<std::string> job_notes;
  if (t.jobs_failed > 0) job_notes.push_back(fmt::format("{} failed", t.jobs_failed));
  if (t.jobs_running > 0) job_notes.push_back(fmt::format("{} never ended", t.jobs_running));
  if (!job_notes.empty()) jobs += " (" + join_notes(job_notes) + ")";
  // What ran is counted first, what did not run after it: "6 stage attempts ran, 6 skipped"
  // (the skipped ones are not among the six).
  std::string stages = format_counted(t.stage_attempts, "stage attempt") + " ran";
  std::vector<std::string> stage_notes;
  if (t.stages_failed > 0) stage_notes.push_back(fmt::format("{} failed", t.stages_failed));
  if (t.stages_active > 0) stage_notes.push_back(fmt::format("{} unfinished", t.stages_active));
  if (!stage_notes.empty()) stages += " (" + join_notes(stage_notes) + ")";
  if (t.stages_skipped > 0) stages += fmt::format(", {} skipped", format_count(t.stages_skipped));
  if (t.stages_pending > 0) stages += fmt::format(", {} never started", format_count(t.stages_pending));
  std::string tasks = format_counted(t.tasks, "task");
  std::vector<std::string> task_notes;
  if (t.tasks_failed > 0) task_notes.push_back(fmt::format("{} failed", format_count(t.tasks_failed)));
  if (t.tasks_killed > 0) task_notes.push_back(fmt::format("{} killed", format_count(t.tasks_killed)));
  if (t.tasks_speculative > 0) task_notes.push_back(fmt::format("{} speculative", format_count(t.tasks_speculative)));
  if (!task_notes.empty()) tasks += " (" + join_notes(task_notes) + ")";
  line(out, "Work",
       fmt::format("{} · {} · {} · {}", jobs, stages, tasks,
                   format_counted(static_cast<int64_t>(model.sql.size()), "SQL execution")));

  const double gc_share =
      t.run_time_ms > 0 ? static_cast<double>(t.gc_time_ms) / static_cast<double>(t.run_time_ms) : 0.0;
  line(out, "Task time",
       fmt::format("executor run {} · CPU {} · GC {} ({} of run time)", format_duration_ms(t.run_time_ms),
                   format_duration_ms(t.cpu_time_ns / 1'000'000), format_duration_ms(t.gc_time_ms),
                   format_percent(gc_share)));
  line(out, "Data",
       fmt::format("input {} · output {} · shuffle read {} · shuffle write {}", format_bytes(t.input_bytes),
                   format_bytes(t.output_bytes), format_bytes(t.shuffle_read_bytes),
                   format_bytes(t.shuffle_write_bytes)));
  if (t.memory_spill_bytes + t.disk_spill_bytes > 0) {
    line(out, "Spill",
         fmt::format("{} from memory, {} to disk", format_bytes(t.memory_spill_bytes),
                     format_bytes(t.disk_spill_bytes)));
  }
}

void top_stages_section(std::string& out, const AppModel& model, size_t limit) {
  const std::vector<const StageAttempt*> ran = slowest_stages(model, limit);
  if (ran.empty()) return;
  out += ran.size() == 1 ? std::string("\nTop stage by duration\n")
                         : fmt::format("\nTop {} stages by duration\n", ran.size());
  out += fmt::format("  {:>8} {:>9} {:>7} {:>9} {:>9} {:>10} {:>10}  {}\n", "stage", "duration", "tasks", "p50 task",
                     "max task", "shuffle rd", "disk spill", "name");
  for (const StageAttempt* s : ran) {
    const std::string id = fmt::format("{}.{}", s->stage_id, s->attempt_id);
    const Quantiles& q = s->quantile(QuantileMetric::kDurationMs);
    std::string name = truncate(s->name, 48);
    if (s->status == StageStatus::kFailed) name += "  [FAILED]";
    out += fmt::format("  {:>8} {:>9} {:>7} {:>9} {:>9} {:>10} {:>10}  {}\n", id, format_duration_ms(*s->duration_ms()),
                       format_count(s->tasks_succeeded + s->tasks_failed + s->tasks_killed),
                       q.count > 0 ? format_duration_ms(q.p50) : "-", format_duration_ms(s->max_task_duration_ms),
                       format_bytes(s->shuffle_read_bytes()), format_bytes(s->metric(TaskMetric::kDiskBytesSpilled)),
                       name);
  }
}

void diagnostics_section(std::string& out, const AppModel& model) {
  const Diagnostics& d = model.diagnostics;
  out += "\nLog\n";
  std::string parts;
  uint64_t stored = 0, uncompressed = 0;
  for (const auto& p : model.source.parts) {
    stored += p.stored_bytes;
    uncompressed += p.uncompressed_bytes;
  }
  std::string codecs;
  for (const auto& p : model.source.parts) {
    if (codecs.find(p.codec) == std::string::npos) codecs += (codecs.empty() ? "" : ",") + p.codec;
  }
  out += fmt::format("  {} ({} layout, {} part{}, codec {}) · {} stored, {} uncompressed · {} lines, {} events\n",
                     model.source.path, model.source.layout, model.source.parts.size(),
                     model.source.parts.size() == 1 ? "" : "s", codecs.empty() ? "none" : codecs,
                     format_bytes(static_cast<int64_t>(stored)), format_bytes(static_cast<int64_t>(uncompressed)),
                     format_count(static_cast<int64_t>(d.lines_read)),
                     format_count(static_cast<int64_t>(d.events_decoded)));
  if (d.malformed_lines > 0) {
    out += fmt::format("  {} malformed line{} skipped:\n", d.malformed_lines, d.malformed_lines == 1 ? "" : "s");
    for (const auto& m : d.malformed) out += fmt::format("    {} line {}: {}\n", m.part, m.line_number, m.reason);
    if (d.malformed.size() < d.malformed_lines)
      out += fmt::format("    ... and {} more\n", d.malformed_lines - d.malformed.size());
  }
  if (!d.unknown_events.empty()) {
    uint64_t total = 0;
    for (const auto& [name, count] : d.unknown_events) total += count;
    out += fmt::format("  {} of {} not used by the analysis (listed in the JSON output)\n",
                       format_counted(static_cast<int64_t>(total), "event"),
                       format_counted(static_cast<int64_t>(d.unknown_events.size()), "type"));
  }
  for (const auto& [kind, count] : d.orphan_events) out += fmt::format("  {} x {}\n", count, kind);
  if (d.read_error)
    out += fmt::format("  READ STOPPED EARLY: {}\n  (everything before that point is analyzed)\n", *d.read_error);
  for (const auto& gap : d.missing_parts) out += fmt::format("  WARNING: {}\n", gap);
  for (const auto& note : d.notes) out += fmt::format("  note: {}\n", note);
}

void fix_these_first_section(std::string& out, const analysis::Analysis& analysis, size_t limit) {
  using analysis::RollupTier;
  out += "Fix these first\n";
  size_t shown = 0;
  std::vector<std::string> costs;
  std::vector<std::string> others;
  for (const auto& group : analysis.rollup.groups) {
    const analysis::Finding* best = analysis.finding(group.best_finding_id);
    if (best == nullptr) continue;
    if (group.tier == RollupTier::kTime && shown < limit && group.fix_first) {
      ++shown;
      out += fmt::format("  {}. {}: {} ({} finding{}, {} at most)\n", shown, group.type, rollup_figure(group),
                         group.finding_ids.size(), group.finding_ids.size() == 1 ? "" : "s", to_string(best->band));
      out += fmt::format("     {}\n", best->title);
      for (const analysis::AnsweredFinding& a : best->also_answers) {
        out += fmt::format("     (also {}: {})\n", a.finding.type_and_rule(), a.finding.title);
      }
      out += fmt::format("     -> {}\n", best->recommendation);
      if (const std::string settings = settings_phrase(*best); !settings.empty()) {
        out += fmt::format("        {}\n", settings);
      }
    } else if (group.tier == RollupTier::kResource) {
      costs.push_back(fmt::format("{} ({})", group.type, raw_waste_phrase({group.resource_total, *group.unit})));
    } else if (group.tier == RollupTier::kCount || group.tier == RollupTier::kTime) {
      others.push_back(fmt::format("{} ({})", group.type, band_counts_phrase(group)));
    }
  }
  if (shown == 0) out += "  Nothing with a wall-clock cost stands out.\n";
  auto join = [](const std::vector<std::string>& items) {
    std::string text;
    for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
    return text;
  };
  if (!costs.empty()) out += "  Resource-cost projections (not wall-clock): " + join(costs) + "\n";
  if (!others.empty()) out += "  Also: " + join(others) + "\n";
  out += "\n";
}

void findings_section(std::string& out, const analysis::Analysis& analysis, size_t limit) {
  if (analysis.findings.empty()) {
    out += "\nFindings: none\n";
    return;
  }
  out += fmt::format("\nFindings ({})\n", analysis.findings.size());
  size_t listed = 0, not_listed = 0, negligible = 0;
  for (const auto& f : analysis.findings) {
    // A time finding whose figure rounds to nothing has nothing to say in a report.
    if (recovers_nothing(f)) {
      ++negligible;
      continue;
    }
    if (limit != 0 && listed == limit) {
      ++not_listed;
      continue;
    }
    ++listed;
    const std::string impact = impact_phrase(f);
    out += fmt::format("  [{}] {}{}\n", to_string(f.band), f.title, impact.empty() ? "" : " -- " + impact);
    out += fmt::format("      {} · {} · {} confidence\n", f.type_and_rule(), to_string(f.impact.basis),
                       to_string(f.confidence));
    for (const analysis::AnsweredFinding& a : f.also_answers) {
      out += fmt::format("      also {}: {} ({})\n", a.finding.type_and_rule(), a.finding.title, a.why);
    }
  }
  if (not_listed > 0) {
    out += fmt::format("  ... and {} more (--top-findings 0 lists every one; -f json and -f markdown do)\n",
                       format_count(static_cast<int64_t>(not_listed)));
  }
  if (negligible > 0) {
    out += fmt::format("  {} with no measurable wall-clock to recover {} not listed (-f json lists {})\n",
                       format_counted(static_cast<int64_t>(negligible), "more finding"), negligible == 1 ? "is" : "are",
                       negligible == 1 ? "it" : "them");
  }
  for (const auto& violation : analysis.guard_violations) out += "  WARNING: regression guard: " + violation + "\n";
}

}  // namespace

std::string analysis_text(const AppModel& model, const analysis::Analysis* analysis, const TextOptions& options) {
  std::string out;
  const Totals totals = totals_of(model);
  if (analysis != nullptr) fix_these_first_section(out, *analysis, options.top_groups);
  application_section(out, model);
  work_section(out, model, totals);
  if (analysis != nullptr) economics_text_section(out, analysis->economics);
  if (analysis != nullptr) streaming_text_section(out, model, *analysis);
  if (analysis != nullptr) connect_text_section(out, model, *analysis);
  if (analysis != nullptr) findings_section(out, *analysis, options.top_findings);
  top_stages_section(out, model, options.top_stages);
  diagnostics_section(out, model);
  return out;
}

std::string analysis_summary_line(const std::string& source, const AppModel& model,
                                  const analysis::Analysis& analysis) {
  const auto& app = model.app;
  std::string line = fmt::format("{}: {} \"{}\" {} {}", source, app.id.empty() ? "(no id)" : app.id, app.name,
                                 format_optional_duration(app.duration_ms()), app.finished ? "finished" : "INCOMPLETE");
  line += fmt::format(" | {} finding{}", analysis.findings.size(), analysis.findings.size() == 1 ? "" : "s");
  for (const auto& group : analysis.rollup.groups) {
    if (group.tier != analysis::RollupTier::kTime) continue;
    line += fmt::format(" | fix first: {} ({})", group.type, rollup_figure(group));
    break;
  }
  if (model.diagnostics.read_error) line += " | partial load";
  return line;
}

}  // namespace sf::report
