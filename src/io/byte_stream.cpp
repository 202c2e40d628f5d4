// The plain ByteStreams: a file, stdin, bytes in memory, and a sniffed prefix put back in front.
#include "io/byte_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>

namespace sf::io {
namespace {

// read(2) moves at most about 2 GiB per call on Linux; asking for less keeps the count exact.
constexpr size_t kMaxReadBytes = size_t{1} << 30;

std::string errno_text(int error_number) { return std::generic_category().message(error_number); }

class FdStream final : public ByteStream {
 public:
  FdStream(int fd, std::string display_name, bool owns_fd)
      : fd_(fd), display_name_(std::move(display_name)), owns_fd_(owns_fd) {}
  ~FdStream() override {
    if (owns_fd_) ::close(fd_);
  }
  FdStream(const FdStream&) = delete;
  FdStream& operator=(const FdStream&) = delete;

  Result<size_t> read(std::span<char> out) override {
    if (out.empty()) return 0;
    const size_t want = std::min(out.size(), kMaxReadBytes);
    for (;;) {
      const ssize_t got = ::read(fd_, out.data(), want);
      if (got >= 0) {
        bytes_read_ += static_cast<uint64_t>(got);
        return static_cast<size_t>(got);
      }
      if (errno == EINTR) continue;
      const int error_number = errno;
      return fail(Status::IOError(display_name_ + ": read failed at byte " + std::to_string(bytes_read_) + ": " +
                                  errno_text(error_number)));
    }
  }

  uint64_t source_bytes_consumed() const override { return bytes_read_; }

 private:
  int fd_;
  std::string display_name_;
  bool owns_fd_;
  uint64_t bytes_read_ = 0;
};

class MemoryStream final : public ByteStream {
 public:
  explicit MemoryStream(std::string bytes) : bytes_(std::move(bytes)) {}

  Result<size_t> read(std::span<char> out) override {
    const size_t n = std::min(out.size(), bytes_.size() - position_);
    std::memcpy(out.data(), bytes_.data() + position_, n);
    position_ += n;
    return n;
  }

  uint64_t source_bytes_consumed() const override { return position_; }

 private:
  std::string bytes_;
  size_t position_ = 0;
};

class PrefixedStream final : public ByteStream {
 public:
  PrefixedStream(std::string prefix, std::unique_ptr<ByteStream> inner)
      : prefix_(std::move(prefix)), inner_(std::move(inner)) {}

  Result<size_t> read(std::span<char> out) override {
    if (position_ < prefix_.size()) {
      const size_t n = std::min(out.size(), prefix_.size() - position_);
      std::memcpy(out.data(), prefix_.data() + position_, n);
      position_ += n;
      return n;
    }
    return inner_->read(out);
  }

  // The prefix was read from the inner stream (that is what it is for), so the inner stream's
  // count already includes it.
  uint64_t source_bytes_consumed() const override { return inner_->source_bytes_consumed(); }

 private:
  std::string prefix_;
  size_t position_ = 0;
  std::unique_ptr<ByteStream> inner_;
};

}  // namespace

Result<std::unique_ptr<ByteStream>> open_file_stream(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error_number = errno;
    std::string message = path + ": cannot open: " + errno_text(error_number);
    if (error_number == ENOENT || error_number == ENOTDIR) return fail(Status::NotFound(std::move(message)));
    return fail(Status::IOError(std::move(message)));
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    const int error_number = errno;
    ::close(fd);
    return fail(Status::IOError(path + ": cannot stat: " + errno_text(error_number)));
  }
  if (S_ISDIR(info.st_mode)) {
    ::close(fd);
    return fail(Status::InvalidArgument(path + ": is a directory, not a file"));
  }
  // Event logs are read once, front to back: let the kernel read ahead further.
  (void)::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  return std::make_unique<FdStream>(fd, path, /*owns_fd=*/true);
}

std::unique_ptr<ByteStream> stdin_stream() {
  return std::make_unique<FdStream>(STDIN_FILENO, "<stdin>", /*owns_fd=*/false);
}

std::unique_ptr<ByteStream> prefixed_stream(std::string prefix, std::unique_ptr<ByteStream> inner) {
  return std::make_unique<PrefixedStream>(std::move(prefix), std::move(inner));
}

std::unique_ptr<ByteStream> memory_stream(std::string bytes) {
  return std::make_unique<MemoryStream>(std::move(bytes));
}

Result<std::string> read_all(ByteStream& stream, size_t max_bytes) {
  constexpr size_t kChunkBytes = size_t{1} << 16;
  std::string bytes;
  size_t size = 0;
  for (;;) {
    // Room for one more chunk, so one byte past max_bytes can be seen and refused.
    if (bytes.size() - size < kChunkBytes) bytes.resize(std::max(bytes.size() * 2, size + kChunkBytes));
    auto got = stream.read({bytes.data() + size, bytes.size() - size});
    if (!got) return fail(got.error());
    if (*got == 0) break;
    size += *got;
    if (size > max_bytes) {
      return fail(Status::LimitExceeded("stream is longer than the limit of " + std::to_string(max_bytes) + " bytes"));
    }
  }
  bytes.resize(size);
  return bytes;
}

}  // namespace sf::io
