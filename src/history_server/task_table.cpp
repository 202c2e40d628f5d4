#include "history_server/task_table.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

#include "history_server/rest_path.h"

namespace sf::history_server {

namespace {

using model::TaskMetric;

int64_t metric_of(const TaskRecord& t, TaskMetric m) { return t.metrics[model::index_of(m)]; }

// What a metric index holds for a task: -1 without metrics, the value when the task succeeded,
// and -(value) - 1 when it failed or was killed (LiveEntityHelpers.makeNegative).
int64_t stored_metric(const TaskRecord& t, TaskMetric m) {
  if (!t.has_metrics) return -1;
  const int64_t value = metric_of(t, m);
  return t.status == "SUCCESS" ? value : -value - 1;
}

// One task's value in an index: a number, or a text (compared as Java compares Strings; for the
// UTF-8 bytes kept here, byte order is code point order, which is UTF-16 order outside the
// surrogates).
struct IndexValue {
  int64_t number = 0;
  std::string text;
  bool operator<(const IndexValue& other) const {
    return number != other.number ? number < other.number : text < other.text;
  }
  bool operator==(const IndexValue&) const = default;
};

IndexValue number(int64_t n) { return {n, {}}; }
IndexValue text(std::string_view s) { return {0, std::string(s)}; }

IndexValue index_value(const TaskRecord& t, TaskSortIndex index) {
  switch (index) {
    case TaskSortIndex::kTaskId: return number(0);  // the stage's key: equal for all, the task id decides
    case TaskSortIndex::kPartitionId: return number(t.partition_id);
    case TaskSortIndex::kAttempt: return number(t.attempt);
    case TaskSortIndex::kStatus: return text(t.status);
    case TaskSortIndex::kLocality: return text(t.locality);
    case TaskSortIndex::kExecutorId: return text(t.executor_id);
    case TaskSortIndex::kHost: return text(t.host);
    case TaskSortIndex::kLaunchTime: return number(t.launch_time_ms);
    case TaskSortIndex::kExecutorRunTime: return number(stored_metric(t, TaskMetric::kExecutorRunTimeMs));
    // The scheduler delay and getting-result time are computed from the real values (getMetricValue).
    case TaskSortIndex::kSchedulerDelay:
      return number(t.has_metrics ? metric_of(t, TaskMetric::kSchedulerDelayMs) : -1);
    case TaskSortIndex::kGettingResultTime:
      return number(t.has_metrics ? metric_of(t, TaskMetric::kGettingResultTimeMs) : -1);
    case TaskSortIndex::kDeserializeTime: return number(stored_metric(t, TaskMetric::kExecutorDeserializeTimeMs));
    case TaskSortIndex::kGcTime: return number(stored_metric(t, TaskMetric::kJvmGcTimeMs));
    case TaskSortIndex::kSerializationTime: return number(stored_metric(t, TaskMetric::kResultSerializationTimeMs));
    case TaskSortIndex::kPeakExecutionMemory: return number(stored_metric(t, TaskMetric::kPeakExecutionMemoryBytes));
    case TaskSortIndex::kAccumulators: {
      // "name:value" of the first accumulable the task shows, "" for none.
      if (t.accumulables.empty()) return text("");
      IndexValue out;
      out.text.append(t.accumulables.front().name).append(":").append(t.accumulables.front().value);
      return out;
    }
    case TaskSortIndex::kInputBytes: return number(stored_metric(t, TaskMetric::kInputBytes));
    case TaskSortIndex::kOutputBytes: return number(stored_metric(t, TaskMetric::kOutputBytes));
    case TaskSortIndex::kShuffleFetchWaitTime: return number(stored_metric(t, TaskMetric::kShuffleFetchWaitTimeMs));
    // Spark 4.3.0 adds the two stored values, each negated for an unsuccessful task: -(l + r) - 2.
    case TaskSortIndex::kShuffleTotalReads:
      return number(t.has_metrics ? stored_metric(t, TaskMetric::kShuffleLocalBytesRead) +
                                        stored_metric(t, TaskMetric::kShuffleRemoteBytesRead)
                                  : -1);
    case TaskSortIndex::kShuffleRemoteReads: return number(stored_metric(t, TaskMetric::kShuffleRemoteBytesRead));
    case TaskSortIndex::kShuffleWriteTime: return number(stored_metric(t, TaskMetric::kShuffleWriteTimeNs));
    case TaskSortIndex::kShuffleWriteBytes: return number(stored_metric(t, TaskMetric::kShuffleWriteBytes));
    case TaskSortIndex::kMemoryBytesSpilled: return number(stored_metric(t, TaskMetric::kMemoryBytesSpilled));
    case TaskSortIndex::kDiskBytesSpilled: return number(stored_metric(t, TaskMetric::kDiskBytesSpilled));
    case TaskSortIndex::kError: return text(t.error_message.value_or(""));
  }
  return number(0);
}

// Java's Formatter on a double with `decimals` places: the shortest digits that read back as the
// value, rounded half up (C's printf rounds the binary value: 1.25 would be 1.2, Java writes 1.3).
std::string java_fixed(double value, int decimals) {
  std::array<char, 64> buffer{};
  const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::fixed);
  std::string digits(buffer.data(), ec == std::errc() ? end : buffer.data());
  std::string sign;
  if (!digits.empty() && digits.front() == '-') {
    sign = "-";
    digits.erase(0, 1);
  }
  const size_t point = digits.find('.');
  std::string whole = digits.substr(0, point);
  std::string fraction = point == std::string::npos ? std::string() : digits.substr(point + 1);
  const bool round_up =
      fraction.size() > static_cast<size_t>(decimals) && fraction[static_cast<size_t>(decimals)] >= '5';
  fraction.resize(static_cast<size_t>(decimals), '0');
  std::string kept = whole + fraction;
  if (round_up) {
    size_t i = kept.size();
    while (i > 0 && kept[i - 1] == '9') kept[--i] = '0';
    if (i == 0) {
      kept.insert(kept.begin(), '1');
    } else {
      ++kept[i - 1];
    }
  }
  std::string out = sign;
  out.append(kept, 0, kept.size() - static_cast<size_t>(decimals));
  if (decimals > 0) out.append(".").append(kept, kept.size() - static_cast<size_t>(decimals), std::string::npos);
  return out;
}

bool contains(std::string_view shown, std::string_view search) {
  return java_lower_case(shown).find(search) != std::string::npos;
}

}  // namespace

std::optional<TaskSortIndex> task_sort_index_of_column(std::string_view header) {
  static constexpr std::pair<std::string_view, TaskSortIndex> kColumns[] = {
      {"ID", TaskSortIndex::kTaskId},
      {"Index", TaskSortIndex::kPartitionId},
      {"Attempt", TaskSortIndex::kAttempt},
      {"Status", TaskSortIndex::kStatus},
      {"Locality Level", TaskSortIndex::kLocality},
      {"Executor ID", TaskSortIndex::kExecutorId},
      {"Host", TaskSortIndex::kHost},
      {"Launch Time", TaskSortIndex::kLaunchTime},
      {"Duration", TaskSortIndex::kExecutorRunTime},
      {"Scheduler Delay", TaskSortIndex::kSchedulerDelay},
      {"Task Deserialization Time", TaskSortIndex::kDeserializeTime},
      {"GC Time", TaskSortIndex::kGcTime},
      {"Result Serialization Time", TaskSortIndex::kSerializationTime},
      {"Getting Result Time", TaskSortIndex::kGettingResultTime},
      {"Peak Execution Memory", TaskSortIndex::kPeakExecutionMemory},
      {"Accumulators", TaskSortIndex::kAccumulators},
      {"Input Size / Records", TaskSortIndex::kInputBytes},
      {"Output Size / Records", TaskSortIndex::kOutputBytes},
      {"Shuffle Read Fetch Wait Time", TaskSortIndex::kShuffleFetchWaitTime},
      {"Shuffle Read Size / Records", TaskSortIndex::kShuffleTotalReads},
      {"Shuffle Remote Reads", TaskSortIndex::kShuffleRemoteReads},
      {"Shuffle Write Time", TaskSortIndex::kShuffleWriteTime},
      {"Shuffle Write Size / Records", TaskSortIndex::kShuffleWriteBytes},
      {"Spill (Memory)", TaskSortIndex::kMemoryBytesSpilled},
      {"Spill (Disk)", TaskSortIndex::kDiskBytesSpilled},
      {"Errors", TaskSortIndex::kError},
  };
  for (const auto& [name, index] : kColumns) {
    if (name == header) return index;
  }
  return std::nullopt;
}

std::vector<const TaskRecord*> tasks_sorted_by(const StageTasks& tasks, TaskSortIndex index, bool ascending) {
  std::vector<std::pair<IndexValue, const TaskRecord*>> keyed;
  keyed.reserve(tasks.tasks.size());
  for (const TaskRecord& t : tasks.tasks) keyed.emplace_back(index_value(t, index), &t);
  // InMemoryStore's view: by the index's value, ties by the natural key (the task id); a
  // descending view reverses the whole comparison, ties included.
  std::sort(keyed.begin(), keyed.end(), [ascending](const auto& a, const auto& b) {
    const auto& [first, second] = ascending ? std::tie(a, b) : std::tie(b, a);
    if (!(first.first == second.first)) return first.first < second.first;
    return first.second->task_id < second.second->task_id;
  });
  std::vector<const TaskRecord*> out;
  out.reserve(keyed.size());
  for (const auto& entry : keyed) out.push_back(entry.second);
  return out;
}

bool task_matches_search(const TaskRecord& t, std::string_view search) {
  // An absent Option is searched as "d" (filterTaskList's getOrElse("d")); a result fetch start,
  // a java.util.Date, as Date.toString writes it.
  const std::string result_fetch_start =
      t.getting_result_start_ms > 0 ? java_date_string(t.getting_result_start_ms) : std::string("d");
  const bool task_fields = contains(std::to_string(t.task_id), search) || contains(std::to_string(t.index), search) ||
                           contains(std::to_string(t.attempt), search) ||
                           contains(spark_ui_date(t.launch_time_ms), search) || contains(result_fetch_start, search) ||
                           contains(t.executor_id, search) || contains(t.host, search) || contains(t.status, search) ||
                           contains(t.locality, search) || contains(t.speculative ? "true" : "false", search) ||
                           contains(t.error_message.value_or("d"), search);
  if (task_fields) return true;
  if (t.has_metrics) {
    auto duration = [&](TaskMetric m) { return contains(spark_ui_duration(metric_of(t, m)), search); };
    auto bytes = [&](TaskMetric m) { return contains(spark_ui_bytes(metric_of(t, m)), search); };
    auto count = [&](TaskMetric m) { return contains(std::to_string(metric_of(t, m)), search); };
    const bool metrics = duration(TaskMetric::kExecutorDeserializeTimeMs) || duration(TaskMetric::kExecutorRunTimeMs) ||
                         duration(TaskMetric::kJvmGcTimeMs) || duration(TaskMetric::kResultSerializationTimeMs) ||
                         bytes(TaskMetric::kMemoryBytesSpilled) || bytes(TaskMetric::kDiskBytesSpilled) ||
                         bytes(TaskMetric::kPeakExecutionMemoryBytes) || bytes(TaskMetric::kInputBytes) ||
                         count(TaskMetric::kInputRecords) || bytes(TaskMetric::kOutputBytes) ||
                         count(TaskMetric::kOutputRecords) || duration(TaskMetric::kShuffleFetchWaitTimeMs) ||
                         bytes(TaskMetric::kShuffleRemoteBytesRead) ||
                         contains(spark_ui_bytes(metric_of(t, TaskMetric::kShuffleLocalBytesRead) +
                                                 metric_of(t, TaskMetric::kShuffleRemoteBytesRead)),
                                  search) ||
                         count(TaskMetric::kShuffleRecordsRead) || bytes(TaskMetric::kShuffleWriteBytes) ||
                         count(TaskMetric::kShuffleWriteRecords) ||
                         contains(spark_ui_duration(metric_of(t, TaskMetric::kShuffleWriteTimeNs) / 1'000'000), search);
    if (metrics) return true;
  }
  return contains(spark_ui_duration(metric_of(t, TaskMetric::kSchedulerDelayMs)), search) ||
         contains(spark_ui_duration(metric_of(t, TaskMetric::kGettingResultTimeMs)), search);
}

std::pair<size_t, size_t> scala_slice(size_t size, int32_t start, int32_t length) {
  const auto end = static_cast<int32_t>(static_cast<uint32_t>(start) + static_cast<uint32_t>(length));
  const auto n = static_cast<int64_t>(size);
  const auto first = static_cast<size_t>(std::clamp<int64_t>(start, 0, n));
  const auto last = static_cast<size_t>(std::clamp<int64_t>(end, 0, n));
  return {first, std::max(first, last)};
}

std::string spark_ui_duration(int64_t ms) {
  if (ms < 100) return std::to_string(ms) + " ms";
  const double seconds = static_cast<double>(ms) / 1000;
  if (seconds < 1) return java_fixed(seconds, 1) + " s";
  if (seconds < 60) return java_fixed(seconds, 0) + " s";
  const double minutes = seconds / 60;
  if (minutes < 10) return java_fixed(minutes, 1) + " min";
  if (minutes < 60) return java_fixed(minutes, 0) + " min";
  return java_fixed(minutes / 60, 1) + " h";
}

std::string spark_ui_bytes(int64_t bytes) {
  // The first unit of which the size is at least two, else bytes.
  static constexpr std::pair<int64_t, std::string_view> kUnits[] = {
      {int64_t{1} << 60, "EiB"}, {int64_t{1} << 50, "PiB"}, {int64_t{1} << 40, "TiB"},
      {int64_t{1} << 30, "GiB"}, {int64_t{1} << 20, "MiB"}, {int64_t{1} << 10, "KiB"},
  };
  int64_t unit = 1;
  std::string_view suffix = "B";
  for (const auto& [size, name] : kUnits) {
    if (bytes >= 2 * size) {
      unit = size;
      suffix = name;
      break;
    }
  }
  std::string out = java_fixed(static_cast<double>(bytes) / static_cast<double>(unit), 1);
  out.append(" ").append(suffix);
  return out;
}

std::string spark_ui_date(int64_t epoch_ms) {
  // From the History Server's own date, "yyyy-MM-ddTHH:mm:ss.SSSGMT": "yyyy/MM/dd HH:mm:ss".
  std::string out = format_history_server_time(epoch_ms).substr(0, 19);
  out[4] = '/';
  out[7] = '/';
  out[10] = ' ';
  return out;
}

std::string java_date_string(int64_t epoch_ms) {
  static constexpr std::string_view kDays[] = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};  // from 1970-01-01
  static constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const std::string iso = format_history_server_time(epoch_ms);  // yyyy-MM-ddTHH:mm:ss.SSSGMT
  const int64_t day_ms = 86'400'000;
  const int64_t days = epoch_ms >= 0 ? epoch_ms / day_ms : -((-epoch_ms + day_ms - 1) / day_ms);
  const std::string_view weekday = kDays[((days % 7) + 7) % 7];
  const int month = std::stoi(iso.substr(5, 2));
  std::string out;
  out.append(weekday).append(" ").append(kMonths[month - 1]).append(" ").append(iso, 8, 2).append(" ");
  out.append(iso, 11, 8).append(" UTC ").append(iso, 0, 4);
  return out;
}

std::string java_lower_case(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace sf::history_server
