// Writing generated logs to disk, named and framed as Spark names and frames them.
#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <stdexcept>
#include <vector>

#include "loggen/codec_writers.h"
#include "loggen/log_generator.h"

namespace sf::loggen {

std::string_view codec_file_extension(io::Codec codec) {
  switch (codec) {
    case io::Codec::kNone: return "";
    case io::Codec::kZstd: return "zstd";
    case io::Codec::kLz4: return "lz4";
    case io::Codec::kSnappy: return "snappy";
    case io::Codec::kLzf: return "lzf";
    case io::Codec::kGzip: return "gz";
  }
  return "";
}

namespace {

std::string with_codec(std::string name, io::Codec codec) {
  const std::string_view extension = codec_file_extension(codec);
  if (!extension.empty()) {
    name += '.';
    name += extension;
  }
  return name;
}

// The parts of one log: a single file, or the numbered files of a rolling directory.
class PartSequence {
 public:
  PartSequence(const LogWriteOptions& options, std::filesystem::path dir, std::string app_id, bool rolling,
               std::string single_name)
      : options_(options),
        dir_(std::move(dir)),
        app_id_(std::move(app_id)),
        rolling_(rolling),
        single_name_(std::move(single_name)),
        io_buffer_(1 << 20) {}

  ~PartSequence() = default;

  void write(std::string_view line) {
    if (!writer_) open_next();
    if (rolling_ && part_.uncompressed_bytes > 0 &&
        part_.uncompressed_bytes + line.size() > options_.rolling_max_part_bytes) {
      close_part();
      open_next();
    }
    writer_->write(line);
    part_.uncompressed_bytes += line.size();
    if (!line.empty() && line.back() == '\n') {
      ++part_.lines;
      if (options_.flush_every_lines > 0 && ++since_flush_ >= options_.flush_every_lines) {
        writer_->flush();
        since_flush_ = 0;
      }
    }
  }

  // Closes the last part (an empty log still gets its one, empty, file).
  std::vector<WrittenPart> finish() {
    if (!writer_) open_next();
    close_part();
    return std::move(parts_);
  }

 private:
  void open_next() {
    const std::string name =
        rolling_ ? with_codec(fmt::format("events_{}_{}", parts_.size() + 1, app_id_), options_.codec) : single_name_;
    part_ = WrittenPart{};
    part_.path = dir_ / name;
    stream_ = std::make_unique<std::ofstream>();
    stream_->rdbuf()->pubsetbuf(io_buffer_.data(), static_cast<std::streamsize>(io_buffer_.size()));
    stream_->open(part_.path, std::ios::binary | std::ios::trunc);
    if (!*stream_) throw std::runtime_error("sf-loggen: cannot create " + part_.path.string());
    writer_ = make_compressed_writer(options_.codec, *stream_);
    since_flush_ = 0;
  }

  void close_part() {
    writer_->finish();
    writer_.reset();
    stream_->close();
    if (stream_->fail()) throw std::runtime_error("sf-loggen: cannot write " + part_.path.string());
    stream_.reset();
    part_.stored_bytes = std::filesystem::file_size(part_.path);
    parts_.push_back(part_);
  }

  const LogWriteOptions& options_;
  std::filesystem::path dir_;
  std::string app_id_;
  bool rolling_;
  std::string single_name_;
  std::vector<char> io_buffer_;
  std::unique_ptr<std::ofstream> stream_;
  std::unique_ptr<CompressedWriter> writer_;
  WrittenPart part_;
  std::vector<WrittenPart> parts_;
  size_t since_flush_ = 0;
};

}  // namespace

WrittenLog write_event_log(const GeneratorConfig& config_in, const LogWriteOptions& options,
                           const std::filesystem::path& out_dir, GroundTruth* truth) {
  GeneratorConfig config = config_in;
  config.event_log_codec_property =
      options.codec == io::Codec::kGzip ? "" : std::string(codec_file_extension(options.codec));
  config.event_log_rolling_property = options.layout == LogLayout::kRolling;
  const std::string app_id = application_id(config);
  const bool rolling = options.layout == LogLayout::kRolling;
  const std::string in_progress = config.finished ? "" : ".inprogress";

  std::filesystem::create_directories(out_dir);
  WrittenLog log;
  std::filesystem::path dir = out_dir;
  std::string single_name;
  if (rolling) {
    dir = out_dir / ("eventlog_v2_" + app_id);
    std::filesystem::create_directories(dir);
    log.path = dir;
  } else {
    single_name = with_codec(app_id, options.codec) + in_progress;
    log.path = out_dir / single_name;
  }

  PartSequence parts(options, dir, app_id, rolling, single_name);
  generate(
      config, [&](std::string_view line) { parts.write(line); }, truth);
  log.parts = parts.finish();
  for (const WrittenPart& part : log.parts) {
    log.lines += part.lines;
    log.uncompressed_bytes += part.uncompressed_bytes;
    log.stored_bytes += part.stored_bytes;
  }
  if (rolling) {
    // Spark's marker of the application's state: empty, ".inprogress" while it runs.
    const std::filesystem::path status = dir / ("appstatus_" + app_id + in_progress);
    std::ofstream marker(status, std::ios::binary | std::ios::trunc);
    if (!marker) throw std::runtime_error("sf-loggen: cannot create " + status.string());
  }
  return log;
}

WrittenLog write_in_progress_log(GeneratorConfig config, io::Codec codec, bool cut_last_line,
                                 const std::filesystem::path& out_dir, GroundTruth* truth) {
  config.finished = false;
  config.cut_last_line = cut_last_line;
  LogWriteOptions options;
  options.codec = codec;
  options.layout = LogLayout::kSingleFile;
  return write_event_log(config, options, out_dir, truth);
}

}  // namespace sf::loggen
