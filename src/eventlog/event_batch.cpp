#include "eventlog/event_batch.h"

#include <algorithm>
#include <cstring>

namespace sf::eventlog {

namespace {
constexpr size_t kChunkBytes = size_t{64} << 10;
}

EventBatch::EventBatch() = default;
EventBatch::~EventBatch() = default;

void EventBatch::clear() {
  order_.clear();
  task_end_count_ = 0;
  task_start_count_ = 0;
  others_.clear();
  unknown_names_.clear();
  chunk_index_ = 0;
  chunk_used_ = 0;
  // Keep a few ordinary chunks; one made for a long string is not worth keeping.
  if (chunks_.size() > 4) chunks_.resize(4);
  std::erase_if(chunks_, [](const Chunk& chunk) { return chunk.capacity > kChunkBytes; });
}

void EventBatch::keep(std::string_view& view) {
  if (view.empty()) return;
  const char* text_begin = text_.data();
  const char* text_end = text_begin + text_.size();
  if (view.data() >= text_begin && view.data() + view.size() <= text_end) return;
  const size_t size = view.size();
  for (;;) {
    if (chunk_index_ == chunks_.size()) {
      const size_t capacity = std::max(kChunkBytes, size);
      chunks_.push_back(Chunk{std::make_unique<char[]>(capacity), capacity});
    }
    if (chunks_[chunk_index_].capacity - chunk_used_ >= size) break;
    ++chunk_index_;
    chunk_used_ = 0;
  }
  char* copy = chunks_[chunk_index_].bytes.get() + chunk_used_;
  std::memcpy(copy, view.data(), size);
  chunk_used_ += size;
  view = std::string_view(copy, size);
}

void EventBatch::keep(TaskInfo& info) {
  keep(info.executor_id);
  keep(info.host);
  keep(info.locality);
}

void EventBatch::on(const TaskEnd& e) {
  if (task_end_count_ == task_ends_.size()) task_ends_.emplace_back();
  TaskEnd& slot = task_ends_[task_end_count_];
  slot = e;  // copy-assignment: the slot's id vector keeps its capacity
  keep(slot.task_type);
  keep(slot.reason_text);
  keep(slot.exception_class);
  keep(slot.kill_reason);
  keep(slot.loss_reason);
  keep(slot.description);
  keep(slot.full_stack_trace);
  keep(slot.fetch_failed_message);
  keep(slot.fetch_failed.executor_id);
  keep(slot.fetch_failed.host);
  keep(slot.info);
  order_.push_back({Kind::kTaskEnd, static_cast<uint32_t>(task_end_count_++)});
}

void EventBatch::on(const TaskStart& e) {
  if (task_start_count_ == task_starts_.size()) task_starts_.emplace_back();
  TaskStart& slot = task_starts_[task_start_count_];
  slot = e;
  keep(slot.info);
  order_.push_back({Kind::kTaskStart, static_cast<uint32_t>(task_start_count_++)});
}

void EventBatch::on_unknown_event(std::string_view event_name) {
  order_.push_back({Kind::kUnknown, static_cast<uint32_t>(unknown_names_.size())});
  unknown_names_.emplace_back(event_name);
}

void EventBatch::replay(EventHandler& handler) const {
  for (const Entry& entry : order_) {
    switch (entry.kind) {
      case Kind::kTaskEnd: handler.on(task_ends_[entry.index]); break;
      case Kind::kTaskStart: handler.on(task_starts_[entry.index]); break;
      case Kind::kOther: std::visit([&](const auto& event) { handler.on(event); }, others_[entry.index]); break;
      case Kind::kUnknown: handler.on_unknown_event(unknown_names_[entry.index]); break;
    }
  }
}

}  // namespace sf::eventlog
