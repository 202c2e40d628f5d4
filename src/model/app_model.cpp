#include "model/app_model.h"

#include <algorithm>
#include <charconv>

namespace sf::model {

namespace {

std::optional<int64_t> span_ms(const std::optional<int64_t>& start, const std::optional<int64_t>& end) {
  if (!start || !end) return std::nullopt;
  return std::max<int64_t>(0, *end - *start);
}

std::optional<uint64_t> parse_number(std::string_view text) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<int64_t> AppInfo::duration_ms() const {
  if (finished) return span_ms(start_time_ms, end_time_ms);
  return span_ms(start_time_ms, last_event_time_ms);
}

std::optional<int64_t> Job::duration_ms() const { return span_ms(submission_time_ms, completion_time_ms); }

std::optional<int64_t> StageAttempt::duration_ms() const { return span_ms(submission_time_ms, completion_time_ms); }

std::optional<int64_t> SqlExecution::duration_ms() const { return span_ms(start_time_ms, end_time_ms); }

const std::string* Environment::spark_property(std::string_view key) const {
  auto it = std::lower_bound(spark_properties.begin(), spark_properties.end(), key,
                             [](const auto& entry, std::string_view k) { return entry.first < k; });
  if (it == spark_properties.end() || it->first != key) return nullptr;
  return &it->second;
}

bool executor_id_less(std::string_view a, std::string_view b) {
  const bool a_driver = a == "driver";
  const bool b_driver = b == "driver";
  if (a_driver != b_driver) return a_driver;
  auto na = parse_number(a);
  auto nb = parse_number(b);
  if (na && nb) return *na < *nb;
  if (na.has_value() != nb.has_value()) return na.has_value();
  return a < b;
}

double core_hours_held(const AppModel& model) {
  const std::optional<int64_t> app_end = model.app.end_time_ms ? model.app.end_time_ms : model.app.last_event_time_ms;
  double core_ms = 0;
  for (const Executor& e : model.executors) {
    if (e.is_driver() || !e.add_time_ms) continue;
    const std::optional<int64_t> end = e.remove_time_ms ? e.remove_time_ms : app_end;
    if (!end || *end < *e.add_time_ms) continue;
    core_ms += static_cast<double>(e.total_cores) * static_cast<double>(*end - *e.add_time_ms);
  }
  if (core_ms == 0 && model.app.duration_ms()) {
    core_ms = static_cast<double>(model.peak_concurrent_cores) * static_cast<double>(*model.app.duration_ms());
  }
  return core_ms / 3.6e6;
}

namespace {

// Stage attempts by stage id against a bare id, either way round (for equal_range).
struct StageIdLess {
  bool operator()(const StageAttempt& s, int64_t id) const { return s.stage_id < id; }
  bool operator()(int64_t id, const StageAttempt& s) const { return id < s.stage_id; }
};

}  // namespace

const StageAttempt* AppModel::stage(int64_t stage_id, int32_t attempt_id) const {
  auto it = std::lower_bound(stages.begin(), stages.end(), std::pair{stage_id, attempt_id},
                             [](const StageAttempt& s, const std::pair<int64_t, int32_t>& key) {
                               return std::pair{s.stage_id, s.attempt_id} < key;
                             });
  if (it == stages.end() || it->stage_id != stage_id || it->attempt_id != attempt_id) return nullptr;
  return &*it;
}

const StageAttempt* AppModel::latest_attempt(int64_t stage_id) const {
  const std::span<const StageAttempt> attempts = attempts_of(stage_id);
  return attempts.empty() ? nullptr : &attempts.back();
}

std::span<const StageAttempt> AppModel::attempts_of(int64_t stage_id) const {
  const auto [first, last] = std::equal_range(stages.begin(), stages.end(), stage_id, StageIdLess{});
  return {first, last};
}

const Job* AppModel::job(int64_t job_id) const {
  auto it = std::lower_bound(jobs.begin(), jobs.end(), job_id, [](const Job& j, int64_t id) { return j.job_id < id; });
  return it != jobs.end() && it->job_id == job_id ? &*it : nullptr;
}

const Executor* AppModel::executor(std::string_view executor_id) const {
  auto it = std::lower_bound(executors.begin(), executors.end(), executor_id,
                             [](const Executor& e, std::string_view id) { return executor_id_less(e.id, id); });
  return it != executors.end() && it->id == executor_id ? &*it : nullptr;
}

const SqlExecution* AppModel::sql_execution(int64_t execution_id) const {
  auto it = std::lower_bound(sql.begin(), sql.end(), execution_id,
                             [](const SqlExecution& s, int64_t id) { return s.execution_id < id; });
  return it != sql.end() && it->execution_id == execution_id ? &*it : nullptr;
}

std::string_view to_string(JobStatus status) {
  switch (status) {
    case JobStatus::kRunning: return "RUNNING";
    case JobStatus::kSucceeded: return "SUCCEEDED";
    case JobStatus::kFailed: return "FAILED";
    case JobStatus::kUnknown: return "UNKNOWN";
  }
  return "UNKNOWN";
}

std::string_view to_string(LocalityLevel level) {
  switch (level) {
    case LocalityLevel::kProcessLocal: return "PROCESS_LOCAL";
    case LocalityLevel::kNodeLocal: return "NODE_LOCAL";
    case LocalityLevel::kNoPref: return "NO_PREF";
    case LocalityLevel::kRackLocal: return "RACK_LOCAL";
    case LocalityLevel::kAny: return "ANY";
    case LocalityLevel::kCount: break;
  }
  return "ANY";
}

std::optional<LocalityLevel> parse_locality(std::string_view text) {
  for (size_t i = 0; i < kLocalityLevelCount; ++i) {
    const auto level = static_cast<LocalityLevel>(i);
    if (to_string(level) == text) return level;
  }
  return std::nullopt;
}

std::string_view to_string(StageStatus status) {
  switch (status) {
    case StageStatus::kActive: return "ACTIVE";
    case StageStatus::kComplete: return "COMPLETE";
    case StageStatus::kFailed: return "FAILED";
    case StageStatus::kPending: return "PENDING";
    case StageStatus::kSkipped: return "SKIPPED";
  }
  return "PENDING";
}

}  // namespace sf::model
