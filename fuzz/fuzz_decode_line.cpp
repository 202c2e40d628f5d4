// The event decoder and the model builder over arbitrary lines, then the whole analysis over
// the model they built: a malformed or hostile event must be reported as malformed or folded
// in without breaking any later stage, and detectors must cope with whatever model results
// (missing fields, negative times, ids out of order, absurd values).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "analysis/analyzer.h"
#include "eventlog/decoder.h"
#include "model/model_builder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sf;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  model::ModelBuilder builder;
  eventlog::Decoder decoder;
  std::string line;
  size_t start = 0;
  while (start <= input.size()) {
    size_t end = input.find('\n', start);
    if (end == std::string_view::npos) end = input.size();
    line.assign(input.substr(start, end - start));
    const size_t length = line.size();
    line.append(eventlog::kLinePadding, '\0');
    decoder.decode(std::string_view(line.data(), length), builder);
    start = end + 1;
  }
  const model::AppModel app = builder.finish({});
  (void)analysis::analyze(app);
  return 0;
}
