// Detectors of where tasks ran: slowHost (hostMeanRatio, durationShare, multiDim) and
// coreLocality.
//
// slowHost compares the hosts of one stage attempt with each other (StageAttempt::hosts rolls
// the per-executor summaries up by host), so a host is judged against the same work on its
// peers; coreLocality counts the locality levels tasks started at, over the application.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>

#include "analysis/detectors/detectors.h"
#include "analysis/detectors/removed_work.h"
#include "analysis/findings/figure_words.h"
#include "analysis/findings/finding_types.h"
#include "common/units.h"

namespace sf::analysis {

namespace {

using model::HostStageSummary;
using model::LocalityLevel;
using model::QuantileMetric;
using model::StageAttempt;
using units::format_bytes;
using units::format_count;
using units::format_duration_ms;
using units::format_percent;

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  if (n == 0) return 0;
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// The data a task processes: what it read from storage and from the shuffle.
int64_t data_bytes(const HostStageSummary& h) { return h.input_bytes + h.shuffle_read_bytes; }
int64_t attempts(const HostStageSummary& h) { return h.tasks_succeeded + h.tasks_failed + h.tasks_killed; }

// One host of a stage, against the rest of that stage.
struct HostComparison {
  const HostStageSummary* host = nullptr;
  double mean_ms = 0;      // mean successful task duration on the host
  double mean_ratio = 0;   // vs the median of the judged hosts' means
  double share_ratio = 0;  // share of successful task time / share of successful tasks
  double excess_ms = 0;    // mean - the stage's median task
  double bytes_per_task = 0;
  double others_bytes_per_task = 0;  // every other host of the stage
  double bytes_ratio = 0;            // bytes_per_task / others' (others floored at 1 byte)
  double excess_bytes = 0;           // what the host read past the others' rate per task
  bool has_byte_dimension = false;   // the stage's tasks read data, and other hosts ran some
  double gc_share = 0;               // GC time / executor run time on the host
  double others_gc_share = 0;
};

struct StageHostTotals {
  int64_t succeeded_tasks = 0;
  int64_t succeeded_time_ms = 0;
  int64_t bytes = 0;
  int64_t attempts = 0;
  int64_t gc_ms = 0;
  int64_t run_ms = 0;
};

StageHostTotals totals_of(const StageAttempt& stage) {
  StageHostTotals totals;
  for (const HostStageSummary& h : stage.hosts) {
    totals.succeeded_tasks += h.tasks_succeeded;
    totals.succeeded_time_ms += h.succeeded_task_time_ms;
    totals.bytes += data_bytes(h);
    totals.attempts += attempts(h);
    totals.gc_ms += h.jvm_gc_time_ms;
    totals.run_ms += h.executor_run_time_ms;
  }
  return totals;
}

HostComparison compare_host(const HostStageSummary& h, const StageHostTotals& totals, double median_mean_ms,
                            double stage_median_ms) {
  HostComparison c;
  c.host = &h;
  c.mean_ms = static_cast<double>(h.succeeded_task_time_ms) / static_cast<double>(h.tasks_succeeded);
  c.mean_ratio = median_mean_ms > 0 ? c.mean_ms / median_mean_ms : 0;
  const double time_share = totals.succeeded_time_ms > 0 ? static_cast<double>(h.succeeded_task_time_ms) /
                                                               static_cast<double>(totals.succeeded_time_ms)
                                                         : 0;
  const double task_share = static_cast<double>(h.tasks_succeeded) / static_cast<double>(totals.succeeded_tasks);
  c.share_ratio = task_share > 0 ? time_share / task_share : 0;
  c.excess_ms = c.mean_ms - stage_median_ms;
  const int64_t host_attempts = attempts(h);
  const int64_t other_attempts = totals.attempts - host_attempts;
  c.bytes_per_task = host_attempts > 0 ? static_cast<double>(data_bytes(h)) / static_cast<double>(host_attempts) : 0;
  c.others_bytes_per_task =
      other_attempts > 0 ? static_cast<double>(totals.bytes - data_bytes(h)) / static_cast<double>(other_attempts) : 0;
  c.bytes_ratio = c.bytes_per_task / std::max(1.0, c.others_bytes_per_task);
  c.excess_bytes = static_cast<double>(data_bytes(h)) - c.others_bytes_per_task * static_cast<double>(host_attempts);
  c.has_byte_dimension = totals.bytes > 0 && other_attempts > 0;
  c.gc_share = h.executor_run_time_ms > 0
                   ? static_cast<double>(h.jvm_gc_time_ms) / static_cast<double>(h.executor_run_time_ms)
                   : 0;
  const int64_t other_run = totals.run_ms - h.executor_run_time_ms;
  c.others_gc_share =
      other_run > 0 ? static_cast<double>(totals.gc_ms - h.jvm_gc_time_ms) / static_cast<double>(other_run) : 0;
  return c;
}

// Which slowHost variant a host falls under, if any. Time first: a host slow on time whose
// tasks got no more data than the others' is slow itself (multiDim, the strongest diagnosis);
// otherwise the time test that held names it. A host not slow on time but handed much more
// data per task is the byte-dimension multiDim shape, which has no waste formula.
struct Verdict {
  std::string rule;
  bool time_based = true;
};

std::optional<Verdict> verdict_of(const HostComparison& c, const Thresholds& t) {
  const bool long_enough = c.excess_ms >= t.slow_host_min_excess_ms;
  const bool by_mean = long_enough && c.mean_ratio >= t.slow_host_mean_ratio;
  const bool by_share = long_enough && c.share_ratio >= t.slow_host_duration_share_ratio;
  if (by_mean || by_share) {
    if (c.has_byte_dimension && c.bytes_per_task <= c.others_bytes_per_task) {
      return Verdict{finding_rule::kMultiDim, true};
    }
    return Verdict{by_mean ? finding_rule::kHostMeanRatio : finding_rule::kDurationShare, true};
  }
  if (c.has_byte_dimension && c.bytes_ratio >= t.slow_host_bytes_ratio &&
      c.excess_bytes >= t.slow_host_min_bytes_excess) {
    return Verdict{finding_rule::kMultiDim, false};
  }
  return std::nullopt;
}

// Spark time strings ("3s", "500ms", "1min", plain milliseconds) in ms; nullopt if unreadable.
std::optional<double> parse_time_ms(std::string_view text) {
  double number = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc() || number < 0) return std::nullopt;
  std::string unit(end, text.data() + text.size());
  std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char ch) { return std::tolower(ch); });
  if (unit.empty() || unit == "ms") return number;
  if (unit == "us") return number / 1000;
  if (unit == "s") return number * 1000;
  if (unit == "m" || unit == "min") return number * 60000;
  if (unit == "h") return number * 3600000;
  if (unit == "d") return number * 86400000;
  return std::nullopt;
}

std::string spark_time(double ms) {
  const auto whole = static_cast<int64_t>(std::llround(ms));
  return whole % 1000 == 0 ? fmt::format("{}s", whole / 1000) : fmt::format("{}ms", whole);
}

std::vector<SettingChange> slow_host_settings(const DetectorContext& context, const std::string& host) {
  std::vector<SettingChange> settings = {context.setting("spark.speculation", "true")};
  // On YARN the host can be kept out of the application's containers directly.
  if (context.property("spark.master").value_or("").starts_with("yarn")) {
    const std::string current = context.property("spark.yarn.exclude.nodes").value_or("");
    settings.push_back(context.setting("spark.yarn.exclude.nodes", current.empty() ? host : current + "," + host));
  }
  return settings;
}

// What one slow-host finding is about: the stage, the host and how it compares.
struct HostCase {
  const StageAttempt& stage;
  const HostComparison& comparison;
  double median_mean_ms = 0;    // of the judged hosts
  int64_t stage_median_ms = 0;  // the stage's median task
  size_t judged_hosts = 0;
};

Finding host_finding(const HostCase& hc, const std::string& rule) {
  Finding f = DetectorContext::stage_finding(hc.stage, finding_type::kSlowHost, rule, hc.comparison.host->host);
  return f;
}

std::string bytes_sentence(const HostComparison& c) {
  return fmt::format("its tasks read {} each on average against {} on the other hosts ({:.1f}x)",
                     bytes_text(c.bytes_per_task), bytes_text(c.others_bytes_per_task), c.bytes_ratio);
}

// The byte-dimension multiDim shape: the host was handed more data and kept up. No formula.
Finding byte_shape_finding(const DetectorContext& context, const HostCase& hc) {
  const Thresholds& t = context.thresholds();
  const HostComparison& c = hc.comparison;
  const std::string& host = c.host->host;
  const std::string label = DetectorContext::stage_label(hc.stage);
  Finding f = host_finding(hc, finding_rule::kMultiDim);
  f.title = fmt::format("{}: {} got {:.1f}x the data per task of the other hosts", label, host, c.bytes_ratio);
  f.explanation = fmt::format(
      "On {}, {}, {} more than its share; its tasks still ran {} on average against a median "
      "of {} across {} hosts, so the host kept up.",
      host, bytes_sentence(c), bytes_text(c.excess_bytes), duration_text(c.mean_ms), duration_text(hc.median_mean_ms),
      hc.judged_hosts);
  f.recommendation =
      "Nothing points at the host itself: it was handed bigger partitions (locality sends tasks to "
      "the hosts holding their data). If the stage is slow, even out the partition sizes (see the "
      "skew and partitionSizing findings).";
  f.evidence = {
      {"hostBytesPerTask", c.bytes_per_task, "bytes"},  {"otherHostsBytesPerTask", c.others_bytes_per_task, "bytes"},
      {"bytesRatio", c.bytes_ratio, "ratio"},           {"hostExcessBytes", c.excess_bytes, "bytes"},
      {evidence_key::kHostMeanTaskMs, c.mean_ms, "ms"}, {"medianHostMeanTaskMs", hc.median_mean_ms, "ms"}};
  f.thresholds = {"stage.minDurationMs", "slowHost.minHosts", "slowHost.minTasks", "slowHost.bytesRatio",
                  "slowHost.minBytesExcess"};
  f.confidence = context.confidence_above(c.bytes_ratio, t.slow_host_bytes_ratio);
  f.claim.kind = WasteClaim::Kind::kInformational;
  return f;
}

// A host slow on time (hostMeanRatio, durationShare, multiDim): it claims mean - stage median.
Finding slow_time_finding(const DetectorContext& context, const HostCase& hc, const std::string& rule) {
  const Thresholds& t = context.thresholds();
  const HostComparison& c = hc.comparison;
  const std::string& host = c.host->host;
  const std::string label = DetectorContext::stage_label(hc.stage);
  const double median_mean_ms = hc.median_mean_ms;
  const int64_t stage_median_ms = hc.stage_median_ms;
  const size_t judged_hosts = hc.judged_hosts;
  Finding f = host_finding(hc, rule);

  if (rule == finding_rule::kDurationShare) {
    f.title =
        fmt::format("{}: {} ran its tasks {:.1f}x slower than the stage's average task", label, host, c.share_ratio);
  } else {
    f.title = fmt::format("{}: {} ran its tasks {:.1f}x slower than the median host", label, host, c.mean_ratio);
  }
  f.explanation = fmt::format(
      "{} ran {} successful tasks at {} on average, against a median of {} across the {} hosts judged ({:.1f}x) and a "
      "median task of {}; it spent {:.1f}x its share of the stage's task time for its share of tasks.",
      host, format_count(c.host->tasks_succeeded), duration_text(c.mean_ms), duration_text(median_mean_ms),
      judged_hosts, c.mean_ratio, format_duration_ms(stage_median_ms), c.share_ratio);
  if (rule == finding_rule::kMultiDim) {
    f.explanation += fmt::format(" Its data does not explain it: {}. The host itself is slow.", bytes_sentence(c));
  } else if (c.has_byte_dimension) {
    f.explanation += fmt::format(" Part of it may be its data: {}.", bytes_sentence(c));
  }
  if (c.gc_share > 0 || c.others_gc_share > 0) {
    f.explanation += fmt::format(" GC took {} of its run time against {} elsewhere.", format_percent(c.gc_share),
                                 format_percent(c.others_gc_share));
  }
  f.recommendation = fmt::format(
      "Take {} out of the pool and check it: disks, CPU throttling or steal time, network, and other workloads "
      "sharing it. spark.excludeOnFailure.enabled will not do it: it excludes hosts whose tasks fail, not slow ones. "
      "Until then, speculation runs copies of its slow tasks on other hosts.",
      host);
  f.settings = slow_host_settings(context, host);
  f.evidence = {{evidence_key::kHostMeanTaskMs, c.mean_ms, "ms"},
                {"medianHostMeanTaskMs", median_mean_ms, "ms"},
                {"hostMeanRatio", c.mean_ratio, "ratio"},
                {"durationShareRatio", c.share_ratio, "ratio"},
                {"taskDurationP50Ms", static_cast<double>(stage_median_ms), "ms"},
                {"hostSucceededTasks", static_cast<double>(c.host->tasks_succeeded), "count"},
                {"hostBytesPerTask", c.bytes_per_task, "bytes"},
                {"otherHostsBytesPerTask", c.others_bytes_per_task, "bytes"},
                {"hostGcShare", c.gc_share, "fraction"},
                {"otherHostsGcShare", c.others_gc_share, "fraction"}};
  f.thresholds = {"stage.minDurationMs", "slowHost.minHosts", "slowHost.minTasks", "slowHost.minExcessMs"};
  const bool by_mean = rule != finding_rule::kDurationShare && c.mean_ratio >= t.slow_host_mean_ratio;
  f.thresholds.push_back(by_mean ? "slowHost.meanRatio" : "slowHost.durationShareRatio");
  const double ratio = by_mean ? c.mean_ratio : c.share_ratio;
  const double ratio_threshold = by_mean ? t.slow_host_mean_ratio : t.slow_host_duration_share_ratio;
  f.confidence = std::min(context.confidence_above(ratio, ratio_threshold),
                          context.confidence_above(c.excess_ms, t.slow_host_min_excess_ms));
  // A healthy host runs its tasks at its peers' speed: the task time it spent past theirs goes,
  // and with it the stage's longest tasks (removed_work.h), not only the stage above its floor.
  const double excess_task_ms =
      static_cast<double>(c.host->tasks_succeeded) * std::max(0.0, c.mean_ms - median_mean_ms);
  f.evidence.push_back({"hostExcessTaskMs", excess_task_ms, "ms"});
  f.claim = removed_work_claim(context, {{&hc.stage, excess_task_ms}}, EstimateMethod::kModeled);
  return f;
}

void slow_host(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  for (const StageAttempt* stage : context.ran_stages()) {
    if (!context.ran_long_enough(*stage)) continue;
    std::vector<const HostStageSummary*> judged;
    for (const HostStageSummary& h : stage->hosts) {
      if (h.tasks_succeeded > 0 && static_cast<double>(h.tasks_succeeded) >= t.slow_host_min_tasks)
        judged.push_back(&h);
    }
    if (judged.empty() || static_cast<double>(judged.size()) < t.slow_host_min_hosts) continue;
    std::vector<double> means;
    for (const HostStageSummary* h : judged) {
      means.push_back(static_cast<double>(h->succeeded_task_time_ms) / static_cast<double>(h->tasks_succeeded));
    }
    const double median_mean_ms = median_of(means);
    const int64_t stage_median_ms = stage->quantile(QuantileMetric::kDurationMs).p50;
    const StageHostTotals totals = totals_of(*stage);
    for (const HostStageSummary* h : judged) {
      const HostComparison c = compare_host(*h, totals, median_mean_ms, static_cast<double>(stage_median_ms));
      const std::optional<Verdict> verdict = verdict_of(c, t);
      if (!verdict) continue;
      const HostCase hc{*stage, c, median_mean_ms, stage_median_ms, judged.size()};
      findings.push_back(verdict->time_based ? slow_time_finding(context, hc, verdict->rule)
                                             : byte_shape_finding(context, hc));
    }
  }
}

void core_locality(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  int64_t all_tasks = 0;
  for (const StageAttempt& stage : context.model().stages) {
    for (int64_t count : stage.locality_counts) all_tasks += count;
  }
  if (all_tasks == 0) return;  // no TaskStart carried a locality level
  auto count_at = [&](LocalityLevel level) {
    int64_t n = 0;
    for (const StageAttempt& stage : context.model().stages) n += stage.locality_counts[static_cast<size_t>(level)];
    return n;
  };
  const int64_t rack_local = count_at(LocalityLevel::kRackLocal);
  const int64_t any = count_at(LocalityLevel::kAny);
  const int64_t non_local = rack_local + any;
  const double share = static_cast<double>(non_local) / static_cast<double>(all_tasks);
  if (share < t.locality_min_non_local_share || static_cast<double>(non_local) < t.locality_min_non_local_tasks) return;

  const std::optional<std::string> wait_setting = context.property("spark.locality.wait");
  const double wait_ms = wait_setting ? parse_time_ms(*wait_setting).value_or(3000) : 3000;
  const std::string suggested_wait = spark_time(std::max(2 * wait_ms, 1000.0));
  const double penalty_core_ms = static_cast<double>(non_local) * t.network_fetch_penalty_ms;

  Finding f;
  f.type = finding_type::kCoreLocality;
  f.scope = Scope::kApp;
  f.id = DetectorContext::finding_id(f.type, "", "app");
  f.title = fmt::format("{} of {} tasks ran away from their data ({})", format_count(non_local),
                        format_count(all_tasks), format_percent(share));
  f.explanation = fmt::format(
      "{} tasks started RACK_LOCAL and {} at ANY locality, {} of all task launches: each read "
      "its input over the network. At about {} of extra core time per task that is {} of core "
      "time.",
      format_count(rack_local), format_count(any), format_percent(share), duration_text(t.network_fetch_penalty_ms),
      duration_text(penalty_core_ms));
  f.recommendation = fmt::format(
      "If the data is on HDFS beside the executors, let tasks wait longer for a data-local slot: raise "
      "spark.locality.wait from {} to {}, or run executors on the nodes that hold the data. If it is in an object "
      "store (S3, GCS, ADLS), no executor is local to it: this cost is inherent, and a locality wait only delays "
      "launches (0s avoids that).",
      spark_time(wait_ms), suggested_wait);
  f.settings = {context.setting("spark.locality.wait", suggested_wait)};
  f.evidence = {{"rackLocalTasks", static_cast<double>(rack_local), "count"},
                {"anyLocalityTasks", static_cast<double>(any), "count"},
                {"nonLocalTasks", static_cast<double>(non_local), "count"},
                {"tasks", static_cast<double>(all_tasks), "count"},
                {"nonLocalShare", share, "fraction"}};
  f.thresholds = {"coreLocality.minNonLocalShare", "coreLocality.minNonLocalTasks", "impact.networkFetchPenaltyMs"};
  f.confidence = std::min(context.confidence_above(share, t.locality_min_non_local_share),
                          context.confidence_above(static_cast<double>(non_local), t.locality_min_non_local_tasks));
  f.validation_caveat = "The per-task network penalty is an assumed constant (impact.networkFetchPenaltyMs).";
  f.claim.kind = WasteClaim::Kind::kResourceOnly;
  f.claim.method = EstimateMethod::kModeled;
  f.claim.raw = RawWaste{penalty_core_ms, WasteUnit::kCoreMs};
  findings.push_back(std::move(f));
}

}  // namespace

void detect_hosts(const DetectorContext& context, std::vector<Finding>& findings) {
  slow_host(context, findings);
  core_locality(context, findings);
}

}  // namespace sf::analysis
