// The streaming writer's bytes are nlohmann::json::dump's bytes for the same values: the layout
// every document has had since its first version, including the awkward values a log can hold.
#include "common/json_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace sf {
namespace {

using Json = nlohmann::ordered_json;

std::string dumped(const Json& doc, int indent) { return doc.dump(indent, ' ', false, Json::error_handler_t::replace); }

// Writes `doc` again through JsonWriter, walking the tree, so both writers see the same values.
void rewrite(JsonWriter& w, const Json& doc) {
  switch (doc.type()) {
    case Json::value_t::object:
      w.object([&] {
        for (const auto& [key, value] : doc.items()) {
          w.key(key);
          rewrite(w, value);
        }
      });
      break;
    case Json::value_t::array:
      w.array([&] {
        for (const auto& value : doc) rewrite(w, value);
      });
      break;
    case Json::value_t::string: w.string(doc.get_ref<const std::string&>()); break;
    case Json::value_t::boolean: w.boolean(doc.get<bool>()); break;
    case Json::value_t::number_integer: w.integer(doc.get<int64_t>()); break;
    case Json::value_t::number_unsigned: w.unsigned_integer(doc.get<uint64_t>()); break;
    case Json::value_t::number_float: w.number(doc.get<double>()); break;
    default: w.null(); break;
  }
}

void expect_same_bytes(const Json& doc) {
  for (int indent : {-1, 0, 2, 4}) {
    std::string out;
    JsonWriter w(out, indent);
    rewrite(w, doc);
    EXPECT_EQ(out, dumped(doc, indent)) << "indent " << indent;
  }
}

TEST(JsonWriter, NestedAndEmptyContainers) {
  expect_same_bytes(Json::parse(R"({"a":1,"b":[],"c":{},"d":[1,[2,[]],{"e":{}}],"f":[{"g":null}],"h":true})"));
  expect_same_bytes(Json::array());
  expect_same_bytes(Json::object());
}

TEST(JsonWriter, IntegersAtTheirLimits) {
  Json doc = Json::array();
  doc.push_back(std::numeric_limits<int64_t>::min());
  doc.push_back(std::numeric_limits<int64_t>::max());
  doc.push_back(std::numeric_limits<uint64_t>::max());
  doc.push_back(0);
  doc.push_back(-1);
  expect_same_bytes(doc);
}

TEST(JsonWriter, DoublesInNlohmannsShortestForm) {
  Json doc = Json::array();
  for (double v : {0.0, -0.0, 1.0, 0.1, 1.0 / 3.0, 5e-5, 1e-7, 1e16, 1e21, 123456789.125, -2.5e300, 4.9e-324,
                   std::numeric_limits<double>::max()}) {
    doc.push_back(v);
  }
  expect_same_bytes(doc);
}

TEST(JsonWriter, NonFiniteDoublesAreNull) {
  std::string out;
  JsonWriter w(out);
  w.array([&] {
    w.number(std::nan(""));
    w.number(std::numeric_limits<double>::infinity());
    w.number(-std::numeric_limits<double>::infinity());
  });
  EXPECT_EQ(out, "[null,null,null]");
}

TEST(JsonWriter, StringsWithEscapesControlCharactersAndUnicode) {
  Json doc = Json::object();
  doc["quote\"back\\slash/"] = "tab\tnewline\nreturn\rfeed\fbell\bnul";
  doc["control"] = std::string("\x01\x0b\x1b[31mred\x1f\x7f", 11);
  doc["unicode"] = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";
  doc["empty"] = "";
  doc[std::string("nul\0inside", 10)] = std::string("a\0b", 3);
  expect_same_bytes(doc);
}

// An empty string_view may point nowhere (a default one, a field never set): written as "" like
// any empty string, with no arithmetic on its null pointer (the sanitized build checks that).
TEST(JsonWriter, AnEmptyViewOfNothingIsAnEmptyString) {
  for (int indent : {-1, 2}) {
    std::string out;
    JsonWriter w(out, indent);
    w.object([&] {
      w.field("nothing", std::string_view());
      w.key(std::string_view());
      w.string(std::string_view());
    });
    EXPECT_EQ(out, dumped(Json{{"nothing", ""}, {"", ""}}, indent)) << "indent " << indent;
  }
}

TEST(JsonWriter, InvalidUtf8IsReplacedAsNlohmannReplacesIt) {
  for (std::string bad :
       {std::string("\xff"), std::string("ab\xc3"), std::string("\xc3\x28 tail"), std::string("\xe2\x82 x"),
        std::string("\xed\xa0\x80"), std::string("\xf8\x88\x80\x80\x80")}) {
    std::string out;
    JsonWriter w(out);
    w.array([&] { w.string(bad); });
    Json expected = Json::array({bad});
    EXPECT_EQ(out, dumped(expected, -1));
    EXPECT_TRUE(Json::accept(out)) << out;
  }
}

TEST(JsonWriter, TypedValuesAndFields) {
  std::string out;
  JsonWriter w(out);
  w.object([&] {
    w.field("i", 7);
    w.field("u", size_t{8});
    w.field("b", false);
    w.field("s", std::string("x"));
    w.field("sv", std::string_view("y"));
    w.field("c", "z");
    w.field("none", std::optional<int64_t>());
    w.field("some", std::optional<int64_t>(3));
    w.field("list", std::vector<int64_t>{1, 2});
    w.field("names", std::vector<std::string>{"a", "b"});
    w.field("n", nullptr);
    w.key("raw");
    w.raw(R"({"already":"written"})");
  });
  EXPECT_EQ(out, R"({"i":7,"u":8,"b":false,"s":"x","sv":"y","c":"z","none":null,"some":3,"list":[1,2],)"
                 R"("names":["a","b"],"n":null,"raw":{"already":"written"}})");
}

TEST(JsonWriter, AppendsToWhatTheStringHolds) {
  std::string out = "prefix:";
  JsonWriter w(out);
  w.array([&] { w.integer(1); });
  EXPECT_EQ(out, "prefix:[1]");
}

// The string is grown ahead of the text while a value is written: once the top-level value is
// complete it holds the text alone, and what the caller appends then stays when the writer goes.
TEST(JsonWriter, TheCallerMayAppendOnceTheValueIsComplete) {
  std::string out;
  {
    JsonWriter w(out, 2);
    w.object([&] { w.field("name", std::string(10000, 'x')); });
    EXPECT_EQ(out.size(), 10000u + 16u);
    out += '\n';
  }
  EXPECT_EQ(out, "{\n  \"name\": \"" + std::string(10000, 'x') + "\"\n}\n");
}

// A document left unfinished leaves only what was written in the string, with no bytes grown
// ahead of it.
TEST(JsonWriter, AnUnfinishedDocumentLeavesOnlyItsText) {
  std::string out;
  {
    JsonWriter w(out);
    w.begin_array();
    w.string(std::string(5000, 'y'));
  }
  EXPECT_EQ(out, "[\"" + std::string(5000, 'y') + "\"");
}

// A document too large to hold goes to a drain in pieces: in order they are the document, each
// ends where an object or an array ends, and only the caller's last one is shorter than
// kDrainBytes. Without a drain the text only grows.
TEST(JsonWriter, ADrainTakesTheDocumentInPiecesThatEndWithAContainer) {
  auto write = [](JsonWriter& w) {
    w.array([&] {
      for (int i = 0; i < 20000; ++i) {
        w.object([&] {
          w.field("stage", i);
          w.field("name", "a stage with a name long enough to matter");
        });
      }
    });
  };
  std::string whole;
  {
    JsonWriter w(whole, 2);
    write(w);
  }
  std::vector<std::string> pieces;
  std::string tail;
  {
    JsonWriter w(tail, 2, [&](std::string_view text) { pieces.emplace_back(text); });
    write(w);
  }
  ASSERT_GT(pieces.size(), 10u);
  std::string joined;
  for (const std::string& piece : pieces) {
    EXPECT_GE(piece.size(), JsonWriter::kDrainBytes);
    EXPECT_LT(piece.size(), JsonWriter::kDrainBytes + 200) << "drained as soon as it was due";
    EXPECT_EQ(piece.back(), '}');
    joined += piece;
  }
  EXPECT_LT(tail.size(), JsonWriter::kDrainBytes);
  EXPECT_TRUE(joined + tail == whole);
}

}  // namespace
}  // namespace sf
