#include "model/redaction.h"

#include <re2/re2.h>

namespace sf::model {

namespace {

// A pattern over a few kilobytes is no redaction pattern; RE2 would also refuse most of them.
constexpr size_t kMaxPatternBytes = 4096;

std::unique_ptr<re2::RE2> compile(std::string_view pattern, std::string_view setting, std::vector<std::string>* notes) {
  auto refuse = [&](std::string_view why) {
    if (notes != nullptr) {
      notes->push_back(std::string(setting) + " is not applied (" + std::string(why) +
                       "); Spark's default redaction pattern still is");
    }
    return std::unique_ptr<re2::RE2>();
  };
  if (pattern.size() > kMaxPatternBytes) return refuse("longer than 4096 bytes");
  re2::RE2::Options options;
  options.set_log_errors(false);
  auto compiled = std::make_unique<re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!compiled->ok()) return refuse("not a pattern RE2 can run: " + compiled->error());
  return compiled;
}

bool matches(const re2::RE2& pattern, std::string_view text) {
  return re2::RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), pattern);
}

}  // namespace

Redaction::Redaction() {
  static const std::shared_ptr<const re2::RE2> kDefault = compile(kDefaultRedactionPattern, "default", nullptr);
  property_patterns_.push_back(kDefault);
}

Redaction Redaction::for_application(const KeyValues& spark_properties, std::vector<std::string>& notes) {
  Redaction redaction;
  for (const auto& [key, value] : spark_properties) {
    if (key == "spark.redaction.regex" && value != kDefaultRedactionPattern) {
      if (auto own = compile(value, key, &notes)) redaction.property_patterns_.push_back(std::move(own));
    } else if (key == "spark.sql.redaction.string.regex" && !value.empty()) {
      redaction.text_pattern_ = compile(value, key, &notes);
    }
  }
  return redaction;
}

Redaction::~Redaction() = default;
Redaction::Redaction(Redaction&&) noexcept = default;
Redaction& Redaction::operator=(Redaction&&) noexcept = default;

bool Redaction::sensitive(std::string_view key, std::string_view value) const {
  for (const auto& pattern : property_patterns_) {
    if (matches(*pattern, key) || matches(*pattern, value)) return true;
  }
  return false;
}

void Redaction::redact(KeyValues& values) const {
  for (auto& [key, value] : values) {
    if (sensitive(key, value)) value = kRedactedValue;
  }
}

void Redaction::redact_text(std::string& text) const {
  if (text_pattern_ == nullptr || text.empty()) return;
  re2::RE2::GlobalReplace(&text, *text_pattern_, re2::StringPiece(kRedactedValue.data(), kRedactedValue.size()));
}

}  // namespace sf::model
