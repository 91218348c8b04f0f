// The figures the conformance docs quote of the generator (how often a
// row's turn comes, how many turns a table has, how many cases of a kind a
// default run sends), held to the code that owns them: a change of a
// cadence or a table fails here until conformance/README.md and
// check/README.md say what the generator does.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "conformance/check/buffer_borders.hpp"
#include "conformance/check/case_generator.hpp"
#include "conformance/check/check.hpp"
#include "conformance/check/far_calls.hpp"
#include "conformance/check/fixed_lines.hpp"
#include "conformance/check/hard_numbers.hpp"
#include "conformance/check/wire_variants.hpp"

namespace acemq::conformance {
namespace {

// A document as one line, each run of whitespace one blank: the docs wrap
// their sentences anywhere.
std::string flattened(const std::string& relative) {
  std::ifstream in(std::string(ACEMQ_SOURCE_DIR) + "/" + relative);
  EXPECT_TRUE(in) << relative;
  std::ostringstream text;
  text << in.rdbuf();
  return std::regex_replace(text.str(), std::regex(R"(\s+)"), " ");
}

// English ordinals as the docs write them: 52nd, 73rd, 37th, 128th.
std::string ordinal(std::size_t n) {
  const std::size_t tens = n % 100;
  const std::size_t ones = n % 10;
  const char* suffix = (tens >= 11 && tens <= 13) ? "th"
                       : ones == 1                ? "st"
                       : ones == 2                ? "nd"
                       : ones == 3                ? "rd"
                                                  : "th";
  return std::to_string(n) + suffix;
}

// A count as prose writes it: 5,000, 12,000.
std::string thousands(std::size_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// How many cases of each sort a default run of the full profile sends,
// averaged over five seeds: what the docs' "about N a run" says.
struct RunCounts {
  double invalid = 0;
  double malformed = 0;
  double hard_numbers = 0;
  double fixed_lines = 0;
};

const RunCounts& default_run_counts() {
  static const RunCounts counts = [] {
    const std::uint64_t seeds[] = {1, 7, 20261201, 20261202, 0xdeadbeef};
    const std::int64_t cases = CheckOptions{}.cases;
    RunCounts sum;
    for (const std::uint64_t seed : seeds) {
      CaseGenerator generator(seed, Profile::full);
      for (std::int64_t id = 1; id <= cases; ++id) {
        const GeneratedCase made = generator.next(id);
        sum.invalid += made.kind == CaseKind::invalid;
        sum.malformed += made.kind == CaseKind::malformed;
        sum.hard_numbers += !made.hard_number.empty();
        sum.fixed_lines += !made.fixed_line.empty();
      }
    }
    const double n = std::size(seeds);
    return RunCounts{sum.invalid / n, sum.malformed / n, sum.hard_numbers / n, sum.fixed_lines / n};
  }();
  return counts;
}

// One quoted figure: the document's words around it, as a pattern whose
// one group is the figure, and the text the code gives for it.
struct Exact {
  const char* document;
  const char* pattern;
  std::string figure;
};

// One "about N": the code's count, which N may miss by a tenth.
struct About {
  const char* document;
  const char* pattern;
  double count;
};

constexpr const char* kReadme = "conformance/README.md";
constexpr const char* kCheckReadme = "conformance/check/README.md";

std::vector<Exact> exact_figures() {
  const auto text = [](std::size_t n) { return std::to_string(n); };
  const auto kib = [](std::size_t bytes) { return std::to_string(bytes >> 10); };
  const auto every = [](std::int64_t n) { return ordinal(static_cast<std::size_t>(n)); };
  return {
      {kReadme, R"(every (\w+) generated case and the 1 to 7 after it)", every(kBurstEvery)},
      {kReadme, R"(one of them padded to (\d+) KiB)", kib(kBurstLongLine)},
      {kReadme, R"(one burst of at most (\d+) KiB)", kib(kBurstBytes)},
      {kReadme, R"(then every (\w+) case puts each piece of an answer)",
       ordinal(generator::kBorderEvery)},
      {kReadme, R"(every (\w+) valid request has, in turn,)", ordinal(generator::kNumericIdEvery)},
      {kReadme, R"(in turn, one of (\d+) numbers that show a port reading ids)",
       text(numeric_id_rows().size())},
      {kReadme, R"(so that a ([\d,]+)-case run \(about \d+ invalid cases)",
       thousands(static_cast<std::size_t>(CheckOptions{}.cases))},
      {kReadme, R"(\(check/hard_numbers.cc\)\), (\d+) turns in all)",
       text(hard_number_variant_count())},
      {kReadme, R"(after the opening, every (\w+) case \(full profile\) is the next of the fixed)",
       ordinal(generator::kFixedEvery)},
      {kCheckReadme, R"(every (\w+) generated case and the 1 to 7 after it)", every(kBurstEvery)},
      {kCheckReadme, R"(requests of fixed meaning sent in turn every (\w+) case)",
       ordinal(generator::kFixedEvery)},
      {kCheckReadme, R"(next_delay calls at the cost limit's edges, every (\w+) case)",
       ordinal(generator::kFarCallEvery)},
      {kCheckReadme, R"(every (\w+) case is a far call)", ordinal(generator::kFarCallEvery)},
      {kCheckReadme, R"(and their variants in turn \((\d+) a run of 5000)",
       text(5000 / generator::kFarCallEvery)},
      {kCheckReadme, R"(all of them end to end \((\d+), about)", text(invalid_variant_count())},
      {kCheckReadme, R"(every (\w+) valid case takes the next of `kNumericIds`)",
       ordinal(generator::kNumericIdEvery)},
      {kCheckReadme, R"(the next of `kHardNumbers`' (\d+) turns)",
       text(hard_number_variant_count())},
      {kCheckReadme, R"(every run opens with (\d+) cases)", text(generator::opening_cases())},
      {kCheckReadme, R"(Then every (\w+) case is the next of `kLandings`')",
       ordinal(generator::kBorderEvery)},
      {kCheckReadme, R"(the next of `kLandings`' (\d+) cases)",
       text(generator::border_case_count())},
  };
}

std::vector<About> about_figures() {
  const RunCounts& run = default_run_counts();
  return {
      {kReadme, R"(about (\d+) invalid cases, more than all the rules' variants)", run.invalid},
      {kReadme, R"(5,000-case run, about (\d+) malformed lines)", run.malformed},
      {kReadme, R"(about (\d+) lines a run \(full profile\) take the next turn of `kHardNumbers`)",
       run.hard_numbers},
      {kReadme, R"(is the next of the fixed lines, about (\d+) a run)", run.fixed_lines},
      {kCheckReadme, R"(end to end \(\d+, about (\d+) invalid cases a default run\))", run.invalid},
      {kCheckReadme, R"(about (\d+) lines a run\) takes the next of `kHardNumbers`')",
       run.hard_numbers},
  };
}

std::string quoted(const char* document, const char* pattern) {
  std::smatch match;
  const std::string text = flattened(document);
  if (!std::regex_search(text, match, std::regex(pattern))) return {};
  return match[1].str();
}

TEST(DocsFigures, CadencesAndTableSizesAreTheCodes) {
  for (const Exact& claim : exact_figures()) {
    const std::string stated = quoted(claim.document, claim.pattern);
    EXPECT_FALSE(stated.empty()) << claim.document << " no longer says /" << claim.pattern
                                 << "/: if the figure went, take its row out of this test";
    if (!stated.empty()) {
      EXPECT_EQ(stated, claim.figure)
          << claim.document << ", /" << claim.pattern << "/: make the docs say what the code does";
    }
  }
}

TEST(DocsFigures, ARunsCountsAreWithinATenthOfTheGenerators) {
  for (const About& claim : about_figures()) {
    const std::string stated = quoted(claim.document, claim.pattern);
    EXPECT_FALSE(stated.empty()) << claim.document << " no longer says /" << claim.pattern << "/";
    if (!stated.empty()) {
      EXPECT_LE(std::abs(std::stod(stated) - claim.count), claim.count / 10)
          << claim.document << ", /" << claim.pattern << "/: the generator sends " << claim.count
          << " a default run, averaged over five seeds";
    }
  }
}

}  // namespace
}  // namespace acemq::conformance
