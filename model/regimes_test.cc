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

Options policy(std::int64_t max_attempts, double initial, double multiplier, double max_delay = 0.0,
               double max_age = 0.0) {
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
  EXPECT_TRUE(call(policy(10, 1.0, 2.0, 5.0), 4).has(Regime::cap_passed));
  EXPECT_FALSE(call(policy(10, 1.0, 2.0, 5.0), 3).has(Regime::cap_passed));
  EXPECT_FALSE(call(policy(10, 1.0, 2.0, 0.0), 4).has(Regime::cap_passed));
}

TEST(ModelRegimes, APartialWalkDecidesTheCapOnlyForAGrowingValue) {
  // 2^20 steps in, a doubling value is past the cap and stays so.
  EXPECT_TRUE(call(policy(kInt64Max, 1.0, 2.0, 5.0), 1 << 20, 0.0, 100).has(Regime::cap_passed));
  // A halving value past the cap at step 100 may fall below it later.
  EXPECT_FALSE(call(policy(kInt64Max, 1e300, 0.5, 5.0), 1 << 20, 0.0, 100).has(Regime::cap_passed));
  EXPECT_TRUE(call(policy(kInt64Max, 1e300, 0.5, 5.0), 50, 0.0, 100).has(Regime::cap_passed));
}

TEST(ModelRegimes, MultiplierBelowOnePastTheFirstEntryOfACallThatAnswers) {
  EXPECT_TRUE(call(policy(10, 1.0, 0.5), 2).has(Regime::multiplier_below_one));
  EXPECT_FALSE(call(policy(10, 1.0, 0.5), 1).has(Regime::multiplier_below_one));
  EXPECT_FALSE(call(policy(3, 1.0, 0.5), 5).has(Regime::multiplier_below_one));  // gives up
}

TEST(ModelRegimes, NegativeZeroAndOverflowFromTheRunningValue) {
  // 1 · -0.0 = -0.0 before entry 2.
  EXPECT_TRUE(call(policy(10, 1.0, -0.0), 2).has(Regime::negative_zero));
  EXPECT_TRUE(call(policy(10, 1e300, 1e10), 3).has(Regime::overflow));
  EXPECT_FALSE(call(policy(10, 1e300, 1e10), 1).has(Regime::overflow));
}

TEST(ModelRegimes, AgeAtTheLimitOrAnUlpEitherSide) {
  const Options o = policy(10, 1.0, 2.0, 0.0, 30.0);
  EXPECT_TRUE(call(o, 1, 30.0).has(Regime::age_at_limit));
  EXPECT_TRUE(call(o, 1, std::nextafter(30.0, 0.0)).has(Regime::age_at_limit));
  EXPECT_TRUE(call(o, 1, std::nextafter(30.0, 100.0)).has(Regime::age_at_limit));  // gives up
  EXPECT_FALSE(call(o, 1, 29.0).has(Regime::age_at_limit));
  EXPECT_FALSE(call(policy(10, 1.0, 2.0), 1, 0.0).has(Regime::age_at_limit));  // no limit
}

TEST(ModelRegimes, AttemptsPastThePrefixAndHugeEvenWhenGivingUp) {
  EXPECT_TRUE(call(policy(10, 1.0, 2.0), kRemembered + 1).has(Regime::past_remembered_prefix));
  EXPECT_FALSE(call(policy(100, 1.0, 2.0), kRemembered).has(Regime::past_remembered_prefix));
  const std::int64_t huge = model::kHugeAttemptSteps + 2;
  EXPECT_TRUE(call(policy(10, 1.0, 2.0), huge).has(Regime::huge_attempt));
  EXPECT_FALSE(call(policy(kInt64Max, 1.0, 2.0), huge - 1).has(Regime::huge_attempt));
}

TEST(ModelRegimes, ScheduleLooksAtItsFirstAndLastEntries) {
  EXPECT_TRUE(model::regimes_of_schedule(policy(5, 1.0, 2.0, 5.0), 1000).has(Regime::cap_passed));
  EXPECT_FALSE(model::regimes_of_schedule(policy(4, 1.0, 2.0, 5.0), 1000).has(Regime::cap_passed));
  EXPECT_TRUE(
      model::regimes_of_schedule(policy(5, 1.0, 0.5), 1000).has(Regime::multiplier_below_one));
  EXPECT_TRUE(model::regimes_of_schedule(policy(1, -0.0, 2.0), 1000).has(Regime::negative_zero));
}

}  // namespace
