// Redaction of secrets, applied once, when the model is built: every document, REST answer, MCP
// tool and stored result is written from the model, so none of them can show what this removed.
//
// As Spark's Utils.redact: a property whose key *or value* matches the pattern keeps its key and
// has its value replaced by kRedactedValue (a value such as sun.java.command may carry
// "--conf spark.x.password=..."). The pattern is Spark 4's default spark.redaction.regex,
// (?i)secret|password|token|access[.]?key|credential (earlier Spark's lacked "credential"; the
// History Server redacts with its own default), and also the application's own spark.redaction.regex
// when it sets one: a log whose own pattern is narrower than the default still has the default
// applied. Free text (plan descriptions, SQL text) is redacted by the application's own
// spark.sql.redaction.string.regex when it sets one, matches replaced, as Spark's SQL UI does.
//
// Patterns run on RE2 (linear time), so a hostile pattern in a log cannot stall a load. A
// pattern RE2 cannot compile (Java-only syntax such as look-around) is not applied; the
// default still is, and the note says so.
//
// Immutable after construction; safe to share between threads.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/app_model.h"

namespace re2 {
class RE2;
}

namespace sf::model {

inline constexpr std::string_view kRedactedValue = "*********(redacted)";
inline constexpr std::string_view kDefaultRedactionPattern = "(?i)secret|password|token|access[.]?key|credential";

class Redaction {
 public:
  // Spark's default pattern only.
  Redaction();
  // The default and the application's own patterns, read from its Spark properties. A pattern
  // that cannot be applied adds a line to `notes`.
  static Redaction for_application(const KeyValues& spark_properties, std::vector<std::string>& notes);
  ~Redaction();
  Redaction(Redaction&&) noexcept;
  Redaction& operator=(Redaction&&) noexcept;

  bool sensitive(std::string_view key, std::string_view value) const;
  // Replaces the values of sensitive entries in place.
  void redact(KeyValues& values) const;
  // Replaces every match of the application's string pattern, when it has one.
  void redact_text(std::string& text) const;

 private:
  // Spark's default pattern is compiled once for the process and shared (a load builds a
  // Redaction before its first event); RE2 matches from any thread.
  std::vector<std::shared_ptr<const re2::RE2>> property_patterns_;
  std::unique_ptr<re2::RE2> text_pattern_;
};

}  // namespace sf::model
