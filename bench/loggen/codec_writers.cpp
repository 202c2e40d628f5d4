// Encoders for every event-log codec, in the framings Spark's Java libraries write (see the
// header for the parameters of each).
#include "loggen/codec_writers.h"

#include <lz4.h>
#include <lzf.h>
#include <snappy.h>
#include <xxhash.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <climits>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace sf::loggen {
namespace {

void put_u32_le(std::string& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}
void put_u32_be(std::string& out, uint32_t value) {
  for (int i = 3; i >= 0; --i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}
void put_u16_be(std::string& out, uint32_t value) {
  out.push_back(static_cast<char>((value >> 8) & 0xFF));
  out.push_back(static_cast<char>(value & 0xFF));
}

void write_out(std::ostream& out, std::string_view bytes) {
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("codec writer: the output stream refused a write");
}

class PlainWriter final : public CompressedWriter {
 public:
  explicit PlainWriter(std::ostream& out) : out_(out) {}
  void write(std::string_view bytes) override { write_out(out_, bytes); }
  void flush() override { out_.flush(); }
  void finish() override { out_.flush(); }

 private:
  std::ostream& out_;
};

// The three Java block framings share this: bytes gather in a block of a fixed size, which is
// encoded when full, on flush() and on finish().
class BlockWriter : public CompressedWriter {
 public:
  BlockWriter(std::ostream& out, size_t block_bytes) : out_(out), block_bytes_(block_bytes) {
    block_.reserve(block_bytes);
  }

  void write(std::string_view bytes) override {
    if (finished_) throw std::runtime_error("codec writer: write() after finish()");
    while (!bytes.empty()) {
      const size_t take = std::min(bytes.size(), block_bytes_ - block_.size());
      block_.append(bytes.substr(0, take));
      bytes.remove_prefix(take);
      if (block_.size() == block_bytes_) emit_block();
    }
  }
  void flush() override {
    emit_block();
    out_.flush();
  }
  void finish() override {
    if (finished_) return;
    emit_block();
    encoded_.clear();
    write_trailer(encoded_);
    write_out(out_, encoded_);
    out_.flush();
    finished_ = true;
  }

 protected:
  // Appends the framed encoding of `block` (never empty) to `encoded`.
  virtual void encode_block(std::string_view block, std::string& encoded) = 0;
  // Called before the first block and on flush, whether or not a block follows.
  virtual void on_flush(std::string& /*encoded*/) {}
  virtual void write_trailer(std::string& /*encoded*/) {}

 private:
  void emit_block() {
    encoded_.clear();
    on_flush(encoded_);
    if (!block_.empty()) encode_block(block_, encoded_);
    block_.clear();
    if (!encoded_.empty()) write_out(out_, encoded_);
  }

  std::ostream& out_;
  size_t block_bytes_;
  std::string block_;
  std::string encoded_;
  bool finished_ = false;
};

// lz4-java LZ4BlockOutputStream(out, 32 KiB, fastCompressor, XXH32 checksum, syncFlush=true).
class Lz4BlockWriter final : public BlockWriter {
 public:
  static constexpr size_t kBlockBytes = size_t{32} * 1024;
  explicit Lz4BlockWriter(std::ostream& out)
      : BlockWriter(out, kBlockBytes), scratch_(LZ4_compressBound(kBlockBytes)) {}

 private:
  static constexpr std::string_view kMagic = "LZ4Block";
  static constexpr unsigned kMethodRaw = 0x10;
  static constexpr unsigned kMethodLz4 = 0x20;
  // ceil(log2(32 KiB)) - 10, as LZ4BlockOutputStream.compressionLevel() computes it.
  static constexpr unsigned kBlockSizeLevel = 5;
  static constexpr uint32_t kSeed = 0x9747b28c;

  void encode_block(std::string_view block, std::string& encoded) override {
    const uint32_t checksum = static_cast<uint32_t>(XXH32(block.data(), block.size(), kSeed)) & 0x0FFFFFFF;
    const int compressed = LZ4_compress_default(block.data(), scratch_.data(), static_cast<int>(block.size()),
                                                static_cast<int>(scratch_.size()));
    if (compressed <= 0) throw std::runtime_error("lz4 writer: LZ4_compress_default failed");
    const bool raw = static_cast<size_t>(compressed) >= block.size();
    encoded.append(kMagic);
    encoded.push_back(static_cast<char>((raw ? kMethodRaw : kMethodLz4) | kBlockSizeLevel));
    put_u32_le(encoded, static_cast<uint32_t>(raw ? block.size() : static_cast<size_t>(compressed)));
    put_u32_le(encoded, static_cast<uint32_t>(block.size()));
    put_u32_le(encoded, checksum);
    if (raw) {
      encoded.append(block);
    } else {
      encoded.append(scratch_.data(), static_cast<size_t>(compressed));
    }
  }
  void write_trailer(std::string& encoded) override {
    encoded.append(kMagic);
    encoded.push_back(static_cast<char>(kMethodRaw | kBlockSizeLevel));
    put_u32_le(encoded, 0);
    put_u32_le(encoded, 0);
    put_u32_le(encoded, 0);
  }

  std::vector<char> scratch_;
};

// snappy-java SnappyOutputStream(out, 32 KiB). Its header goes out with the first chunk or
// the first flush, so a stream that is flushed empty is just the 16-byte header.
class SnappyJavaWriter final : public BlockWriter {
 public:
  static constexpr size_t kBlockBytes = size_t{32} * 1024;
  explicit SnappyJavaWriter(std::ostream& out)
      : BlockWriter(out, kBlockBytes), scratch_(snappy::MaxCompressedLength(kBlockBytes)) {}

 private:
  void on_flush(std::string& encoded) override {
    if (header_written_) return;
    encoded.append(std::string_view("\x82SNAPPY\x00", 8));
    put_u32_be(encoded, 1);  // version
    put_u32_be(encoded, 1);  // compatible version
    header_written_ = true;
  }
  void encode_block(std::string_view block, std::string& encoded) override {
    size_t compressed = 0;
    snappy::RawCompress(block.data(), block.size(), scratch_.data(), &compressed);
    put_u32_be(encoded, static_cast<uint32_t>(compressed));
    encoded.append(scratch_.data(), compressed);
  }
  void write_trailer(std::string& encoded) override { on_flush(encoded); }

  std::vector<char> scratch_;
  bool header_written_ = false;
};

// ning LZFOutputStream with finishBlockOnFlush(true), as Spark's LZFCompressionCodec opens it.
class LzfWriter final : public BlockWriter {
 public:
  static constexpr size_t kBlockBytes = 0xFFFF;  // LZFChunk.MAX_CHUNK_LEN: lengths are 16-bit
  explicit LzfWriter(std::ostream& out) : BlockWriter(out, kBlockBytes), scratch_(kBlockBytes) {}

 private:
  // ning's ChunkEncoder does not try to compress chunks this short.
  static constexpr size_t kMinBytesToCompress = 16;

  void encode_block(std::string_view block, std::string& encoded) override {
    // A compressed chunk's header is 2 bytes longer than a stored one's: compress only when
    // the data shrinks by more than that, as ning does.
    unsigned compressed = 0;
    if (block.size() >= kMinBytesToCompress) {
      compressed = lzf_compress(block.data(), static_cast<unsigned>(block.size()), scratch_.data(),
                                static_cast<unsigned>(block.size() - 3));
    }
    encoded.push_back('Z');
    encoded.push_back('V');
    if (compressed == 0) {
      encoded.push_back('\x00');
      put_u16_be(encoded, static_cast<uint32_t>(block.size()));
      encoded.append(block);
    } else {
      encoded.push_back('\x01');
      put_u16_be(encoded, compressed);
      put_u16_be(encoded, static_cast<uint32_t>(block.size()));
      encoded.append(scratch_.data(), compressed);
    }
  }

  std::vector<char> scratch_;
};

class ZstdWriter final : public CompressedWriter {
 public:
  static constexpr int kLevel = 3;
  explicit ZstdWriter(std::ostream& out) : out_(out), cctx_(ZSTD_createCCtx()), scratch_(ZSTD_CStreamOutSize()) {
    if (cctx_ == nullptr || ZSTD_isError(ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, kLevel))) {
      ZSTD_freeCCtx(cctx_);
      throw std::runtime_error("zstd writer: cannot create a compressor");
    }
  }
  ~ZstdWriter() override { ZSTD_freeCCtx(cctx_); }
  ZstdWriter(const ZstdWriter&) = delete;
  ZstdWriter& operator=(const ZstdWriter&) = delete;

  void write(std::string_view bytes) override {
    if (finished_) throw std::runtime_error("codec writer: write() after finish()");
    ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
    while (in.pos < in.size) drive(in, ZSTD_e_continue);
  }
  void flush() override {
    if (finished_) return;
    ZSTD_inBuffer in{nullptr, 0, 0};
    while (drive(in, ZSTD_e_flush) != 0) {
    }
    out_.flush();
  }
  void finish() override {
    if (finished_) return;
    ZSTD_inBuffer in{nullptr, 0, 0};
    while (drive(in, ZSTD_e_end) != 0) {
    }
    out_.flush();
    finished_ = true;
  }

 private:
  size_t drive(ZSTD_inBuffer& in, ZSTD_EndDirective directive) {
    ZSTD_outBuffer out{scratch_.data(), scratch_.size(), 0};
    const size_t remaining = ZSTD_compressStream2(cctx_, &out, &in, directive);
    if (ZSTD_isError(remaining)) {
      throw std::runtime_error(std::string("zstd writer: ") + ZSTD_getErrorName(remaining));
    }
    write_out(out_, {scratch_.data(), out.pos});
    return remaining;
  }

  std::ostream& out_;
  ZSTD_CCtx* cctx_;
  std::vector<char> scratch_;
  bool finished_ = false;
};

class GzipWriter final : public CompressedWriter {
 public:
  explicit GzipWriter(std::ostream& out) : out_(out), scratch_(size_t{1} << 16) {
    // 15 + 16: the largest window, with a gzip header and trailer instead of zlib's.
    if (deflateInit2(&z_, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      throw std::runtime_error("gzip writer: cannot create a compressor");
    }
  }
  ~GzipWriter() override { deflateEnd(&z_); }
  GzipWriter(const GzipWriter&) = delete;
  GzipWriter& operator=(const GzipWriter&) = delete;

  void write(std::string_view bytes) override {
    if (finished_) throw std::runtime_error("codec writer: write() after finish()");
    while (!bytes.empty()) {
      const size_t take = std::min<size_t>(bytes.size(), UINT_MAX);
      drive(bytes.substr(0, take), Z_NO_FLUSH);
      bytes.remove_prefix(take);
    }
  }
  void flush() override {
    if (finished_) return;
    drive({}, Z_SYNC_FLUSH);
    out_.flush();
  }
  void finish() override {
    if (finished_) return;
    drive({}, Z_FINISH);
    out_.flush();
    finished_ = true;
  }

 private:
  void drive(std::string_view input, int flush_mode) {
    // deflate never writes through next_in; the cast only satisfies its non-const API.
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
    z_.avail_in = static_cast<uInt>(input.size());
    for (;;) {
      z_.next_out = reinterpret_cast<Bytef*>(scratch_.data());
      z_.avail_out = static_cast<uInt>(scratch_.size());
      const int ret = deflate(&z_, flush_mode);
      if (ret == Z_STREAM_ERROR) throw std::runtime_error("gzip writer: deflate failed");
      write_out(out_, {scratch_.data(), scratch_.size() - z_.avail_out});
      if (flush_mode == Z_FINISH ? ret == Z_STREAM_END : (z_.avail_in == 0 && z_.avail_out != 0)) break;
    }
  }

  std::ostream& out_;
  z_stream z_{};
  std::vector<char> scratch_;
  bool finished_ = false;
};

}  // namespace

CompressedWriter::~CompressedWriter() = default;

std::unique_ptr<CompressedWriter> make_compressed_writer(io::Codec codec, std::ostream& out) {
  switch (codec) {
    case io::Codec::kNone: return std::make_unique<PlainWriter>(out);
    case io::Codec::kZstd: return std::make_unique<ZstdWriter>(out);
    case io::Codec::kLz4: return std::make_unique<Lz4BlockWriter>(out);
    case io::Codec::kSnappy: return std::make_unique<SnappyJavaWriter>(out);
    case io::Codec::kLzf: return std::make_unique<LzfWriter>(out);
    case io::Codec::kGzip: return std::make_unique<GzipWriter>(out);
  }
  throw std::runtime_error("codec writer: unknown codec");
}

std::string compress(io::Codec codec, std::string_view plain, size_t flush_every_lines) {
  std::ostringstream out;
  auto writer = make_compressed_writer(codec, out);
  if (flush_every_lines == 0) {
    writer->write(plain);
  } else {
    size_t lines = 0;
    while (!plain.empty()) {
      const size_t newline = plain.find('\n');
      const size_t take = newline == std::string_view::npos ? plain.size() : newline + 1;
      writer->write(plain.substr(0, take));
      plain.remove_prefix(take);
      if (newline != std::string_view::npos && ++lines % flush_every_lines == 0) writer->flush();
    }
  }
  writer->finish();
  return std::move(out).str();
}

}  // namespace sf::loggen
