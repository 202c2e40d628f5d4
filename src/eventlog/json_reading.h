// Small readers over simdjson On-Demand values, tolerant of the ways Spark versions write the
// same field (a number as a JSON number or as a numeric string, a missing optional object).
// Private to the eventlog layer: only the decoder (decoder.cpp, decode_*.cpp and what they share)
// includes it.
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <simdjson.h>

#include "common/text.h"

namespace sf::eventlog::json {

namespace od = simdjson::ondemand;
using simdjson::error_code;

// The key of a field as a view into the line, without unescaping: Spark's keys never hold
// escapes, and a key that does ("\u0041...") is returned empty, so it matches no known key,
// which is what an unknown key is. Valid until the next line is parsed.
inline std::string_view key_view(od::field& field) {
  const char* start = field.key().raw();
  const char* p = start;
  while (*p != '"') {  // stage 1 has validated the string, so its closing quote is there
    if (*p == '\\') return {};
    ++p;
  }
  return {start, static_cast<size_t>(p - start)};
}

// Calls f(key, value) for every field of an object, in document order. f returns an
// error_code; the first error stops the loop. Values f does not consume are skipped.
template <class F>
error_code for_each_field(od::value& value, F&& f) {
  od::object object;
  if (auto error = value.get_object().get(object)) return error;
  for (auto field_result : object) {
    od::field field;
    if (auto error = std::move(field_result).get(field)) return error;
    if (auto error = f(key_view(field), field.value())) return error;
  }
  return simdjson::SUCCESS;
}

// A fixed set of keys, looked up with a hint: Spark writes an object's keys in the same order
// every time, so the next key is almost always the one after the last match and a lookup is
// one comparison. Keys are compared raw, with simdjson's raw_json_string::unsafe_is_equal (a
// memcmp and a check for the closing quote, no unescaping): the table's keys hold no quote or
// backslash, so a key written with escapes matches nothing, which is what an unknown key is.
// The hint lives with the caller (one per object being read), so tables can be shared between
// threads.
template <size_t N>
struct KeyTable {
  std::array<std::string_view, N> keys;

  // The index of `key`, or N when it is not in the table.
  size_t find(od::raw_json_string key, size_t& hint) const {
    if (hint < N && key.unsafe_is_equal(keys[hint])) [[likely]]
      return hint++;
    for (size_t i = 0; i < N; ++i) {
      if (key.unsafe_is_equal(keys[i])) {
        hint = i + 1;
        return i;
      }
    }
    return N;
  }
};

// Calls f(index, value) for every field of an object whose key is in `table`, in document
// order; the other fields are skipped unread. f returns an error_code; the first error stops
// the loop. Takes the object itself so a document's top-level object can be read the same way.
template <size_t N, class F>
error_code for_each_known_field(od::object& object, const KeyTable<N>& table, F&& f) {
  size_t hint = 0;
  for (auto field_result : object) {
    od::field field;
    if (auto error = std::move(field_result).get(field)) return error;
    const size_t index = table.find(field.key(), hint);
    if (index < N) {
      if (auto error = f(index, field.value())) return error;
    }
  }
  return simdjson::SUCCESS;
}

template <size_t N, class F>
error_code for_each_known_field(od::value& value, const KeyTable<N>& table, F&& f) {
  od::object object;
  if (auto error = value.get_object().get(object)) return error;
  return for_each_known_field(object, table, std::forward<F>(f));
}

// Calls f(element) for every element of an array.
template <class F>
error_code for_each_element(od::value& value, F&& f) {
  od::array array;
  if (auto error = value.get_array().get(array)) return error;
  for (auto element_result : array) {
    od::value element;
    if (auto error = std::move(element_result).get(element)) return error;
    if (auto error = f(element)) return error;
  }
  return simdjson::SUCCESS;
}

// An integer written as a JSON integer, a JSON float with an integral value, or a numeric
// string ("12", as SQL metric updates are written). null reads as 0.
[[gnu::noinline]] inline error_code read_int_slow(od::value& value, int64_t& out) {
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  switch (type) {
    case od::json_type::number: {
      od::number number;
      if (auto error = value.get_number().get(number)) return error;
      if (number.is_int64()) {
        out = number.get_int64();
      } else if (number.is_uint64()) {
        out = static_cast<int64_t>(std::min<uint64_t>(number.get_uint64(), INT64_MAX));
      } else {
        double d = number.get_double();
        if (!std::isfinite(d)) return simdjson::NUMBER_ERROR;
        out = static_cast<int64_t>(std::clamp(d, -9.2e18, 9.2e18));
      }
      return simdjson::SUCCESS;
    }
    case od::json_type::string: {
      std::string_view text;
      if (auto error = value.get_string().get(text)) return error;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
      if (ec != std::errc() || end != text.data() + text.size()) return simdjson::INCORRECT_TYPE;
      return simdjson::SUCCESS;
    }
    case od::json_type::null: out = 0; return simdjson::SUCCESS;
    default: return simdjson::INCORRECT_TYPE;
  }
}

// An integer written as a JSON integer, a JSON float with an integral value, or a numeric
// string ("12", as SQL metric updates are written). null reads as 0. A failed conversion does
// not consume the value, so the common case (a plain integer) is tried first.
[[gnu::always_inline]] inline error_code read_int(od::value& value, int64_t& out) {
  auto result = value.get_int64();
  if (result.error() == simdjson::SUCCESS) [[likely]] {
    out = result.value_unsafe();
    return simdjson::SUCCESS;
  }
  return read_int_slow(value, out);
}

[[gnu::always_inline]] inline error_code read_int(od::value& value, int32_t& out) {
  int64_t wide = 0;
  if (auto error = read_int(value, wide)) return error;
  if (wide < INT32_MIN || wide > INT32_MAX) return simdjson::NUMBER_OUT_OF_RANGE;
  out = static_cast<int32_t>(wide);
  return simdjson::SUCCESS;
}

template <class T>
error_code read_optional_int(od::value& value, std::optional<T>& out) {
  bool is_null = false;
  if (auto error = value.is_null().get(is_null)) return error;
  if (is_null) {
    out.reset();
    return simdjson::SUCCESS;
  }
  T v{};
  if (auto error = read_int(value, v)) return error;
  out = v;
  return simdjson::SUCCESS;
}

inline error_code read_double(od::value& value, double& out) {
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  if (type == od::json_type::string) {
    std::string_view text;
    if (auto error = value.get_string().get(text)) return error;
    try {
      out = std::stod(std::string(text));
    } catch (...) {
      return simdjson::INCORRECT_TYPE;
    }
    return simdjson::SUCCESS;
  }
  return value.get_double().get(out);
}

inline error_code read_bool(od::value& value, bool& out) {
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  if (type == od::json_type::string) {  // "true"/"false" in a few old fields
    std::string_view text;
    if (auto error = value.get_string().get(text)) return error;
    out = text == "true";
    return simdjson::SUCCESS;
  }
  return value.get_bool().get(out);
}

// A string as a view, valid until the next line is parsed: into the line itself when the string
// has no escapes (nearly always: no copy), else into the parser's buffer, unescaped. null reads
// as "".
inline error_code read_string_view(od::value& value, std::string_view& out) {
  // The token runs from the opening quote to the next structural character: the closing quote
  // and any whitespace after it. With no backslash between the quotes the string is its bytes;
  // memchr finds a backslash (or proves there is none) many bytes at a time, which matters for
  // plan descriptions and call sites of kilobytes.
  std::string_view token = value.raw_json_token();  // peeks; does not consume
  while (token.size() > 1 &&
         (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' || token.back() == '\t')) {
    token.remove_suffix(1);
  }
  if (token.size() >= 2 && token.front() == '"' && token.back() == '"') {
    const std::string_view body = token.substr(1, token.size() - 2);
    if (std::memchr(body.data(), '\\', body.size()) == nullptr) {
      od::raw_json_string raw;
      if (auto error = value.get_raw_json_string().get(raw)) return error;
      out = body;
      return simdjson::SUCCESS;
    }
  }
  bool is_null = false;
  if (auto error = value.is_null().get(is_null)) return error;
  if (is_null) {
    out = {};
    return simdjson::SUCCESS;
  }
  return value.get_string().get(out);
}

// Strings kept longer than the line are cut at `max_bytes` (text::cut_text): the decoder's
// kMaxNameBytes or kMaxTextBytes (events.h), whichever the field is.
inline void assign_cut(std::string& out, std::string_view text, size_t max_bytes) {
  if (text.size() > max_bytes) [[unlikely]] {
    out = text::cut_text(text, max_bytes);
  } else {
    out.assign(text);
  }
}

inline error_code read_string(od::value& value, std::string& out, size_t max_bytes) {
  std::string_view view;
  if (auto error = read_string_view(value, view)) return error;
  assign_cut(out, view, max_bytes);
  return simdjson::SUCCESS;
}

// The cut copies of over-long strings read as views (below): they live until clear(), which the
// decoder calls before each line, as long as the views into the line they stand for.
class CutStrings {
 public:
  std::string_view keep(std::string_view text, size_t max_bytes) {
    kept_.push_back(text::cut_text(text, max_bytes));
    return kept_.back();
  }
  void clear() {
    if (!kept_.empty()) kept_.clear();
  }

 private:
  std::deque<std::string> kept_;  // a deque: elements never move, so views into them hold
};

// A string as a view (see above) of at most `max_bytes`, and a mark when it was cut.
inline error_code read_string_view(od::value& value, std::string_view& out, size_t max_bytes, CutStrings& cut) {
  if (auto error = read_string_view(value, out)) return error;
  if (out.size() > max_bytes) [[unlikely]]
    out = cut.keep(out, max_bytes);
  return simdjson::SUCCESS;
}

inline error_code read_optional_string(od::value& value, std::optional<std::string>& out, size_t max_bytes) {
  bool is_null = false;
  if (auto error = value.is_null().get(is_null)) return error;
  if (is_null) {
    out.reset();
    return simdjson::SUCCESS;
  }
  std::string text;
  if (auto error = read_string(value, text, max_bytes)) return error;
  out = std::move(text);
  return simdjson::SUCCESS;
}

// Any value as text, cut at `max_bytes`: strings unescaped, numbers and booleans as written,
// arrays and objects as their raw JSON.
inline error_code read_as_text(od::value& value, std::string& out, size_t max_bytes) {
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  switch (type) {
    case od::json_type::string: return read_string(value, out, max_bytes);
    case od::json_type::number: {
      std::string_view raw = value.raw_json_token();
      while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t' || raw.back() == '\r' || raw.back() == '\n')) {
        raw.remove_suffix(1);
      }
      assign_cut(out, raw, max_bytes);
      return simdjson::SUCCESS;
    }
    case od::json_type::boolean: {
      bool b = false;
      if (auto error = value.get_bool().get(b)) return error;
      out = b ? "true" : "false";
      return simdjson::SUCCESS;
    }
    case od::json_type::null: out.clear(); return simdjson::SUCCESS;
    case od::json_type::array: {
      od::array array;
      if (auto error = value.get_array().get(array)) return error;
      std::string_view raw;
      if (auto error = array.raw_json().get(raw)) return error;
      assign_cut(out, raw, max_bytes);
      return simdjson::SUCCESS;
    }
    case od::json_type::object: {
      od::object object;
      if (auto error = value.get_object().get(object)) return error;
      std::string_view raw;
      if (auto error = object.raw_json().get(raw)) return error;
      assign_cut(out, raw, max_bytes);
      return simdjson::SUCCESS;
    }
  }
  return simdjson::INCORRECT_TYPE;
}

// An object of string (or scalar) values, sorted by key; keys cut at `max_key_bytes` and values
// at `max_value_bytes`.
inline error_code read_key_values(od::value& value, std::vector<std::pair<std::string, std::string>>& out,
                                  size_t max_key_bytes, size_t max_value_bytes) {
  out.clear();
  bool is_null = false;
  if (auto error = value.is_null().get(is_null)) return error;
  if (is_null) return simdjson::SUCCESS;
  auto error = for_each_field(value, [&](std::string_view key, od::value& v) -> error_code {
    std::string text;
    if (auto e = read_as_text(v, text, max_value_bytes)) return e;
    std::string name;
    assign_cut(name, key, max_key_bytes);
    out.emplace_back(std::move(name), std::move(text));
    return simdjson::SUCCESS;
  });
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return error;
}

inline error_code read_int_array(od::value& value, std::vector<int64_t>& out) {
  out.clear();
  return for_each_element(value, [&](od::value& element) -> error_code {
    int64_t v = 0;
    if (auto error = read_int(element, v)) return error;
    out.push_back(v);
    return simdjson::SUCCESS;
  });
}

}  // namespace sf::eventlog::json
