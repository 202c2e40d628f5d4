#include "model/connect_session.h"

#include <algorithm>
#include <vector>

namespace sf::model {

std::string_view to_string(ConnectOperationStatus status) {
  switch (status) {
    case ConnectOperationStatus::kRunning: return "RUNNING";
    case ConnectOperationStatus::kFinished: return "FINISHED";
    case ConnectOperationStatus::kFailed: return "FAILED";
    case ConnectOperationStatus::kCanceled: return "CANCELED";
  }
  return "RUNNING";
}

std::optional<int64_t> ConnectOperation::duration_ms() const {
  if (!started_ms) return std::nullopt;
  for (const auto& end : {closed_ms, finished_ms, ready_ms, analyzed_ms}) {
    int64_t ms = 0;
    if (end)
      return __builtin_sub_overflow(*end, *started_ms, &ms) ? std::nullopt : std::optional(std::max<int64_t>(0, ms));
  }
  return std::nullopt;
}

namespace {

// The text of `query: "..."` in protobuf text, unescaped (\" and \\), or "" when there is none.
std::string sql_text(std::string_view statement) {
  const auto start = statement.find("query: \"");
  if (start == std::string_view::npos) return "";
  std::string out;
  for (size_t i = start + 8; i < statement.size(); ++i) {
    const char c = statement[i];
    if (c == '"') return out;
    if (c == '\\' && i + 1 < statement.size()) {
      const char next = statement[++i];
      out += next == 'n' ? ' ' : next;
      continue;
    }
    out += c;
  }
  return out;
}

// A Relation in protobuf text is `common { ... }` followed by its kind (`limit {`, `sort {`...):
// the kinds in the order they open are the plan from its root down.
std::vector<std::string> relation_kinds(std::string_view statement) {
  std::vector<std::string> kinds;
  std::vector<std::string> open;             // the blocks open at each depth
  std::vector<std::string> last_closed{""};  // the block that last closed at each depth
  size_t pos = 0;
  while (pos < statement.size()) {
    size_t end = statement.find('\n', pos);
    if (end == std::string_view::npos) end = statement.size();
    std::string_view line = statement.substr(pos, end - pos);
    pos = end + 1;
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    if (line == "}") {
      if (open.empty()) continue;
      last_closed.resize(open.size());
      last_closed[open.size() - 1] = open.back();
      open.pop_back();
      continue;
    }
    if (line.size() > 2 && line.ends_with(" {")) {
      const std::string name(line.substr(0, line.size() - 2));
      const size_t depth = open.size();
      if (last_closed.size() > depth && last_closed[depth] == "common") kinds.push_back(name);
      open.push_back(name);
      last_closed.resize(open.size() + 1);
      last_closed[open.size()] = "";
    }
  }
  return kinds;
}

}  // namespace

std::string ConnectOperation::statement_summary() const {
  if (std::string sql = sql_text(statement); !sql.empty()) return sql.size() > 200 ? sql.substr(0, 200) + "..." : sql;
  const std::vector<std::string> kinds = relation_kinds(statement);
  std::string out;
  for (size_t i = 0; i < kinds.size() && i < 8; ++i) out += (i ? " < " : "") + kinds[i];
  if (kinds.size() > 8) out += " < ...";
  return out;
}

}  // namespace sf::model
