// The model against the Ruby reference's own answers: the worked examples of
// docs/contract.md §6, each produced by Ruby 3.1. The model is what every
// harness trusts, so it answers to Ruby directly, never to the core.
#include "acemq/model/contract.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "acemq/model/bits.hpp"
#include "acemq/model/edge_values.hpp"
#include "acemq/model/ruby_rand.hpp"

namespace {

using acemq::amqp::Seconds;
using acemq::model::bits_of;
using acemq::model::Options;
using acemq::model::Rejected;
namespace model = acemq::model;

constexpr double kInf = std::numeric_limits<double>::infinity();

Options policy(std::int64_t max_attempts, double initial, double multiplier = 2.0,
               double max_delay = 0.0, double jitter = 0.0, double max_age = 0.0) {
  return Options{.max_attempts = max_attempts,
                 .initial_delay = Seconds{initial},
                 .multiplier = multiplier,
                 .max_delay = Seconds{max_delay},
                 .jitter_factor = jitter,
                 .max_message_age = Seconds{max_age}};
}

void expect_bits(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(bits_of(got[i]), bits_of(want[i])) << "entry " << i << ": " << got[i];
  }
}

TEST(ModelSchedule, WorkedExamples) {
  expect_bits(model::schedule(policy(5, 0.5, 2.0, 3.0, 0.2)), {0.5, 1.0, 2.0, 3.0});
  expect_bits(model::schedule(policy(10, 0.5, 2.0, 30.0, 0.2)),
              {0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0});
  // The cap applies to each entry, never to the running value.
  expect_bits(model::schedule(policy(6, 100, 0.5, 30)), {30.0, 30.0, 25.0, 12.5, 6.25});
  // Rounded at every step: the closed form 0.1 * 3^2 is 0.9.
  expect_bits(model::schedule(policy(4, 0.1, 3)), {0.1, 0.30000000000000004, 0.9000000000000001});
  expect_bits(model::schedule(policy(6, 7, -0.0)), {7.0, -0.0, 0.0, -0.0, 0.0});
  EXPECT_EQ(model::schedule(policy(1100, 1, 2)).back(), kInf);
  EXPECT_TRUE(model::schedule(policy(1, 5)).empty());
}

TEST(ModelJittered, WorkedExamples) {
  EXPECT_EQ(bits_of(model::jittered(0.2, 1.5, 0.0)), bits_of(1.2000000000000002));
  EXPECT_EQ(bits_of(model::jittered(0.3, 0.7, 0x1.5876015e4d702p-6)), bits_of(0.4988301759350254));
  EXPECT_EQ(bits_of(model::jittered(0.5, 8.0, model::edges::kLargestDraw)), bits_of(12.0));
  // The contract's one NaN, kept as +Infinity, up to the largest draw that
  // rounds 2r - 1 to -1 and not beyond it.
  EXPECT_EQ(model::jittered(1.0, kInf, model::edges::kLargestDrawRoundingToMinusOne), kInf);
  EXPECT_EQ(model::jittered(1.0, kInf, model::edges::kSmallestPositiveDraw), kInf);
  // No draw is read where jitter does not apply, so a bad one passes there.
  EXPECT_EQ(bits_of(model::jittered(0.0, 3.0, 7.0)), bits_of(3.0));
  EXPECT_EQ(bits_of(model::jittered(0.5, -0.0, 7.0)), bits_of(-0.0));
  EXPECT_THROW((void)model::jittered(0.5, 3.0, 1.0), Rejected);
  EXPECT_THROW((void)model::jittered(0.5, std::numeric_limits<double>::quiet_NaN(), 0.5), Rejected);
}

TEST(ModelNextDelay, WorkedExamples) {
  EXPECT_EQ(bits_of(*model::next_delay(policy(3, 5, 2, 0, 1), 1, 0.0, 0.0).delay), bits_of(0.0));
  EXPECT_EQ(bits_of(*model::next_delay(policy(4, 1, 0.5, 0.3, 0.5), 3, 0.0, 0.999).delay),
            bits_of(0.37475));
  EXPECT_FALSE(model::next_delay(policy(3, 1, 1), 3, 0.0).has_value());
  // The age limit is inclusive.
  EXPECT_FALSE(model::next_delay(policy(5, 1, 2, 0, 0, 60), 1, 60.0).has_value());
  EXPECT_TRUE(model::next_delay(policy(5, 1, 2, 0, 0, 60), 1, 59.999).has_value());
  // A clamped -0.0 keeps its sign, as Ruby's [delay, 0.0].max does.
  EXPECT_EQ(bits_of(*model::next_delay(policy(6, 7, -0.0), 2, 0.0)), bits_of(-0.0));
  EXPECT_THROW((void)model::next_delay(policy(6, 7), 0, 0.0), Rejected);
}

TEST(ModelNextDelay, ReplaysSeed42) {
  // exponential(5, 0.5), srand(42), next_delay(1..5).
  const Options o = policy(5, 0.5, 2.0, 0.0, 0.2);
  model::RubyRand rand(42);
  std::vector<double> got;
  for (std::int64_t attempt = 1; attempt <= 4; ++attempt) {
    const model::Jittered j = model::next_delay(o, attempt, 0.0, rand());
    ASSERT_TRUE(j.drew);
    got.push_back(*j.delay);
  }
  expect_bits(got, {0.4749080237694725, 1.1802857225639665, 2.1855951534491243, 4.157853574715259});
  const model::Jittered last = model::next_delay(o, 5, 0.0, 0.5);
  EXPECT_FALSE(last.delay.has_value());
  EXPECT_FALSE(last.drew);
}

TEST(ModelValidation, NamesTheFirstBadField) {
  EXPECT_EQ(model::first_invalid_field(policy(1, 0)), std::nullopt);
  EXPECT_EQ(model::first_invalid_field(policy(1, -0.0, -0.0, -0.0, -0.0, -0.0)), std::nullopt);
  EXPECT_EQ(model::first_invalid_field(policy(0, -1)), acemq::amqp::Parameter::max_attempts);
  EXPECT_EQ(model::first_invalid_field(policy(1, -1, -1)), acemq::amqp::Parameter::initial_delay);
  EXPECT_EQ(model::first_invalid_field(policy(1, 1, kInf)), acemq::amqp::Parameter::multiplier);
  EXPECT_EQ(model::first_invalid_field(policy(1, 1, 2, -1e-300)),
            acemq::amqp::Parameter::max_delay);
  EXPECT_EQ(
      model::first_invalid_field(policy(1, 1, 2, 0, std::numeric_limits<double>::quiet_NaN())),
      acemq::amqp::Parameter::jitter_factor);
  EXPECT_EQ(model::first_invalid_field(policy(1, 1, 2, 0, 0, kInf)),
            acemq::amqp::Parameter::max_message_age);
}

TEST(ModelProtocolCost, EachExitAndTheLimit) {
  constexpr std::int64_t kLimit = 1000;
  // Capped doubling from 0.5 to 30: 0.5 * 2^6 = 32 is the first above.
  EXPECT_EQ(model::protocol_cost(policy(100, 0.5, 2, 30), 50, kLimit), 6);
  // Attempts that end before an exit cost attempt - 1.
  EXPECT_EQ(model::protocol_cost(policy(100, 0.5, 2, 30), 4, kLimit), 3);
  // Halving reaches 0 after 1075 steps from 1 (2^-1074 is the last non-zero).
  EXPECT_EQ(model::protocol_cost(policy(5000, 1, 0.5), 4000, 2000), 1075);
  // Multiplier -0.0: zero from the second value on, its sign by parity.
  EXPECT_EQ(model::protocol_cost(policy(5000, 7, -0.0), 4000, kLimit), 1);
  // Multiplier 1: the first multiplication shows the fixed point.
  EXPECT_EQ(model::protocol_cost(policy(5000, 3, 1), 4000, kLimit), 1);
  // Creeping with no cap: beyond the limit, reported as limit + 1.
  const Options creeping =
      policy(std::numeric_limits<std::int64_t>::max(), 1, model::edges::kCreepingMultiplier);
  EXPECT_EQ(model::protocol_cost(creeping, 1'000'000'000, kLimit), kLimit + 1);
  EXPECT_EQ(model::protocol_cost(creeping, kLimit + 1, kLimit), kLimit);
  EXPECT_EQ(model::protocol_cost(creeping, kLimit + 2, kLimit), kLimit + 1);
}

}  // namespace
