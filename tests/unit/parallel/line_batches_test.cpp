// LineBatcher + split_lines give the lines LineReader gives: same text, numbers, offsets and
// terminations, over a mapped file and over streams that return data in chunks of every size,
// with batches from tiny to large. Over-long lines are skipped by length exactly.
#include "io/line_batches.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "io/line_reader.h"

namespace sf::io {
namespace {

namespace fs = std::filesystem;

struct SeenLine {
  std::string text;
  uint64_t number = 0;
  uint64_t byte_offset = 0;
  uint64_t length = 0;
  bool terminated = true;
  bool too_long = false;
  bool operator==(const SeenLine&) const = default;
};

std::ostream& operator<<(std::ostream& out, const SeenLine& l) {
  return out << "#" << l.number << "@" << l.byte_offset << " len " << l.length << (l.terminated ? "" : " unterminated")
             << (l.too_long ? " too long" : "") << " '" << l.text.substr(0, 40) << "'";
}

// A stream handing out its bytes in chunks of the given sizes, in turn.
class ChunkedStream final : public ByteStream {
 public:
  ChunkedStream(std::string bytes, std::vector<size_t> chunks) : bytes_(std::move(bytes)), chunks_(std::move(chunks)) {}
  Result<size_t> read(std::span<char> out) override {
    const size_t chunk = chunks_[turn_++ % chunks_.size()];
    const size_t n = std::min({out.size(), chunk, bytes_.size() - position_});
    std::memcpy(out.data(), bytes_.data() + position_, n);
    position_ += n;
    return n;
  }
  uint64_t source_bytes_consumed() const override { return position_; }

 private:
  std::string bytes_;
  std::vector<size_t> chunks_;
  size_t turn_ = 0;
  size_t position_ = 0;
};

std::vector<SeenLine> with_line_reader(const std::string& bytes, std::vector<size_t> chunks) {
  ChunkedStream stream(bytes, std::move(chunks));
  LineReader reader(stream, size_t{1} << 30, 4096);
  std::vector<SeenLine> lines;
  while (auto line = reader.next()) {
    lines.push_back(
        {std::string(line->text), line->number, line->byte_offset, line->length, line->terminated, line->too_long});
  }
  return lines;
}

std::vector<SeenLine> with_batches(LineBatcher& batcher, size_t max_line_bytes) {
  std::vector<SeenLine> lines;
  LineBatch batch;
  uint64_t number = 0;
  while (batcher.next(batch)) {
    // The padding after every batch is readable.
    volatile char last =
        batch.text.data() == nullptr ? 0 : batch.text.data()[batch.text.size() + LineBatcher::kPaddingBytes - 1];
    (void)last;
    split_lines(batch, max_line_bytes, [&](const BatchLine& line) {
      lines.push_back(
          {std::string(line.text), ++number, line.byte_offset, line.length, line.terminated, line.too_long});
    });
    batcher.recycle(batch);
  }
  EXPECT_TRUE(batcher.error().ok()) << batcher.error().message();
  return lines;
}

std::vector<std::string> sample_texts() {
  std::string many;
  for (int i = 0; i < 3000; ++i)
    many += std::string(static_cast<size_t>(i % 173), static_cast<char>('a' + i % 26)) + "\n";
  std::string long_lines;
  for (int i = 0; i < 5; ++i) long_lines += std::string(50000 + static_cast<size_t>(i) * 7919, 'L') + "\n";
  return {
      "",
      "\n",
      "one line without newline",
      "one line\n",
      "a\nb\n\nc\r\nd\r\n\r\n",
      "crlf at end\r",
      many,
      many + "and a cut last line",
      long_lines + "x\n" + long_lines,
      std::string(5000, '\n'),
  };
}

TEST(LineBatches, StreamBatchesGiveTheLineReadersLines) {
  for (const std::string& text : sample_texts()) {
    for (std::vector<size_t> chunks : {std::vector<size_t>{1 << 20}, {1}, {7, 4096, 13}, {65536, 3}}) {
      for (size_t batch_bytes : {size_t{4096}, size_t{65536}, size_t{1} << 20}) {
        SCOPED_TRACE("text of " + std::to_string(text.size()) + " bytes, batch " + std::to_string(batch_bytes) +
                     ", first chunk " + std::to_string(chunks[0]));
        const auto expected = with_line_reader(text, chunks);
        ChunkedStream stream(text, chunks);
        LineBatcher batcher(stream, size_t{1} << 30, batch_bytes);
        EXPECT_EQ(with_batches(batcher, size_t{1} << 30), expected);
        EXPECT_EQ(batcher.bytes_consumed(), text.size());
      }
    }
  }
}

TEST(LineBatches, MappedFileBatchesGiveTheLineReadersLines) {
  const fs::path path = fs::temp_directory_path() / ("sf-line-batches-" + std::to_string(::getpid()));
  for (const std::string& text : sample_texts()) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    for (size_t batch_bytes : {size_t{4096}, size_t{65536}, size_t{1} << 20}) {
      SCOPED_TRACE("text of " + std::to_string(text.size()) + " bytes, batch " + std::to_string(batch_bytes));
      auto file = MappedFile::open(path.string());
      ASSERT_TRUE(file) << file.error().message();
      LineBatcher batcher(**file, size_t{1} << 30, batch_bytes);
      EXPECT_EQ(with_batches(batcher, size_t{1} << 30), with_line_reader(text, {1 << 20}));
      EXPECT_EQ(batcher.bytes_consumed(), text.size());
    }
  }
  fs::remove(path);
}

// A line is too long exactly when it is longer than the limit, wherever it falls, and the lines
// around it are read as usual.
TEST(LineBatches, OverLongLinesAreSkippedByLength) {
  const std::string text =
      "short\n" + std::string(300000, 'x') + "\nafter\n" + std::string(100, 'y') + "\n" + std::string(250000, 'z');
  auto check = [&](const std::vector<SeenLine>& lines) {
    ASSERT_EQ(lines.size(), 5u);
    EXPECT_EQ(lines[0].text, "short");
    EXPECT_TRUE(lines[1].too_long);
    EXPECT_EQ(lines[1].length, 300000u);
    EXPECT_EQ(lines[1].byte_offset, 6u);
    EXPECT_TRUE(lines[1].text.empty());
    EXPECT_EQ(lines[2].text, "after");
    EXPECT_EQ(lines[2].byte_offset, 300007u);
    EXPECT_TRUE(lines[3].too_long) << "100 bytes is over the limit of 99";
    EXPECT_TRUE(lines[4].too_long);
    EXPECT_FALSE(lines[4].terminated);
    EXPECT_EQ(lines[4].length, 250000u);
  };
  for (size_t batch_bytes : {size_t{4096}, size_t{1} << 20}) {
    ChunkedStream stream(text, {8192});
    LineBatcher batcher(stream, 99, batch_bytes);
    check(with_batches(batcher, 99));
    EXPECT_EQ(batcher.bytes_consumed(), text.size());
  }
  const fs::path path = fs::temp_directory_path() / ("sf-line-batches-long-" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  auto file = MappedFile::open(path.string());
  ASSERT_TRUE(file);
  LineBatcher batcher(**file, 99, 4096);
  check(with_batches(batcher, 99));
  fs::remove(path);
}

// A stream of `prefix`, then `length` copies of `fill`, then `suffix`, made as it is read: a line
// of gigabytes costs the test nothing to hold.
class RepeatedByteStream final : public ByteStream {
 public:
  RepeatedByteStream(std::string prefix, char fill, uint64_t length, std::string suffix)
      : prefix_(std::move(prefix)), fill_(fill), length_(length), suffix_(std::move(suffix)) {}
  Result<size_t> read(std::span<char> out) override {
    size_t n = 0;
    while (n < out.size() && position_ < total()) {
      if (position_ < prefix_.size()) {
        out[n++] = prefix_[position_++];
      } else if (position_ < prefix_.size() + length_) {
        const uint64_t run = std::min<uint64_t>(out.size() - n, prefix_.size() + length_ - position_);
        std::memset(out.data() + n, fill_, run);
        n += run;
        position_ += run;
      } else {
        out[n++] = suffix_[position_++ - prefix_.size() - length_];
      }
    }
    return n;
  }
  uint64_t source_bytes_consumed() const override { return position_; }

 private:
  uint64_t total() const { return prefix_.size() + length_ + suffix_.size(); }
  std::string prefix_;
  char fill_;
  uint64_t length_;
  std::string suffix_;
  uint64_t position_ = 0;
};

struct SkippedLine {
  uint64_t length = 0;
  std::optional<ControlByte> control_byte;
};

// Issue 21: a gzip of zeros behind a valid start was a 10 GiB line, held to the 1 GiB limit before
// it was skipped. A line longer than kControlByteCheckBytes that holds a control byte is skipped as
// soon as the byte is seen, by the streamed and the mapped reader alike.
TEST(LineBatches, ALongLineHoldingAControlByteIsSkippedWithoutBeingHeld) {
  constexpr uint64_t kZeros = uint64_t{64} << 20;
  constexpr size_t kLimit = size_t{1} << 30;
  auto check = [&](LineBatcher& batcher, bool streamed) {
    LineBatch batch;
    std::vector<std::string> texts;
    std::vector<SkippedLine> skipped;
    size_t most_held = 0;
    while (batcher.next(batch)) {
      most_held = std::max(most_held, batch.held_bytes());
      split_lines(batch, kLimit, [&](const BatchLine& line) {
        if (line.too_long) {
          skipped.push_back({line.length, line.control_byte});
        } else {
          texts.emplace_back(line.text);
        }
      });
      batcher.recycle(batch);
    }
    EXPECT_TRUE(batcher.error().ok()) << batcher.error().message();
    EXPECT_EQ(texts, (std::vector<std::string>{"start", "after"}));
    ASSERT_EQ(skipped.size(), 1u);
    EXPECT_EQ(skipped[0].length, 3 + kZeros);
    ASSERT_TRUE(skipped[0].control_byte.has_value());
    EXPECT_EQ(skipped[0].control_byte->offset, 3u);
    EXPECT_EQ(skipped[0].control_byte->value, 0u);
    if (streamed) {
      EXPECT_LE(most_held, 3 * kControlByteCheckBytes) << "the line was held past the check";
    }
  };
  {
    RepeatedByteStream stream("start\n{\"a", '\0', kZeros, "\nafter\n");
    LineBatcher batcher(stream, kLimit);
    check(batcher, true);
  }
  const fs::path path = fs::temp_directory_path() / ("sf-line-batches-zeros-" + std::to_string(::getpid()));
  {
    RepeatedByteStream stream("start\n{\"a", '\0', kZeros, "\nafter\n");
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    std::vector<char> chunk(1 << 20);
    for (;;) {
      auto got = stream.read(chunk);
      if (!got || *got == 0) break;
      out.write(chunk.data(), static_cast<std::streamsize>(*got));
    }
  }
  auto file = MappedFile::open(path.string());
  ASSERT_TRUE(file) << file.error().message();
  LineBatcher batcher(**file, kLimit);
  check(batcher, false);
  fs::remove(path);
}

// The check is JSON's rule: tab and CR may stand in a line, and a line of no more than
// kControlByteCheckBytes is left to the parser whatever it holds.
TEST(LineBatches, TabsAndCarriageReturnsAndShortLinesAreNotSkippedForControlBytes) {
  EXPECT_EQ(find_control_byte("plain text\twith a tab\r"), std::string_view::npos);
  EXPECT_EQ(find_control_byte(std::string(100, 'a') + '\x1f'), 100u);
  EXPECT_EQ(find_control_byte(std::string("abc\0def", 7)), 3u);
  EXPECT_EQ(find_control_byte("\xc3\xa9\xff\x7f"), std::string_view::npos)
      << "bytes of 0x7f and above are not control bytes here";
  const std::string short_line = std::string(kControlByteCheckBytes, '\0') + "\n";
  const std::string long_tabs = std::string(2 * kControlByteCheckBytes, '\t') + "\n";
  for (const std::string& text : {short_line, long_tabs}) {
    ChunkedStream stream(text, {65536});
    LineBatcher batcher(stream, size_t{1} << 30);
    const auto lines = with_batches(batcher, size_t{1} << 30);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_FALSE(lines[0].too_long);
    EXPECT_EQ(lines[0].length, text.size() - 1);
  }
}

// A line over the limit is held no further than the limit, and growing the buffer to it never
// holds the old and the new buffer at once (it was one and a half times the limit: 1.8 GB for the
// default of 1 GiB). Checked with the address space of a child process limited to the line limit
// and a little more: the old growth fails to allocate there.
TEST(LineBatches, AnOverLongLineCostsNoMoreThanTheLimitToSkip) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves address space beyond any limit a test could set";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "AddressSanitizer reserves address space beyond any limit a test could set";
#endif
#endif
  constexpr size_t kLimit = size_t{256} << 20;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    uint64_t address_space_kib = 0;
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("VmSize:", 0) == 0) address_space_kib = std::stoull(line.substr(7));
    }
    if (address_space_kib == 0) ::_exit(3);
    const rlim_t allowed = address_space_kib * 1024 + kLimit + (size_t{64} << 20);
    const rlimit limit{allowed, allowed};
    if (::setrlimit(RLIMIT_AS, &limit) != 0) ::_exit(4);
    try {
      RepeatedByteStream stream("start\n", 'a', 2 * uint64_t{kLimit}, "\nafter\n");
      LineBatcher batcher(stream, kLimit);
      LineBatch batch;
      int skipped = 0;
      while (batcher.next(batch)) {
        split_lines(batch, kLimit, [&](const BatchLine& line) { skipped += line.too_long ? 1 : 0; });
        batcher.recycle(batch);
      }
      ::_exit(skipped == 1 && batcher.error().ok() ? 0 : 5);
    } catch (const std::bad_alloc&) {
      ::_exit(6);
    }
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "6: an allocation failed within the line limit and 64 MiB; 5: the line was not "
                                       "skipped; 3, 4: the address space could not be read or limited";
}

// A failing stream: the lines before the failure come out, the unfinished one unterminated,
// then the error.
TEST(LineBatches, StreamErrorAfterTheLinesReadBeforeIt) {
  class FailingStream final : public ByteStream {
   public:
    Result<size_t> read(std::span<char> out) override {
      if (done_) return fail(Status::Corruption("boom: truncated"));
      const std::string text = "first\nsecond\nthi";
      std::memcpy(out.data(), text.data(), text.size());
      done_ = true;
      return text.size();
    }
    uint64_t source_bytes_consumed() const override { return 16; }

   private:
    bool done_ = false;
  } stream;
  LineBatcher batcher(stream, 1000, 4096);
  LineBatch batch;
  std::vector<std::string> lines;
  bool last_terminated = true;
  while (batcher.next(batch)) {
    split_lines(batch, 1000, [&](const BatchLine& line) {
      lines.emplace_back(line.text);
      last_terminated = line.terminated;
    });
    batcher.recycle(batch);
  }
  EXPECT_EQ(lines, (std::vector<std::string>{"first", "second", "thi"}));
  EXPECT_FALSE(last_terminated);
  EXPECT_FALSE(batcher.error().ok());
}

}  // namespace
}  // namespace sf::io
