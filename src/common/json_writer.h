// A streaming JSON writer: bytes go out as a document is walked, with no tree in between.
// The program's documents (analysis, comparison, plan diff, timeline, verdict, the History Server
// REST answers) go through it, so their layout is one policy: `indent` -1 writes one line, n >= 0
// writes n spaces per level with "key": value, [] and {} for empty containers; integers exactly; a
// double in its shortest round-trip form (NaN and infinities as null); strings with invalid UTF-8
// replaced by U+FFFD.
// These are the bytes nlohmann::json::dump(indent, ' ', false, replace) gives for the same values.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace sf {

class JsonWriter {
 public:
  // Where a document too large to hold goes as it is written (a command's standard output).
  using Drain = std::function<void(std::string_view text)>;
  // The pieces `drain` is handed are at least this long, but for the last.
  static constexpr size_t kDrainBytes = 64 * 1024;

  // Appends to `out`, which must outlive the writer. `out` holds the text once the top-level value
  // is complete (or the writer is gone); until then it may be longer, grown ahead of the text.
  // With `drain`, whenever an object or an array ends with the text past kDrainBytes, the text is
  // handed to `drain` and written over: the caller hands it what is left when the document is done.
  explicit JsonWriter(std::string& out, int indent = -1, Drain drain = {});
  ~JsonWriter();
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  // The name of the next member of the object being written.
  void key(std::string_view name);

  void null();
  void boolean(bool v);
  void integer(int64_t v);
  void unsigned_integer(uint64_t v);
  void number(double v);
  void string(std::string_view v);
  // An already-serialized JSON value (from another writer or a cache), written as it is.
  void raw(std::string_view json);

  // Any value the documents hold: bool, integers, doubles, strings, std::optional (null when
  // empty), std::vector (an array), nullptr.
  template <typename T>
  void value(const T& v);

  template <typename T>
  void field(std::string_view name, const T& v) {
    key(name);
    value(v);
  }
  template <typename Body>
  void object(Body&& body) {
    begin_object();
    body();
    end_object();
  }
  template <typename Body>
  void array(Body&& body) {
    begin_array();
    body();
    end_array();
  }
  template <typename Body>
  void object_field(std::string_view name, Body&& body) {
    key(name);
    object(std::forward<Body>(body));
  }
  template <typename Body>
  void array_field(std::string_view name, Body&& body) {
    key(name);
    array(std::forward<Body>(body));
  }

  class Backend;

 private:
  void drain_if_due();

  std::unique_ptr<Backend> backend_;
  std::string& out_;
  Drain drain_;
};

namespace json_writer_detail {
template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<std::optional<T>> : std::true_type {};
template <typename T>
struct is_vector : std::false_type {};
template <typename T, typename A>
struct is_vector<std::vector<T, A>> : std::true_type {};
template <typename T>
inline constexpr bool always_false = false;
}  // namespace json_writer_detail

template <typename T>
void JsonWriter::value(const T& v) {
  using namespace json_writer_detail;
  if constexpr (std::is_same_v<T, bool>) {
    boolean(v);
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    integer(v);
  } else if constexpr (std::is_integral_v<T>) {
    unsigned_integer(v);
  } else if constexpr (std::is_floating_point_v<T>) {
    number(v);
  } else if constexpr (std::is_same_v<T, std::nullptr_t>) {
    null();
  } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
    string(v);
  } else if constexpr (is_optional<T>::value) {
    if (v) {
      value(*v);
    } else {
      null();
    }
  } else if constexpr (is_vector<T>::value) {
    begin_array();
    for (const auto& item : v) value(item);
    end_array();
  } else {
    static_assert(always_false<T>, "JsonWriter::value: no JSON form for this type");
  }
}

}  // namespace sf
