// gzip: not an Apache Spark codec, but Databricks rolls its event logs into .gz parts and
// people gzip logs by hand. zlib inflate with automatic gzip/zlib header detection; a file
// may hold several members back to back (`cat a.gz b.gz`), which gzip itself decodes as one.
#include <zlib.h>

#include <climits>

#include "io/decompressors.h"

namespace sf::io::detail {
namespace {

// 15: the largest window; +32: accept a gzip or a zlib header, whichever is there.
constexpr int kWindowBitsAutoDetect = 15 + 32;
// zlib counts in uInt; one inflate() call gets at most this much output room.
constexpr size_t kMaxOutputPerCall = size_t{1} << 30;

class GzipStream final : public DecompressingStream {
 public:
  GzipStream(std::unique_ptr<ByteStream> compressed, std::string display_name, DecompressLimits limits,
             std::unique_ptr<z_stream> zstream)
      : DecompressingStream(std::move(compressed), std::move(display_name), "gzip", limits),
        zstream_(std::move(zstream)) {}
  ~GzipStream() override { inflateEnd(zstream_.get()); }
  GzipStream(const GzipStream&) = delete;
  GzipStream& operator=(const GzipStream&) = delete;

 private:
  Result<size_t> decode(std::span<char> out) override {
    if (!deferred_error_.ok()) return fail(std::move(deferred_error_));
    z_stream& z = *zstream_;
    int calls_without_progress = 0;
    for (;;) {
      bool input_ended = false;
      if (input_.available().empty()) {
        auto got = input_.fill_more();
        if (!got) return fail(got.error());
        input_ended = *got == 0;
      }
      const std::span<const char> in = input_.available();
      if (!in_member_) {
        if (in.empty()) return 0;  // the input ended between members: the clean end
        member_start_ = input_.offset();
        in_member_ = true;
      }

      const size_t in_size = std::min<size_t>(in.size(), UINT_MAX);
      const size_t out_size = std::min(out.size(), kMaxOutputPerCall);
      // zlib never writes through next_in; the cast only satisfies its non-const API.
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
      z.avail_in = static_cast<uInt>(in_size);
      z.next_out = reinterpret_cast<Bytef*>(out.data());
      z.avail_out = static_cast<uInt>(out_size);
      const int ret = inflate(&z, Z_NO_FLUSH);
      const size_t consumed = in_size - z.avail_in;
      const size_t produced = out_size - z.avail_out;
      const uint64_t error_offset = input_.offset() + consumed;
      input_.consume(consumed);

      Status error;
      switch (ret) {
        case Z_STREAM_END:
          // One member is done; the next (if any) starts with a fresh header.
          inflateReset(&z);
          in_member_ = false;
          break;
        case Z_OK:
        case Z_BUF_ERROR:  // no progress possible with this input: more is needed
          break;
        case Z_NEED_DICT:
          error = corruption("member", member_start_, "needs a preset dictionary, which gzip files never use");
          break;
        case Z_MEM_ERROR:
          error = Status::IOError(prefix() + "member at byte " + std::to_string(member_start_) + ": out of memory");
          break;
        default:  // Z_DATA_ERROR, Z_STREAM_ERROR
          error = corruption("member", member_start_,
                             std::string(z.msg != nullptr ? z.msg : "invalid deflate data") + " (at compressed byte " +
                                 std::to_string(error_offset) + ")");
          break;
      }
      if (!error.ok()) {
        // One call can inflate good data and then meet the damage: hand over the good part.
        if (produced == 0) return fail(std::move(error));
        deferred_error_ = std::move(error);
        return produced;
      }
      if (produced > 0) return produced;
      if (input_ended && in_member_) return fail(truncated("member", member_start_));
      if (consumed == 0 && in_member_ && !in.empty()) {
        if (++calls_without_progress > 2) {
          return fail(corruption("member", member_start_, "the decoder made no progress"));
        }
      } else {
        calls_without_progress = 0;
      }
    }
  }

  std::unique_ptr<z_stream> zstream_;
  Status deferred_error_;
  bool in_member_ = false;
  uint64_t member_start_ = 0;
};

}  // namespace

Result<std::unique_ptr<ByteStream>> open_gzip_stream(std::unique_ptr<ByteStream> compressed, std::string display_name,
                                                     DecompressLimits limits) {
  auto zstream = std::make_unique<z_stream>();  // value-initialized: zalloc/zfree/opaque null
  if (inflateInit2(zstream.get(), kWindowBitsAutoDetect) != Z_OK) {
    return fail(Status::IOError(display_name + ": gzip: cannot create a decoder (out of memory)"));
  }
  return std::make_unique<GzipStream>(std::move(compressed), std::move(display_name), limits, std::move(zstream));
}

}  // namespace sf::io::detail
