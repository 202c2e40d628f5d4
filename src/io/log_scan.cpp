#include "io/log_scan.h"

#include <memory>

namespace sf::io {

Result<ScanOutcome> scan_log_parts(const LogInput& input, const std::vector<size_t>& indices,
                                   const ScanOptions& options, const PartVisitor& visit) {
  ScanOutcome outcome;
  for (size_t i = 0; i < indices.size(); ++i) {
    const size_t index = indices[i];
    const LogPart& part = input.parts.at(index);
    auto opened = open_log_part(input, part, options.decompress_limits);
    if (!opened) {
      if (i == 0) return fail(opened.error());
      outcome.read_error = opened.error();
      break;
    }
    std::unique_ptr<MappedFile> mapped;
    if (opened->codec == Codec::kNone && options.map_plain_files && input.layout != LogLayout::kStdin &&
        part.zip_entry.empty() && !part.path.empty()) {
      // A mapping that fails (a pipe, a special file) is no error: the stream reads it.
      if (auto file = MappedFile::open(part.path)) mapped = std::move(*file);
    }
    std::unique_ptr<LineBatcher> batcher =
        mapped != nullptr ? std::make_unique<LineBatcher>(*mapped, options.max_line_bytes, options.batch_bytes)
                          : std::make_unique<LineBatcher>(*opened->stream, options.max_line_bytes, options.batch_bytes);
    ScannedPart scanned{part, index, opened->codec, *batcher, *opened->stream, mapped.get()};
    const ScanControl control = visit(scanned);
    ++outcome.parts_visited;
    if (!batcher->error().ok()) {
      outcome.read_error = batcher->error();
      break;
    }
    if (control == ScanControl::kStop) {
      outcome.stopped = true;
      break;
    }
  }
  return outcome;
}

Result<ScanOutcome> scan_log(const LogInput& input, const ScanOptions& options, const PartVisitor& visit) {
  std::vector<size_t> all(input.parts.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  return scan_log_parts(input, all, options, visit);
}

}  // namespace sf::io
