// The one answer reader: what it reads, what it says is wrong and where,
// its bounds on the raw bytes, its first step against its pass, and its
// grammar against the JSON reader's.
#include <cmath>
#include <cstdint>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "acemq/model/bits.hpp"
#include "conformance/protocol/answer.hpp"
#include "conformance/protocol/answer_reader.hpp"
#include "conformance/protocol/respond.hpp"

namespace acemq::conformance {
namespace {

using model::bits_of;
using nlohmann::json;
using Kind = AnswerFault::Kind;

Answer answer_of(std::string_view line) {
  std::variant<Answer, AnswerFault> read = read_answer(line);
  if (const auto* fault = std::get_if<AnswerFault>(&read)) {
    ADD_FAILURE() << describe(*fault) << "\n  line: " << line;
    return {};
  }
  return std::get<Answer>(std::move(read));
}

AnswerFault fault_of(std::string_view line) {
  std::variant<Answer, AnswerFault> read = read_answer(line);
  if (const auto* answer = std::get_if<Answer>(&read)) {
    ADD_FAILURE() << "read as " << format_answer(*answer).substr(0, 200)
                  << "\n  line: " << line.substr(0, 200);
    return {};
  }
  return std::get<AnswerFault>(std::move(read));
}

// Items as bits, null as a marker no double has here.
std::vector<std::uint64_t> bits(const std::vector<std::optional<double>>& items) {
  std::vector<std::uint64_t> out;
  out.reserve(items.size());
  for (const auto& item : items) out.push_back(item ? bits_of(*item) : 1);
  return out;
}

TEST(AnswerReader, ReadsAnAnswerAsItsValues) {
  const Answer common = answer_of(R"({"id":7,"ok":true,"result":[0.5,"NaN",null,-0,-0.0]})");
  EXPECT_EQ(common.id, json(7));
  EXPECT_TRUE(common.ok);
  EXPECT_TRUE(common.is_array);
  ASSERT_EQ(common.items.size(), 5U);
  EXPECT_TRUE(std::isnan(*common.items[1]));
  EXPECT_FALSE(common.items[2]);
  // -0 is an integer, and the integer 0 has no sign; -0.0 has one.
  EXPECT_EQ(bits_of(*common.items[3]), bits_of(0.0));
  EXPECT_EQ(bits_of(*common.items[4]), bits_of(-0.0));

  const Answer single = answer_of(R"( {"result" : null, "ok" : true, "id" : "a"} )");
  EXPECT_EQ(single.id, json("a"));
  EXPECT_FALSE(single.is_array);
  ASSERT_EQ(single.items.size(), 1U);
  EXPECT_FALSE(single.items[0]);

  const Answer error = answer_of(R"({"id":[1,{"x":2.5}],"ok":false,"error":"a\n\"b\" \u00e9"})");
  EXPECT_EQ(error.id, json::parse(R"([1,{"x":2.5}])"));
  EXPECT_FALSE(error.ok);
  EXPECT_EQ(error.error, "a\n\"b\" \xC3\xA9");
  EXPECT_TRUE(error.items.empty());

  // Members by their names as JSON reads them, the last of a name winning.
  const Answer named = answer_of(R"({"i\u0064":1,"result":[{}],"ok":true,"result":["\u004eaN"]})");
  EXPECT_EQ(named.id, json(1));
  ASSERT_EQ(named.items.size(), 1U);
  EXPECT_TRUE(std::isnan(*named.items[0]));

  // An error message is kept to its start.
  const std::string long_error =
      answer_of(R"({"id":1,"ok":false,"error":")" + std::string(kMaxErrorBytes + 10, 'e') + "\"}")
          .error;
  EXPECT_EQ(long_error, std::string(kMaxErrorBytes, 'e'));
}

TEST(AnswerReader, SaysWhatIsWrongAndAtWhichByte) {
  using namespace std::string_literals;
  const std::string valid = R"({"id":1,"ok":true,"result":[]})";
  const struct {
    std::string line;
    Kind kind;
    std::string says;
  } rows[] = {
      {"hello", Kind::not_json, "not JSON, at byte 1"},
      {"", Kind::not_json, "not JSON, at byte 1"},
      {R"({"id":1,"ok":tru})", Kind::not_json, "not JSON, at byte 17"},
      {R"({"id":1)", Kind::not_json, "not JSON, at byte 8"},
      {valid + " x", Kind::not_json, "not JSON, at byte 32"},
      {valid + "\0 garbage"s, Kind::nul_byte, "holds a NUL byte at byte 31"},
      {R"({"id":1,"ok":false,"error":"caf)" + "\xC3\xA9"s + "\"}", Kind::not_ascii,
       "holds a byte that is not ASCII, at byte 32 (answers escape it as \\uXXXX)"},
      {R"({"id":1,"ok":true,"result":[1e400]})", Kind::beyond_binary64,
       "a number beyond binary64, at byte 29"},
      {R"({"id":"\ud800","ok":true,"result":1})", Kind::not_json, "not JSON, at byte 14"},
      {R"([1,2])", Kind::not_object, "not a JSON object"},
      {R"({"ok":true,"result":1})", Kind::no_id, "no \"id\""},
      {R"({"id":1,"ok":"yes","result":1})", Kind::no_ok, "no boolean \"ok\""},
      {R"({"id":1,"ok":true,"error":"e"})", Kind::no_result, "\"ok\": true without \"result\""},
      {R"({"id":1,"ok":false,"error":3})", Kind::no_error,
       "\"ok\": false without a string \"error\""},
      {R"({"id":1,"ok":true,"result":{}})", Kind::result_not_item,
       "result is an object, not a number, null or array"},
      {R"({"id":1,"ok":true,"result":[1,true,[]]})", Kind::item_not_item,
       "result[1] is true, not a number or null"},
      {R"({"id":1,"ok":true,"result":[0.5,"inf"]})", Kind::item_not_item,
       "result[1] is \"inf\", not a number or null"},
  };
  for (const auto& row : rows) {
    const AnswerFault fault = fault_of(row.line);
    EXPECT_EQ(fault.kind, row.kind) << row.line;
    EXPECT_EQ(describe(fault), row.says) << row.line;
  }
  EXPECT_EQ(not_an_answer(fault_of("hello")),
            "wrote a line that is not a protocol answer (not JSON, at byte 1)");
}

TEST(AnswerReader, BoundsHoldOnTheRawBytes) {
  // A string's bytes count to its closing quote.
  const auto with_id = [](std::size_t bytes) {
    return R"({"id":")" + std::string(bytes, 'x') + R"(","ok":true,"result":1})";
  };
  EXPECT_EQ(answer_of(with_id(kMaxAnswerStringBytes - 1)).id.get_ref<const std::string&>().size(),
            kMaxAnswerStringBytes - 1);
  EXPECT_EQ(fault_of(with_id(kMaxAnswerStringBytes)).kind, Kind::string_too_long);
  // An unclosed string longer than the bound is refused for its length.
  EXPECT_EQ(fault_of(R"({"id":")" + std::string(kMaxAnswerStringBytes + 5, 'x')).kind,
            Kind::string_too_long);

  // The line's bytes come first: values beyond the bound, before the item
  // that is no number.
  std::string objects = R"({"id":1,"ok":true,"result":[{})";
  for (std::size_t i = 0; i < kMaxAnswerValues; ++i) objects += ",{}";
  objects += "]}";
  EXPECT_EQ(fault_of(objects).kind, Kind::too_many_values);
  EXPECT_EQ(describe(fault_of(objects)),
            "holds more than 1048576 JSON values, more than any answer can");

  const auto nested = [](int depth) {
    return R"({"id":)" + std::string(static_cast<std::size_t>(depth), '[') +
           std::string(static_cast<std::size_t>(depth), ']') + R"(,"ok":true,"result":1})";
  };
  EXPECT_TRUE(answer_of(nested(kMaxAnswerDepth - 1)).ok);
  EXPECT_EQ(fault_of(nested(kMaxAnswerDepth)).kind, Kind::too_deep);
}

// Lines of the form every adapter writes, from the core's answers to the
// vectors; written with a space, the pass reads them instead.
std::vector<std::string> common_lines() {
  std::vector<std::string> lines;
  for (const char* file : {"/ruby-reference.jsonl", "/contract-edges.jsonl"}) {
    std::ifstream in(std::string(ACEMQ_VECTORS_DIR) + file);
    for (std::string line; std::getline(in, line);) lines.push_back(answer_line(line));
  }
  return lines;
}

TEST(AnswerReader, TheFirstStepReadsAsThePassDoes) {
  std::size_t arrays = 0;
  for (const std::string& line : common_lines()) {
    const Answer first = answer_of(line);
    const Answer pass = answer_of(" " + line);
    EXPECT_EQ(first.id, pass.id) << line;
    EXPECT_EQ(first.id.type(), pass.id.type()) << line;
    EXPECT_EQ(first.ok, pass.ok) << line;
    EXPECT_EQ(first.is_array, pass.is_array) << line;
    EXPECT_EQ(bits(first.items), bits(pass.items)) << line;
    if (first.is_array) ++arrays;
  }
  EXPECT_GT(arrays, 100U);
  // What the first step must leave to the pass, which says what is wrong.
  EXPECT_EQ(fault_of(R"({"id":1,"ok":true,"result":[1,]})").byte, 31U);
  EXPECT_EQ(fault_of(R"({"id":1,"ok":true,"result":[01]})").byte, 30U);
  EXPECT_EQ(fault_of(R"({"id":-,"ok":true,"result":[1]})").byte, 8U);
  EXPECT_EQ(fault_of(R"({"id":1,"ok":true,"result":[1e999]})").kind, Kind::beyond_binary64);
  EXPECT_EQ(fault_of(R"({"id":1,"ok":true,"result":[1,"x"]})").kind, Kind::item_not_item);
  std::string many = R"({"id":1,"ok":true,"result":[0)";
  for (std::size_t i = 0; i < kMaxAnswerValues; ++i) many += ",0";
  EXPECT_EQ(fault_of(many + "]}").kind, Kind::too_many_values);
}

// Mutants of answer lines, ASCII and without NUL: the reader takes a line
// exactly when the JSON reader does, and says the byte it stopped at.
TEST(AnswerReader, TakesWhatTheJsonReaderTakes) {
  std::vector<std::string> lines = common_lines();
  lines.emplace_back(R"({"id":{"a":[1,"\ud83d\ude00"]},"ok":false,"error":"\t"})");
  static const char* const kTokens[] = {
      "{",    "}",      "[",     "]",       ",",       ":",
      "\"",   "\\",     "\\u",   "\\ud800", "\\udc00", "\\ud800\\u0041",
      "null", "true",   "1e400", "-",       "0",       "01",
      "1.",   "1e",     "NaN",   " ",       "\t",      "\x01",
      "-0",   "1e-400", "{}",    "[]",      "\"x\"",   "1E+2"};
  std::mt19937_64 rng(20261205);
  std::size_t refused = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string line = lines[rng() % lines.size()].substr(0, 400);
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits && !line.empty(); ++e) {
      const std::size_t at = rng() % line.size();
      switch (rng() % 3) {
        case 0: line.erase(at, 1 + rng() % 4); break;
        case 1: line.insert(at, kTokens[rng() % std::size(kTokens)]); break;
        default: line[at] = static_cast<char>(1 + rng() % 127);
      }
    }
    std::optional<std::size_t> stopped;  // the JSON reader's byte, or none
    bool beyond = false;
    try {
      const json parsed = json::parse(line);
    } catch (const json::parse_error& e) {
      stopped = e.byte;
    } catch (const json::out_of_range&) {
      beyond = true;
    }
    const std::variant<Answer, AnswerFault> read = read_answer(line);
    const auto* fault = std::get_if<AnswerFault>(&read);
    const bool refused_bytes =
        fault != nullptr && (fault->kind == Kind::not_json || fault->kind == Kind::beyond_binary64);
    ASSERT_EQ(refused_bytes, stopped || beyond) << line;
    if (stopped) {
      ASSERT_EQ(fault->kind, Kind::not_json) << line;
      ASSERT_EQ(fault->byte, *stopped) << line;
      ++refused;
    }
  }
  EXPECT_GT(refused, 5000U);
}

// A caller's own store of items, as stats keeps its draws.
class Kept final : public ResultItems {
 public:
  void restart() override {
    items.clear();
    ++restarts;
  }
  void add(std::optional<double> item) override { items.push_back(item); }

  std::vector<std::optional<double>> items;
  int restarts = 0;
};

TEST(AnswerReader, ItemsGoWhereTheCallerKeepsThem) {
  Kept kept;
  const std::variant<Answer, AnswerFault> read =
      read_answer(R"({"id":1, "ok":true, "result":[9], "result":[1,null,2.5]})", &kept);
  ASSERT_TRUE(std::holds_alternative<Answer>(read));
  EXPECT_TRUE(std::get<Answer>(read).items.empty());
  EXPECT_EQ(bits(kept.items), bits({1.0, std::nullopt, 2.5}));

  Kept common;
  ASSERT_TRUE(std::holds_alternative<Answer>(
      read_answer(R"({"id":2,"ok":true,"result":[1,null,2.5]})", &common)));
  EXPECT_EQ(bits(common.items), bits({1.0, std::nullopt, 2.5}));
}

}  // namespace
}  // namespace acemq::conformance
