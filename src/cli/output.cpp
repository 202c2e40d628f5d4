#include "cli/output.h"

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "cli/commands.h"

namespace sf::cli {

void add_format_option(CLI::App& cmd, std::string& format, std::initializer_list<const char*> formats,
                       const std::string& description) {
  format = *formats.begin();
  cmd.add_option("-f,--format", format, description)
      ->check(CLI::IsMember(std::vector<std::string>(formats.begin(), formats.end())))
      ->capture_default_str();
}

void add_output_option(CLI::App& cmd, std::string& path) {
  cmd.add_option("-o,--output", path, "Write to FILE instead of stdout")->type_name("FILE");
}

namespace {
bool is_stdout(const std::string& path) { return path.empty() || path == "-"; }
}  // namespace

OutputSink::OutputSink(const std::string& path) : path_(path) {
  if (is_stdout(path_)) {
    file_ = stdout;
    return;
  }
  file_ = std::fopen(path_.c_str(), "wb");
  if (file_ == nullptr) {
    print_error(fmt::format("cannot write {}: {}", path_, std::strerror(errno)));
    failed_ = true;
  }
}

OutputSink::~OutputSink() { close(); }

void OutputSink::write(std::string_view text) {
  if (file_ == nullptr || failed_) return;
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) {
    print_error(
        fmt::format("cannot write {}: {}", is_stdout(path_) ? "to standard output" : path_, std::strerror(errno)));
    failed_ = true;
  }
}

bool OutputSink::close() {
  if (file_ == nullptr) return !failed_;
  const bool flushed = std::fflush(file_) == 0;
  const bool closed = file_ == stdout || std::fclose(file_) == 0;
  if (!failed_ && !(flushed && closed)) {
    print_error(
        fmt::format("cannot write {}: {}", is_stdout(path_) ? "to standard output" : path_, std::strerror(errno)));
    failed_ = true;
  }
  file_ = nullptr;
  return !failed_;
}

bool write_output(const std::string& path, std::string_view text) {
  OutputSink sink(path);
  sink.write(text);
  return sink.close();
}

}  // namespace sf::cli
