// The rolling and Databricks directory readers on generated trees: the input is cut into up to
// eight files whose names come from a small vocabulary of real and near-miss part names
// (numbered parts, .compact, appstatus markers, gaps, duplicates, names that only look like
// parts), then the directory is resolved and every part read. Layout detection, part ordering
// and compaction handling must cope with any combination.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "io/log_source.h"

namespace {

constexpr std::array<std::string_view, 16> kPartNames = {"events_1_app-1",
                                                         "events_2_app-1",
                                                         "events_3_app-1.zstd",
                                                         "events_10_app-1",
                                                         "events_2_app-1.compact",
                                                         "events_1_app-1.lz4",
                                                         "appstatus_app-1",
                                                         "appstatus_app-1.inprogress",
                                                         "events_x_app-1",
                                                         "events_-1_app-1",
                                                         "events_1_app-2",
                                                         "eventlog",
                                                         "eventlog-2024-01-01--00-00.gz",
                                                         "events_99999999999999999999_app-1",
                                                         ".hidden",
                                                         "notes.txt"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sf;
  if (size < 2) return 0;
  const std::string dir_name = data[0] % 2 == 0 ? "eventlog_v2_app-1" : "dbc-eventlog";
  const auto dir = fuzz::scratch_dir() / dir_name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  // Each file: a name byte, a length byte, then that many bytes of content.
  size_t at = 1;
  for (int file = 0; file < 8 && at + 2 <= size; ++file) {
    const std::string_view name = kPartNames[data[at] % kPartNames.size()];
    const size_t length = std::min<size_t>(data[at + 1] * 16u, size - at - 2);
    fuzz::write_file(dir / std::string(name), std::string_view(reinterpret_cast<const char*>(data + at + 2), length));
    at += 2 + length;
  }
  if (auto input = io::resolve_log_input(dir.string())) {
    for (const auto& part : input->parts) {
      if (auto opened = io::open_log_part(*input, part, {.max_output_bytes = uint64_t{8} << 20, .max_ratio = 10000})) {
        fuzz::drain(*opened->stream, uint64_t{8} << 20);
      }
    }
  }
  (void)io::list_event_logs(fuzz::scratch_dir().string());
  std::filesystem::remove_all(dir);
  return 0;
}
