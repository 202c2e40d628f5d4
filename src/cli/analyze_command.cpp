// sparkforensics analyze LOG...: load event logs, find what wastes time, report it.
//
// One log gets the full report (text, JSON or Markdown). Several logs, or a directory of logs,
// are analyzed in parallel (--jobs) with one summary line per application, in input order;
// each worker holds one model at a time, so memory stays bounded by the largest log.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>


#include "analysis/analysis_config.h"
#include "analysis/analyzer.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "io/log_source.h"
#include "model/load.h"
#include "report/analysis_html.h"
#include "report/analysis_markdown.h"
#include "report/analysis_text.h"
#include "report/model_json.h"
#include "report/timeline_json.h"

namespace sf::cli {

namespace {

struct AnalyzeOptions {
  std::vector<std::string> log_paths;
  std::string format = "text";
  std::string output_path;
  std::string config_path;
  bool no_progress = false;
  bool quiet = false;
  size_t max_line_bytes = size_t{1} << 30;
  uint64_t max_decompression_ratio = io::DecompressLimits{}.max_ratio;
  uint64_t max_open_tasks = model::BuilderLimits{}.max_open_task_values;
  size_t top_stages = 10;
  unsigned jobs = 0;  // 0: as many as cores, at most 2
  unsigned threads = 0;  // decoding threads per log; 0: the loader's default
};

bool write_output(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return true;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) {
    std::fprintf(stderr, "sparkforensics: cannot write %s\n", path.c_str());
    return false;
  }
  return true;
}

void warn_about_partial_load(const model::AppModel& model) {
  const auto& d = model.diagnostics;
  if (d.read_error) std::fprintf(stderr, "sparkforensics: warning: partial load: %s\n", d.read_error->c_str());
  if (d.malformed_lines > 0) {
    std::fprintf(stderr, "sparkforensics: warning: %llu malformed line(s) skipped (first: %s line %llu: %s)\n",
                 static_cast<unsigned long long>(d.malformed_lines), d.malformed.front().part.c_str(),
                 static_cast<unsigned long long>(d.malformed.front().line_number), d.malformed.front().reason.c_str());
  }
}

model::LoadOptions load_options_for(const AnalyzeOptions& options, unsigned threads) {
  model::LoadOptions load_options;
  load_options.max_line_bytes = options.max_line_bytes;
  load_options.decompress_limits.max_ratio = options.max_decompression_ratio;
  load_options.builder_limits.max_open_task_values = options.max_open_tasks;
  load_options.threads = threads;
  return load_options;
}

int analyze_one(const AnalyzeOptions& options, const analysis::AnalysisOptions& analysis_options) {
  const std::string& path = options.log_paths.front();
  ProgressLine progress(path, !options.no_progress && !options.quiet);
  model::LoadOptions load_options = load_options_for(options, options.threads);
  load_options.on_progress = [&progress](const model::LoadProgress& p) { progress.update(p); };
  auto loaded = model::load_event_log(path, load_options);
  progress.clear();
  if (!loaded) {
    print_error(loaded.error().message());
    return kExitError;
  }
  const model::AppModel& model = *loaded;
  if (!options.quiet) warn_about_partial_load(model);
  const analysis::Analysis analysis = analysis::analyze(model, analysis_options);

  std::string rendered;
  if (options.format == "json") {
    rendered = report::analysis_json(model, &analysis);
  } else if (options.format == "html") {
    report::JsonOptions json_options;
    json_options.indent = -1;
    auto html = report::analysis_html(report::analysis_json(model, &analysis, json_options),
                                      report::timeline_json(model).dump());
    if (!html) {
      print_error(html.error().message());
      return kExitError;
    }
    rendered = std::move(*html);
  } else if (options.format == "markdown") {
    rendered = report::analysis_markdown(model, analysis);
  } else {
    report::TextOptions text_options;
    text_options.top_stages = options.top_stages;
    rendered = report::analysis_text(model, &analysis, text_options);
  }
  return write_output(options.output_path, rendered) ? kExitOk : kExitError;
}

// The logs of `path` when it is a directory of logs rather than one log; nullopt otherwise.
std::optional<std::vector<std::string>> logs_in_directory(const std::string& path) {
  if (path == "-") return std::nullopt;
  auto resolved = io::resolve_log_input(path);
  if (resolved || resolved.error().code() != StatusCode::kInvalidArgument) return std::nullopt;
  auto logs = io::list_event_logs(path);
  if (!logs || logs->logs.empty()) return std::nullopt;
  return logs->logs;
}

int analyze_many(const AnalyzeOptions& options, const analysis::AnalysisOptions& analysis_options) {
  // Expand directories of logs into their logs; a directory that is a log stays one entry.
  std::vector<std::string> paths;
  for (const auto& path : options.log_paths) {
    if (auto logs = logs_in_directory(path)) {
      paths.insert(paths.end(), logs->begin(), logs->end());
    } else {
      paths.push_back(path);
    }
  }
  if (paths.empty()) {
    std::fprintf(stderr, "sparkforensics: no event logs found\n");
    return kExitError;
  }

  std::vector<std::string> lines(paths.size());
  std::vector<bool> failed(paths.size(), false);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < paths.size(); i = next++) {
      // Logs already load side by side: one thread each unless asked.
      auto loaded = model::load_event_log(paths[i], load_options_for(options, options.threads != 0 ? options.threads : 1));
      if (!loaded) {
        lines[i] = paths[i] + ": error: " + loaded.error().message();
        failed[i] = true;
        continue;
      }
      const analysis::Analysis analysis = analysis::analyze(*loaded, analysis_options);
      lines[i] = report::analysis_summary_line(paths[i], *loaded, analysis);
    }
  };
  unsigned jobs = options.jobs != 0 ? options.jobs : std::min(2u, std::max(1u, std::thread::hardware_concurrency()));
  jobs = std::min<unsigned>(jobs, static_cast<unsigned>(paths.size()));
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& thread : threads) thread.join();

  std::string out;
  for (const auto& line : lines) out += line + "\n";
  const bool any_failed = std::find(failed.begin(), failed.end(), true) != failed.end();
  if (!write_output(options.output_path, out)) return kExitError;
  return any_failed ? kExitError : kExitOk;
}

int run_analyze(const AnalyzeOptions& options) {
  analysis::AnalysisOptions analysis_options;
  if (!options.config_path.empty()) {
    auto loaded = analysis::load_analysis_options(options.config_path);
    if (!loaded) {
      print_error(loaded.error().message());
      return kExitUsage;
    }
    analysis_options = std::move(*loaded);
  }
  const bool single = options.log_paths.size() == 1 && !logs_in_directory(options.log_paths[0]);
  return single ? analyze_one(options, analysis_options) : analyze_many(options, analysis_options);
}

}  // namespace

void register_analyze(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<AnalyzeOptions>();
  CLI::App* cmd = app.add_subcommand("analyze", "Find what wastes time in Spark event logs, and what to change");
  cmd->add_option("logs", options->log_paths,
                  "Event log(s): a file (plain, .zstd/.zst, .lz4, .snappy, .lzf, .gz, .inprogress), a rolling "
                  "eventlog_v2_* directory, a Databricks eventlog directory, a History Server .zip, - for stdin, "
                  "or a directory of logs (one summary line per application)")
      ->required();
  cmd->add_option("--format,-f", options->format, "Output format of a single log's report")
      ->check(CLI::IsMember({"text", "json", "markdown", "html"}))
      ->capture_default_str();
  cmd->add_option("--output,-o", options->output_path, "Write the report to FILE instead of stdout");
  cmd->add_option("--config", options->config_path,
                  "JSON file overriding detector thresholds: {\"thresholds\": {\"skew.maxToMedianRatio\": 4}}");
  cmd->add_option("--jobs,-j", options->jobs, "Logs analyzed at once when given several (default: cores, at most 2)");
  cmd->add_option("--threads", options->threads,
                  "Threads decoding one log (default: cores, at most 2; with several logs, 1 each)");
  cmd->add_flag("--no-progress", options->no_progress, "Do not show a progress line on stderr");
  cmd->add_flag("--quiet,-q", options->quiet, "No progress line and no warnings on stderr");
  cmd->add_option("--max-line-bytes", options->max_line_bytes,
                  "Lines longer than this are skipped and reported as malformed")
      ->capture_default_str();
  cmd->add_option("--max-decompression-ratio", options->max_decompression_ratio,
                  "Stop reading a compressed part whose output passes this many times its input (0: no limit)")
      ->capture_default_str();
  cmd->add_option("--max-open-tasks", options->max_open_tasks,
                  "Successful tasks whose values running stages may hold for exact quantiles; past it, a "
                  "stage's quantiles are left out and the report says so")
      ->capture_default_str();
  cmd->add_option("--top-stages", options->top_stages, "How many stages the text report lists")->capture_default_str();
  cmd->callback([options, &exit_code] { exit_code = run_analyze(*options); });
}

}  // namespace sf::cli
