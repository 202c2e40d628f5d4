// Writers of every event-log codec, framed exactly as Spark (or the usual tool) writes it:
// the test log generator and the benchmarks use them to produce .lz4/.snappy/.lzf/.zstd/.gz
// fixtures that the readers in src/io must decode.
//
//   lz4     lz4-java LZ4BlockOutputStream: 32 KiB blocks, LZ4 fast compressor, blocks that do not
//           shrink stored raw (token 0x10), checksum XXH32(seed 0x9747b28c) & 0x0FFFFFFF,
//           flush() ends the block (Spark opens the stream with syncFlush), finish() writes
//           the empty end-marker block.
//   snappy  snappy-java SnappyOutputStream: 16-byte header written with the first chunk or
//           flush, 32 KiB chunks, flush() ends the chunk.
//   lzf     ning LZFOutputStream with finishBlockOnFlush: chunks of up to 65535 bytes, stored
//           when compression would not make them smaller.
//   zstd    one frame at level 3; flush() ends a zstd block, finish() ends the frame.
//   gzip    one member through zlib (level 6); flush() is a sync flush.
//
// Tooling, not product: writers throw std::runtime_error when a library or the output stream
// fails. A writer destroyed without finish() leaves its output as a crashed writer would:
// whatever was flushed, without buffered data or the trailer. Not thread-safe.
#pragma once

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "io/codec.h"

namespace sf::loggen {

class CompressedWriter {
 public:
  virtual ~CompressedWriter();
  // Buffers or compresses `bytes`.
  virtual void write(std::string_view bytes) = 0;
  // Ends the current block as Spark's flush does (lz4/snappy/lzf) or flushes the encoder
  // (zstd/gzip), then flushes the output stream.
  virtual void flush() = 0;
  // Writes what is buffered and the trailer (lz4 end marker, zstd frame end, gzip trailer).
  // Call once; write() after finish() is an error.
  virtual void finish() = 0;
};

// A writer of `codec` into `out`, which must outlive it. Codec::kNone passes bytes through.
std::unique_ptr<CompressedWriter> make_compressed_writer(io::Codec codec, std::ostream& out);

// `plain` compressed as one whole stream; when flush_every_lines > 0, flush() is called after
// every that many '\n'-terminated lines, as Spark's event logger flushes between events.
std::string compress(io::Codec codec, std::string_view plain, size_t flush_every_lines = 0);

}  // namespace sf::loggen
