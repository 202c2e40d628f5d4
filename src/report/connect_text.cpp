#include "report/connect_text.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "common/units.h"
#include "report/economics_text.h"
#include "report/markdown_cell.h"

namespace sf::report {

namespace {

using analysis::ConnectOperationSummary;

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

// The lines under an operation's: where its time went, what it sent, why it failed, and the
// findings about its stages. `quoted`: a fragment of the client's text (code in Markdown).
struct Detail {
  std::string label;
  std::string text;
  bool quoted = false;
};

std::vector<Detail> details_of(const model::ConnectOperation& op, const ConnectOperationSummary& s) {
  std::vector<Detail> out;
  if (std::string phases = phase_words(s); !phases.empty()) out.push_back({"", std::move(phases)});
  if (std::string sent = op.statement_summary(); !sent.empty()) out.push_back({"sent", std::move(sent), true});
  if (!op.error.empty()) out.push_back({"failed", first_line(op.error), true});
  if (!s.finding_ids.empty()) {
    std::string ids;
    for (size_t i = 0; i < s.finding_ids.size() && i < 3; ++i) ids += (i ? ", " : "") + s.finding_ids[i];
    if (s.finding_ids.size() > 3) ids += fmt::format(" and {} more", s.finding_ids.size() - 3);
    out.push_back({units::format_counted(static_cast<int64_t>(s.finding_ids.size()), "finding"), std::move(ids)});
  }
  return out;
}

std::vector<const ConnectOperationSummary*> top_operations(const analysis::Analysis& analysis, size_t top) {
  auto out = costliest_operations(analysis);
  if (out.size() > top) out.resize(top);
  return out;
}

std::string sessions_line(const model::AppModel& model) {
  return fmt::format("{}, {}", units::format_counted(static_cast<int64_t>(model.connect_sessions.size()), "session"),
                     units::format_counted(static_cast<int64_t>(model.connect_operations.size()), "operation"));
}

}  // namespace

std::vector<const ConnectOperationSummary*> costliest_operations(const analysis::Analysis& analysis) {
  std::vector<const ConnectOperationSummary*> out;
  for (const auto& s : analysis.connect) out.push_back(&s);
  std::stable_sort(out.begin(), out.end(), [](const auto* a, const auto* b) { return a->cost > b->cost; });
  return out;
}

std::string connect_operation_line(const model::ConnectOperation& op, const ConnectOperationSummary& s,
                                   const std::string& currency) {
  std::string tags;
  for (const auto& t : op.session_tags) tags += (tags.empty() ? " · tags " : ", ") + t;
  return fmt::format("operation {} (session {}{}){} · {} · {} · {} task time · {}{}", op.operation_id.substr(0, 8),
                     op.session_id.substr(0, 8), op.user_id.empty() ? "" : ", user " + op.user_id, tags,
                     model::to_string(op.status), units::format_counted(s.jobs, "job"),
                     units::format_duration_ms(s.task_time_ms), format_money(s.cost, currency),
                     op.produced_rows ? " · " + units::format_counted(*op.produced_rows, "row") : "");
}

void connect_text_section(std::string& out, const model::AppModel& model, const analysis::Analysis& analysis,
                          size_t top) {
  if (model.connect_operations.empty() && model.connect_sessions.empty()) return;
  const std::string& currency = analysis.economics.cost.rate_card.currency;
  out += fmt::format("\nSpark Connect ({}; the costliest first)\n", sessions_line(model));
  for (const ConnectOperationSummary* s : top_operations(analysis, top)) {
    const model::ConnectOperation& op = model.connect_operations[s->operation_index];
    out += "  " + connect_operation_line(op, *s, currency) + "\n";
    for (const Detail& d : details_of(op, *s))
      out += "      " + (d.label.empty() ? "" : d.label + ": ") + d.text + "\n";
  }
}

std::string connect_markdown_section(const model::AppModel& model, const analysis::Analysis& analysis, size_t top) {
  if (model.connect_operations.empty() && model.connect_sessions.empty()) return "";
  const std::string& currency = analysis.economics.cost.rate_card.currency;
  std::string out = fmt::format("### Spark Connect ({}; the costliest first)\n\n", sessions_line(model));
  for (const ConnectOperationSummary* s : top_operations(analysis, top)) {
    const model::ConnectOperation& op = model.connect_operations[s->operation_index];
    out += "- " + connect_operation_line(op, *s, currency) + "\n";
    for (const Detail& d : details_of(op, *s)) {
      out += "  - " + (d.label.empty() ? "" : d.label + ": ") + (d.quoted ? markdown_code(d.text) : d.text) + "\n";
    }
  }
  return out + "\n";
}

}  // namespace sf::report
