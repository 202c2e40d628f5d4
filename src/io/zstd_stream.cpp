// zstd: Spark's ZStdCompressionCodec writes standard zstd frames (one per stream; a rolled or
// appended log may hold several back to back), decoded here with ZSTD_decompressStream.
//
// ZSTD_decompressStream does not update output->pos when it returns an error, so bytes it
// decoded from a good block in the same call as a bad one would be lost. This decoder
// therefore hands it one unit of the frame format (RFC 8878) at a time: a frame header, one
// block (header and content), a frame checksum, a skippable frame. A call then decodes at most
// one block, the good blocks before a bad one reach the caller, and errors name the unit's
// byte offset. Only the unit boundaries are parsed here; zstd validates everything.
#include <zstd.h>

#include "io/decompressors.h"

namespace sf::io::detail {
namespace {

constexpr uint32_t kFrameMagic = 0xFD2FB528;
constexpr uint32_t kSkippableMagicMask = 0xFFFFFFF0;
constexpr uint32_t kSkippableMagic = 0x184D2A50;
constexpr size_t kBlockHeaderBytes = 3;
constexpr size_t kChecksumBytes = 4;
constexpr unsigned kBlockTypeRle = 1;

struct DStreamDeleter {
  void operator()(ZSTD_DStream* stream) const { ZSTD_freeDStream(stream); }
};

// Whether `start` (shorter than 4 bytes) begins a zstd or skippable frame magic.
bool starts_a_magic(std::string_view start) {
  static constexpr unsigned char kFrame[] = {0x28, 0xB5, 0x2F, 0xFD};
  static constexpr unsigned char kSkippable[] = {0x50, 0x2A, 0x4D, 0x18};  // first byte 0x50..0x5F
  bool frame = true;
  bool skippable = true;
  for (size_t i = 0; i < start.size() && i < 4; ++i) {
    const auto b = static_cast<unsigned char>(start[i]);
    frame = frame && b == kFrame[i];
    skippable = skippable && (i == 0 ? (b & 0xF0) == kSkippable[0] : b == kSkippable[i]);
  }
  return frame || skippable;
}

// What the next bytes of the input are.
enum class Unit { kFrameStart, kBlock, kChecksum };

class ZstdStream final : public DecompressingStream {
 public:
  ZstdStream(std::unique_ptr<ByteStream> compressed, std::string display_name, DecompressLimits limits,
             std::unique_ptr<ZSTD_DStream, DStreamDeleter> dstream)
      : DecompressingStream(std::move(compressed), std::move(display_name), "zstd", limits),
        dstream_(std::move(dstream)) {}

 private:
  Result<size_t> decode(std::span<char> out) override {
    // Output of a block that did not fit the last call's buffer comes out with no new input.
    auto flushed = feed(out, 0);
    if (!flushed) return fail(flushed.error());
    if (*flushed > 0) return *flushed;

    // zstd takes in every byte it is given (buffering a partial block), so a call that moves
    // neither input nor output twice in a row is a stuck decoder, not a busy loop to keep.
    int calls_without_progress = 0;
    for (;;) {
      if (unit_remaining_ == 0) {
        auto started = start_next_unit();
        if (!started) return fail(started.error());
        if (!*started) return 0;  // the input ended between frames: the clean end
      }
      if (input_.available().empty()) {
        auto got = input_.fill_more();
        if (!got) return fail(got.error());
        if (*got == 0) return fail(truncated(unit_name(), unit_start_));
      }
      const uint64_t offset_before = input_.offset();
      auto produced = feed(out, std::min<uint64_t>(unit_remaining_, input_.available().size()));
      if (!produced) return fail(produced.error());
      if (*produced > 0) return *produced;
      if (input_.offset() == offset_before && ++calls_without_progress > 2) {
        return fail(corruption(unit_name(), unit_start_, "the decoder made no progress"));
      }
    }
  }

  // Passes `in_bytes` of the available input (and room for output) to zstd once.
  Result<size_t> feed(std::span<char> out, size_t in_bytes) {
    const std::span<const char> in = input_.available().first(in_bytes);
    ZSTD_inBuffer in_buffer{in.data(), in.size(), 0};
    ZSTD_outBuffer out_buffer{out.data(), out.size(), 0};
    const size_t hint = ZSTD_decompressStream(dstream_.get(), &out_buffer, &in_buffer);
    if (ZSTD_isError(hint)) return fail(corruption(unit_name(), unit_start_, ZSTD_getErrorName(hint)));
    input_.consume(in_buffer.pos);
    unit_remaining_ -= in_buffer.pos;
    return out_buffer.pos;
  }

  // Reads the header of the next unit (without consuming it) to learn its length. False when
  // the input ends cleanly before a frame.
  Result<bool> start_next_unit() {
    unit_start_ = input_.offset();
    switch (next_) {
      case Unit::kFrameStart: {
        auto present = input_.ensure(8);
        if (!present) return fail(present.error());
        if (*present == 0) return false;
        const char* p = input_.available().data();
        // ensure() returns fewer than 8 bytes only at the end of the input.
        if (*present < 4) {
          if (starts_a_magic({p, *present})) return fail(truncated("frame header", unit_start_));
          return fail(corruption("frame", unit_start_, "not a zstd frame"));
        }
        const uint32_t magic = load_u32_le(p);
        if ((magic & kSkippableMagicMask) == kSkippableMagic) {
          if (*present < 8) return fail(truncated("skippable frame header", unit_start_));
          unit_ = "skippable frame";
          unit_remaining_ = 8 + uint64_t{load_u32_le(p + 4)};
          next_ = Unit::kFrameStart;
          return true;
        }
        if (magic != kFrameMagic) {
          return fail(corruption("frame", unit_start_, "not a zstd frame (magic " + hex32(magic) + ")"));
        }
        if (*present < 5) return fail(truncated("frame header", unit_start_));
        const auto descriptor = static_cast<unsigned char>(p[4]);
        const bool single_segment = (descriptor & 0x20) != 0;
        static constexpr size_t kDictionaryIdBytes[] = {0, 1, 2, 4};
        static constexpr size_t kContentSizeBytes[] = {0, 2, 4, 8};
        const size_t content_size_flag = descriptor >> 6;
        unit_ = "frame header";
        unit_remaining_ = 4 + 1 + (single_segment ? 0 : 1) + kDictionaryIdBytes[descriptor & 3] +
                          (content_size_flag == 0 && single_segment ? 1 : kContentSizeBytes[content_size_flag]);
        frame_has_checksum_ = (descriptor & 0x04) != 0;
        next_ = Unit::kBlock;
        return true;
      }
      case Unit::kBlock: {
        auto present = input_.ensure(kBlockHeaderBytes);
        if (!present) return fail(present.error());
        if (*present < kBlockHeaderBytes) return fail(truncated("block header", unit_start_));
        const char* p = input_.available().data();
        const uint32_t header = static_cast<uint32_t>(static_cast<unsigned char>(p[0])) |
                                static_cast<uint32_t>(static_cast<unsigned char>(p[1])) << 8 |
                                static_cast<uint32_t>(static_cast<unsigned char>(p[2])) << 16;
        const bool last_block = (header & 1) != 0;
        const unsigned type = (header >> 1) & 3;
        const uint32_t size = header >> 3;
        unit_ = "block";
        unit_remaining_ = kBlockHeaderBytes + (type == kBlockTypeRle ? 1 : size);
        next_ = !last_block ? Unit::kBlock : frame_has_checksum_ ? Unit::kChecksum : Unit::kFrameStart;
        return true;
      }
      case Unit::kChecksum:
        unit_ = "frame checksum";
        unit_remaining_ = kChecksumBytes;
        next_ = Unit::kFrameStart;
        return true;
    }
    return false;
  }

  std::string_view unit_name() const { return unit_; }

  std::unique_ptr<ZSTD_DStream, DStreamDeleter> dstream_;
  Unit next_ = Unit::kFrameStart;
  std::string_view unit_ = "frame";
  uint64_t unit_start_ = 0;
  uint64_t unit_remaining_ = 0;
  bool frame_has_checksum_ = false;
};

}  // namespace

Result<std::unique_ptr<ByteStream>> open_zstd_stream(std::unique_ptr<ByteStream> compressed, std::string display_name,
                                                     DecompressLimits limits) {
  std::unique_ptr<ZSTD_DStream, DStreamDeleter> dstream(ZSTD_createDStream());
  if (!dstream || ZSTD_isError(ZSTD_initDStream(dstream.get()))) {
    return fail(Status::IOError(display_name + ": zstd: cannot create a decoder (out of memory)"));
  }
  return std::make_unique<ZstdStream>(std::move(compressed), std::move(display_name), limits, std::move(dstream));
}

}  // namespace sf::io::detail
