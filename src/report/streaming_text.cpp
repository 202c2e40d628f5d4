#include "report/streaming_text.h"

#include <utility>
#include <vector>

#include <fmt/format.h>

#include "common/units.h"

namespace sf::report {

namespace {

using analysis::StreamingQuerySummary;
using analysis::TriggerBasis;
using units::format_count;
using units::format_duration_ms;

std::string rate(const std::optional<double>& rows_per_second) {
  return rows_per_second ? fmt::format("{:.0f}/s", *rows_per_second) : std::string("-");
}

std::string heading(const model::StreamingQuery& q, const StreamingQuerySummary& s) {
  std::string trigger;
  switch (s.trigger_basis) {
    case TriggerBasis::kAlignedStarts:
      trigger = fmt::format("trigger {} (from the batches' start times), {} batches over it",
                            format_duration_ms(*s.trigger_interval_ms), format_count(s.batches_over_trigger));
      break;
    case TriggerBasis::kBackToBack: trigger = "batches back to back (no interval, or every batch overran it)"; break;
    case TriggerBasis::kUnknown: trigger = "trigger unknown"; break;
  }
  return fmt::format("\"{}\" (run {}) · {} batches, {} with input · {}{}", s.label, q.run_id.substr(0, 8),
                     format_count(s.batches), format_count(s.batches_with_input), trigger,
                     q.terminated ? (q.exception ? " · failed" : " · stopped") : " · running at the log's end");
}

// The query's lines under its heading, as (label, text).
std::vector<std::pair<std::string, std::string>> lines_of(const model::StreamingQuery& q,
                                                          const StreamingQuerySummary& s) {
  std::vector<std::pair<std::string, std::string>> lines;
  lines.emplace_back("batches",
                     fmt::format("median {} · p95 {} · longest {} · {} in all", format_duration_ms(s.duration_p50_ms),
                                 format_duration_ms(s.duration_p95_ms), format_duration_ms(s.duration_max_ms),
                                 format_duration_ms(s.total_batch_ms)));
  lines.emplace_back(
      "rows", fmt::format("{} read · arriving {} · processed {} (later half: {} arriving, {} processed)",
                          format_count(s.input_rows), rate(s.input_rows_per_second), rate(s.processed_rows_per_second),
                          rate(s.recent_input_rows_per_second), rate(s.recent_processed_rows_per_second)));
  if (s.stateful) {
    lines.emplace_back(
        "state",
        fmt::format("{} rows ({}) after the last batch, {} at most · {:+.0f} rows a batch · {} removed",
                    format_count(s.state_rows_last), units::format_bytes(s.state_memory_last_bytes),
                    format_count(s.state_rows_max), s.state_rows_per_batch,
                    s.state_rows_removed ? format_count(*s.state_rows_removed) : std::string("none reported")) +
            (s.shuffle_partitions ? fmt::format(" · {} partitions", *s.shuffle_partitions) : ""));
  }
  if (s.has_watermark()) {
    lines.emplace_back("watermark", fmt::format("{} behind the last batch's start, {} at most",
                                                format_duration_ms(*s.watermark_lag_last_ms),
                                                format_duration_ms(*s.watermark_lag_max_ms)));
  }
  if (!s.phases.empty()) {
    std::string phases;
    for (const auto& p : s.phases) {
      if (!phases.empty()) phases += " · ";
      phases += fmt::format("{} {}", model::streaming_phase_name(p.phase), units::format_percent(p.share));
    }
    lines.emplace_back("time in", phases);
  }
  if (q.exception) lines.emplace_back("ended by", q.exception->substr(0, q.exception->find('\n')));
  if (q.batches_not_kept > 0) {
    lines.emplace_back("note", fmt::format("{} more batches past the model's limit are not in these figures",
                                           format_count(q.batches_not_kept)));
  }
  return lines;
}

}  // namespace

void streaming_text_section(std::string& out, const model::AppModel& model, const analysis::Analysis& analysis) {
  if (analysis.streaming.empty()) return;
  out += fmt::format("\nStreaming queries ({})\n", analysis.streaming.size());
  for (const StreamingQuerySummary& s : analysis.streaming) {
    const model::StreamingQuery& q = model.streaming_queries[s.query_index];
    out += "  " + heading(q, s) + "\n";
    if (s.batches == 0) continue;
    for (const auto& [label, text] : lines_of(q, s)) out += fmt::format("    {:<10} {}\n", label, text);
  }
}

std::string streaming_markdown_section(const model::AppModel& model, const analysis::Analysis& analysis) {
  if (analysis.streaming.empty()) return "";
  std::string out = fmt::format("### Streaming queries ({})\n\n", analysis.streaming.size());
  for (const StreamingQuerySummary& s : analysis.streaming) {
    const model::StreamingQuery& q = model.streaming_queries[s.query_index];
    out += "- " + heading(q, s) + "\n";
    if (s.batches == 0) continue;
    for (const auto& [label, text] : lines_of(q, s)) out += fmt::format("  - {}: {}\n", label, text);
  }
  return out + "\n";
}

}  // namespace sf::report
