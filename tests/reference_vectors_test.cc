// The Ruby reference's 500 answers (conformance/vectors/ruby-reference.jsonl),
// each asked of the C++ core through the protocol library and compared bit for
// bit. One test lists every mismatch by id, so a regression shows its whole
// extent at once rather than the first casualty.
#include <charconv>
#include <cstdint>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "acemq/model/bits.hpp"
#include "conformance/protocol/answer.hpp"
#include "conformance/protocol/limits.hpp"
#include "conformance/protocol/respond.hpp"
#include "conformance/protocol/wire.hpp"

namespace acemq::conformance {
namespace {

using nlohmann::json;

using acemq::model::bits_of;

std::vector<std::string> reference_lines() {
  std::ifstream in(ACEMQ_VECTORS_DIR "/ruby-reference.jsonl");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(RubyReferenceVectors, AllFiveHundredAgreeBitForBit) {
  const std::vector<std::string> lines = reference_lines();
  ASSERT_EQ(lines.size(), 500U) << "the reference file is 500 lines; is it the verbatim copy?";

  std::set<std::int64_t> ids;
  std::vector<std::string> mismatches;
  for (const std::string& line : lines) {
    const json vector = json::parse(line);
    const std::int64_t id = vector.at("id").get<std::int64_t>();
    ids.insert(id);
    const std::optional<Answer> expected = expected_answer(vector);
    ASSERT_TRUE(expected) << "id " << id << ": no readable \"expect\"";

    const std::string answer = answer_line(line);
    std::string why;
    const std::optional<Answer> actual = parse_answer(answer, why);
    std::string where = "id ";
    where += std::to_string(id);
    if (!actual) {
      mismatches.push_back(
          where.append(": unreadable answer (").append(why).append("): ").append(answer));
      continue;
    }
    if (actual->id != vector.at("id")) {
      mismatches.push_back(where + ": answer echoed id " + actual->id.dump());
    }
    if (const auto diff = difference(*expected, *actual)) {
      mismatches.push_back(where.append(": ")
                               .append(*diff)
                               .append("\n    request ")
                               .append(line)
                               .append("\n    answer  ")
                               .append(answer));
    }
  }
  EXPECT_EQ(ids.size(), 500U) << "ids are not distinct";

  std::string report;
  for (const std::string& m : mismatches) report += m + "\n";
  EXPECT_TRUE(mismatches.empty()) << mismatches.size() << " of 500 differ:\n" << report;
}

// The comparison above is only as good as the reading of the expected
// numbers: nlohmann hands number text to strtod, which glibc rounds
// correctly. Every number token in the file is read again with
// std::from_chars (correctly rounded by the standard) and must agree.
TEST(RubyReferenceVectors, JsonReaderRoundsEveryNumberCorrectly) {
  const std::regex number(R"(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)");
  std::size_t checked = 0;
  for (const std::string& line : reference_lines()) {
    for (auto it = std::sregex_iterator(line.begin(), line.end(), number);
         it != std::sregex_iterator(); ++it) {
      const std::string token = it->str();
      double exact = 0.0;
      const auto result = std::from_chars(token.data(), token.data() + token.size(), exact);
      ASSERT_EQ(result.ec, std::errc{}) << token;
      const std::optional<double> read = wire_number(json::parse(token));
      ASSERT_TRUE(read) << token;
      EXPECT_EQ(bits_of(*read), bits_of(exact)) << token;
      ++checked;
    }
  }
  EXPECT_GT(checked, 10000U);
}

TEST(RubyReferenceVectors, JsonReaderRoundsHardCasesCorrectly) {
  // Halfway and near-halfway decimals, where a reader that goes through long
  // double (as CLI11's does) or truncates digits gets the last bit wrong.
  for (const char* token :
       {"0.1", "1e23", "9007199254740993", "9007199254740993.0", "2.2250738585072011e-308",
        "2.2250738585072012e-308", "4.9406564584124654e-324", "2.4703282292062328e-324",
        "1.7976931348623157e308", "0.30000000000000004", "8.98846567431158e307",
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126"}) {
    double exact = 0.0;
    std::from_chars(token, token + std::char_traits<char>::length(token), exact);
    const std::optional<double> read = wire_number(json::parse(token));
    ASSERT_TRUE(read) << token;
    EXPECT_EQ(bits_of(*read), bits_of(exact)) << token;
  }
}

// The issue's three examples, as whole lines: ids, field order and number
// text, not only values.
TEST(ProtocolExamples, ExponentialScheduleWithCap) {
  EXPECT_EQ(answer_line(R"({"id":1,"op":"schedule","policy":{"factory":"exponential",)"
                        R"("max_attempts":5,"initial_delay":0.5,"max_delay":3}})"),
            R"({"id":1,"ok":true,"result":[0.5,1.0,2.0,3.0]})");
}

TEST(ProtocolExamples, ReplayOfSeed42) {
  EXPECT_EQ(answer_line(R"({"id":2,"op":"replay","policy":{"factory":"exponential",)"
                        R"("max_attempts":5,"initial_delay":0.5},"seed":42,)"
                        R"("calls":[[1,0],[2,0],[3,0],[4,0],[5,0]]})"),
            R"({"id":2,"ok":true,"result":[0.4749080237694725,1.1802857225639665,)"
            R"(2.1855951534491243,4.157853574715259,null]})");
}

TEST(ProtocolExamples, JitteredAtTheBottomOfTheRange) {
  EXPECT_EQ(answer_line(R"({"id":3,"op":"jittered","policy":{"jitter_factor":0.2},)"
                        R"("delay":1.5,"r":0.0})"),
            R"({"id":3,"ok":true,"result":1.2000000000000002})");
}

}  // namespace
}  // namespace acemq::conformance
