// LineBatcher + split_lines give the lines LineReader gives: same text, numbers, offsets and
// terminations, over a mapped file and over streams that return data in chunks of every size,
// with batches from tiny to large. Over-long lines are skipped by length exactly.
#include "io/line_batches.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
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
    lines.push_back({std::string(line->text), line->number, line->byte_offset, line->length, line->terminated,
                     line->too_long});
  }
  return lines;
}

std::vector<SeenLine> with_batches(LineBatcher& batcher, size_t max_line_bytes) {
  std::vector<SeenLine> lines;
  LineBatch batch;
  uint64_t number = 0;
  while (batcher.next(batch)) {
    // The padding after every batch is readable.
    volatile char last = batch.text.data() == nullptr ? 0 : batch.text.data()[batch.text.size() + LineBatcher::kPaddingBytes - 1];
    (void)last;
    split_lines(batch, max_line_bytes, [&](const BatchLine& line) {
      lines.push_back({std::string(line.text), ++number, line.byte_offset, line.length, line.terminated, line.too_long});
    });
    batcher.recycle(batch);
  }
  EXPECT_TRUE(batcher.error().ok()) << batcher.error().message();
  return lines;
}

std::vector<std::string> sample_texts() {
  std::string many;
  for (int i = 0; i < 3000; ++i) many += std::string(static_cast<size_t>(i % 173), static_cast<char>('a' + i % 26)) + "\n";
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
  const std::string text = "short\n" + std::string(300000, 'x') + "\nafter\n" + std::string(100, 'y') + "\n" +
                           std::string(250000, 'z');
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
