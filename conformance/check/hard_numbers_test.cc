// The hard-numbers layout's promises: every text a value-keeping row writes
// reads back, correctly rounded, to exactly the bits it was written for (by
// strtod and by the core's request parser; compared as bits, never within
// a tolerance), so the line still asks what it asked; and every variant of
// every row is sent at the default case count, at any seed.
#include "conformance/check/hard_numbers.hpp"

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "conformance/check/case_generator.hpp"
#include "conformance/protocol/request.hpp"

namespace acemq::conformance {
namespace {

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

// A next_delay line whose one double past the id is `age`: every row that
// keeps values writes it, and only it.
std::string line_with_age(double age) {
  return R"({"id":1,"op":"next_delay","policy":{},"attempt":1,"message_age":)" +
         nlohmann::ordered_json(age).dump() + R"(,"jitter":false})";
}

// The text written in place of the age, between its member and the next.
std::string age_text(const std::string& line) {
  const std::string before = R"("message_age":)";
  const std::size_t start = line.find(before) + before.size();
  return line.substr(start, line.find(",\"jitter\"", start) - start);
}

// The doubles where rounding is hardest: zeros, the subnormals' ends, the
// normals' first, 1 and its neighbours, the powers of two (whose lower
// neighbour is half as far), the tie 10^23 sits on, DBL_MAX and its
// neighbour; then random bit patterns of every binade.
std::vector<double> hard_doubles() {
  std::vector<double> values = {0.0,
                                5e-324,
                                1e-323,
                                std::nextafter(DBL_MIN, 0.0),
                                DBL_MIN,
                                std::nextafter(DBL_MIN, 1.0),
                                1.0,
                                std::nextafter(1.0, 2.0),
                                std::nextafter(1.0, 0.0),
                                0.1,
                                0.5,
                                1.5,
                                2.0,
                                0x1p53,
                                9.999999999999999e22,
                                1e22,
                                1e23,
                                123.456,
                                std::nextafter(DBL_MAX, 0.0),
                                DBL_MAX};
  std::mt19937_64 engine(20261205);
  while (values.size() < 220) {
    const double x = std::bit_cast<double>(engine() >> 1U);  // positive
    if (std::isfinite(x)) values.push_back(x);
  }
  return values;
}

TEST(HardNumbers, EveryTextReadsBackToTheSameBits) {
  const std::vector<HardNumberRow> rows = hard_number_rows();
  const std::vector<double> values = hard_doubles();
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (!rows[r].keeps_value) continue;
    // A line of 1 MiB a value: the edge values only.
    const bool long_lines = rows[r].name.find("1 MiB") != std::string_view::npos;
    for (std::size_t variant = 0; variant < rows[r].variants; ++variant) {
      int written = 0;
      for (std::size_t i = 0; i < (long_lines ? 6 : values.size()); ++i) {
        for (const double value : {values[i], -values[i]}) {
          const std::string line = line_with_age(value);
          const std::optional<std::string> hard = hard_numbers_written(line, r, variant);
          if (!hard) continue;
          ++written;
          const std::string text = age_text(*hard);
          EXPECT_NE(text, age_text(line)) << rows[r].name << " variant " << variant;
          EXPECT_EQ(bits(std::strtod(text.c_str(), nullptr)), bits(value))
              << rows[r].name << " variant " << variant << ": " << text.substr(0, 900) << " is not "
              << nlohmann::json(value).dump();
          const ParsedLine parsed = parse_request(*hard);
          const auto* request = std::get_if<Request>(&parsed);
          ASSERT_NE(request, nullptr)
              << rows[r].name << " variant " << variant << ": "
              << std::get<Unanswerable>(parsed).refusal.message() << " in " << hard->substr(0, 300);
          EXPECT_EQ(bits(std::get<NextDelayCall>(request->op).message_age), bits(value))
              << rows[r].name << " variant " << variant << ": " << text.substr(0, 900);
        }
      }
      // Each variant writes many values (padded to 15 digits, only those of
      // 15 or fewer): a row that fits none would send nothing.
      EXPECT_GE(written, 12) << rows[r].name << " variant " << variant;
    }
  }
}

// The tie the rows are built on, as the contract's example writes it:
// 1 + 2^-53 in full is read as 1.0 (ties to even), and one more digit past
// 800 makes it 1 + 2^-52.
TEST(HardNumbers, OnePlusHalfAnUlpIsWrittenInFull) {
  const std::optional<std::string> tie = hard_numbers_written(line_with_age(1.0), 0, 0);
  ASSERT_TRUE(tie);
  EXPECT_EQ(age_text(*tie), "1.00000000000000011102230246251565404236316680908203125");
  const std::optional<std::string> above =
      hard_numbers_written(line_with_age(std::nextafter(1.0, 2.0)), 1, 2);
  ASSERT_TRUE(above);
  const std::string text = age_text(*above);
  EXPECT_EQ(text.substr(0, 55), "1.00000000000000011102230246251565404236316680908203125");
  EXPECT_EQ(text.size(), 802U);  // "1." and 800 more digits, the last a 1
  EXPECT_EQ(text.back(), '1');
}

// A value-keeping row keeps every number of a generated line, ids and
// integers untouched: the lines read as JSON are the same values, doubles
// compared by their bits.
bool same_values(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.is_number_float() || b.is_number_float()) {
    return a.is_number() && b.is_number() && bits(a.get<double>()) == bits(b.get<double>());
  }
  if (a.type() != b.type() || a.size() != b.size()) return false;
  if (a.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it) {
      if (!b.contains(it.key()) || !same_values(it.value(), b.at(it.key()))) return false;
    }
    return true;
  }
  if (a.is_array()) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!same_values(a[i], b[i])) return false;
    }
    return true;
  }
  return a == b;
}

TEST(HardNumbers, ValueKeepingRowsKeepEveryNumberOfAGeneratedLine) {
  const std::vector<HardNumberRow> rows = hard_number_rows();
  CaseGenerator generator(20261202, Profile::full);
  int rewritten = 0;
  for (int i = 1; i <= 300; ++i) {
    const GeneratedCase c = generator.next(i);
    if (c.kind != CaseKind::valid || !c.hard_number.empty()) continue;
    const nlohmann::json before = nlohmann::json::parse(c.line);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (!rows[r].keeps_value || rows[r].name.find("1 MiB") != std::string_view::npos) continue;
      for (std::size_t variant = 0; variant < rows[r].variants; ++variant) {
        const std::optional<std::string> hard = hard_numbers_written(c.line, r, variant);
        if (!hard) continue;
        ++rewritten;
        EXPECT_TRUE(same_values(before, nlohmann::json::parse(*hard)))
            << rows[r].name << " variant " << variant << ": " << c.line.substr(0, 300);
        EXPECT_EQ(parse_request(*hard).index(), c.parsed.index()) << c.line.substr(0, 300);
      }
    }
  }
  EXPECT_GT(rewritten, 2000);
}

// Every variant of every row at the default case count, at any seed (the
// five here stand for any): the row's turns go in turn, and a turn that
// fits no number of its line waits for the next. A value-keeping row's
// line stays a valid request; a text of fixed meaning's is valid, or
// counts as the malformed or invalid line it is.
TEST(HardNumbers, EveryVariantOfEveryRowAtTheDefaultCaseCount) {
  for (const std::uint64_t seed : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{20261202},
                                   std::uint64_t{0xdeadbeef}, std::uint64_t{20261201}}) {
    CaseGenerator generator(seed, Profile::full);
    std::map<std::string_view, std::set<std::size_t>> reached;
    int lines = 0;
    for (int i = 1; i <= 5000; ++i) {
      const GeneratedCase c = generator.next(i);
      if (c.hard_number.empty()) continue;
      ++lines;
      reached[c.hard_number].insert(c.variant);
      const bool is_request = std::holds_alternative<Request>(c.parsed);
      EXPECT_EQ(c.kind == CaseKind::valid, is_request)
          << c.hard_number << ": " << c.line.substr(0, 200);
    }
    EXPECT_GE(lines, static_cast<int>(hard_number_variant_count())) << "seed " << seed;
    for (const HardNumberRow& row : hard_number_rows()) {
      EXPECT_EQ(reached[row.name].size(), row.variants) << "seed " << seed << ": " << row.name;
    }
    std::printf("seed %llu: %d lines laid out with hard numbers\n",
                static_cast<unsigned long long>(seed), lines);
  }
}

// The reference profile never sends them: some change a line's meaning,
// and the Ruby reference's reader is not the contract's.
TEST(HardNumbers, NotInTheReferenceProfile) {
  CaseGenerator generator(20261202, Profile::reference);
  for (int i = 1; i <= 3000; ++i) EXPECT_TRUE(generator.next(i).hard_number.empty());
}

}  // namespace
}  // namespace acemq::conformance
