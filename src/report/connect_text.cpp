#include "report/connect_text.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "common/units.h"
#include "report/economics_text.h"

namespace sf::report {

namespace {

using analysis::ConnectOperationSummary;

// The operations, costliest first (then by start: the model's order).
std::vector<const ConnectOperationSummary*> costliest(const analysis::Analysis& analysis, size_t top) {
  std::vector<const ConnectOperationSummary*> out;
  for (const auto& s : analysis.connect) out.push_back(&s);
  std::stable_sort(out.begin(), out.end(), [](const auto* a, const auto* b) { return a->cost > b->cost; });
  if (out.size() > top) out.resize(top);
  return out;
}

std::string first_line(const std::string& text, size_t most = 100) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > most) line = line.substr(0, most) + "...";
  return line;
}

std::string phase_words(const ConnectOperationSummary& s) {
  std::string words;
  auto add = [&](const char* name, const std::optional<int64_t>& ms) {
    if (!ms) return;
    words += fmt::format("{}{} {}", words.empty() ? "" : " · ", name, units::format_duration_ms(*ms));
  };
  add("analysis", s.analysis_ms);
  add("planning", s.planning_ms);
  add("execution", s.execution_ms);
  add("results", s.result_ms);
  return words;
}

std::string operation_line(const model::ConnectOperation& op, const ConnectOperationSummary& s,
                           const std::string& currency) {
  std::string tags;
  for (const auto& t : op.session_tags) tags += (tags.empty() ? " · tags " : ", ") + t;
  return fmt::format("operation {} (session {}{}){} · {} · {} · {} task time · {}{}", op.operation_id.substr(0, 8),
                     op.session_id.substr(0, 8), op.user_id.empty() ? "" : ", user " + op.user_id, tags,
                     model::to_string(op.status), units::format_counted(s.jobs, "job"),
                     units::format_duration_ms(s.task_time_ms), format_money(s.cost, currency),
                     op.produced_rows ? " · " + units::format_counted(*op.produced_rows, "row") : "");
}

std::string sessions_line(const model::AppModel& model) {
  return fmt::format("{}, {}", units::format_counted(static_cast<int64_t>(model.connect_sessions.size()), "session"),
                     units::format_counted(static_cast<int64_t>(model.connect_operations.size()), "operation"));
}

}  // namespace

void connect_text_section(std::string& out, const model::AppModel& model, const analysis::Analysis& analysis,
                          size_t top) {
  if (model.connect_operations.empty() && model.connect_sessions.empty()) return;
  const std::string& currency = analysis.economics.cost.rate_card.currency;
  out += fmt::format("\nSpark Connect ({}; the costliest first)\n", sessions_line(model));
  for (const ConnectOperationSummary* s : costliest(analysis, top)) {
    const model::ConnectOperation& op = model.connect_operations[s->operation_index];
    out += "  " + operation_line(op, *s, currency) + "\n";
    if (const std::string phases = phase_words(*s); !phases.empty()) out += "      " + phases + "\n";
    if (const std::string sent = op.statement_summary(); !sent.empty()) out += "      sent: " + sent + "\n";
    if (!op.error.empty()) out += "      failed: " + first_line(op.error) + "\n";
  }
}

std::string connect_markdown_section(const model::AppModel& model, const analysis::Analysis& analysis, size_t top) {
  if (model.connect_operations.empty() && model.connect_sessions.empty()) return "";
  const std::string& currency = analysis.economics.cost.rate_card.currency;
  std::string out = fmt::format("### Spark Connect ({}; the costliest first)\n\n", sessions_line(model));
  for (const ConnectOperationSummary* s : costliest(analysis, top)) {
    const model::ConnectOperation& op = model.connect_operations[s->operation_index];
    out += "- " + operation_line(op, *s, currency) + "\n";
    if (const std::string phases = phase_words(*s); !phases.empty()) out += "  - " + phases + "\n";
    if (const std::string sent = op.statement_summary(); !sent.empty()) out += "  - sent: `" + sent + "`\n";
    if (!op.error.empty()) out += "  - failed: `" + first_line(op.error) + "`\n";
  }
  return out + "\n";
}

}  // namespace sf::report
