// The whole loading path from a file's bytes: magic-byte sniffing against the name's claim,
// every codec, the line reader (over-long and cut lines), the decoder, the builder, then the
// analysis. The first input byte picks the file's name (and so its claimed codec and whether
// it is in progress); the rest is the file.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analysis/analyzer.h"
#include "fuzz_support.h"
#include "model/load.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sf;
  if (size == 0) return 0;
  static constexpr std::array<std::string_view, 8> kNames = {
      "app-1",     "app-1.zstd", "app-1.lz4",        "app-1.snappy",
      "app-1.lzf", "app-1.gz",   "app-1.inprogress", "app-1.zstd.inprogress"};
  const auto path = fuzz::scratch_file(kNames[data[0] % kNames.size()],
                                       std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
  model::LoadOptions options;
  options.max_line_bytes = size_t{1} << 20;
  options.decompress_limits.max_output_bytes = uint64_t{64} << 20;
  options.decompress_limits.max_ratio = 10000;
  auto loaded = model::load_event_log(path.string(), options);
  if (loaded) (void)analysis::analyze(*loaded);
  std::filesystem::remove(path);
  return 0;
}
