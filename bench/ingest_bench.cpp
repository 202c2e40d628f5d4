// Ingestion speed against its floor, measured in one process on the same bytes.
//
// The floor is the least a JSON-correct reader can do: split the log into lines and let
// simdjson's On-Demand parser index each one and read only the event's name. analyze does
// everything else on top of that (every field the model needs, the fold into the model).
// Both read the file through the same stream and line splitter, so the ratio isolates the
// decoding and modelling work. Prints one line per measurement and the ratio; never asserts.
//
//   sf-bench-ingest LOG [--repeat N]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include <fmt/format.h>
#include <simdjson.h>

#include "io/line_reader.h"
#include "io/log_source.h"
#include "model/load.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Measurement {
  double seconds = 0;
  uint64_t bytes = 0;
  uint64_t lines = 0;
};

// Every line of the log through simdjson, reading only "Event".
Measurement floor_pass(const std::string& path) {
  Measurement m;
  auto input = sf::io::resolve_log_input(path);
  if (!input) throw std::runtime_error(input.error().message());
  simdjson::ondemand::parser parser;
  uint64_t events = 0;
  const auto start = Clock::now();
  for (const auto& part : input->parts) {
    auto opened = sf::io::open_log_part(*input, part, {});
    if (!opened) throw std::runtime_error(opened.error().message());
    sf::io::LineReader reader(*opened->stream, size_t{1} << 30);
    while (auto line = reader.next()) {
      ++m.lines;
      if (line->text.empty()) continue;
      simdjson::ondemand::document doc;
      if (parser.iterate(line->text.data(), line->text.size(), line->text.size() + sf::io::LineReader::kPaddingBytes).get(doc)) continue;
      std::string_view name;
      if (doc.find_field("Event").get_string().get(name) == simdjson::SUCCESS && !name.empty()) ++events;
    }
    m.bytes += reader.bytes_consumed();
  }
  m.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (events == 0) throw std::runtime_error("the floor pass found no events");
  return m;
}

Measurement analyze_pass(const std::string& path) {
  Measurement m;
  const auto start = Clock::now();
  auto model = sf::model::load_event_log(path);
  m.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (!model) throw std::runtime_error(model.error().message());
  for (const auto& part : model->source.parts) m.bytes += part.uncompressed_bytes;
  m.lines = model->diagnostics.lines_read;
  return m;
}

void print(const char* name, const Measurement& m) {
  const double mb = static_cast<double>(m.bytes) / 1e6;
  std::printf("%-28s %8.3f s  %9.1f MB/s  (%llu lines, %.1f MB)\n", name, m.seconds, mb / m.seconds,
              static_cast<unsigned long long>(m.lines), mb);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: sf-bench-ingest LOG [--repeat N]\n");
    return 2;
  }
  const std::string path = argv[1];
  int repeat = 3;
  if (argc >= 4 && std::strcmp(argv[2], "--repeat") == 0) repeat = std::max(1, std::atoi(argv[3]));
  try {
    // Best of N for each, interleaved, so both see the same cache and machine state.
    Measurement floor{1e300}, analyze{1e300};
    for (int i = 0; i < repeat; ++i) {
      auto f = floor_pass(path);
      if (f.seconds < floor.seconds) floor = f;
      auto a = analyze_pass(path);
      if (a.seconds < analyze.seconds) analyze = a;
    }
    print("floor (simdjson, Event only)", floor);
    print("analyze (1 thread)", analyze);
    std::printf("ratio analyze/floor          %8.2fx\n", analyze.seconds / floor.seconds);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sf-bench-ingest: %s\n", e.what());
    return 1;
  }
  return 0;
}
