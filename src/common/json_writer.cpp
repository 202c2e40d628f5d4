#include "common/json_writer.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <nlohmann/json.hpp>
#include <rapidjson/prettywriter.h>
#include <rapidjson/writer.h>

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

// Printable ASCII and the five escapes RapidJSON and nlohmann write alike: eight bytes at a
// time, since every key and string of a document passes here.
bool plain_ascii(std::string_view s) {
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  constexpr uint64_t kSpace = 0x2020202020202020ULL;
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, s.data() + i, 8);
    // A byte at or past 0x80, or under 0x20 (borrowing when 0x20 is taken from it).
    if (((word | (word - kSpace)) & kHigh) != 0) break;
  }
  for (; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80 || (c < 0x20 && c != '\b' && c != '\t' && c != '\n' && c != '\f' && c != '\r')) return false;
  }
  return true;
}

std::string escaped_by_nlohmann(std::string_view s) {
  return nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Where in [begin, end) the first byte a JSON string escapes is: a quote, a backslash or a
// control character; end when there is none. Eight bytes at a time.
const char* first_to_escape(const char* begin, const char* end) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  auto any_zero_byte = [](uint64_t word) { return ((word - kOnes) & ~word & kHigh) != 0; };
  const char* p = begin;
  for (; p + 8 <= end; p += 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    const bool control = ((word - 0x20 * kOnes) & ~word & kHigh) != 0;
    if (control || any_zero_byte(word ^ ('"' * kOnes)) || any_zero_byte(word ^ ('\\' * kOnes))) break;
  }
  for (; p < end; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (c < 0x20 || c == '"' || c == '\\') return p;
  }
  return end;
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
  const char* stop = sf::first_to_escape(is.src_, end);
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

template <typename Writer>
class RapidBackend final : public JsonWriter::Backend {
 public:
  explicit RapidBackend(std::string& out) : sink_(out), writer_(sink_) {}
  Writer& writer() { return writer_; }

  void begin_object() override { writer_.StartObject(); }
  void end_object() override { writer_.EndObject(); }
  void begin_array() override { writer_.StartArray(); }
  void end_array() override { writer_.EndArray(); }
  void string(std::string_view v) override {
    writer_.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
  }
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

using CompactBackend = RapidBackend<rapidjson::Writer<StringSink>>;
using PrettyBackend = RapidBackend<rapidjson::PrettyWriter<StringSink>>;

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

void JsonWriter::string(std::string_view v) {
  if (plain_ascii(v)) {
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
