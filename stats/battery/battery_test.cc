// The streaming battery against the statistics computed directly on the
// samples it no longer keeps, and its states' merges: exact, in any order.
#include "stats/battery/battery.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <boost/math/statistics/ljung_box.hpp>
#include <boost/math/statistics/t_test.hpp>
#include <boost/math/statistics/univariate_statistics.hpp>

#include "acemq/model/unit_interval.hpp"
#include "stats/battery/runs.hpp"

namespace acemq::stats {
namespace {

std::vector<double> uniform_u(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::vector<double> u(n);
  for (double& x : u) x = 2.0 * model::unit_interval_from_bits(engine()) - 1.0;
  return u;
}

BatteryState state_of(const std::vector<std::vector<double>>& segments, int bits = 12) {
  BatteryState state(BatteryConfig{1.0, 0.5, bits});
  Accumulator accumulator;
  for (std::size_t s = 0; s < segments.size(); ++s) {
    accumulator.begin(state, s);
    accumulator.add_u(segments[s]);
    accumulator.end();
  }
  return state;
}

TEST(Battery, MomentsMatchBoostOnTheSample) {
  std::vector<double> u = uniform_u(50000, 1);
  // Some dependence and a shifted mean, so the statistics are not all near 0.
  for (std::size_t i = 1; i < u.size(); i += 3) u[i] = 0.6 * u[i - 1] + 0.1;
  const BatteryState state = state_of({u});
  const auto [mean, variance] = boost::math::statistics::mean_and_sample_variance(u);
  EXPECT_NEAR(state.moments.mean(), mean, 1e-9);
  EXPECT_NEAR(state.moments.sample_variance() / variance, 1.0, 1e-9);
  const Analysis a = analyze(state);
  const auto [t, p] = boost::math::statistics::one_sample_t_test(u, 0.0);
  EXPECT_NEAR(a.test(kMean).statistic / t, 1.0, 1e-8);
  const auto [q, q_p] = boost::math::statistics::ljung_box(u.begin(), u.end(), 1);
  EXPECT_NEAR(a.test(kLag1).statistic / q, 1.0, 1e-8);
  static_cast<void>(p);
  static_cast<void>(q_p);
}

TEST(Battery, RunsCountTheZeroCrossingsWithinSegments) {
  std::vector<double> first = uniform_u(3000, 2);
  std::vector<double> second = uniform_u(2000, 3);
  first[10] = 0.0;  // skipped: the pair is first[9], first[11]
  std::uint64_t pairs = 0;
  std::uint64_t changes = 0;
  for (const std::vector<double>* segment : {&first, &second}) {
    double last = 0.0;
    for (const double x : *segment) {
      if (x == 0.0) continue;
      if (last != 0.0) {
        ++pairs;
        changes += (x > 0.0) != (last > 0.0);
      }
      last = x;
    }
  }
  const BatteryState state = state_of({first, second});
  EXPECT_EQ(state.runs.pairs, pairs);
  EXPECT_EQ(state.runs.changes, changes);
  EXPECT_EQ(state.moments.segments(), 2U);
}

TEST(Battery, RepeatsCountCellsAlreadyTakenInTheirWindow) {
  // One segment of more than a window: two windows, repeats planted in each
  // and across them (which do not count).
  std::vector<double> u = uniform_u(kSegmentSamples + 5000, 4);
  u[7] = u[3];
  u[8] = u[3];
  u[kSegmentSamples + 10] = u[kSegmentSamples + 20];
  u[kSegmentSamples + 30] = u[100];
  // A different value in the same 2^-39 cell is a repeat too.
  u[200] = std::nextafter(u[201], 2.0);
  std::uint64_t expected = 0;
  for (const std::size_t start : {std::size_t{0}, std::size_t{kSegmentSamples}}) {
    const std::size_t end = std::min(u.size(), start + kSegmentSamples);
    std::vector<std::uint64_t> keys;
    for (std::size_t i = start; i < end; ++i) keys.push_back(cell_key(u[i]));
    std::sort(keys.begin(), keys.end());
    for (std::size_t i = 1; i < keys.size(); ++i) expected += keys[i] == keys[i - 1];
  }
  const BatteryState state = state_of({u});
  EXPECT_EQ(state.repeats.count, expected);
  EXPECT_GE(expected, 4U);
  EXPECT_EQ(state.repeats.windows, 2U);
  EXPECT_EQ(state.repeats.pairs, window_pairs(u.size()));
}

// A port in whole milliseconds answers 0 for a delay of 1e-300 at jitter
// factor 1: u = −1, the band's own edge, on every draw. Its keys are all the
// below-range cell, so the repeats are counted on the exact values: a stuck
// source repeats, delays that differ do not.
TEST(Battery, AStuckSourceRepeatsAtTheBandsEdge) {
  BatteryState stuck(BatteryConfig::for_samples(1e-300, 1.0, kMinimumSamples));
  Accumulator accumulator;
  const std::vector<double> zeros(kMinimumSamples, 0.0);
  accumulator.begin(stuck, 0);
  accumulator.add_jittered(zeros);
  accumulator.end();
  EXPECT_TRUE(stuck.range.ok());  // 0 is the lower bound of the band at f = 1
  EXPECT_EQ(stuck.repeats.count, kMinimumSamples - 1);
  EXPECT_EQ(analyze(stuck).test(kRepeats).p_value, 0.0);
  // Far below the band, all different: out of range, and no repeat.
  BatteryState below(BatteryConfig::for_samples(1.0, 0.5, kMinimumSamples));
  std::vector<double> spread(kMinimumSamples);
  for (std::size_t i = 0; i < spread.size(); ++i) spread[i] = 0.25 * static_cast<double>(i) / 1e6;
  accumulator.begin(below, 0);
  accumulator.add_jittered(spread);
  accumulator.end();
  EXPECT_FALSE(below.range.ok());
  EXPECT_EQ(below.repeats.count, 0U);
}

TEST(Battery, StatesMergeExactlyInAnyOrder) {
  const std::vector<double> a = uniform_u(20000, 5);
  const std::vector<double> b = uniform_u(30000, 6);
  const std::vector<double> c = uniform_u(25000, 7);
  const BatteryState all = state_of({a, b, c});
  BatteryState first = state_of({a});
  // Segments 1 and 2 in a state of their own: the same segment numbers.
  BatteryState rest(all.config);
  Accumulator accumulator;
  accumulator.begin(rest, 1);
  accumulator.add_u(b);
  accumulator.end();
  accumulator.begin(rest, 2);
  accumulator.add_u(std::span(c).first(10000));
  accumulator.add_u(std::span(c).subspan(10000));
  accumulator.end();
  BatteryState forward = first;
  forward.merge(rest);
  BatteryState backward = rest;
  backward.merge(first);
  EXPECT_TRUE(forward == all);
  EXPECT_TRUE(backward == all);
  EXPECT_EQ(analyze(forward).tests.size(), kTestsPerSample);
}

// Each row of the table runs the test it names, once, in the table's order:
// a row whose function is another test's would count one test twice in the
// family and leave one out.
TEST(Battery, EachRowOfTheTableRunsTheTestItNames) {
  const BatteryState state = state_of({uniform_u(20000, 7)});
  const Analysis analysis = analyze(state);
  ASSERT_EQ(analysis.tests.size(), std::size(kBatteryTests));
  std::set<std::string> names;
  for (std::size_t i = 0; i < std::size(kBatteryTests); ++i) {
    EXPECT_EQ(analysis.tests[i].name, kBatteryTests[i].name);
    EXPECT_EQ(kBatteryTests[i].run(state).name, kBatteryTests[i].name);
    names.insert(kBatteryTests[i].name);
  }
  EXPECT_EQ(names.size(), kTestsPerSample);
}

TEST(Battery, MergeRefusesAnotherCell) {
  BatteryState a(BatteryConfig{1.0, 0.5, 12});
  const BatteryState b(BatteryConfig{1.0, 0.2, 12});
  EXPECT_THROW(a.merge(b), std::invalid_argument);
}

TEST(Battery, NeedsEnoughSamples) {
  EXPECT_THROW(analyze(state_of({uniform_u(kMinimumSamples - 1, 8)})), std::invalid_argument);
  EXPECT_NO_THROW(analyze(state_of({uniform_u(kMinimumSamples, 8)})));
}

}  // namespace
}  // namespace acemq::stats
