// sparkforensics analyze LOG: load one event log and report on it.
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/progress.h"
#include "model/load.h"
#include "report/analysis_text.h"
#include "report/model_json.h"

namespace sf::cli {

namespace {

struct AnalyzeOptions {
  std::string log_path;
  std::string format = "text";
  std::string output_path;
  bool no_progress = false;
  bool quiet = false;
  size_t max_line_bytes = size_t{1} << 30;
  size_t top_stages = 10;
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

int run_analyze(const AnalyzeOptions& options) {
  ProgressLine progress(options.log_path, !options.no_progress && !options.quiet);
  model::LoadOptions load_options;
  load_options.max_line_bytes = options.max_line_bytes;
  load_options.on_progress = [&progress](const model::LoadProgress& p) { progress.update(p); };

  auto loaded = model::load_event_log(options.log_path, load_options);
  progress.clear();
  if (!loaded) {
    std::fprintf(stderr, "sparkforensics: %s\n", loaded.error().message().c_str());
    return kExitError;
  }
  const model::AppModel& model = *loaded;
  if (!options.quiet) {
    const auto& d = model.diagnostics;
    if (d.read_error) std::fprintf(stderr, "sparkforensics: warning: partial load: %s\n", d.read_error->c_str());
    if (d.malformed_lines > 0) {
      std::fprintf(stderr, "sparkforensics: warning: %llu malformed line(s) skipped (first: %s line %llu: %s)\n",
                   static_cast<unsigned long long>(d.malformed_lines), d.malformed.front().part.c_str(),
                   static_cast<unsigned long long>(d.malformed.front().line_number), d.malformed.front().reason.c_str());
    }
  }

  std::string rendered;
  if (options.format == "json") {
    rendered = report::analysis_json(model);
  } else {
    report::TextOptions text_options;
    text_options.top_stages = options.top_stages;
    rendered = report::analysis_text(model, text_options);
  }
  return write_output(options.output_path, rendered) ? kExitOk : kExitError;
}

}  // namespace

void register_analyze(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<AnalyzeOptions>();
  CLI::App* cmd = app.add_subcommand("analyze", "Analyze one Spark event log and report on it");
  cmd->add_option("log", options->log_path,
                  "Event log: a file (plain, .zstd/.zst, .lz4, .snappy, .lzf, .gz, .inprogress), a rolling "
                  "eventlog_v2_* directory, a Databricks eventlog directory, a History Server .zip, or - for stdin")
      ->required();
  cmd->add_option("--format,-f", options->format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->add_option("--output,-o", options->output_path, "Write the report to FILE instead of stdout");
  cmd->add_flag("--no-progress", options->no_progress, "Do not show a progress line on stderr");
  cmd->add_flag("--quiet,-q", options->quiet, "No progress line and no warnings on stderr");
  cmd->add_option("--max-line-bytes", options->max_line_bytes,
                  "Lines longer than this are skipped and reported as malformed")
      ->capture_default_str();
  cmd->add_option("--top-stages", options->top_stages, "How many stages the text report lists")->capture_default_str();
  cmd->callback([options, &exit_code] { exit_code = run_analyze(*options); });
}

}  // namespace sf::cli
