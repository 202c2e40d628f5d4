// The --config file parser over arbitrary bytes: any input is either accepted as overrides
// or rejected with a message naming the file; nothing else.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/thresholds.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sf;
  const auto path = fuzz::scratch_file("config.json", std::string_view(reinterpret_cast<const char*>(data), size));
  std::vector<std::string> overridden;
  auto thresholds = analysis::load_thresholds(path.string(), overridden);
  if (!thresholds && thresholds.error().message().find(path.string()) == std::string::npos) __builtin_trap();
  return 0;
}
