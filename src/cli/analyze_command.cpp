// sparkforensics analyze LOG...: load event logs, find what wastes time, report it.
//
// One log gets the full report (text, JSON or Markdown). Several logs, or a directory of logs,
// are analyzed in parallel (--jobs) and written in input order as each is ready: text gives one
// summary line per application, json one array of analysis documents, markdown one document per
// log. Each worker holds one model at a time, so memory stays bounded by the largest log (and
// the documents finished ahead of a slower earlier one).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "analysis/analyzer.h"
#include "cli/commands.h"
#include "cli/leave_to_exit.h"
#include "cli/log_reading.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "common/parallel_for.h"
#include "common/units.h"
#include "report/analysis_markdown.h"
#include "report/analysis_text.h"
#include "report/dashboard_page.h"
#include "report/model_json.h"
#include "report/timeline_json.h"
#include "service/log_analysis.h"
#include "service/log_arguments.h"

namespace sf::cli {

namespace {

struct AnalyzeOptions {
  std::vector<std::string> log_paths;
  std::string format;
  std::string output_path;
  bool no_progress = false;
  bool quiet = false;
  bool compact = false;  // json on one line
  size_t top_stages = 10;
  size_t top_findings = report::TextOptions{}.top_findings;
  unsigned jobs = 0;  // 0: as many as cores, at most 2
  LogReadFlags read;
};

// How -f json lays the document out: pretty unless --compact.
report::JsonOptions json_layout(const AnalyzeOptions& options) {
  report::JsonOptions json_options;
  if (options.compact) json_options.indent = -1;
  return json_options;
}

// An error only for html from a program built without the dashboard.
Result<std::string> render(const AnalyzeOptions& options, const model::AppModel& model,
                           const analysis::Analysis& analysis) {
  if (options.format == "json") return report::analysis_json(model, &analysis, json_layout(options));
  if (options.format == "markdown") return report::analysis_markdown(model, analysis);
  if (options.format == "html") {
    report::JsonOptions json_options;
    json_options.indent = -1;
    return report::analysis_html(report::analysis_json(model, &analysis, json_options), report::timeline_json(model));
  }
  report::TextOptions text_options;
  text_options.top_stages = options.top_stages;
  text_options.top_findings = options.top_findings;
  return report::analysis_text(model, &analysis, text_options);
}

int analyze_one(const AnalyzeOptions& options, const service::ReadSettings& settings) {
  auto loaded = load_log(options.log_paths.front(), settings, !options.no_progress && !options.quiet);
  if (!loaded) return report_error(loaded.error().message(), kExitFailed);
  if (!options.quiet) warn_about_partial_load("", *loaded);
  const analysis::AnalysisOptions analysis_options = service::analysis_options(settings);
  analysis::Analysis analysis;
  int exit_code = kExitOk;
  if (options.format == "json") {
    // Written out as it is made: the document of a 1 GB log is 80 MB, more than its model.
    OutputSink out(options.output_path);
    if (out.failed()) return kExitFailed;
    const report::TextSink write = [&](std::string_view text) { out.write(text); };
    if (settings.load.threads != 1) {
      // The second core, idle once the log is read, writes the model's part of the document while
      // this thread analyzes.
      report::stream_analysis_json_while_analyzing(
          *loaded,
          [&]() -> const analysis::Analysis& { return analysis = analysis::analyze(*loaded, analysis_options); },
          json_layout(options), write);
    } else {
      analysis = analysis::analyze(*loaded, analysis_options);
      report::stream_analysis_json(*loaded, &analysis, json_layout(options), write);
    }
    exit_code = out.close() ? kExitOk : kExitFailed;
  } else {
    analysis = analysis::analyze(*loaded, analysis_options);
    auto rendered = render(options, *loaded, analysis);
    if (!rendered) return report_error(rendered.error().message(), kExitFailed);
    exit_code = write_output(options.output_path, *rendered) ? kExitOk : kExitFailed;
  }
  leave_to_exit(std::move(*loaded));
  leave_to_exit(std::move(analysis));
  return exit_code;
}

// The documents of a batch, written in input order as soon as every earlier one is written or
// known to have none: a JSON array, Markdown documents one after another, or summary lines.
class OrderedDocuments {
 public:
  OrderedDocuments(OutputSink& sink, std::string format, size_t count)
      : sink_(sink), format_(std::move(format)), pending_(count) {
    if (format_ == "json") sink_.write("[");
  }

  // Document `index`, or nullopt when that log has none (it could not be read).
  void put(size_t index, std::optional<std::string> document) {
    std::lock_guard lock(mutex_);
    pending_[index] = Slot{true, std::move(document)};
    for (; next_ < pending_.size() && pending_[next_].done; ++next_) {
      if (auto& text = pending_[next_].document) {
        write_one(*text);
        text.reset();
      }
    }
  }

  void finish() {
    std::lock_guard lock(mutex_);
    if (format_ == "json") sink_.write(written_ == 0 ? "]\n" : "\n]\n");
  }

 private:
  struct Slot {
    bool done = false;
    std::optional<std::string> document;
  };

  void write_one(std::string& text) {
    if (format_ == "json") {
      while (!text.empty() && text.back() == '\n') text.pop_back();
      sink_.write(written_ == 0 ? "\n" : ",\n");
    } else if (format_ == "markdown" && written_ > 0) {
      sink_.write("\n---\n\n");
    }
    sink_.write(text);
    ++written_;
  }

  OutputSink& sink_;
  const std::string format_;
  std::mutex mutex_;
  std::vector<Slot> pending_;
  size_t next_ = 0;
  size_t written_ = 0;
};

int analyze_many(const AnalyzeOptions& options, const service::ReadSettings& settings) {
  const service::LogArguments arguments = service::expand_log_arguments(options.log_paths);
  for (const std::string& skipped : arguments.skipped) print_error("skipped " + skipped);
  const auto& logs = arguments.logs;
  if (logs.empty()) {
    std::string where;
    for (const auto& path : options.log_paths) where += (where.empty() ? "" : ", ") + path;
    return report_error("no event logs in " + where, kExitFailed);
  }

  OutputSink sink(options.output_path);
  if (sink.failed()) return kExitFailed;  // before the analyses, not after them
  OrderedDocuments documents(sink, options.format, logs.size());
  ProgressLine progress("", !options.no_progress && !options.quiet);
  std::mutex stderr_mutex;  // the progress line and the workers' messages, one at a time
  size_t done = 0, failed = 0;
  // Logs already load side by side: one decoding thread each unless asked.
  service::ReadSettings each = settings;
  if (each.load.threads == 0) each.load.threads = 1;
  const unsigned jobs =
      options.jobs != 0 ? options.jobs : std::min(2u, std::max(1u, std::thread::hardware_concurrency()));
  parallel_for(logs.size(), jobs, [&](size_t i) {
    auto loaded = service::load_log(logs[i].path, each);
    std::optional<std::string> document;
    if (loaded) {
      const analysis::Analysis analysis = service::analyze(*loaded, each);
      if (options.format == "text") {
        document = report::analysis_summary_line(logs[i].path, *loaded, analysis) + "\n";
      } else if (auto rendered = render(options, *loaded, analysis)) {
        document = std::move(*rendered);
      }
    }
    {
      std::lock_guard lock(stderr_mutex);
      progress.clear();
      if (!loaded) {
        // A file in a directory of logs that is no event log at all (notes, a stray archive)
        // is left out and named, as the History Server leaves it out; a log that cannot be
        // read is an error.
        const bool not_a_log = logs[i].listed && loaded.error().code() == StatusCode::kUnsupported;
        print_error((not_a_log ? "skipped " : "") + loaded.error().message());
        failed += not_a_log ? 0 : 1;
      } else if (!options.quiet) {
        warn_about_partial_load(logs[i].path, *loaded);
      }
      ++done;
      progress.show(
          fmt::format("{} of {} analyzed{}", done, units::format_counted(static_cast<int64_t>(logs.size()), "log"),
                      failed == 0 ? "" : fmt::format(" ({} could not be)", failed)),
          /*now=*/done == logs.size());
    }
    documents.put(i, std::move(document));
  });
  progress.clear();
  documents.finish();
  if (!sink.close()) return kExitFailed;
  return failed > 0 ? kExitFailed : kExitOk;
}

int run_analyze(const AnalyzeOptions& options) {
  auto settings = log_read_settings(options.read);
  if (!settings) return report_error(settings.error().message(), kExitFailed);
  const bool single = options.log_paths.size() == 1 && !service::is_directory_of_logs(options.log_paths[0]);
  // One HTML page is one application's dashboard; pages one after another are no page.
  if (!single && options.format == "html") return report_error("--format html takes one event log", kExitFailed);
  return single ? analyze_one(options, *settings) : analyze_many(options, *settings);
}

}  // namespace

void register_analyze(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<AnalyzeOptions>();
  CLI::App* cmd = app.add_subcommand("analyze", "Find what wastes time in Spark event logs, and what to change");
  cmd->add_option("logs", options->log_paths,
                  "Event log(s): a file (plain, .zstd/.zst, .lz4, .snappy, .lzf, .gz, .inprogress), a rolling "
                  "eventlog_v2_* directory, a Databricks eventlog directory, a History Server .zip, - for stdin, "
                  "or a directory of logs (its subdirectories searched too)")
      ->required();
  add_format_option(*cmd, options->format, {"text", "json", "markdown", "html"},
                    "One log: its report (html: the dashboard as one self-contained file). Several logs or a "
                    "directory: text gives one summary line per log, json an array of analysis documents, markdown "
                    "one document per log");
  add_output_option(*cmd, options->output_path);
  cmd->add_flag("--compact", options->compact,
                "json: each document on one line, with no indentation (a third smaller; pretty by default)");
  cmd->add_flag("-q,--quiet", options->quiet, "No progress line and no warnings on stderr (errors still)");
  cmd->add_flag("--no-progress", options->no_progress, "No progress line on stderr");
  add_log_read_flags(*cmd, options->read, "with several logs: 1 each, unless given");
  cmd->add_option("-j,--jobs", options->jobs, "Logs analyzed at once when given several; 0: the cores, at most 2")
      ->capture_default_str();
  cmd->add_option("--top-stages", options->top_stages, "How many stages the text report lists")->capture_default_str();
  cmd->add_option("--top-findings", options->top_findings,
                  "How many findings the text report lists (0: every one); the rest are counted")
      ->capture_default_str();
  cmd->callback([options, &exit_code] { exit_code = run_analyze(*options); });
}

}  // namespace sf::cli
