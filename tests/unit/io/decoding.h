// Shared by the decompressor tests: decode a whole compressed buffer the way a reader does,
// keeping what came out before an error, and compare large byte strings without dumping them.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>

#include "io/codec.h"

namespace sf::io::testing {

struct Decoded {
  std::string bytes;
  Status status;
  size_t reads_after_error = 0;  // how many further reads returned the same error
};

inline std::string display_name(Codec codec) { return "app." + std::string(codec_name(codec)); }

// Reads `compressed` through the decompressor in `read_size` pieces until the end or an error;
// after an error, reads twice more to check that errors are sticky.
inline Decoded decode(Codec codec, std::string compressed, size_t read_size = 65536, DecompressLimits limits = {}) {
  Decoded result;
  auto stream = open_decompressor(codec, memory_stream(std::move(compressed)), display_name(codec), limits);
  if (!stream) {
    result.status = stream.error();
    return result;
  }
  std::string buffer(read_size, '\0');
  for (;;) {
    auto got = (*stream)->read(buffer);
    if (!got) {
      result.status = got.error();
      // Errors are sticky: reading on must not resume, crash or loop.
      for (int i = 0; i < 2; ++i) {
        auto again = (*stream)->read(buffer);
        if (!again && again.error().message() == result.status.message()) ++result.reads_after_error;
      }
      return result;
    }
    if (*got == 0) return result;
    result.bytes.append(buffer.data(), *got);
  }
}

// Names the first differing byte instead of printing megabytes.
inline ::testing::AssertionResult same_bytes(const std::string& actual, const std::string& expected) {
  const size_t common = std::min(actual.size(), expected.size());
  for (size_t i = 0; i < common; ++i) {
    if (actual[i] != expected[i]) {
      return ::testing::AssertionFailure()
             << "bytes differ at offset " << i << " (sizes " << actual.size() << " and " << expected.size() << ")";
    }
  }
  if (actual.size() != expected.size()) {
    return ::testing::AssertionFailure() << "sizes differ: " << actual.size() << " vs " << expected.size();
  }
  return ::testing::AssertionSuccess();
}

}  // namespace sf::io::testing
