#include "compare/normalize.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>

#include "analysis/detectors/plan_text.h"

namespace sf::compare {

namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// Digits at text[at, at + n), bounded by non-digits on both sides.
bool digits_at(std::string_view text, size_t at, size_t n) {
  if (at + n > text.size()) return false;
  for (size_t i = at; i < at + n; ++i) {
    if (!is_digit(text[i])) return false;
  }
  return true;
}

int two_digits(std::string_view text, size_t at) { return (text[at] - '0') * 10 + (text[at + 1] - '0'); }

// A calendar date yyyy-mm-dd at `at` (years 1900-2099); its length, or 0.
size_t date_length(std::string_view text, size_t at) {
  if (!digits_at(text, at, 4) || at + 10 > text.size() || text[at + 4] != '-' || text[at + 7] != '-') return 0;
  if (!digits_at(text, at + 5, 2) || !digits_at(text, at + 8, 2)) return 0;
  const int century = two_digits(text, at);
  const int month = two_digits(text, at + 5), day = two_digits(text, at + 8);
  if ((century != 19 && century != 20) || month < 1 || month > 12 || day < 1 || day > 31) return 0;
  if (at + 10 < text.size() && is_digit(text[at + 10])) return 0;
  size_t end = at + 10;
  // An optional time of day: [T ]hh:mm[:ss[.fraction]][Z]
  if (end + 6 <= text.size() && (text[end] == 'T' || text[end] == ' ') && digits_at(text, end + 1, 2) &&
      text[end + 3] == ':' && digits_at(text, end + 4, 2)) {
    end += 6;
    if (end + 3 <= text.size() && text[end] == ':' && digits_at(text, end + 1, 2)) {
      end += 3;
      if (end + 1 < text.size() && text[end] == '.' && is_digit(text[end + 1])) {
        ++end;
        while (end < text.size() && is_digit(text[end])) ++end;
      }
    }
    if (end < text.size() && text[end] == 'Z') ++end;
  }
  return end - at;
}

// A run of digits that reads as an epoch timestamp in milliseconds (13 digits) or microseconds
// (16 digits) between 2001 and 2033: the run's length, or 0.
size_t epoch_length(std::string_view text, size_t at) {
  size_t end = at;
  while (end < text.size() && is_digit(text[end])) ++end;
  const size_t n = end - at;
  if ((n != 13 && n != 16) || text[at] != '1') return 0;
  return n;
}

// The index just past the bracket closing the one at `open`, or npos when unbalanced.
size_t matching_close(std::string_view text, size_t open) {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    if (text[i] == '(' || text[i] == '[') ++depth;
    if (text[i] == ')' || text[i] == ']') {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

// The end of an unparenthesized INSET list: the first bracket closing something opened before
// it, or the end of the text.
size_t unbracketed_list_end(std::string_view text, size_t from) {
  int depth = 0;
  for (size_t i = from; i < text.size(); ++i) {
    if (text[i] == '(' || text[i] == '[') ++depth;
    if (text[i] == ')' || text[i] == ']') {
      if (depth == 0) return i;
      --depth;
    }
  }
  return text.size();
}

bool word_starts_at(std::string_view text, size_t at, std::string_view word) {
  if (text.substr(at, word.size()) != word) return false;
  return at == 0 || !is_alnum(text[at - 1]);
}

bool looks_random(std::string_view segment) {
  if (segment.size() < 6 || segment.size() > 8) return false;
  bool upper = false, lower = false, digit = false;
  for (char c : segment) {
    if (!is_alnum(c)) return false;
    upper |= std::isupper(static_cast<unsigned char>(c)) != 0;
    lower |= std::islower(static_cast<unsigned char>(c)) != 0;
    digit |= is_digit(c);
  }
  return (upper && lower) || ((upper || lower) && digit);
}

// A UUID (8-4-4-4-12 hex digits) at `at`; its length (36) or 0.
size_t uuid_length(std::string_view text, size_t at) {
  static constexpr size_t kGroups[] = {8, 4, 4, 4, 12};
  size_t i = at;
  for (size_t g = 0; g < 5; ++g) {
    for (size_t k = 0; k < kGroups[g]; ++k, ++i) {
      if (i >= text.size() || !is_hex(text[i])) return 0;
    }
    if (g < 4) {
      if (i >= text.size() || text[i] != '-') return 0;
      ++i;
    }
  }
  if (i < text.size() && is_hex(text[i])) return 0;
  return i - at;
}

}  // namespace

Result<ComparisonNormalizer> ComparisonNormalizer::with_patterns(const std::vector<std::string>& patterns) {
  ComparisonNormalizer normalizer;
  for (const auto& text : patterns) {
    auto invalid = [&](const std::string& why) {
      return fail(Status::InvalidArgument("invalid --normalize-path pattern '" + text.substr(0, 200) + "': " + why));
    };
    if (text.size() > kMaxNormalizePatternBytes) return invalid("longer than 4096 bytes");
    re2::RE2::Options options;
    options.set_log_errors(false);
    auto compiled = std::make_shared<const re2::RE2>(re2::StringPiece(text.data(), text.size()), options);
    if (!compiled->ok()) return invalid(compiled->error());
    normalizer.patterns_.push_back(std::move(compiled));
    normalizer.pattern_texts_.push_back(text);
  }
  return normalizer;
}

std::string ComparisonNormalizer::normalize(std::string_view text) const {
  std::string out(text);
  const re2::StringPiece token(kUserPatternToken.data(), kUserPatternToken.size());
  for (const auto& pattern : patterns_) re2::RE2::GlobalReplace(&out, *pattern, token);
  out = analysis::normalized_plan_text(out);
  out = replace_staging_directories(out);
  out = replace_dates(out);
  out = replace_in_lists(out);
  out = replace_codegen_ids(out);
  return replace_file_index_counts(out);
}

std::string replace_staging_directories(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (const size_t n = uuid_length(text, i); n > 0 && (i == 0 || !is_hex(text[i - 1]))) {
      out += kStagingDirToken;
      i += n;
      continue;
    }
    if (text[i] == '/') {
      size_t end = i + 1;
      while (end < text.size() && is_alnum(text[end])) ++end;
      const bool segment_ends = end == text.size() || !(text[end] == '-' || text[end] == '_' || text[end] == '.');
      if (segment_ends && looks_random(text.substr(i + 1, end - i - 1))) {
        out += '/';
        out += kStagingDirToken;
        i = end;
        continue;
      }
    }
    out += text[i++];
  }
  return out;
}

std::string replace_dates(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const bool boundary = i == 0 || !is_digit(text[i - 1]);
    if (boundary && is_digit(text[i])) {
      size_t n = date_length(text, i);
      if (n == 0) n = epoch_length(text, i);
      if (n > 0) {
        out += kDateToken;
        i += n;
        continue;
      }
      // Skip the whole digit run so a date is never found inside a longer number.
      while (i < text.size() && is_digit(text[i])) out += text[i++];
      continue;
    }
    out += text[i++];
  }
  return out;
}

std::string replace_in_lists(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    // "x#1 IN (1,2,3)"
    if (word_starts_at(text, i, "IN (")) {
      const size_t close = matching_close(text, i + 3);
      if (close != std::string_view::npos) {
        out += "IN (";
        out += kListToken;
        out += ')';
        i = close;
        continue;
      }
    }
    // "x#1 INSET 1, 2, 3" or "INSET (1, 2, 3)"
    if (word_starts_at(text, i, "INSET ")) {
      size_t from = i + 6;
      size_t end = text.size();
      if (from < text.size() && text[from] == '(') {
        end = matching_close(text, from);
        if (end == std::string_view::npos) end = text.size();
      } else {
        end = unbracketed_list_end(text, from);
      }
      out += "INSET ";
      out += kListToken;
      i = end;
      continue;
    }
    // A pushed-down filter: "In(col, [1,2,3])"
    if (word_starts_at(text, i, "In(")) {
      const size_t comma = text.find(", [", i + 3);
      const size_t close_paren = text.find(')', i + 3);
      if (comma != std::string_view::npos && comma < close_paren) {
        const size_t close = matching_close(text, comma + 2);
        if (close != std::string_view::npos) {
          out += text.substr(i, comma + 2 - i);
          out += '[';
          out += kListToken;
          out += ']';
          i = close;
          continue;
        }
      }
    }
    out += text[i++];
  }
  return out;
}

std::string replace_file_index_counts(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '(' && i + 1 < text.size() && is_digit(text[i + 1])) {
      size_t end = i + 1;
      while (end < text.size() && is_digit(text[end])) ++end;
      if (text.substr(end, 6) == " paths" || text.substr(end, 6) == " path)") {
        out += "(#";
        i = end;
        continue;
      }
    }
    out += text[i++];
  }
  return out;
}

std::string replace_codegen_ids(std::string_view text) {
  constexpr std::string_view kCodegen = "WholeStageCodegen (";
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text.substr(i).starts_with(kCodegen)) {
      size_t end = i + kCodegen.size();
      while (end < text.size() && is_digit(text[end])) ++end;
      if (end > i + kCodegen.size() && end < text.size() && text[end] == ')') {
        out += kCodegen;
        out += '#';
        i = end;
        continue;
      }
    }
    out += text[i++];
  }
  return out;
}

std::string normalize_stage_name(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (size_t i = 0; i < name.size();) {
    if (!is_alnum(name[i])) {
      out += name[i++];
      continue;
    }
    size_t end = i;
    while (end < name.size() && is_alnum(name[end])) ++end;
    const std::string_view word = name.substr(i, end - i);
    const bool hex_id = word.size() >= 8 && std::all_of(word.begin(), word.end(), is_hex) &&
                        std::any_of(word.begin(), word.end(), is_digit);
    if (hex_id) {
      out += '#';
    } else {
      for (size_t k = 0; k < word.size();) {
        if (is_digit(word[k])) {
          out += '#';
          while (k < word.size() && is_digit(word[k])) ++k;
        } else {
          out += static_cast<char>(std::tolower(static_cast<unsigned char>(word[k++])));
        }
      }
    }
    i = end;
  }
  return out;
}

std::vector<std::string> text_tokens(std::string_view text) {
  std::vector<std::string> tokens;
  for (size_t i = 0; i < text.size();) {
    if (!is_alnum(text[i])) {
      ++i;
      continue;
    }
    std::string token;
    while (i < text.size() && is_alnum(text[i])) {
      token += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i++])));
    }
    tokens.push_back(std::move(token));
  }
  std::sort(tokens.begin(), tokens.end());
  tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
  return tokens;
}

}  // namespace sf::compare
