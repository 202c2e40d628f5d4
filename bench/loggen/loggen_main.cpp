// sf-loggen: writes a generated Spark event log (see log_generator.h and README.md).
//
//   sf-loggen --preset demo|small|benchmark|large [--seed N] [--scale K] [--tasks-per-stage N] [--big-stage-tasks N]
//             [--codec none|zstd|lz4|snappy|lzf|gzip] [--layout file|rolling] --out DIR
//             [--unfinished] [--cut-last-line]
//
// Prints the written path on stdout and what was written (parts, lines, bytes, speed) on stderr.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <exception>
#include <map>
#include <string>

#include "loggen/log_generator.h"

int main(int argc, char** argv) {
  namespace lg = sf::loggen;
  CLI::App app{"Writes a deterministic Spark event log with known content."};
  std::string preset = "demo";
  uint64_t seed = 0;
  int scale = 0;
  std::string codec_name = "none";
  std::string layout_name = "file";
  std::string out_dir;
  bool unfinished = false;
  bool cut_last_line = false;
  uint64_t part_bytes = uint64_t{128} << 20;

  const std::map<std::string, sf::io::Codec> codecs = {
      {"none", sf::io::Codec::kNone},     {"zstd", sf::io::Codec::kZstd}, {"lz4", sf::io::Codec::kLz4},
      {"snappy", sf::io::Codec::kSnappy}, {"lzf", sf::io::Codec::kLzf},   {"gzip", sf::io::Codec::kGzip}};
  int tasks_per_stage = 0;
  app.add_option("--preset", preset,
                 "demo (a realistic ETL run), small (unit-test size), benchmark (demo repeated) or large "
                 "(with stages of 110,000 tasks, ~2.2 GB per unit of scale)")
      ->check(CLI::IsMember({"demo", "small", "benchmark", "large"}));
  app.add_option("--tasks-per-stage", tasks_per_stage, "tasks in each stage (default: the preset's)")
      ->check(CLI::PositiveNumber);
  int big_stage_tasks = 0;
  app.add_option("--big-stage-tasks", big_stage_tasks,
                 "tasks in each stage of the first action of every repetition (the large preset's big stages)")
      ->check(CLI::PositiveNumber);
  app.add_option("--seed", seed, "PRNG seed (default: the preset's)");
  app.add_option("--scale", scale, "repeat the application's actions this many times (~18 MB of log each)")
      ->check(CLI::PositiveNumber);
  app.add_option("--codec", codec_name, "compression codec")
      ->check(CLI::IsMember({"none", "zstd", "lz4", "snappy", "lzf", "gzip"}));
  app.add_option("--layout", layout_name, "file: one file; rolling: an eventlog_v2_* directory")
      ->check(CLI::IsMember({"file", "rolling"}));
  app.add_option("--part-bytes", part_bytes, "rolling: uncompressed bytes per part (Spark's rolling.maxFileSize)");
  app.add_option("--out", out_dir, "directory to write into (created if missing)")->required();
  app.add_flag("--unfinished", unfinished,
               "stop part-way through the last stage, without ApplicationEnd (.inprogress)");
  app.add_flag("--cut-last-line", cut_last_line, "write the last event only in part, without its newline");
  CLI11_PARSE(app, argc, argv);

  try {
    lg::GeneratorConfig config = preset == "small"       ? lg::GeneratorConfig::small()
                                 : preset == "benchmark" ? lg::GeneratorConfig::benchmark(scale > 0 ? scale : 1)
                                 : preset == "large"     ? lg::GeneratorConfig::large(scale > 0 ? scale : 1)
                                                         : lg::GeneratorConfig::demo();
    if (seed != 0) config.seed = seed;
    if (scale > 0) config.scale = scale;
    if (tasks_per_stage > 0) config.tasks_per_stage = tasks_per_stage;
    if (big_stage_tasks > 0) config.big_action_tasks_per_stage = big_stage_tasks;
    config.finished = !unfinished;
    config.cut_last_line = cut_last_line;

    lg::LogWriteOptions options;
    options.codec = codecs.at(codec_name);
    options.layout = layout_name == "rolling" ? lg::LogLayout::kRolling : lg::LogLayout::kSingleFile;
    options.rolling_max_part_bytes = part_bytes;

    const auto started = std::chrono::steady_clock::now();
    const lg::WrittenLog log = lg::write_event_log(config, options, out_dir, nullptr);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    for (const lg::WrittenPart& part : log.parts) {
      fmt::print(stderr, "  {}: {} lines, {} bytes ({} stored)\n", part.path.string(), part.lines,
                 part.uncompressed_bytes, part.stored_bytes);
    }
    fmt::print(stderr, "sf-loggen: wrote {} ({} part{}, {} lines, {} bytes, {} stored) in {:.2f} s: {:.1f} MB/s\n",
               log.path.string(), log.parts.size(), log.parts.size() == 1 ? "" : "s", log.lines, log.uncompressed_bytes,
               log.stored_bytes, seconds,
               seconds > 0 ? static_cast<double>(log.uncompressed_bytes) / 1e6 / seconds : 0.0);
    fmt::print("{}\n", log.path.string());
  } catch (const std::exception& e) {
    fmt::print(stderr, "sf-loggen: {}\n", e.what());
    return 1;
  }
  return 0;
}
