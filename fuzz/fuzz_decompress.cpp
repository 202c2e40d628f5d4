// One decompressor over arbitrary bytes: SF_FUZZ_CODEC picks which (a build of this file per
// codec). Corrupt, truncated and hostile streams must end in an error naming the stream, with
// output bounded by the limits, never a crash, a hang or unbounded memory.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.h"
#include "io/codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sf;
  io::DecompressLimits limits;
  limits.max_output_bytes = uint64_t{64} << 20;  // a bomb stops here, with an error
  limits.max_ratio = 10000;
  auto stream = io::open_decompressor(io::Codec::SF_FUZZ_CODEC,
                                      io::memory_stream(std::string(reinterpret_cast<const char*>(data), size)),
                                      "fuzz-input", limits);
  if (stream) fuzz::drain(**stream);
  return 0;
}
