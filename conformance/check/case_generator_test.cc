// The case generator's promises: each invalid row breaks a rule (the core
// answers it with an error), each malformed line is no request (an error
// with a null id), the reference profile sends only what the reference
// answers alike, every variant of every rule of kInvalidRules is reached at
// the default case count, replays skip to MT19937's refills, the cost limit's
// edges are reached, every numeric id is sent in turn, and a seed means the
// same lines.
#include "conformance/check/case_generator.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "acemq/model/regimes.hpp"
#include "conformance/check/buffer_borders.hpp"
#include "conformance/check/coverage.hpp"
#include "conformance/check/op_kind.hpp"
#include "conformance/protocol/answer.hpp"
#include "conformance/protocol/limits.hpp"
#include "conformance/protocol/policy_spec.hpp"
#include "conformance/protocol/request.hpp"
#include "conformance/protocol/respond.hpp"

namespace acemq::conformance {
namespace {

constexpr std::uint64_t kSeed = 20261201;
constexpr int kCases = 20000;

Answer core_answer(const std::string& line) {
  std::string why;
  const std::optional<Answer> answer = parse_answer(answer_line(line), why);
  EXPECT_TRUE(answer) << why;
  return answer.value_or(Answer{});
}

TEST(CaseGenerator, InvalidAndMalformedCasesAreErrors) {
  CaseGenerator generator(kSeed, Profile::full);
  std::map<std::string_view, int> reached;
  for (int i = 1; i <= kCases; ++i) {
    const GeneratedCase c = generator.next(i);
    if (c.kind == CaseKind::valid) continue;
    ++reached[c.rule];
    const Answer answer = core_answer(c.line);
    EXPECT_FALSE(answer.ok) << c.tally_name() << " (" << c.rule
                            << ") answered: " << c.line.substr(0, 300);
    if (c.kind == CaseKind::malformed) {
      EXPECT_TRUE(answer.id.is_null()) << c.rule;
    }
  }
  for (const InvalidRuleRow& rule : invalid_rules()) {
    EXPECT_GE(reached[rule.name], 5)
        << "rule never (or rarely) generated in " << kCases << " cases: " << rule.name;
  }
}

// The rules' variants go in turn, so a default run of 5000 cases (about 440
// invalid ones) sends every variant of every rule, whatever the seed: the
// five seeds here stand for any. The core's refusals tell the variants
// apart (each names its field and quotes the bad value), so a row that
// draws its bad value by chance again, keeping its variant count, fails
// here at some seed too.
// The rules whose variants differ where the refusal does not show it, each
// with how many refusals its variants make and why.
struct FewerRefusals {
  std::string_view rule;
  std::size_t refusals;
  std::string_view why;
};
constexpr FewerRefusals kFewerRefusals[] = {
    {"policy not an object", 3, "each bad policy with its id, and without: the id is no field"},
    {"r outside [0, 1) where no jitter applies", 3, "each bad r on a zero delay and on 1"},
    {"r missing where jitter is on", 1, "jitter absent or true: r is missing either way"},
    {"next_delay past the cost limit", 2,
     "each attempt with either creeping multiplier: the refusal names the attempt"},
    {"a member breaks its row of the protocol's table", 65,
     "r is next_delay's and jittered's, a draw in both: its 7 breaks are refused in the same "
     "words in either op"},
};

std::size_t refusals_expected(const InvalidRuleRow& rule) {
  for (const FewerRefusals& row : kFewerRefusals) {
    if (row.rule == rule.name) return row.refusals;
  }
  return rule.variants;
}

TEST(CaseGenerator, EveryVariantOfEveryInvalidRuleAtTheDefaultCaseCount) {
  for (const std::uint64_t seed : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{20261202},
                                   std::uint64_t{0xdeadbeef}, kSeed}) {
    CaseGenerator generator(seed, Profile::full);
    std::map<std::string_view, std::set<std::size_t>> reached;
    std::map<std::string_view, std::set<std::string>> refusals;
    std::size_t invalid = 0;
    for (int i = 1; i <= 5000; ++i) {
      const GeneratedCase c = generator.next(i);
      if (c.kind != CaseKind::invalid) continue;
      ++invalid;
      reached[c.rule].insert(c.variant);
      refusals[c.rule].insert(core_answer(c.line).error);
    }
    EXPECT_GE(invalid, invalid_variant_count()) << "seed " << seed;
    for (const InvalidRuleRow& rule : invalid_rules()) {
      EXPECT_EQ(reached[rule.name].size(), rule.variants) << "seed " << seed << ": " << rule.name;
      EXPECT_GE(refusals[rule.name].size(), refusals_expected(rule))
          << "seed " << seed << ": " << rule.name;
      if (!reached[rule.name].empty()) {
        EXPECT_LT(*reached[rule.name].rbegin(), rule.variants) << rule.name;
      }
    }
  }
}

// Each kind of malformed line sends its variants in turn, so a default run
// reaches every variant of every kind at any seed: a reader lenient on one
// rule of JSON's grammar (a leading zero, an escape JSON does not have)
// passes a run that never sends that rule's line.
TEST(CaseGenerator, EveryVariantOfEveryMalformationAtTheDefaultCaseCount) {
  for (const std::uint64_t seed : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{20261202},
                                   std::uint64_t{0xdeadbeef}, kSeed}) {
    CaseGenerator generator(seed, Profile::full);
    std::map<std::string_view, std::set<std::size_t>> reached;
    std::size_t malformed = 0;
    for (int i = 1; i <= 5000; ++i) {
      const GeneratedCase c = generator.next(i);
      if (c.kind != CaseKind::malformed) continue;
      ++malformed;
      reached[c.rule].insert(c.variant);
    }
    EXPECT_GE(malformed, malformation_variant_count()) << "seed " << seed;
    for (const MalformationRow& kind : malformation_rows()) {
      EXPECT_EQ(reached[kind.name].size(), kind.variants) << "seed " << seed << ": " << kind.name;
    }
  }
}

// A slip in MT19937's refill shows from the 312th draw (its last word) on;
// a default run skips to that draw, or to a later refill's, dozens of times,
// and past the first refill more often still, at any seed.
TEST(CaseGenerator, ReplaysSkipToTheRefillsOfRubysGenerator) {
  constexpr std::int64_t kDrawsPerRefill = 312;
  for (const std::uint64_t seed : {std::uint64_t{1}, std::uint64_t{7}, kSeed}) {
    CaseGenerator generator(seed, Profile::full);
    int to_last_word = 0;
    int past_first = 0;
    int most = 0;
    for (int i = 1; i <= 5000; ++i) {
      const GeneratedCase c = generator.next(i);
      const auto* request = std::get_if<Request>(&c.parsed);
      const auto* replay = request != nullptr ? std::get_if<ReplayCall>(&request->op) : nullptr;
      if (replay == nullptr) continue;
      const std::int64_t to_end = kDrawsPerRefill - 1 - replay->skip % kDrawsPerRefill;
      if (replay->skip > 0 && to_end < 4) ++to_last_word;
      if (replay->skip >= kDrawsPerRefill) ++past_first;
      if (replay->skip == kMaxReplaySkip) ++most;
    }
    EXPECT_GE(to_last_word, 40) << "seed " << seed;
    EXPECT_GE(past_first, 60) << "seed " << seed;
    EXPECT_GE(most, 1) << "seed " << seed;
  }
}

// The ops check sends are the rows of the protocol's table that give no
// reason check never sends them: an op the table marks so, or one it no
// longer marks, moves between kOpKinds and kOpsNotSentByCheck with it.
TEST(CaseGenerator, OpKindsAreTheProtocolsOpsCheckSends) {
  const std::span<const OpSpec> ops = protocol_ops();
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const bool a_kind = std::ranges::count(kOpKinds, i, [](OpKind kind) {
                          return static_cast<std::size_t>(kind);
                        }) == 1;
    EXPECT_EQ(a_kind, ops[i].not_sent_by_check.empty()) << ops[i].name;
  }
  for (const OpKind kind : kOpKinds) EXPECT_EQ(op_name(kind), op_spec(kind).name);
}

// Every op check sends, and every member of its row of the protocol's one
// table (protocol_ops, and every policy form with each of its fields and
// the copies) is sent in valid requests of a default run, each case's op
// the one its line names: an op or a member the generator stops sending,
// or one added to the protocol and never to the generator, fails here.
// "op.member", "form.field": a row of what a run sent.
std::string dotted(std::string_view outer, std::string_view inner) {
  std::string text(outer);
  text += '.';
  text += inner;
  return text;
}

// The drawn cases alone: the borders, fixed lines and far calls send every
// op by themselves, so with them a row dropped from the generator's tables
// would go unseen.
TEST(CaseGenerator, ReachesEveryOpAndMemberOfTheProtocolsTable) {
  CaseGenerator generator(kSeed, Profile::full);
  std::set<OpKind> ops;
  std::set<std::string> sent;  // "op.member", "factory.field"
  for (int i = 1; i <= 5000; ++i) {
    const GeneratedCase c = generator.next(i);
    if (c.kind != CaseKind::valid || c.source != CaseSource::drawn) continue;
    const auto* request = std::get_if<Request>(&c.parsed);
    ASSERT_NE(request, nullptr) << c.line.substr(0, 300);
    ASSERT_TRUE(c.op.has_value()) << c.line.substr(0, 300);
    ASSERT_EQ(request->op.index(), static_cast<std::size_t>(*c.op)) << c.line.substr(0, 300);
    ops.insert(*c.op);
    const nlohmann::json line = nlohmann::json::parse(c.line);
    for (const auto& [member, value] : line.items()) sent.insert(dotted(op_name(*c.op), member));
    const nlohmann::json& policy = line.at("policy");
    const std::string form = policy.value("factory", std::string("constructor"));
    for (const auto& [member, value] : policy.items()) sent.insert(dotted(form, member));
  }
  for (const OpKind op : kOpKinds) {
    EXPECT_EQ(ops.count(op), 1U) << "op never sent: " << op_name(op);
    for (const MemberRule& rule : op_spec(op).members) {
      EXPECT_EQ(sent.count(dotted(op_name(op), rule.name)), 1U)
          << "member never sent: " << op_name(op) << "." << rule.name;
    }
  }
  for (const Factory& factory : factories()) {
    const std::string form =
        factory.form == Form::constructor ? "constructor" : std::string(factory.name);
    for (const FactoryField& field : factory.fields) {
      EXPECT_EQ(sent.count(dotted(form, field.member)), 1U)
          << "policy field never sent: " << form << "." << field.member;
    }
    for (const std::string_view copy : kCopyMembers) {
      EXPECT_EQ(sent.count(dotted(form, copy)), 1U) << "copy never sent: " << form << "." << copy;
    }
  }
}

TEST(CaseGenerator, ReferenceProfileSendsOnlyWhatTheReferenceAnswersAlike) {
  CaseGenerator generator(kSeed, Profile::reference);
  for (int i = 1; i <= 2000; ++i) {
    const GeneratedCase c = generator.next(i);
    EXPECT_TRUE(core_answer(c.line).ok) << c.line.substr(0, 300);
    const auto* request = std::get_if<Request>(&c.parsed);
    ASSERT_NE(request, nullptr) << c.line.substr(0, 300);
    EXPECT_TRUE(reference_agrees(*request)) << c.line.substr(0, 300);
  }
}

// Each edge of the cost limit that a port mutant can hide behind is
// reached a few times in a default run: 5000 cases make 33 far calls, the
// rows of kFarCalls in turn, which reach the three regimes 17, 7 and 18
// times at this seed (4 of the age limit's 7 are its row's four turns; other
// cases reach the others too). The minimum of 3 each fails at once when the
// far calls are gone or a regime's rows are.
TEST(CaseGenerator, ADefaultRunReachesTheCostLimitsEdges) {
  constexpr model::Regime kEdges[] = {model::Regime::creeping_cap_far, model::Regime::age_limit_far,
                                      model::Regime::settles_at_cost_limit};
  CaseGenerator generator(kSeed, Profile::full);
  std::map<std::size_t, int> reached;
  for (int i = 1; i <= 5000; ++i) {
    const GeneratedCase c = generator.next(i);
    const auto* request = std::get_if<Request>(&c.parsed);
    if (request == nullptr) continue;
    for (const std::size_t row : regimes_of(*request, respond(*request))) ++reached[row];
  }
  for (const model::Regime edge : kEdges) {
    EXPECT_GE(reached[static_cast<std::size_t>(edge)], 3) << model::regime_name(edge);
    std::printf("%s: %d\n", std::string(model::regime_name(edge)).c_str(),
                reached[static_cast<std::size_t>(edge)]);
  }
}

// The numeric ids a port mangles go in turn, not by chance: every row at
// least twice in any 2000 cases (windows 500 apart here), as written, in a
// valid request the core answers with that id.
TEST(CaseGenerator, EveryNumericIdIsSentInTurn) {
  constexpr int kWindow = 2000;
  constexpr int kStep = 500;
  for (const Profile profile : {Profile::full, Profile::reference}) {
    CaseGenerator generator(kSeed, profile);
    std::vector<std::string_view> sent(5000);
    for (std::size_t i = 0; i < sent.size(); ++i) {
      const GeneratedCase c = generator.next(static_cast<std::int64_t>(i) + 1);
      sent[i] = c.numeric_id;
      if (c.numeric_id.empty()) continue;
      std::string_view text;
      for (const NumericIdRow& row : numeric_id_rows()) {
        if (row.name == c.numeric_id) text = row.text;
      }
      // As written, with any whitespace a layout puts around it.
      const std::regex written(
          "\"id\"[ \t\r]*:[ \t\r]*" +
          std::regex_replace(std::string(text), std::regex(R"([.+])"), R"(\$&)") + "[ \t\r]*,");
      EXPECT_TRUE(std::regex_search(c.line, written))
          << c.numeric_id << " not written as " << text << ": " << c.line.substr(0, 200);
      const auto* request = std::get_if<Request>(&c.parsed);
      ASSERT_NE(request, nullptr) << c.line.substr(0, 200);
      EXPECT_TRUE(same_id(request->id, core_answer(c.line).id)) << c.line.substr(0, 200);
    }
    for (std::size_t start = 0; start + kWindow <= sent.size(); start += kStep) {
      for (const NumericIdRow& row : numeric_id_rows()) {
        const auto times =
            std::count(sent.begin() + static_cast<std::ptrdiff_t>(start),
                       sent.begin() + static_cast<std::ptrdiff_t>(start + kWindow), row.name);
        EXPECT_GE(times, 2) << row.text << " (" << row.name << ") in cases " << start + 1 << " to "
                            << start + kWindow;
      }
    }
  }
}

TEST(CaseGenerator, TheSameSeedGivesTheSameLines) {
  CaseGenerator a(kSeed, Profile::full);
  CaseGenerator b(kSeed, Profile::full);
  CaseGenerator other(kSeed + 1, Profile::full);
  int differ = 0;
  for (int i = 1; i <= 500; ++i) {
    const std::string line = a.next(i).line;
    EXPECT_EQ(line, b.next(i).line);
    differ += line != other.next(i).line ? 1 : 0;
  }
  EXPECT_GT(differ, 400);
}

// A border case's answer, as the core writes it: {"id":["P","F","b"],
// "ok":true,"result":[]} and its LF, or (a number's landing) with the
// result 1e+300. Where F's closing quote (or the number's first byte) is,
// relative to the nearest power of two from 4 KiB to 1 MiB, and whether F
// is escaped: what the row promises, read off the answer itself.
struct Landed {
  std::size_t border = 0;
  long offset = 0;  // F's closing quote (the number's first byte) at border + offset
  bool escaped = false;
  bool number = false;
  std::size_t answer_bytes = 0;
  std::size_t filler_characters = 0;  // escaped: F's escapes
};
std::optional<Landed> landed(const GeneratedCase& c) {
  if (c.line.rfind("{\"id\":[\"", 0) != 0 || c.kind != CaseKind::valid) return std::nullopt;
  const std::string answer = format_answer(respond(c.parsed)) + "\n";
  // After F's closing quote: "b", and the result [] or a number's landing's.
  std::optional<std::string> tail;
  std::size_t number_bytes = 0;
  for (const std::string_view result : {"[]", "1e+300", "1e-300"}) {
    const std::string candidate = "\",\"b\"],\"ok\":true,\"result\":" + std::string(result) + "}\n";
    if (answer.size() >= candidate.size() + 11 &&
        answer.compare(answer.size() - candidate.size(), candidate.size(), candidate) == 0) {
      tail = candidate;
      number_bytes = result == "[]" ? 0 : result.size();
    }
  }
  if (!tail) return std::nullopt;
  Landed l;
  l.number = number_bytes > 0;
  l.answer_bytes = answer.size();
  const std::size_t quote = answer.size() - tail->size();
  const std::size_t filler = answer.rfind("\",\"", quote - 1) + 3;
  l.escaped = answer.compare(filler, 2, "\\u") == 0;
  l.filler_characters = l.escaped ? (quote - filler) / 6 : quote - filler;
  const std::size_t piece = l.number ? answer.size() - number_bytes - 2 : quote;
  for (std::size_t border = std::size_t{1} << 12; border <= std::size_t{1} << 20; border *= 2) {
    const long offset = static_cast<long>(piece) - static_cast<long>(border);
    if (offset >= -30 && offset <= 6) {
      l.border = border;
      l.offset = offset;
    }
  }
  return l;
}

// Every piece of an answer (the LF, a 1-character string's quotes, a long
// string's closing quote and last character, each byte of an escape) lands
// first past every border from 4 KiB to 64 KiB, with plain ASCII and with
// escaped content, and 12,000 escaped characters go past 64 KiB, in a
// default run at any seed: a port that makes a fresh buffer for each answer
// meets each in every run.
TEST(CaseGenerator, EveryBufferBorderLandingAtTheDefaultCaseCount) {
  const std::vector<long> both = {-29, -30, -2, -4, 0, -1};
  for (const std::uint64_t seed : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{20261202},
                                   std::uint64_t{0xdeadbeef}, kSeed}) {
    CaseGenerator generator(seed, Profile::full);
    std::set<std::tuple<std::size_t, long, bool>> reached;
    bool twelve_thousand = false;
    for (int i = 1; i <= 5000; ++i) {
      const GeneratedCase c = generator.next(i);
      const std::optional<Landed> l = landed(c);
      if (!l) continue;
      reached.insert({l->border, l->offset, l->escaped});
      if (l->escaped && l->filler_characters >= 11000 && l->answer_bytes > (1 << 16) + 4000)
        twelve_thousand = true;
    }
    for (std::size_t border = std::size_t{1} << 12; border <= std::size_t{1} << 16; border *= 2) {
      for (const bool escaped : {false, true}) {
        std::vector<long> offsets = both;
        if (escaped) offsets.insert(offsets.end(), {1, 2, 3, 4, 5, 6});
        if (!escaped) offsets.push_back(1);
        for (const long offset : offsets) {
          EXPECT_EQ(reached.count({border, offset, escaped}), 1U)
              << "seed " << seed << ": border " << border << ", closing quote at " << offset
              << (escaped ? ", escaped" : ", ASCII");
        }
      }
    }
    EXPECT_TRUE(twelve_thousand) << "seed " << seed;
  }
}

// The border and opening lines are written whole, their "op" by hand: each
// must be the op it is counted under, or a renamed op would leave them
// refused and counted as valid.
TEST(CaseGenerator, EveryBorderLineIsARequestOfItsOwnOp) {
  std::vector<generator::BorderCase> lines;
  for (std::size_t k = 1; k <= generator::opening_cases(); ++k) {
    if (std::optional<generator::BorderCase> opening = generator::opening_case(k, 7)) {
      lines.push_back(std::move(*opening));
    }
  }
  for (std::size_t turn = 0; turn < generator::border_case_count(); ++turn) {
    lines.push_back(generator::border_case_in_turn(turn));
  }
  ASSERT_GT(lines.size(), generator::border_case_count());
  for (const generator::BorderCase& border : lines) {
    const ParsedLine parsed = parse_request(border.line);
    const auto* request = std::get_if<Request>(&parsed);
    ASSERT_NE(request, nullptr) << border.name << ": " << border.line.substr(0, 200);
    EXPECT_EQ(request->op.index(), static_cast<std::size_t>(border.op))
        << border.name << ": " << border.line.substr(0, 200);
  }
}

// A port keeps its buffers, which only grow: a border is tested by the
// first line or answer of a conversation that crosses it. Every run, at any
// seed and in either profile, opens with a line past 4 KiB, then one past
// 64 KiB, and answers that cross 4 KiB to 256 KiB in ascending order, each
// with another piece on its border (at 256 KiB, numbers), before any drawn
// case.
TEST(CaseGenerator, EveryRunOpensWithLongLinesAndEveryBorderAscending) {
  for (const Profile profile : {Profile::full, Profile::reference}) {
    for (const std::uint64_t seed : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{20261202},
                                     std::uint64_t{0xdeadbeef}, kSeed}) {
      CaseGenerator generator(seed, profile);
      std::vector<GeneratedCase> first;
      for (int i = 1; i <= 10; ++i) first.push_back(generator.next(i));
      EXPECT_GT(first[0].line.size(), 4096U) << "seed " << seed;
      EXPECT_GT(first[1].line.size(), 65536U) << "seed " << seed;
      std::vector<std::tuple<std::size_t, long, bool>> borders;
      for (const GeneratedCase& c : first) {
        EXPECT_TRUE(core_answer(c.line).ok) << c.line.substr(0, 100);
        if (const std::optional<Landed> l = landed(c)) {
          borders.emplace_back(l->border, l->offset, l->number);
        }
      }
      // The last three: numbers before 256 KiB's border.
      const std::vector<std::tuple<std::size_t, long, bool>> expected = {
          {4096, -2, false},   {8192, 1, false},    {16384, -29, false},
          {32768, 0, false},   {65536, -29, false}, {131072, 0, false},
          {262144, -30, true}, {262144, -30, true}, {262144, -1, true}};
      EXPECT_EQ(borders, expected) << "seed " << seed;
    }
  }
}

}  // namespace
}  // namespace acemq::conformance
