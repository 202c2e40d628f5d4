// Where a command's document goes (-o/--output FILE, or stdout) and the flags every command
// spells the same way: -f/--format, -o/--output.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdio>
#include <initializer_list>
#include <string>
#include <string_view>

namespace sf::cli {

// Adds -f/--format, one of `formats`, the first being the default.
void add_format_option(CLI::App& cmd, std::string& format, std::initializer_list<const char*> formats,
                       const std::string& description);
// Adds -o/--output FILE ("-" or none: stdout).
void add_output_option(CLI::App& cmd, std::string& path);

// A document written as it is made: to FILE, or to stdout for "" and "-". Errors are printed
// ("cannot write FILE: why") and make close() false. Not thread-safe.
class OutputSink {
 public:
  explicit OutputSink(const std::string& path);
  ~OutputSink();
  OutputSink(const OutputSink&) = delete;
  OutputSink& operator=(const OutputSink&) = delete;

  void write(std::string_view text);
  // True once the file could not be opened or written (the error is printed).
  bool failed() const { return failed_; }
  // Flushes and closes; false when the file could not be opened or written.
  bool close();

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  bool failed_ = false;
};

// `text` to `path` at once, as OutputSink does.
bool write_output(const std::string& path, std::string_view text);

}  // namespace sf::cli
