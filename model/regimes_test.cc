// The regimes, one worked case each way: the properties' minimum shares and
// check's tally both count with these functions, so a regime that is judged
// wrongly would make both report coverage that is not there.
#include "acemq/model/regimes.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

namespace {

using acemq::amqp::Seconds;
using acemq::model::Options;
using acemq::model::Regime;
namespace model = acemq::model;

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kRemembered = 16;

Options options_of(std::int64_t max_attempts, double initial, double multiplier,
                   double max_delay = 0.0, double max_age = 0.0) {
  return Options{.max_attempts = max_attempts,
                 .initial_delay = Seconds{initial},
                 .multiplier = multiplier,
                 .max_delay = Seconds{max_delay},
                 .jitter_factor = 0.0,
                 .max_message_age = Seconds{max_age}};
}

model::Regimes call(const Options& o, std::int64_t attempt, double age = 0.0,
                    std::int64_t walk_limit = 1000) {
  return model::regimes_of_call(o, attempt, age, kRemembered, walk_limit);
}

TEST(ModelRegimes, RowsAreInTheEnumsOrder) {
  for (std::size_t i = 0; i < model::kRegimeCount; ++i) {
    EXPECT_EQ(static_cast<std::size_t>(model::kRegimeRows[i].regime), i);
  }
}

TEST(ModelRegimes, ValuesAreSignedZerosSubnormalsAndOverflow) {
  EXPECT_TRUE(model::regimes_of_value(-0.0).has(Regime::negative_zero));
  EXPECT_FALSE(model::regimes_of_value(0.0).has(Regime::negative_zero));
  EXPECT_TRUE(
      model::regimes_of_value(std::numeric_limits<double>::denorm_min()).has(Regime::subnormal));
  EXPECT_FALSE(model::regimes_of_value(std::numeric_limits<double>::min()).has(Regime::subnormal));
  EXPECT_TRUE(model::regimes_of_value(HUGE_VAL, true).has(Regime::overflow));
  EXPECT_FALSE(model::regimes_of_value(HUGE_VAL, false).has(Regime::overflow));
}

TEST(ModelRegimes, CapPassedOnlyPastAPositiveCap) {
  // Running values 1, 2, 4, 8: entry 4 comes from 8, past a cap of 5.
  EXPECT_TRUE(call(options_of(10, 1.0, 2.0, 5.0), 4).has(Regime::cap_passed));
  EXPECT_FALSE(call(options_of(10, 1.0, 2.0, 5.0), 3).has(Regime::cap_passed));
  EXPECT_FALSE(call(options_of(10, 1.0, 2.0, 0.0), 4).has(Regime::cap_passed));
}

TEST(ModelRegimes, APartialWalkDecidesTheCapOnlyForAGrowingValue) {
  // 2^20 steps in, a doubling value is past the cap and stays so.
  EXPECT_TRUE(
      call(options_of(kInt64Max, 1.0, 2.0, 5.0), 1 << 20, 0.0, 100).has(Regime::cap_passed));
  // A halving value past the cap at step 100 may fall below it later.
  EXPECT_FALSE(
      call(options_of(kInt64Max, 1e300, 0.5, 5.0), 1 << 20, 0.0, 100).has(Regime::cap_passed));
  EXPECT_TRUE(call(options_of(kInt64Max, 1e300, 0.5, 5.0), 50, 0.0, 100).has(Regime::cap_passed));
}

TEST(ModelRegimes, MultiplierBelowOnePastTheFirstEntryOfACallThatAnswers) {
  EXPECT_TRUE(call(options_of(10, 1.0, 0.5), 2).has(Regime::multiplier_below_one));
  EXPECT_FALSE(call(options_of(10, 1.0, 0.5), 1).has(Regime::multiplier_below_one));
  EXPECT_FALSE(call(options_of(3, 1.0, 0.5), 5).has(Regime::multiplier_below_one));  // gives up
}

TEST(ModelRegimes, NegativeZeroAndOverflowFromTheRunningValue) {
  // 1 · -0.0 = -0.0 before entry 2.
  EXPECT_TRUE(call(options_of(10, 1.0, -0.0), 2).has(Regime::negative_zero));
  EXPECT_TRUE(call(options_of(10, 1e300, 1e10), 3).has(Regime::overflow));
  EXPECT_FALSE(call(options_of(10, 1e300, 1e10), 1).has(Regime::overflow));
}

TEST(ModelRegimes, AgeAtTheLimitOrAnUlpEitherSide) {
  const Options o = options_of(10, 1.0, 2.0, 0.0, 30.0);
  EXPECT_TRUE(call(o, 1, 30.0).has(Regime::age_at_limit));
  EXPECT_TRUE(call(o, 1, std::nextafter(30.0, 0.0)).has(Regime::age_at_limit));
  EXPECT_TRUE(call(o, 1, std::nextafter(30.0, 100.0)).has(Regime::age_at_limit));  // gives up
  EXPECT_FALSE(call(o, 1, 29.0).has(Regime::age_at_limit));
  EXPECT_FALSE(call(options_of(10, 1.0, 2.0), 1, 0.0).has(Regime::age_at_limit));  // no limit
}

TEST(ModelRegimes, AttemptsPastThePrefixAndHugeEvenWhenGivingUp) {
  EXPECT_TRUE(call(options_of(10, 1.0, 2.0), kRemembered + 1).has(Regime::past_remembered_prefix));
  EXPECT_FALSE(call(options_of(100, 1.0, 2.0), kRemembered).has(Regime::past_remembered_prefix));
  const std::int64_t huge = model::kHugeAttemptSteps + 2;
  EXPECT_TRUE(call(options_of(10, 1.0, 2.0), huge).has(Regime::huge_attempt));
  EXPECT_FALSE(call(options_of(kInt64Max, 1.0, 2.0), huge - 1).has(Regime::huge_attempt));
}

TEST(ModelRegimes, ScheduleLooksAtItsFirstAndLastEntries) {
  EXPECT_TRUE(
      model::regimes_of_schedule(options_of(5, 1.0, 2.0, 5.0), 1000).has(Regime::cap_passed));
  EXPECT_FALSE(
      model::regimes_of_schedule(options_of(4, 1.0, 2.0, 5.0), 1000).has(Regime::cap_passed));
  EXPECT_TRUE(
      model::regimes_of_schedule(options_of(5, 1.0, 0.5), 1000).has(Regime::multiplier_below_one));
  EXPECT_TRUE(
      model::regimes_of_schedule(options_of(1, -0.0, 2.0), 1000).has(Regime::negative_zero));
}

// The cost limit's regimes, on the sharp cases of conformance/vectors
// (cost-limit-*): a far attempt is 2^20 + 2 or more.
constexpr std::int64_t kFar = std::int64_t{1} << 40;
constexpr double kUlpAboveOne = 1.0 + 0x1p-52;
constexpr double kUlpBelowOne = 1.0 - 0x1p-53;

model::Regimes far_call(const Options& o, std::int64_t attempt = kFar, double age = 0.0) {
  return call(o, attempt, age, model::kCostEdgeWalk);
}

TEST(ModelRegimes, CreepingUnderACapOnlyForAFarCallWithAMultiplierWithin2ToTheMinus40OfOne) {
  EXPECT_TRUE(
      far_call(options_of(kInt64Max, 1.0, kUlpAboveOne, 2.0)).has(Regime::creeping_cap_far));
  EXPECT_TRUE(
      far_call(options_of(kInt64Max, 1.0, kUlpBelowOne, 0.5)).has(Regime::creeping_cap_far));
  EXPECT_FALSE(far_call(options_of(kInt64Max, 1.0, 1.0, 2.0)).has(Regime::creeping_cap_far));
  EXPECT_FALSE(far_call(options_of(kInt64Max, 1.0, kUlpAboveOne)).has(Regime::creeping_cap_far));
  EXPECT_FALSE(
      far_call(options_of(kInt64Max, 1.0, 1.0 + 0x1p-39, 2.0)).has(Regime::creeping_cap_far));
  const std::int64_t near = model::kHugeAttemptSteps + 1;
  EXPECT_FALSE(
      far_call(options_of(kInt64Max, 1.0, kUlpAboveOne, 2.0), near).has(Regime::creeping_cap_far));
}

TEST(ModelRegimes, AnAgeLimitOnAFarCallOnlyWhereTheWalkDoesNotSettle) {
  const Options unsettled = options_of(kInt64Max, 1.0, 1.000000001, 0.0, 60.0);
  EXPECT_TRUE(far_call(unsettled, kFar, 60.0).has(Regime::age_limit_far));  // gives up
  EXPECT_TRUE(far_call(unsettled, kFar, 59.0).has(Regime::age_limit_far));  // refused
  // Doubling overflows to a fixed point within 1100 steps: settled.
  EXPECT_FALSE(
      far_call(options_of(kInt64Max, 1.0, 2.0, 0.0, 60.0), kFar, 60.0).has(Regime::age_limit_far));
  EXPECT_FALSE(far_call(options_of(kInt64Max, 1.0, 1.000000001), kFar).has(Regime::age_limit_far));
  // A walk too short to decide reports nothing.
  EXPECT_FALSE(call(unsettled, kFar, 60.0, 1000).has(Regime::age_limit_far));
}

TEST(ModelRegimes, SettlingWithinAStepOfTheCostLimit) {
  // 2^-1022 + K * 2^-1074 under multiplier 1 - 2^-53 reaches its fixed
  // point after K steps; the multiplication that shows it makes K + 1.
  const auto fixed_point_after = [](std::int64_t steps) {
    const double initial = std::ldexp(static_cast<double>((std::int64_t{1} << 52) + steps), -1074);
    return options_of(kInt64Max, initial, kUlpBelowOne);
  };
  const std::int64_t limit = model::kHugeAttemptSteps;
  EXPECT_FALSE(far_call(fixed_point_after(limit - 3)).has(Regime::settles_at_cost_limit));
  EXPECT_TRUE(far_call(fixed_point_after(limit - 2)).has(Regime::settles_at_cost_limit));
  EXPECT_TRUE(far_call(fixed_point_after(limit)).has(Regime::settles_at_cost_limit));
  EXPECT_FALSE(far_call(fixed_point_after(limit + 1)).has(Regime::settles_at_cost_limit));
  // Giving up walks nothing.
  Options aged = fixed_point_after(limit);
  aged.max_message_age = Seconds{60.0};
  EXPECT_FALSE(far_call(aged, kFar, 60.0).has(Regime::settles_at_cost_limit));
  EXPECT_FALSE(call(fixed_point_after(limit), kFar, 0.0, 1000).has(Regime::settles_at_cost_limit));
}

}  // namespace
