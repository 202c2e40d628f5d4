// What the fuzz targets share: a scratch file or directory for APIs that read paths, and a
// drain that reads a stream to its end within a bound. Each target's input is untrusted bytes;
// the targets assert nothing but that the code returns (an error is a fine answer), so the
// sanitizers and libFuzzer's crash, leak, timeout and out-of-memory checks are the oracle.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "io/byte_stream.h"

namespace sf::fuzz {

// A directory of this process's own under $TMPDIR (or /tmp), removed at exit.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::filesystem::path base = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
    auto path = base / ("sf-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
    static const struct Cleanup {
      std::filesystem::path p;
      ~Cleanup() {
        std::error_code ignored;
        std::filesystem::remove_all(p, ignored);
      }
    } cleanup{path};
    return path;
  }();
  return dir;
}

inline void write_file(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A file named `name` in the scratch directory holding `bytes`, emptied of everything else.
inline std::filesystem::path scratch_file(std::string_view name, std::string_view bytes) {
  const auto path = scratch_dir() / std::string(name);
  write_file(path, bytes);
  return path;
}

// Reads `stream` to its end or its first error, at most `max_bytes`; returns the bytes read.
inline uint64_t drain(io::ByteStream& stream, uint64_t max_bytes = uint64_t{64} << 20) {
  static char buffer[1 << 16];
  uint64_t total = 0;
  while (total < max_bytes) {
    auto got = stream.read(std::span<char>(buffer, sizeof buffer));
    if (!got || *got == 0) break;
    total += *got;
  }
  return total;
}

}  // namespace sf::fuzz
