// The battery on data no uniform source makes: no library exception may
// escape it, and no p-value may be NaN or leave [0, 1].
//
// A port's adapter is untrusted (`retry-policy stats --impl`), so whatever
// numbers it answers reach every Boost distribution the battery uses
// (chi-square, binomial, normal, Student's t, Poisson, and the Kolmogorov
// law of kolmogorov.hpp). Seen failing before the battery guarded its
// statistics: draws all outside the jitter band clamp to one moment value,
// the lag-1 correlation is 0/0, and boost::math::cdf threw "Chi Square
// parameter was -nan" out of `retry-policy stats` (exit 2, no verdict).
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "stats/battery/battery.hpp"
#include "stats/battery/family.hpp"
#include "stats/battery/jobs.hpp"

namespace acemq::stats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Degenerate {
  const char* name;
  // The jittered delays of a cell of d = 2.5, f = 0.2 (band [2, 3]).
  std::function<double(std::mt19937_64&)> delay;
};

// Each a way an adapter's answer can be no uniform jitter at all.
const Degenerate kDegenerate[] = {
    {"all equal, in the band", [](std::mt19937_64&) { return 2.5; }},
    {"all equal, outside", [](std::mt19937_64&) { return 7.0; }},
    // u in [7.5, 12.5): distinct, but every one clamps to the moments' 2.
    {"random, all above the band",
     [](std::mt19937_64& e) { return 2.5 * (2.5 + std::generate_canonical<double, 53>(e)); }},
    {"random, all below the band",
     [](std::mt19937_64& e) { return -1e300 * std::generate_canonical<double, 53>(e); }},
    {"all NaN", [](std::mt19937_64&) { return kNaN; }},
    {"all +Infinity", [](std::mt19937_64&) { return kInf; }},
    {"all -Infinity", [](std::mt19937_64&) { return -kInf; }},
    {"NaN and Infinity alternating",
     [](std::mt19937_64& e) {
       if ((e() & 1U) != 0) return kNaN;
       return kInf;
     }},
    {"huge, random sign", [](std::mt19937_64& e) { return (e() & 1U) != 0 ? 1e308 : -1e308; }},
};

void expect_sane(const TestResult& t, const std::string& where) {
  EXPECT_FALSE(std::isnan(t.p_value)) << where << ": " << t.name;
  EXPECT_GE(t.p_value, 0.0) << where << ": " << t.name;
  EXPECT_LE(t.p_value, 1.0) << where << ": " << t.name;
}

class DegenerateSample : public testing::TestWithParam<std::size_t> {};

TEST_P(DegenerateSample, IsRejectedWithoutAnException) {
  const Degenerate& bad = kDegenerate[GetParam()];
  BatteryState state(BatteryConfig::for_samples(2.5, 0.2, kMinimumSamples));
  Accumulator accumulator;
  std::mt19937_64 engine(GetParam());
  std::vector<double> delays(kMinimumSamples);
  for (double& d : delays) d = bad.delay(engine);
  accumulator.begin(state, 0);
  accumulator.add_jittered(delays);
  accumulator.end();
  Analysis a;
  ASSERT_NO_THROW(a = analyze(state)) << bad.name;
  for (const TestResult& t : a.tests) expect_sane(t, bad.name);
  // Every one of these is data the null gives probability 0 (or out of the
  // band): the battery must say so, not crash.
  EXPECT_FALSE(rejected_by(a, state.range, per_test_alpha(family_size())).empty()) << bad.name;
}

std::string degenerate_name(const testing::TestParamInfo<std::size_t>& info) {
  std::string name = kDegenerate[info.param].name;
  for (char& c : name) {
    if (c == '-') c = 'm';  // "+Infinity" and "-Infinity" stay two names
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Stats, DegenerateSample,
                         testing::Range<std::size_t>(0, std::size(kDegenerate)), degenerate_name);

// n = 0: each single test on an empty state. analyze() refuses below
// kMinimumSamples (std::invalid_argument, documented); the tests it is made
// of must not throw either.
TEST(DegenerateSample, EachTestOnAnEmptyStateAnswersWithoutAnException) {
  const BatteryState empty(BatteryConfig::for_samples(2.5, 0.2, kMinimumSamples));
  ASSERT_NO_THROW(expect_sane(ks_test(empty.histogram), "empty"));
  ASSERT_NO_THROW(expect_sane(chi_square_test(empty.histogram), "empty"));
  ASSERT_NO_THROW(expect_sane(sign_test(empty.histogram), "empty"));
  ASSERT_NO_THROW(expect_sane(mirror_test(empty.histogram), "empty"));
  ASSERT_NO_THROW(expect_sane(mean_test(empty.moments), "empty"));
  ASSERT_NO_THROW(expect_sane(variance_test(empty.moments), "empty"));
  ASSERT_NO_THROW(expect_sane(runs_test(empty.runs), "empty"));
  ASSERT_NO_THROW(expect_sane(lag1_test(empty.moments), "empty"));
  ASSERT_NO_THROW(expect_sane(repeats_test(empty.repeats, 0.2), "empty"));
  // A repeat counted with no pairs (no window can hold one): the Poisson law
  // of mean 0 does not exist; the test must answer anyway.
  RepeatCounts impossible;
  impossible.count = 3;
  ASSERT_NO_THROW(expect_sane(repeats_test(impossible, 0.2), "repeats without pairs"));
  // One sample: no variance, no degrees of freedom for t.
  Moments one;
  one.add(0.5);
  one.end_segment();
  ASSERT_NO_THROW(expect_sane(mean_test(one), "one sample"));
  ASSERT_NO_THROW(expect_sane(variance_test(one), "one sample"));
  ASSERT_NO_THROW(expect_sane(lag1_test(one), "one sample"));
  EXPECT_THROW(static_cast<void>(analyze(empty)), std::invalid_argument);
}

}  // namespace
}  // namespace acemq::stats
