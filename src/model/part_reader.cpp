#include "model/part_reader.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "eventlog/decoder.h"
#include "eventlog/event_batch.h"
#include "io/codec.h"

namespace sf::model {

static_assert(io::LineBatcher::kPaddingBytes >= eventlog::kLinePadding,
              "lines must carry the padding the decoder reads ahead into");

void BatchOutcome::clear() {
  lines = events = blank = malformed_count = 0;
  malformed.clear();
  cut_short.reset();
}

void BatchOutcome::add_malformed(uint64_t line_index, uint64_t byte_offset, std::string reason) {
  ++malformed_count;
  if (malformed.size() < kMaxMalformedKept) malformed.push_back({line_index, byte_offset, 0, std::move(reason)});
}

namespace {

std::string skipped_line_reason(const io::BatchLine& line, size_t max_line_bytes) {
  if (line.control_byte) {
    static constexpr char kHex[] = "0123456789abcdef";
    const std::string byte = {'0', 'x', kHex[line.control_byte->value >> 4], kHex[line.control_byte->value & 0xF]};
    return "line of " + std::to_string(line.length) + " bytes holds the control byte " + byte + " at byte " +
           std::to_string(line.control_byte->offset) + ", which no JSON text holds; skipped without being read";
  }
  return "line of " + std::to_string(line.length) + " bytes is longer than the limit of " +
         std::to_string(max_line_bytes) + " bytes (--max-line-bytes)";
}

}  // namespace

void decode_batch(const io::LineBatch& batch, size_t max_line_bytes, eventlog::Decoder& decoder,
                  eventlog::EventHandler& handler, BatchOutcome& out) {
  out.lines += io::split_lines(batch, max_line_bytes, [&](const io::BatchLine& line) {
    if (line.too_long) {
      out.add_malformed(line.index, line.byte_offset, skipped_line_reason(line, max_line_bytes));
      return;
    }
    auto result = decoder.decode(line.text, handler);
    switch (result.outcome) {
      case eventlog::DecodeOutcome::kEvent:
      case eventlog::DecodeOutcome::kUnknownEvent: ++out.events; break;
      case eventlog::DecodeOutcome::kBlank: ++out.blank; break;
      case eventlog::DecodeOutcome::kMalformed:
        // The log ends mid-line: what an in-progress or cut log looks like. Reported, but not
        // counted as a malformed line.
        if (!line.terminated) {
          out.cut_short = BatchOutcome::Problem{line.index, line.byte_offset, line.length, std::move(result.error)};
        } else {
          out.add_malformed(line.index, line.byte_offset, std::move(result.error));
        }
        break;
    }
  });
}

namespace {

// Adds a batch's outcome to the diagnostics; `first_line` is the part's line number of the
// batch's first line.
void apply(const BatchOutcome& outcome, uint64_t first_line, SourcePart& part, Diagnostics& diagnostics) {
  part.lines += outcome.lines;
  diagnostics.lines_read += outcome.lines;
  diagnostics.events_decoded += outcome.events;
  diagnostics.blank_lines += outcome.blank;
  diagnostics.malformed_lines += outcome.malformed_count;
  for (const auto& problem : outcome.malformed) {
    if (diagnostics.malformed.size() >= Diagnostics::kMaxMalformedKept) break;
    diagnostics.malformed.push_back(
        MalformedLine{part.name, first_line + problem.line_index, problem.byte_offset, problem.reason});
  }
  if (outcome.cut_short) {
    diagnostics.truncated_last_line = true;
    diagnostics.notes.push_back(
        part.name + ": the last line (" + std::to_string(first_line + outcome.cut_short->line_index) +
        ") is cut short (" + std::to_string(outcome.cut_short->length) + " bytes without a newline) and was not read");
  }
}

eventlog::DecoderOptions decoder_options(const PartReadOptions& options) {
  eventlog::DecoderOptions decoder;
  decoder.omit_repeated_accumulator_ids = options.omit_repeated_accumulator_ids;
  return decoder;
}

// Calls on_source_bytes when another progress interval has passed.
class ProgressGate {
 public:
  ProgressGate(const PartReadOptions& options, const std::function<void(uint64_t)>& callback)
      : interval_(options.progress_interval_bytes), next_(options.progress_interval_bytes), callback_(callback) {}
  void update(uint64_t source_bytes) {
    if (source_bytes < next_) return;
    callback_(source_bytes);
    next_ = source_bytes + interval_;
  }

 private:
  uint64_t interval_;
  uint64_t next_;
  const std::function<void(uint64_t)>& callback_;
};

bool cancelled(const PartReadOptions& options) { return options.cancel != nullptr && options.cancel->load(); }

// Everything but the events: on one thread.
bool read_serial(io::LineBatcher& batcher, ModelBuilder& builder, SourcePart& part, const PartReadOptions& options,
                 ProgressGate& progress) {
  eventlog::Decoder decoder(decoder_options(options));
  io::LineBatch batch;
  BatchOutcome outcome;
  uint64_t next_line = 1;
  while (batcher.next(batch)) {
    if (cancelled(options)) return false;
    outcome.clear();
    decode_batch(batch, options.max_line_bytes, decoder, builder, outcome);
    apply(outcome, next_line, part, builder.diagnostics());
    next_line += outcome.lines;
    progress.update(batch.source_bytes);
    batcher.recycle(batch);
  }
  return true;
}

// A reading thread, decoding threads and the folding (calling) thread, around a ring of slots.
// Slot k % size holds batch k; the reader fills slots in order, decoders take filled ones from a
// queue, the folder replays decoded ones in order and frees them.
class ParallelReader {
 public:
  ParallelReader(io::LineBatcher& batcher, const PartReadOptions& options)
      : batcher_(batcher), options_(options), slots_(std::max<size_t>(kMinSlots, 2 * options.threads + 2)) {
    for (auto& slot : slots_) slot = std::make_unique<Slot>();
  }

  bool run(ModelBuilder& builder, SourcePart& part, ProgressGate& progress) {
    std::vector<std::thread> threads;
    threads.emplace_back([this] { guarded([this] { read_loop(); }); });
    // The calling thread decodes too, while it waits for the batch it folds next.
    for (unsigned i = 1; i < options_.threads; ++i)
      threads.emplace_back([this] { guarded([this] { decode_loop(); }); });
    const bool completed = fold_loop(builder, part, progress);
    stop();
    for (auto& thread : threads) thread.join();
    if (failure_) std::rethrow_exception(failure_);
    return completed;
  }

 private:
  // Room for the reader to run ahead while the decoders are off a core, and the other way round:
  // with more threads than cores (the reader decompressing besides two decoders on two cores),
  // a ring of 6 left a core idle for ~20% of a zstd log's read; 16 batches (~16 MiB) halve that.
  static constexpr size_t kMinSlots = 16;

  enum class State { kFree, kFilled, kDecoded };
  struct Slot {
    State state = State::kFree;
    io::LineBatch batch;
    eventlog::EventBatch events;
    BatchOutcome outcome;
  };

  Slot& slot(uint64_t sequence) { return *slots_[sequence % slots_.size()]; }

  template <class F>
  void guarded(F&& body) {
    try {
      body();
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
      stopping_ = true;
      changed_.notify_all();
    }
  }

  void stop() {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    changed_.notify_all();
  }

  void read_loop() {
    for (uint64_t sequence = 0;; ++sequence) {
      Slot& s = slot(sequence);
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return stopping_ || s.state == State::kFree; });
        if (stopping_) return;
      }
      // The slot is ours until it is queued: read without the lock.
      const bool got = batcher_.next(s.batch);
      std::lock_guard lock(mutex_);
      if (!got) {
        batch_count_ = sequence;
        reading_done_ = true;
        changed_.notify_all();
        return;
      }
      s.state = State::kFilled;
      queue_.push_back(sequence);
      changed_.notify_all();
    }
  }

  void decode_loop() {
    eventlog::Decoder decoder(decoder_options(options_));
    for (;;) {
      uint64_t sequence = 0;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return stopping_ || !queue_.empty() || reading_done_; });
        if (stopping_ || queue_.empty()) return;
        sequence = queue_.front();
        queue_.pop_front();
      }
      decode_slot(sequence, decoder);
    }
  }

  // Decodes a batch taken off the queue (without the lock) and marks it decoded.
  void decode_slot(uint64_t sequence, eventlog::Decoder& decoder) {
    Slot& s = slot(sequence);
    s.events.clear();
    s.events.set_text_range(s.batch.text);
    s.outcome.clear();
    decode_batch(s.batch, options_.max_line_bytes, decoder, s.events, s.outcome);
    std::lock_guard lock(mutex_);
    s.state = State::kDecoded;
    changed_.notify_all();
  }

  bool fold_loop(ModelBuilder& builder, SourcePart& part, ProgressGate& progress) {
    eventlog::Decoder decoder(decoder_options(options_));
    uint64_t next_line = 1;
    for (uint64_t sequence = 0;; ++sequence) {
      Slot& s = slot(sequence);
      for (;;) {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] {
          return stopping_ || s.state == State::kDecoded || !queue_.empty() ||
                 (reading_done_ && sequence >= batch_count_);
        });
        if (stopping_) return true;  // a thread failed: run() rethrows
        if (reading_done_ && sequence >= batch_count_) return true;
        if (s.state == State::kDecoded) break;
        // Not decoded yet: decode the oldest waiting batch (often this one) meanwhile.
        const uint64_t waiting = queue_.front();
        queue_.pop_front();
        lock.unlock();
        decode_slot(waiting, decoder);
      }
      if (cancelled(options_)) return false;
      s.events.replay(builder);
      apply(s.outcome, next_line, part, builder.diagnostics());
      next_line += s.outcome.lines;
      progress.update(s.batch.source_bytes);
      batcher_.recycle(s.batch);
      std::lock_guard lock(mutex_);
      s.state = State::kFree;
      changed_.notify_all();
    }
  }

  io::LineBatcher& batcher_;
  const PartReadOptions& options_;
  std::vector<std::unique_ptr<Slot>> slots_;

  std::mutex mutex_;
  std::condition_variable changed_;  // any state change; waiters check their own condition
  std::deque<uint64_t> queue_;       // filled slots, by sequence, for the decoders
  bool reading_done_ = false;
  uint64_t batch_count_ = 0;  // set when reading_done_
  bool stopping_ = false;
  std::exception_ptr failure_;
};

}  // namespace

bool read_part(io::LineBatcher& batcher, ModelBuilder& builder, SourcePart& part, const PartReadOptions& options,
               const std::function<void(uint64_t)>& on_source_bytes) {
  ProgressGate progress(options, on_source_bytes);
  bool completed = false;
  if (options.threads <= 1) {
    completed = read_serial(batcher, builder, part, options, progress);
  } else {
    ParallelReader reader(batcher, options);
    completed = reader.run(builder, part, progress);
  }
  if (!completed) return false;

  part.uncompressed_bytes = batcher.bytes_consumed();
  // A read error the batcher ended with is the scan's to report (io/log_scan.h).
  on_source_bytes(batcher.source_bytes_consumed());
  return true;
}

}  // namespace sf::model
