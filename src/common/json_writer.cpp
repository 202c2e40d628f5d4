#include "common/json_writer.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <rapidjson/prettywriter.h>
#include <rapidjson/writer.h>
#include <nlohmann/json.hpp>

namespace sf {

namespace {

// RapidJSON's output-stream concept over a std::string the caller owns. The string is grown
// ahead of the text, so RapidJSON's reserve-then-store calls (PutReserve, PutUnsafe below) store
// bytes with no capacity check each; Flush(), which RapidJSON calls when the top-level value is
// complete, cuts the string back to the text.
class StringSink {
 public:
  using Ch = char;
  explicit StringSink(std::string& out) : out_(&out), used_(out.size()) {}

  void Put(char c) {
    if (used_ == out_->size()) grow(1);
    out_->data()[used_++] = c;
  }
  void reserve(size_t count) {
    if (out_->size() - used_ < count) grow(count);
  }
  void put_unsafe(char c) { out_->data()[used_++] = c; }
  void write_unsafe(const char* bytes, size_t count) {
    if (count == 0) return;  // `bytes` may be null then, which memcpy must not be given
    std::memcpy(out_->data() + used_, bytes, count);
    used_ += count;
  }
  void fill_unsafe(char c, size_t count) {
    std::memset(out_->data() + used_, c, count);
    used_ += count;
  }
  void Flush() {
    out_->resize(used_);
    ahead_ = false;
  }
  // Cuts the string back only when it was grown since the last Flush(): once the document is
  // complete, the caller may append to the string (a final newline) before the writer is gone.
  void flush_if_ahead() {
    if (ahead_) Flush();
  }

  size_t size() const { return used_; }
  // The owner handed the text on: it is written again from the start, over what was there.
  void restart() {
    used_ = 0;
    ahead_ = true;
  }

 private:
  void grow(size_t count) {
    out_->resize(std::max({used_ + count, 2 * out_->size(), size_t{4096}}));
    ahead_ = true;
  }

  std::string* out_;
  size_t used_;
  bool ahead_ = false;  // the string is longer than the text
};

// Where in [begin, end) the first byte a string cannot be copied with is: a quote, a backslash, a
// control character, or a byte at or past 0x80 (RapidJSON and nlohmann write those differently);
// end when there is none. Eight bytes at a time: every key and string of a document passes here.
// Indices, not pointers, walk the bytes: an empty string_view may hold a null pointer, which no
// offset may be added to.
const char* first_not_verbatim(const char* begin, const char* end) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  auto any_zero_byte = [](uint64_t word) { return ((word - kOnes) & ~word & kHigh) != 0; };
  const auto size = static_cast<size_t>(end - begin);
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t word;
    std::memcpy(&word, begin + i, 8);
    // A byte under 0x20 borrows when 0x20 is taken from it; one at or past 0x80 has its top bit.
    const bool control_or_high = ((word | (word - 0x20 * kOnes)) & kHigh) != 0;
    if (control_or_high || any_zero_byte(word ^ ('"' * kOnes)) || any_zero_byte(word ^ ('\\' * kOnes))) break;
  }
  for (; i < size; ++i) {
    const auto c = static_cast<unsigned char>(begin[i]);
    if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') return begin + i;
  }
  return end;
}

// RapidJSON writes a control character other than \b \t \n \f \r as \u00XX with upper-case hex
// and copies bytes it is not asked to validate. nlohmann writes lower-case hex and replaces
// invalid UTF-8. A string that needs either goes through nlohmann, so the bytes stay those of
// the documents' first writer. True when, from the first byte not copied as it is, there are
// only the escapes both write alike (a quote, a backslash, \b \t \n \f \r) and printable ASCII.
bool escaped_alike(const char* begin, const char* end) {
  for (const char* p = begin; p < end; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (c >= 0x80 || (c < 0x20 && c != '\b' && c != '\t' && c != '\n' && c != '\f' && c != '\r')) return false;
  }
  return true;
}

std::string escaped_by_nlohmann(std::string_view s) {
  return nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

}  // namespace sf

// RapidJSON's hooks for a stream that can reserve: bytes are stored, runs copied.
namespace rapidjson {
template <>
inline void PutReserve(sf::StringSink& stream, size_t count) {
  stream.reserve(count);
}
template <>
inline void PutUnsafe(sf::StringSink& stream, char c) {
  stream.put_unsafe(c);
}
template <>
inline void PutN(sf::StringSink& stream, char c, size_t n) {
  stream.reserve(n);
  stream.fill_unsafe(c, n);
}
// The run of a string up to its next byte to escape is copied at once (the writer reserved room
// for the whole string, escaped, before it calls this); the writer escapes that byte and asks
// again. RapidJSON does the same for its own StringBuffer with SSE.
template <>
inline bool Writer<sf::StringSink>::ScanWriteUnescapedString(StringStream& is, size_t length) {
  const char* end = is.head_ + length;
  const char* stop = sf::first_not_verbatim(is.src_, end);
  os_->write_unsafe(is.src_, static_cast<size_t>(stop - is.src_));
  is.src_ = stop;
  return stop != end;
}
}  // namespace rapidjson

namespace sf {

class JsonWriter::Backend {
 public:
  virtual ~Backend() = default;
  virtual void begin_object() = 0;
  virtual void end_object() = 0;
  virtual void begin_array() = 0;
  virtual void end_array() = 0;
  virtual void string(std::string_view v) = 0;
  // A string with no byte to escape: its quotes and bytes.
  virtual void verbatim_string(std::string_view v) = 0;
  virtual void null() = 0;
  virtual void boolean(bool v) = 0;
  virtual void integer(int64_t v) = 0;
  virtual void unsigned_integer(uint64_t v) = 0;
  virtual void raw(std::string_view json, rapidjson::Type type) = 0;
  // The text's length in the string, which may be grown past it until flush() cuts it back.
  virtual size_t size() const = 0;
  virtual void flush() = 0;
  virtual void restart() = 0;
};

namespace {

// RapidJSON's writer (compact or pretty) with one more call: a string known to need no escape,
// put between its quotes in one copy.
template <typename Base>
class SinkWriter final : public Base {
 public:
  explicit SinkWriter(StringSink& sink) : Base(sink) {}

  void VerbatimString(std::string_view v) {
    if constexpr (std::is_same_v<Base, rapidjson::Writer<StringSink>>) {
      this->Prefix(rapidjson::kStringType);
    } else {
      this->PrettyPrefix(rapidjson::kStringType);
    }
    StringSink& sink = *this->os_;
    sink.reserve(v.size() + 2);
    sink.put_unsafe('"');
    sink.write_unsafe(v.data(), v.size());
    sink.put_unsafe('"');
    this->EndValue(true);
  }
};

template <typename Writer>
class RapidBackend final : public JsonWriter::Backend {
 public:
  explicit RapidBackend(std::string& out) : sink_(out), writer_(sink_) {}
  Writer& writer() { return writer_; }

  void begin_object() override { writer_.StartObject(); }
  void end_object() override { writer_.EndObject(); }
  void begin_array() override { writer_.StartArray(); }
  void end_array() override { writer_.EndArray(); }
  void string(std::string_view v) override { writer_.String(v.data(), static_cast<rapidjson::SizeType>(v.size())); }
  void verbatim_string(std::string_view v) override { writer_.VerbatimString(v); }
  void null() override { writer_.Null(); }
  void boolean(bool v) override { writer_.Bool(v); }
  void integer(int64_t v) override { writer_.Int64(v); }
  void unsigned_integer(uint64_t v) override { writer_.Uint64(v); }
  void raw(std::string_view json, rapidjson::Type type) override { writer_.RawValue(json.data(), json.size(), type); }
  size_t size() const override { return sink_.size(); }
  void flush() override { sink_.flush_if_ahead(); }
  void restart() override { sink_.restart(); }

 private:
  StringSink sink_;
  Writer writer_;
};

using CompactBackend = RapidBackend<SinkWriter<rapidjson::Writer<StringSink>>>;
using PrettyBackend = RapidBackend<SinkWriter<rapidjson::PrettyWriter<StringSink>>>;

}  // namespace

JsonWriter::JsonWriter(std::string& out, int indent, Drain drain) : out_(out), drain_(std::move(drain)) {
  if (indent < 0) {
    backend_ = std::make_unique<CompactBackend>(out);
  } else {
    auto pretty = std::make_unique<PrettyBackend>(out);
    pretty->writer().SetIndent(' ', static_cast<unsigned>(indent));
    backend_ = std::move(pretty);
  }
}

// A document left unfinished (an exception on the way) still leaves only its text in `out`.
JsonWriter::~JsonWriter() { backend_->flush(); }

void JsonWriter::begin_object() { backend_->begin_object(); }
void JsonWriter::end_object() {
  backend_->end_object();
  drain_if_due();
}
void JsonWriter::begin_array() { backend_->begin_array(); }
void JsonWriter::end_array() {
  backend_->end_array();
  drain_if_due();
}

// At the end of a container rather than on every byte: the check stays off the writer's hot path.
void JsonWriter::drain_if_due() {
  if (drain_ && backend_->size() >= kDrainBytes) {
    backend_->flush();
    drain_(out_);
    backend_->restart();
  }
}
void JsonWriter::key(std::string_view name) { string(name); }
void JsonWriter::null() { backend_->null(); }
void JsonWriter::boolean(bool v) { backend_->boolean(v); }
void JsonWriter::integer(int64_t v) { backend_->integer(v); }
void JsonWriter::unsigned_integer(uint64_t v) { backend_->unsigned_integer(v); }

// Most strings are copied between their quotes; one with escapes both writers write alike goes
// through RapidJSON; the rest (control characters, bytes past ASCII) through nlohmann, so the
// bytes stay those of the documents' first writer.
void JsonWriter::string(std::string_view v) {
  const char* end = v.data() + v.size();  // null + 0 for an empty view of nothing: allowed
  const char* first = first_not_verbatim(v.data(), end);
  if (first == end) {
    backend_->verbatim_string(v);
  } else if (escaped_alike(first, end)) {
    backend_->string(v);
  } else {
    backend_->raw(escaped_by_nlohmann(v), rapidjson::kStringType);
  }
}

// RapidJSON prints 1e16 as 10000000000000000.0 and 5e-5 as 0.00005 where nlohmann prints 1e+16
// and 5e-05; nlohmann's form is the one the documents have always had.
void JsonWriter::number(double v) { backend_->raw(nlohmann::json(v).dump(), rapidjson::kNumberType); }

void JsonWriter::raw(std::string_view json) { backend_->raw(json, rapidjson::kObjectType); }

}  // namespace sf
