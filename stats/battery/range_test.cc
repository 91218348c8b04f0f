// The exact range check and the rounding of u, both stated in
// range_check.hpp, checked against the real policy at every grid cell.
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "acemq/amqp/retry_policy.hpp"
#include "acemq/model/bits.hpp"
#include "acemq/model/edge_values.hpp"
#include "acemq/model/unit_interval.hpp"
#include "stats/battery/battery.hpp"
#include "stats/battery/grid.hpp"
#include "stats/battery/range_check.hpp"
#include "stats/battery/runs.hpp"

namespace acemq::stats {
namespace {

using amqp::RetryPolicy;
using amqp::Seconds;

constexpr double kTopDraw = model::edges::kLargestDraw;

using model::bits_of;

RetryPolicy policy(double factor) {
  return RetryPolicy({.max_attempts = 2, .jitter_factor = factor});
}

TEST(Range, EndsOfTheDrawMeetTheBounds) {
  for (const Cell& cell : grid()) {
    const double d = cell.delay_seconds();
    const RetryPolicy p = policy(cell.factor);
    EXPECT_EQ(bits_of(p.jittered_with_draw(Seconds{d}, 0.0).count()),
              bits_of(jitter_lower_bound(d, cell.factor)))
        << cell.name();
    EXPECT_LE(p.jittered_with_draw(Seconds{d}, kTopDraw).count(),
              jitter_upper_bound(d, cell.factor))
        << cell.name();
  }
}

TEST(Range, TheUpperBoundIsReachedSoTheCheckIsClosed) {
  // (1 − 2^-52)·0.5 + 1 = 1.5 − 2^-53 ties, and rounds to even: 1.5.
  const double d = Cell{.factor = 0.5}.delay_seconds();
  EXPECT_EQ(bits_of(policy(0.5).jittered_with_draw(Seconds{d}, kTopDraw).count()),
            bits_of(jitter_upper_bound(d, 0.5)));
}

TEST(Range, TheBatteryCountsEverythingOutsideIncludingNaN) {
  const double d = 2.0;
  const std::vector<double> values = {d * 0.8, d * 1.2, std::nextafter(d * 0.8, 0.0),
                                      std::nextafter(d * 1.2, 3.0),
                                      std::numeric_limits<double>::quiet_NaN()};
  BatteryState state(BatteryConfig{d, 0.2, kMinHistogramBits});
  Accumulator accumulator;
  accumulator.begin(state, 0);
  accumulator.add_jittered(values);
  accumulator.end();
  EXPECT_EQ(state.range.outside, 3U);
  EXPECT_EQ(bits_of(state.range.first_outside()), bits_of(std::nextafter(d * 0.8, 0.0)));
  // Each shown with its place in the call order, so a report can say which.
  ASSERT_EQ(state.range.shown_count(), 3U);
  EXPECT_EQ(state.range.shown[0].draw, 2U);
  EXPECT_EQ(state.range.shown[1].draw, 3U);
  EXPECT_EQ(bits_of(state.range.shown[1].value), bits_of(std::nextafter(d * 1.2, 3.0)));
  EXPECT_EQ(state.range.shown[2].draw, 4U);
  EXPECT_TRUE(std::isnan(state.range.shown[2].value));
}

TEST(Range, TheShownDelaysAreTheFirstByPlaceAcrossSegmentsAndChunks) {
  // Segment 1 begins at draw kSegmentSamples; its values come in two chunks.
  BatteryState state(BatteryConfig{2.0, 0.2, kMinHistogramBits});
  Accumulator accumulator;
  accumulator.begin(state, 1);
  const std::vector<double> first = {2.0, 9.0, 2.0};
  const std::vector<double> second = {8.0, 7.0, 6.0, 5.0};
  accumulator.add_jittered(first);
  accumulator.add_jittered(second);
  accumulator.end();
  EXPECT_EQ(state.range.outside, 5U);
  ASSERT_EQ(state.range.shown_count(), kShownOutside);
  const std::uint64_t base = kSegmentSamples;
  const std::pair<std::uint64_t, double> expected[] = {
      {base + 1, 9.0}, {base + 3, 8.0}, {base + 4, 7.0}, {base + 5, 6.0}};
  for (std::size_t i = 0; i < kShownOutside; ++i) {
    EXPECT_EQ(state.range.shown[i].draw, expected[i].first) << i;
    EXPECT_EQ(bits_of(state.range.shown[i].value), bits_of(expected[i].second)) << i;
  }
}

TEST(Range, TheFirstOutsideIsTheEarliestSegmentsWhateverTheMergeOrder) {
  RangeCheck early(2.0, 0.2);
  RangeCheck late(2.0, 0.2);
  early.add(5.0, 3);
  late.add(7.0, 9);
  RangeCheck a = late;
  a.merge(early);
  RangeCheck b = early;
  b.merge(late);
  EXPECT_EQ(bits_of(a.first_outside()), bits_of(5.0));
  EXPECT_EQ(bits_of(b.first_outside()), bits_of(5.0));
  EXPECT_EQ(a.outside, 2U);
  EXPECT_EQ(a.shown[1].draw, 9U);
  EXPECT_EQ(b.shown[1].draw, 9U);
}

TEST(Range, RoundingOfUStaysWithinTheStatedBound) {
  // |u − (2r − 1)| <= u_rounding_bound(f), which the repeats test's null
  // bound uses;
  // the draws near 0, 1/2 and 1 are where the roundings are largest.
  std::mt19937_64 engine(7);
  double largest_share = 0.0;
  for (const Cell& cell : grid()) {
    const double d = cell.delay_seconds();
    const RetryPolicy p = policy(cell.factor);
    const double bound = u_rounding_bound(cell.factor);
    double worst = 0.0;
    for (int i = 0; i < 20000; ++i) {
      double r = model::unit_interval_from_bits(engine());
      if (i < 64) {
        const int steps = i / 3;  // r near 0, 0.5 and 1, a few ulps either side
        r = (i % 3) * 0.5 + (i % 3 == 2 ? -0x1.0p-53 : 0x1.0p-53) * steps;
      }
      if (!(r >= 0.0 && r < 1.0)) continue;
      const double j = p.jittered_with_draw(Seconds{d}, r).count();
      const double u = u_of(j, d, cell.factor);
      worst = std::max(worst, std::abs(u - ((r * 2) - 1)));
    }
    EXPECT_LE(worst, bound) << cell.name();
    largest_share = std::max(largest_share, worst / bound);
  }
  std::cout << "largest rounding of u seen: " << largest_share << " of the bound\n";
}

}  // namespace
}  // namespace acemq::stats
