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

// A finished application (id app-1) with one stage of two tasks: a log for the front ends'
// targets (MCP, REST) to answer about.
inline constexpr std::string_view kSmallEventLog =
    R"({"Event":"SparkListenerLogStart","Spark Version":"3.5.1"}
{"Event":"SparkListenerApplicationStart","App Name":"tiny","App ID":"app-1","Timestamp":900,"User":"me"}
{"Event":"SparkListenerExecutorAdded","Timestamp":1000,"Executor ID":"1","Executor Info":{"Host":"h1","Total Cores":4}}
{"Event":"SparkListenerJobStart","Job ID":0,"Submission Time":1100,"Stage Infos":[{"Stage ID":0,"Stage Attempt ID":0,"Stage Name":"count","Number of Tasks":2}],"Stage IDs":[0]}
{"Event":"SparkListenerStageSubmitted","Stage Info":{"Stage ID":0,"Stage Attempt ID":0,"Stage Name":"count","Number of Tasks":2,"Submission Time":1100}}
{"Event":"SparkListenerTaskEnd","Stage ID":0,"Stage Attempt ID":0,"Task End Reason":{"Reason":"Success"},"Task Info":{"Task ID":0,"Index":0,"Attempt":0,"Launch Time":1200,"Executor ID":"1","Host":"h1","Finish Time":1300},"Task Metrics":{"Executor Run Time":90}}
{"Event":"SparkListenerTaskEnd","Stage ID":0,"Stage Attempt ID":0,"Task End Reason":{"Reason":"Success"},"Task Info":{"Task ID":1,"Index":1,"Attempt":0,"Launch Time":1200,"Executor ID":"1","Host":"h1","Finish Time":2900},"Task Metrics":{"Executor Run Time":1690}}
{"Event":"SparkListenerStageCompleted","Stage Info":{"Stage ID":0,"Stage Attempt ID":0,"Stage Name":"count","Number of Tasks":2,"Submission Time":1100,"Completion Time":3000}}
{"Event":"SparkListenerJobEnd","Job ID":0,"Completion Time":3001,"Job Result":{"Result":"JobSucceeded"}}
{"Event":"SparkListenerApplicationEnd","Timestamp":3100}
)";

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

// A directory holding kSmallEventLog as "app-1", made once per process.
inline const std::filesystem::path& small_log_directory() {
  static const std::filesystem::path dir = [] {
    auto path = scratch_dir() / "logs";
    std::filesystem::create_directories(path);
    write_file(path / "app-1", kSmallEventLog);
    return path;
  }();
  return dir;
}

}  // namespace sf::fuzz
