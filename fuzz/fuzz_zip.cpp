// The zip reader over arbitrary bytes (what a History Server, or whoever answers in its place,
// returns for /logs): listing, then reading every entry within a bound; then the same bytes
// as an event log input, which resolves the archive's layout.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.h"
#include "io/log_source.h"
#include "io/zip_archive.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sf;
  const auto path = fuzz::scratch_file("logs.zip", std::string_view(reinterpret_cast<const char*>(data), size));
  if (auto entries = io::list_zip_entries(path.string())) {
    size_t opened = 0;
    for (const auto& entry : *entries) {
      if (entry.is_directory || ++opened > 16) continue;
      if (auto stream = io::open_zip_entry(path.string(), entry.name)) fuzz::drain(**stream, uint64_t{8} << 20);
    }
  }
  if (auto input = io::resolve_log_input(path.string())) {
    for (const auto& part : input->parts) {
      if (auto opened = io::open_log_part(*input, part, {.max_output_bytes = uint64_t{8} << 20, .max_ratio = 10000})) {
        fuzz::drain(*opened->stream, uint64_t{8} << 20);
      }
    }
  }
  std::filesystem::remove(path);
  return 0;
}
