// The fixed lines' promises: the core answers each echo with the number
// its text means, to the bit (or refuses a text that is no JSON number or
// is beyond binary64), so the answer a port owes is the number itself; a
// form names its line's op; and every line is sent at the default case
// count, at any seed.
#include "conformance/check/fixed_lines.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "conformance/check/case_generator.hpp"
#include "conformance/protocol/respond.hpp"

namespace acemq::conformance {
namespace {

using generator::fixed_line_count;
using generator::fixed_line_in_turn;
using generator::FixedLine;
using generator::number_texts;

TEST(FixedLines, AnEchoIsAnsweredWithTheNumberItsTextMeans) {
  for (std::size_t turn = 0; turn < number_texts().size(); ++turn) {
    const FixedLine fixed = fixed_line_in_turn(turn, 7);
    ASSERT_TRUE(fixed.echo);
    const std::string text(number_texts()[turn].text);
    const double value = std::strtod(text.c_str(), nullptr);
    const bool a_number = nlohmann::json::accept(text) && std::isfinite(value);
    const Answer answer = respond(parse_request(fixed.line));
    ASSERT_EQ(answer.ok, a_number) << text << ": " << answer.error;
    if (!a_number) continue;
    ASSERT_EQ(answer.items.size(), 1U) << text;
    ASSERT_TRUE(answer.items[0].has_value()) << text;
    EXPECT_EQ(std::bit_cast<std::uint64_t>(*answer.items[0]), std::bit_cast<std::uint64_t>(value))
        << text << " answered as " << format_answer(answer);
  }
}

// A form's line is JSON with its op and its id, whatever the core makes of
// its values.
TEST(FixedLines, AFormIsJsonOfItsOp) {
  std::set<std::string> lines;
  for (std::size_t turn = 0; turn < fixed_line_count(); ++turn) {
    const FixedLine fixed = fixed_line_in_turn(turn, 42);
    EXPECT_TRUE(lines.insert(fixed.line).second) << fixed.line;
    if (fixed.echo) continue;
    const nlohmann::json request = nlohmann::json::parse(fixed.line);
    EXPECT_EQ(request.at("op"), op_name(fixed.op)) << fixed.name;
    if (request.at("id").is_number()) {
      EXPECT_EQ(request.at("id"), 42) << fixed.name;
    }
  }
}

// Every line in a run of 5000, at any seed (the five here stand for any):
// the turns depend on the case count only, and a line the core refuses
// counts as the malformed or invalid line it is.
TEST(FixedLines, EveryLineAtTheDefaultCaseCount) {
  for (const std::uint64_t seed : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{20261202},
                                   std::uint64_t{0xdeadbeef}, std::uint64_t{20261201}}) {
    CaseGenerator generator(seed, Profile::full);
    std::set<std::size_t> reached;
    for (int i = 1; i <= 5000; ++i) {
      const GeneratedCase c = generator.next(i);
      if (c.fixed_line.empty()) continue;
      reached.insert(c.variant);
      EXPECT_EQ(c.line, fixed_line_in_turn(c.variant, i).line);
      EXPECT_EQ(c.kind == CaseKind::valid, std::holds_alternative<Request>(c.parsed)) << c.line;
    }
    EXPECT_EQ(reached.size(), fixed_line_count()) << "seed " << seed;
  }
}

// The reference profile never sends them: the Ruby reference's reader is
// not the contract's.
TEST(FixedLines, NotInTheReferenceProfile) {
  CaseGenerator generator(20261202, Profile::reference);
  for (int i = 1; i <= 3000; ++i) EXPECT_TRUE(generator.next(i).fixed_line.empty());
}

}  // namespace
}  // namespace acemq::conformance
