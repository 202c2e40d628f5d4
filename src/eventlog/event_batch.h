// EventBatch: the decoded events of a batch of lines, kept in log order to be handed on later.
//
// The parallel loader decodes batches on worker threads, each into an EventBatch, and replays
// them in log order into the one model builder. replay() makes exactly the handler calls the
// decoder made while recording, with equal events, so what the builder sees does not depend on
// how the log was decoded.
//
// Lifetime: task events hold string views. A view into the batch's text (set with
// set_text_range, where the decoder's views nearly always point) is kept as is, so the text must
// stay alive and unchanged until the batch is replayed; any other view (a string the decoder
// unescaped into its own buffer) is copied into the batch. Everything else is owned.
//
// Reuse: clear() keeps the storage, so a worker reusing its batches allocates nothing per line
// once warmed up. Not thread-safe; one thread records, then (after a hand-off that orders
// memory) another replays.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "eventlog/events.h"

namespace sf::eventlog {

class EventBatch final : public EventHandler {
 public:
  EventBatch();
  ~EventBatch() override;
  EventBatch(const EventBatch&) = delete;
  EventBatch& operator=(const EventBatch&) = delete;

  // Views into [text.data(), text.data() + text.size()) are kept without copying.
  void set_text_range(std::string_view text) { text_ = text; }
  void clear();
  size_t size() const { return order_.size(); }

  // Hands every recorded event to `handler`, in the order they were recorded.
  void replay(EventHandler& handler) const;

  void on(const LogStart& e) override { record_other(e); }
  void on(const DatabricksMetadata& e) override { record_other(e); }
  void on(const ApplicationStart& e) override { record_other(e); }
  void on(const ApplicationEnd& e) override { record_other(e); }
  void on(const EnvironmentUpdate& e) override { record_other(e); }
  void on(const ResourceProfileAdded& e) override { record_other(e); }
  void on(const ExecutorAdded& e) override { record_other(e); }
  void on(const ExecutorRemoved& e) override { record_other(e); }
  void on(const BlockManagerAdded& e) override { record_other(e); }
  void on(const BlockManagerRemoved& e) override { record_other(e); }
  void on(const JobStart& e) override { record_other(e); }
  void on(const JobEnd& e) override { record_other(e); }
  void on(const StageSubmitted& e) override { record_other(e); }
  void on(const StageCompleted& e) override { record_other(e); }
  void on(const TaskStart& e) override;
  void on(const TaskEnd& e) override;
  void on(const StageExecutorMetrics& e) override { record_other(e); }
  void on(const UnpersistRdd& e) override { record_other(e); }
  void on(const MiscellaneousProcessAdded& e) override { record_other(e); }
  void on(const ExclusionChange& e) override { record_other(e); }
  void on(const SqlExecutionStart& e) override { record_other(e); }
  void on(const SqlExecutionEnd& e) override { record_other(e); }
  void on(const SqlAdaptiveExecutionUpdate& e) override { record_other(e); }
  void on(const SqlAdaptiveMetricUpdates& e) override { record_other(e); }
  void on(const DriverAccumUpdates& e) override { record_other(e); }
  void on(const StreamingQueryStarted& e) override { record_other(e); }
  void on(const StreamingQueryProgress& e) override { record_other(e); }
  void on(const StreamingQueryIdle& e) override { record_other(e); }
  void on(const StreamingQueryTerminated& e) override { record_other(e); }
  void on(const ConnectSessionEvent& e) override { record_other(e); }
  void on(const ConnectOperationEvent& e) override { record_other(e); }
  void on_unknown_event(std::string_view event_name) override;

 private:
  using Other = std::variant<
      LogStart, DatabricksMetadata, ApplicationStart, ApplicationEnd, EnvironmentUpdate, ResourceProfileAdded,
      ExecutorAdded, ExecutorRemoved, BlockManagerAdded, BlockManagerRemoved, JobStart, JobEnd, StageSubmitted,
      StageCompleted, StageExecutorMetrics, UnpersistRdd, MiscellaneousProcessAdded, ExclusionChange, SqlExecutionStart,
      SqlExecutionEnd, SqlAdaptiveExecutionUpdate, SqlAdaptiveMetricUpdates, DriverAccumUpdates, StreamingQueryStarted,
      StreamingQueryProgress, StreamingQueryIdle, StreamingQueryTerminated, ConnectSessionEvent, ConnectOperationEvent>;
  enum class Kind : uint8_t { kTaskEnd, kTaskStart, kOther, kUnknown };
  struct Entry {
    Kind kind;
    uint32_t index;
  };

  template <class Event>
  void record_other(const Event& e) {
    order_.push_back({Kind::kOther, static_cast<uint32_t>(others_.size())});
    others_.emplace_back(std::in_place_type<Event>, e);
  }
  // Keeps `view` valid as long as the batch: as is when it points into the text, else copied.
  void keep(std::string_view& view);
  void keep(TaskInfo& info);

  std::string_view text_;
  std::vector<Entry> order_;
  // Task events are kept in slots reused across clear(), so their vectors keep their capacity.
  std::vector<TaskEnd> task_ends_;
  size_t task_end_count_ = 0;
  std::vector<TaskStart> task_starts_;
  size_t task_start_count_ = 0;
  std::vector<Other> others_;
  std::vector<std::string> unknown_names_;
  // Copies of views that did not point into the text, in chunks that never move.
  struct Chunk {
    std::unique_ptr<char[]> bytes;
    size_t capacity = 0;
  };
  std::vector<Chunk> chunks_;
  size_t chunk_used_ = 0;
  size_t chunk_index_ = 0;
};

}  // namespace sf::eventlog
