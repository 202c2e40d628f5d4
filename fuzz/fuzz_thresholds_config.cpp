// The --config file parser over arbitrary bytes: any input is either accepted (thresholds, rate card)
// or rejected with a message naming the file; nothing else.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/analysis_config.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sf;
  const auto path = fuzz::scratch_file("config.json", std::string_view(reinterpret_cast<const char*>(data), size));
  auto options = analysis::load_analysis_options(path.string());
  if (!options && options.error().message().find(path.string()) == std::string::npos) __builtin_trap();
  return 0;
}
