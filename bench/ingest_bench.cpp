// Ingestion speed against its floor, measured in one process on the same bytes.
//
// The floor is the least a JSON-correct reader built on simdjson can do: split the log into
// lines and let simdjson's On-Demand parser index each one (stage 1 reads every byte) and read
// only the event's name. It reads the file the way analyze does (a memory mapping, batches of
// whole lines), so the ratio isolates decoding and modelling. Then analyze (load_event_log: every
// field the model needs, folded into the model) on one thread and on several, and, given the
// same log compressed with zstd, decompression alone and analyze on the compressed file.
//
// Every figure is the best of --repeat runs, interleaved so all see the same machine state;
// wall time decides, process CPU time is printed beside it (on a shared machine it shows what
// a run cost when it had to wait for a core). Prints one line per measurement and the ratios;
// never asserts anything about time.
//
//   sf-bench-ingest LOG [--zstd LOG.zstd] [--repeat N] [--threads N]
//   sf-bench-ingest LOG --only floor|walk|decode|analyze   one pass, once (to profile it)
//   sf-bench-ingest LOG --only analysis|document [--repeat N]   what follows the read, on the
//                                             model loaded once untimed: the analysis, or the
//                                             analysis document written (best of N)
//   sf-bench-ingest LOG --decompress-to OUT   writes LOG's lines, decompressed, to OUT (so a real
//                                             log in any of Spark's codecs can be benchmarked
//                                             plain and recompressed with zstd)
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <simdjson.h>

#include "analysis/analyzer.h"
#include "eventlog/decoder.h"
#include "io/line_batches.h"
#include "io/log_scan.h"
#include "io/log_source.h"
#include "model/load.h"
#include "report/model_json.h"

namespace {

using Clock = std::chrono::steady_clock;

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Measurement {
  double seconds = 1e300;  // wall
  double cpu_seconds = 0;
  uint64_t bytes = 0;  // uncompressed
  uint64_t lines = 0;
};

template <class F>
Measurement measure(F&& run) {
  const double cpu_start = process_cpu_seconds();
  const auto start = Clock::now();
  Measurement m = run();
  m.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  m.cpu_seconds = process_cpu_seconds() - cpu_start;
  return m;
}

void keep_best(Measurement& best, const Measurement& m) {
  if (m.seconds < best.seconds) best = m;
}

// Calls on_line for every line of the log, read the way analyze reads a plain file: a memory
// mapping, batches of whole lines.
template <class OnLine>
Measurement each_line(const std::string& path, OnLine&& on_line) {
  Measurement m;
  auto input = sf::io::resolve_log_input(path);
  if (!input) throw std::runtime_error(input.error().message());
  const sf::io::ScanOptions options;
  auto scanned = sf::io::scan_log(*input, options, [&](sf::io::ScannedPart& part) {
    sf::io::for_each_line(part, options.max_line_bytes, [&](const sf::io::BatchLine& line) {
      ++m.lines;
      on_line(line.text);
    });
    m.bytes += part.batcher.bytes_consumed();
    return sf::io::ScanControl::kNextPart;
  });
  if (!scanned) throw std::runtime_error(scanned.error().message());
  if (scanned->read_error) throw std::runtime_error(scanned->read_error->message());
  return m;
}

// Every line of the log through simdjson, reading only "Event" (the floor) or, with
// `walk_every_token`, then stepping over every other field of the line unread: what any
// On-Demand reader pays to reach a task's metrics, which Spark writes after its accumulables.
Measurement floor_pass(const std::string& path, bool walk_every_token = false) {
  simdjson::ondemand::parser parser;
  uint64_t events = 0;
  Measurement m = each_line(path, [&](std::string_view text) {
    if (text.empty()) return;
    simdjson::ondemand::document doc;
    if (parser.iterate(text.data(), text.size(), text.size() + sf::io::LineBatcher::kPaddingBytes).get(doc)) return;
    std::string_view name;
    if (doc.find_field("Event").get_string().get(name) == simdjson::SUCCESS && !name.empty()) ++events;
    if (!walk_every_token) return;
    doc.rewind();
    simdjson::ondemand::object object;
    if (doc.get_object().get(object)) return;
    for (auto field : object) {
      if (field.error()) return;  // the loop steps over each value unread
    }
  });
  if (events == 0) throw std::runtime_error("the floor pass found no events in " + path);
  return m;
}

// Every line through the analysis's Decoder into a handler that keeps nothing: what decoding
// costs without the model.
Measurement decode_pass(const std::string& path) {
  sf::eventlog::Decoder decoder;
  sf::eventlog::EventHandler discard;
  return each_line(path, [&](std::string_view text) { decoder.decode(text, discard); });
}

// The decompressor alone: every byte of the log decompressed into a buffer and handed to
// `sink` (by default dropped).
Measurement decompress_pass(const std::string& path, const std::function<void(std::string_view)>& sink = {}) {
  Measurement m;
  auto input = sf::io::resolve_log_input(path);
  if (!input) throw std::runtime_error(input.error().message());
  std::vector<char> buffer(size_t{1} << 20);
  for (const auto& part : input->parts) {
    auto opened = sf::io::open_log_part(*input, part, {});
    if (!opened) throw std::runtime_error(opened.error().message());
    for (;;) {
      auto got = opened->stream->read(std::span<char>(buffer.data(), buffer.size()));
      if (!got) throw std::runtime_error(got.error().message());
      if (*got == 0) break;
      m.bytes += *got;
      if (sink) sink(std::string_view(buffer.data(), *got));
    }
  }
  return m;
}

Measurement analyze_pass(const std::string& path, unsigned threads) {
  Measurement m;
  sf::model::LoadOptions options;
  options.threads = threads;
  auto model = sf::model::load_event_log(path, options);
  if (!model) throw std::runtime_error(model.error().message());
  for (const auto& part : model->source.parts) m.bytes += part.uncompressed_bytes;
  m.lines = model->diagnostics.lines_read;
  return m;
}

// The analysis (`analysis`) or the pretty analysis document of the model and its analysis
// streamed as analyze -f json streams it (`document`), `repeat` times on the model loaded
// once; the best run.
Measurement after_the_read(const std::string& path, const std::string& part, unsigned threads, int repeat) {
  sf::model::LoadOptions options;
  options.threads = threads;
  auto model = sf::model::load_event_log(path, options);
  if (!model) throw std::runtime_error(model.error().message());
  sf::analysis::AnalysisOptions analysis_options;
  analysis_options.threads = threads;
  Measurement best;
  if (part == "analysis") {
    for (int i = 0; i < repeat; ++i) {
      keep_best(best, measure([&] {
                  Measurement m;
                  m.lines = sf::analysis::analyze(*model, analysis_options).findings.size();
                  return m;
                }));
    }
    return best;
  }
  const sf::analysis::Analysis analysis = sf::analysis::analyze(*model, analysis_options);
  for (int i = 0; i < repeat; ++i) {
    keep_best(best, measure([&] {
                Measurement m;
                // Streamed in pieces, as analyze -f json writes it.
                sf::report::stream_analysis_json(*model, &analysis, {},
                                                 [&](std::string_view text) { m.bytes += text.size(); });
                return m;
              }));
  }
  return best;
}

void print(const std::string& name, const Measurement& m) {
  const double mb = static_cast<double>(m.bytes) / 1e6;
  std::printf("%-34s %8.4f s wall %8.4f s cpu %9.1f MB/s  (%.1f MB)\n", name.c_str(), m.seconds, m.cpu_seconds,
              mb / m.seconds, mb);
}

void print_ratio(const std::string& name, double ratio, const char* target) {
  std::printf("%-34s %8.2fx   %s\n", name.c_str(), ratio, target);
}

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  std::string zstd_path;
  std::string decompress_to;
  std::string only;
  int repeat = 3;
  unsigned threads = 2;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--zstd" && i + 1 < argc) {
      zstd_path = argv[++i];
    } else if (arg == "--decompress-to" && i + 1 < argc) {
      decompress_to = argv[++i];
    } else if (arg == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else if (arg == "--threads" && i + 1 < argc) {
      threads = static_cast<unsigned>(std::max(1, std::atoi(argv[++i])));
    } else if (path.empty() && !arg.starts_with("--")) {
      path = arg;
    } else {
      path.clear();
      break;
    }
  }
  if (path.empty()) {
    std::fprintf(stderr,
                 "usage: sf-bench-ingest LOG [--zstd LOG.zstd] [--repeat N] [--threads N]\n"
                 "       sf-bench-ingest LOG --only floor|walk|decode|analyze [--threads N]\n"
                 "       sf-bench-ingest LOG --only analysis|document [--threads N] [--repeat N]\n"
                 "       sf-bench-ingest LOG --decompress-to OUT\n");
    return 2;
  }
  try {
    if (!decompress_to.empty()) {
      std::ofstream out(decompress_to, std::ios::binary);
      decompress_pass(
          path, [&](std::string_view bytes) { out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())); });
      if (!out.flush()) throw std::runtime_error("cannot write " + decompress_to);
      return 0;
    }
    if (!only.empty()) {  // one pass, once: for perf and other profilers
      Measurement m;
      if (only == "floor")
        m = measure([&] { return floor_pass(path); });
      else if (only == "walk")
        m = measure([&] { return floor_pass(path, true); });
      else if (only == "decode")
        m = measure([&] { return decode_pass(path); });
      else if (only == "analyze")
        m = measure([&] { return analyze_pass(path, threads); });
      else if (only == "analysis" || only == "document")
        m = after_the_read(path, only, threads, repeat);
      else
        throw std::runtime_error("--only takes floor, walk, decode, analyze, analysis or document, not " + only);
      print(only, m);
      return 0;
    }
    // Read both files once untimed, so the first measured pass does not pay for the disk.
    decompress_pass(path);
    if (!zstd_path.empty()) decompress_pass(zstd_path);
    Measurement floor, walk, decode, one, many, decompress, zstd_one, zstd_many;
    for (int i = 0; i < repeat; ++i) {
      keep_best(floor, measure([&] { return floor_pass(path); }));
      keep_best(walk, measure([&] { return floor_pass(path, true); }));
      keep_best(decode, measure([&] { return decode_pass(path); }));
      keep_best(one, measure([&] { return analyze_pass(path, 1); }));
      keep_best(many, measure([&] { return analyze_pass(path, threads); }));
      if (!zstd_path.empty()) {
        keep_best(decompress, measure([&] { return decompress_pass(zstd_path); }));
        keep_best(zstd_one, measure([&] { return analyze_pass(zstd_path, 1); }));
        keep_best(zstd_many, measure([&] { return analyze_pass(zstd_path, threads); }));
      }
    }
    const std::string n = std::to_string(threads);
    print("floor (simdjson, Event only)", floor);
    print("floor + every token walked", walk);
    print("decode only (no model), 1 thread", decode);
    print("analyze, 1 thread", one);
    print("analyze, " + n + " threads", many);
    if (!zstd_path.empty()) {
      print("zstd: decompress alone", decompress);
      print("zstd: analyze, 1 thread", zstd_one);
      print("zstd: analyze, " + n + " threads", zstd_many);
    }
    print_ratio("ratio every token walked / floor", walk.seconds / floor.seconds, "");
    print_ratio("ratio decode only / floor", decode.seconds / floor.seconds, "");
    print_ratio("ratio analyze 1 thread / floor", one.seconds / floor.seconds, "(target <= 1.5)");
    print_ratio("ratio analyze " + n + " threads / floor", many.seconds / floor.seconds, "(target <= 1.0)");
    if (!zstd_path.empty()) {
      const double base = decompress.seconds + floor.seconds;
      print_ratio("ratio zstd 1 thread / (decomp+floor)", zstd_one.seconds / base, "(target <= 1.3)");
      print_ratio("ratio zstd " + n + " thr / (decomp+floor)", zstd_many.seconds / base, "(target <= 1.3)");
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sf-bench-ingest: %s\n", e.what());
    return 1;
  }
  return 0;
}
