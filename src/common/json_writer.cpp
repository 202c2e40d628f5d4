#include "common/json_writer.h"

#include <nlohmann/json.hpp>
#include <rapidjson/prettywriter.h>
#include <rapidjson/writer.h>

namespace sf {

namespace {

// RapidJSON's output-stream concept over a std::string the caller owns.
struct StringSink {
  using Ch = char;
  std::string* out;
  void Put(char c) { out->push_back(c); }
  void Flush() {}
};

// RapidJSON writes a control character other than \b \t \n \f \r as \u00XX with upper-case hex
// and copies bytes it is not asked to validate. nlohmann writes lower-case hex and replaces
// invalid UTF-8. A string that needs either goes through nlohmann, so the bytes stay those of
// the documents' first writer; the common case, printable ASCII, never does.
bool plain_ascii(std::string_view s) {
  for (unsigned char c : s) {
    if (c >= 0x80 || (c < 0x20 && c != '\b' && c != '\t' && c != '\n' && c != '\f' && c != '\r')) return false;
  }
  return true;
}

std::string escaped_by_nlohmann(std::string_view s) {
  return nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

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
};

namespace {

template <typename Writer>
class RapidBackend final : public JsonWriter::Backend {
 public:
  explicit RapidBackend(std::string& out) : sink_{&out}, writer_(sink_) {}
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

JsonWriter::~JsonWriter() = default;

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
  if (drain_ && out_.size() >= kDrainBytes) {
    drain_(out_);
    out_.clear();
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
