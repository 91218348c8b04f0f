// Unit tests for RetryPolicy: the doc page's worked examples, each factory,
// each validation rule, the draw discipline and the fast path. Delays are
// compared as bits: the contract is bitwise, and a tolerance would hide the
// one-ulp drift a reordered refactor makes.
#include "acemq/amqp/retry_policy.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "acemq/amqp/ruby_random.hpp"
#include "acemq/model/bits.hpp"
#include "acemq/model/contract.hpp"

namespace acemq::amqp {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using model::bits_of;
std::uint64_t bits_of(Seconds x) { return model::bits_of(x.count()); }

// Bitwise equality of a list of delays, reporting the first difference.
void ExpectBitsEqual(const std::vector<Seconds>& actual, const std::vector<double>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(bits_of(actual[i]), bits_of(expected[i]))
        << "entry " << i << ": got " << actual[i].count() << ", want " << expected[i];
  }
}

// A source that counts its draws and hands out fixed values.
struct CountingSource {
  double value = 0.5;
  int* draws;
  double operator()() {
    ++*draws;
    return value;
  }
};

// The message of the std::invalid_argument `f` throws, or a failure.
template <typename F>
std::string InvalidArgumentMessage(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected std::invalid_argument";
  return {};
}

// ---- The doc page and the reference README's measured anchors ----

TEST(Schedule, ExponentialWithCap) {
  ExpectBitsEqual(RetryPolicy::exponential(5, 0.5s, 3s).schedule(), {0.5, 1.0, 2.0, 3.0});
}

TEST(Schedule, CapAppliesToEachEntryNotTheRunningValue) {
  // Capping the running value would give [30, 15, 7.5, 3.75, 1.875].
  const RetryPolicy policy(
      {.max_attempts = 6, .initial_delay = 100s, .multiplier = 0.5, .max_delay = 30s});
  ExpectBitsEqual(policy.schedule(), {30.0, 30.0, 25.0, 12.5, 6.25});
}

TEST(Schedule, UncappedOverflowEndsInInfinity) {
  const RetryPolicy policy({.max_attempts = 1100, .initial_delay = 1s, .multiplier = 2.0});
  const std::vector<Seconds> schedule = policy.schedule();
  ASSERT_EQ(schedule.size(), 1099U);
  EXPECT_EQ(bits_of(schedule.back()), bits_of(kInf));
  // 2^1023 is the last finite entry; the next doubling overflows.
  EXPECT_EQ(bits_of(schedule[1023]), bits_of(std::ldexp(1.0, 1023)));
  EXPECT_EQ(bits_of(schedule[1024]), bits_of(kInf));
}

TEST(Schedule, HasMaxAttemptsMinusOneEntries) {
  EXPECT_TRUE(RetryPolicy::none().schedule().empty());
  EXPECT_EQ(RetryPolicy::fixed(4, 1s).schedule().size(), 3U);
}

TEST(Schedule, RunningValueRoundsAtEachStep) {
  // 0.1 * 3 is 0.30000000000000004 in binary64, and the next entry multiplies
  // that, not the decimal 0.3: a port that computes 0.1 * 3^k in one go
  // differs in the last bit at k = 2.
  const RetryPolicy policy({.max_attempts = 4, .initial_delay = 0.1s, .multiplier = 3.0});
  ExpectBitsEqual(policy.schedule(), {0.1, 0.30000000000000004, 0.9000000000000001});
  EXPECT_EQ(bits_of(0.1 * std::pow(3.0, 2.0)), bits_of(0.9));  // the closed form
}

TEST(Schedule, NegativeZeroKeepsItsSign) {
  // The reference keeps -0.0 through schedule and through [x, 0.0].max.
  const RetryPolicy policy({.max_attempts = 3, .initial_delay = Seconds{-0.0}});
  ExpectBitsEqual(policy.schedule(), {-0.0, -0.0});
  EXPECT_EQ(bits_of(*policy.next_delay(1, 0s, Jitter::off)), bits_of(-0.0));
}

TEST(Schedule, RefusesMoreThanTheDocumentedLimit) {
  const RetryPolicy at_limit(
      {.max_attempts = RetryPolicy::kMaxScheduleLength + 1, .initial_delay = 1s, .max_delay = 2s});
  EXPECT_EQ(at_limit.delays().size(), RetryPolicy::kMaxScheduleLength);
  // Exactly the limit is allowed (128 MiB); the limit itself is the
  // documented 2^24, pinned so that changing it fails here.
  static_assert(RetryPolicy::kMaxScheduleLength == 16'777'216);
  EXPECT_EQ(at_limit.schedule().size(), 16'777'216U);
  const RetryPolicy over({.max_attempts = RetryPolicy::kMaxScheduleLength + 2});
  EXPECT_THROW((void)over.schedule(), std::length_error);
  EXPECT_EQ(over.delays().size(), RetryPolicy::kMaxScheduleLength + 1);
}

TEST(Delays, LazyRangeMatchesScheduleBitForBit) {
  const RetryPolicy policy(
      {.max_attempts = 1200, .initial_delay = 3.7e-3s, .multiplier = 1.7, .max_delay = 1e200s});
  const std::vector<Seconds> schedule = policy.schedule();
  std::size_t i = 0;
  for (const Seconds delay : policy.delays()) {
    ASSERT_LT(i, schedule.size());
    ASSERT_EQ(bits_of(delay), bits_of(schedule[i])) << "entry " << i;
    ++i;
  }
  EXPECT_EQ(i, schedule.size());
  static_assert(std::ranges::forward_range<DelayRange>);
  static_assert(std::ranges::view<DelayRange>);
  static_assert(std::ranges::borrowed_range<DelayRange>);
  // Iterators of one range compare by position.
  const DelayRange range = policy.delays();
  auto a = range.begin();
  auto b = range.begin();
  EXPECT_TRUE(a == b);
  ++b;
  EXPECT_FALSE(a == b);
}

TEST(Delays, EmptinessAndTheDefaultRange) {
  EXPECT_TRUE(RetryPolicy::none().delays().empty());
  EXPECT_FALSE(RetryPolicy::fixed(2, 1s).delays().empty());
  EXPECT_EQ(DelayRange{}.size(), 0);
  EXPECT_TRUE(DelayRange{}.empty());
  EXPECT_TRUE(DelayRange{}.begin() == DelayRange{}.end());
}

// ---- Factories and copies ----

TEST(Factories, NoneIsOneDelivery) {
  const RetryPolicy none = RetryPolicy::none();
  EXPECT_EQ(none.max_attempts(), 1);
  EXPECT_EQ(none, RetryPolicy());
  EXPECT_EQ(none.next_delay(1), std::nullopt);
}

TEST(Factories, FixedHasMultiplierOneAndNoJitter) {
  const RetryPolicy fixed = RetryPolicy::fixed(4, 2.5s);
  EXPECT_EQ(fixed.max_attempts(), 4);
  EXPECT_EQ(bits_of(fixed.initial_delay()), bits_of(2.5));
  EXPECT_EQ(bits_of(fixed.multiplier()), bits_of(1.0));
  EXPECT_EQ(bits_of(fixed.max_delay()), bits_of(0.0));
  EXPECT_EQ(bits_of(fixed.jitter_factor()), bits_of(0.0));
  EXPECT_EQ(bits_of(fixed.max_message_age()), bits_of(0.0));
  ExpectBitsEqual(fixed.schedule(), {2.5, 2.5, 2.5});
}

TEST(Factories, ExponentialDoublesWithTwentyPercentJitter) {
  const RetryPolicy exp = RetryPolicy::exponential(10, 0.5s, 30s);
  EXPECT_EQ(exp.max_attempts(), 10);
  EXPECT_EQ(bits_of(exp.initial_delay()), bits_of(0.5));
  EXPECT_EQ(bits_of(exp.multiplier()), bits_of(2.0));
  EXPECT_EQ(bits_of(exp.max_delay()), bits_of(30.0));
  EXPECT_EQ(bits_of(exp.jitter_factor()), bits_of(0.2));
  EXPECT_EQ(bits_of(exp.max_message_age()), bits_of(0.0));
  EXPECT_EQ(bits_of(RetryPolicy::exponential(3, 1s).max_delay()), bits_of(0.0));
}

TEST(Factories, DefaultsAreTheReferenceConstructors) {
  const RetryPolicy::Options defaults;
  EXPECT_EQ(defaults.max_attempts, 1);
  EXPECT_EQ(bits_of(defaults.initial_delay), bits_of(0.0));
  EXPECT_EQ(bits_of(defaults.multiplier), bits_of(2.0));
  EXPECT_EQ(bits_of(defaults.max_delay), bits_of(0.0));
  EXPECT_EQ(bits_of(defaults.jitter_factor), bits_of(0.0));
  EXPECT_EQ(bits_of(defaults.max_message_age), bits_of(0.0));
}

TEST(Copies, GiveUpAfterAndWithJitterChangeOneFieldOnly) {
  const RetryPolicy original = RetryPolicy::exponential(7, 0.25s, 10s);
  const RetryPolicy aged = original.give_up_after(60s);
  const RetryPolicy calm = original.with_jitter(0.05);
  EXPECT_EQ(bits_of(aged.max_message_age()), bits_of(60.0));
  EXPECT_EQ(bits_of(calm.jitter_factor()), bits_of(0.05));
  RetryPolicy::Options expect_aged = original.options();
  expect_aged.max_message_age = 60s;
  EXPECT_EQ(aged, RetryPolicy(expect_aged));
  RetryPolicy::Options expect_calm = original.options();
  expect_calm.jitter_factor = 0.05;
  EXPECT_EQ(calm, RetryPolicy(expect_calm));
  EXPECT_EQ(original, RetryPolicy::exponential(7, 0.25s, 10s));
}

TEST(Copies, DifferingInOneFieldIsUnequal) {
  const RetryPolicy::Options base{.max_attempts = 3,
                                  .initial_delay = 1s,
                                  .multiplier = 2.0,
                                  .max_delay = 10s,
                                  .jitter_factor = 0.1,
                                  .max_message_age = 60s};
  EXPECT_EQ(RetryPolicy(base), RetryPolicy(base));
  std::vector<RetryPolicy::Options> changed(6, base);
  changed[0].max_attempts = 4;
  changed[1].initial_delay = 2s;
  changed[2].multiplier = 3.0;
  changed[3].max_delay = 20s;
  changed[4].jitter_factor = 0.2;
  changed[5].max_message_age = 120s;
  for (std::size_t i = 0; i < changed.size(); ++i) {
    EXPECT_FALSE(RetryPolicy(changed[i]) == RetryPolicy(base)) << "field " << i;
  }
}

TEST(Durations, ChronoConversionsHappenBeforeTheContract) {
  // 100ms converts by one correctly rounded division: exactly the double 0.1.
  EXPECT_EQ(bits_of(RetryPolicy::fixed(2, 100ms).initial_delay()), bits_of(0.1));
  EXPECT_EQ(bits_of(RetryPolicy::exponential(3, 500ms, 2min).max_delay()), bits_of(120.0));
}

// ---- Validation: every rule names the parameter and the value ----

TEST(Validation, ConstructorNamesTheParameterAndTheValue) {
  EXPECT_THAT(InvalidArgumentMessage([] { RetryPolicy({.max_attempts = 0}); }),
              HasSubstr("max_attempts must be at least 1, got 0"));
  EXPECT_THAT(InvalidArgumentMessage([] { RetryPolicy({.max_attempts = -3}); }),
              HasSubstr("max_attempts must be at least 1, got -3"));
  EXPECT_THAT(InvalidArgumentMessage([] { RetryPolicy({.initial_delay = -1.5s}); }),
              HasSubstr("initial_delay must be finite and >= 0, got -1.5"));
  EXPECT_THAT(InvalidArgumentMessage([] { RetryPolicy({.initial_delay = Seconds{kInf}}); }),
              HasSubstr("initial_delay must be finite and >= 0, got inf"));
  EXPECT_THAT(InvalidArgumentMessage([] { RetryPolicy({.multiplier = kNaN}); }),
              HasSubstr("multiplier must be finite and >= 0, got nan"));
  EXPECT_THAT(InvalidArgumentMessage([] { RetryPolicy({.multiplier = -2.0}); }),
              HasSubstr("multiplier must be finite and >= 0, got -2"));
  EXPECT_THAT(InvalidArgumentMessage([] { RetryPolicy({.max_delay = Seconds{-kInf}}); }),
              HasSubstr("max_delay must be finite and >= 0, got -inf"));
  EXPECT_THAT(InvalidArgumentMessage([] { RetryPolicy({.jitter_factor = 1.0000000000000002}); }),
              HasSubstr("jitter_factor must be in [0, 1], got 1.0000000000000002"));
  EXPECT_THAT(InvalidArgumentMessage([] { RetryPolicy({.jitter_factor = -0.1}); }),
              HasSubstr("jitter_factor must be in [0, 1], got -0.1"));
  EXPECT_THAT(InvalidArgumentMessage([] { RetryPolicy({.jitter_factor = kNaN}); }),
              HasSubstr("jitter_factor must be in [0, 1], got nan"));
  EXPECT_THAT(InvalidArgumentMessage([] { RetryPolicy({.max_message_age = Seconds{kNaN}}); }),
              HasSubstr("max_message_age must be finite and >= 0, got nan"));
}

TEST(Validation, BoundariesAreAccepted) {
  EXPECT_NO_THROW(RetryPolicy({.max_attempts = 1,
                               .initial_delay = 0s,
                               .multiplier = 0.0,
                               .max_delay = 0s,
                               .jitter_factor = 0.0,
                               .max_message_age = 0s}));
  EXPECT_NO_THROW(RetryPolicy(
      {.initial_delay = Seconds{std::numeric_limits<double>::max()}, .jitter_factor = 1.0}));
  EXPECT_NO_THROW(
      RetryPolicy({.initial_delay = Seconds{std::numeric_limits<double>::denorm_min()}}));
}

TEST(Validation, FactoriesAndCopiesValidateToo) {
  EXPECT_THAT(InvalidArgumentMessage([] { RetryPolicy::fixed(0, 1s); }), HasSubstr("max_attempts"));
  EXPECT_THAT(InvalidArgumentMessage([] { RetryPolicy::exponential(3, -1s); }),
              HasSubstr("initial_delay"));
  EXPECT_THAT(InvalidArgumentMessage([] { RetryPolicy::none().give_up_after(Seconds{kNaN}); }),
              HasSubstr("give_up_after: max_message_age must be finite and >= 0, got nan"));
  EXPECT_THAT(InvalidArgumentMessage([] { RetryPolicy::none().give_up_after(-1s); }),
              HasSubstr("max_message_age must be finite and >= 0, got -1"));
  EXPECT_THAT(InvalidArgumentMessage([] { RetryPolicy::none().with_jitter(2.0); }),
              HasSubstr("with_jitter: jitter_factor must be in [0, 1], got 2"));
}

TEST(Validation, CallsNameTheArgument) {
  const RetryPolicy policy = RetryPolicy::exponential(5, 1s);
  EXPECT_THAT(InvalidArgumentMessage([&] { (void)policy.next_delay(0); }),
              HasSubstr("next_delay: attempt must be at least 1, got 0"));
  EXPECT_THAT(InvalidArgumentMessage([&] { (void)policy.next_delay(-5, 0s, Jitter::off); }),
              HasSubstr("attempt must be at least 1, got -5"));
  EXPECT_THAT(InvalidArgumentMessage([&] { (void)policy.next_delay(1, Seconds{kNaN}); }),
              HasSubstr("next_delay: message_age must be a number, not NaN, got nan"));
  EXPECT_THAT(InvalidArgumentMessage([&] { (void)policy.jittered(Seconds{kNaN}); }),
              HasSubstr("jittered: delay must be a number, not NaN, got nan"));
  // Validation comes before giving up: a bad attempt is an error even when
  // the policy would have given up anyway.
  EXPECT_THROW((void)RetryPolicy::none().next_delay(0), std::invalid_argument);
  // A NaN delay is rejected even where no jitter would apply.
  EXPECT_THROW((void)RetryPolicy::none().jittered(Seconds{kNaN}), std::invalid_argument);
}

// Every way the core refuses, as values: a caller that maps a refusal back
// to its own field (the protocol, the command line, a consumer's config)
// reads parameter(), never what(); what() stays the same bytes as before.
TEST(Validation, RefusalsCarryTheParameterTheRuleAndTheValue) {
  using acemq::amqp::InvalidParameter;
  using acemq::amqp::Parameter;
  using acemq::amqp::Rule;
  const RetryPolicy policy = RetryPolicy::exponential(5, 1s);
  struct Row {
    std::function<void()> call;
    std::string_view where;
    Parameter parameter;
    Rule rule;
    InvalidParameter::Value value;
    std::string_view what;
  };
  const Row rows[] = {
      {[] { RetryPolicy({.max_attempts = 0}); }, "RetryPolicy", Parameter::max_attempts,
       Rule::at_least_one, std::int64_t{0}, "RetryPolicy: max_attempts must be at least 1, got 0"},
      {[] { RetryPolicy::fixed(2, -1.5s); }, "RetryPolicy", Parameter::initial_delay,
       Rule::finite_non_negative, -1.5,
       "RetryPolicy: initial_delay must be finite and >= 0, got -1.5"},
      {[] { RetryPolicy({.multiplier = -2.0}); }, "RetryPolicy", Parameter::multiplier,
       Rule::finite_non_negative, -2.0, "RetryPolicy: multiplier must be finite and >= 0, got -2"},
      {[] { RetryPolicy::exponential(3, 1s, Seconds{-kInf}); }, "RetryPolicy", Parameter::max_delay,
       Rule::finite_non_negative, -kInf,
       "RetryPolicy: max_delay must be finite and >= 0, got -inf"},
      {[] { RetryPolicy({.jitter_factor = 1.5}); }, "RetryPolicy", Parameter::jitter_factor,
       Rule::unit_interval, 1.5, "RetryPolicy: jitter_factor must be in [0, 1], got 1.5"},
      {[] { RetryPolicy({.max_message_age = -1s}); }, "RetryPolicy", Parameter::max_message_age,
       Rule::finite_non_negative, -1.0,
       "RetryPolicy: max_message_age must be finite and >= 0, got -1"},
      {[] { RetryPolicy::none().give_up_after(Seconds{kInf}); }, "give_up_after",
       Parameter::max_message_age, Rule::finite_non_negative, kInf,
       "give_up_after: max_message_age must be finite and >= 0, got inf"},
      {[] { RetryPolicy::none().with_jitter(2.0); }, "with_jitter", Parameter::jitter_factor,
       Rule::unit_interval, 2.0, "with_jitter: jitter_factor must be in [0, 1], got 2"},
      {[&] { (void)policy.next_delay(-5, 0s, Jitter::off); }, "next_delay", Parameter::attempt,
       Rule::at_least_one, std::int64_t{-5}, "next_delay: attempt must be at least 1, got -5"},
      {[&] { (void)policy.next_delay(1, Seconds{-kNaN}); }, "next_delay", Parameter::message_age,
       Rule::not_nan, -kNaN, "next_delay: message_age must be a number, not NaN, got -nan"},
      {[&] { (void)policy.jittered(Seconds{kNaN}); }, "jittered", Parameter::delay, Rule::not_nan,
       kNaN, "jittered: delay must be a number, not NaN, got nan"},
      {[&] { (void)policy.jittered_with_draw(1s, 1.0); }, "jitter", Parameter::draw,
       Rule::draw_interval, 1.0, "jitter: draw r must be in [0, 1), got 1"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.what);
    try {
      row.call();
      ADD_FAILURE() << "accepted";
    } catch (const InvalidParameter& e) {
      EXPECT_EQ(e.where(), row.where);
      EXPECT_EQ(e.parameter(), row.parameter);
      EXPECT_EQ(e.rule(), row.rule);
      EXPECT_EQ(e.value().index(), row.value.index());
      if (const auto* whole = std::get_if<std::int64_t>(&row.value)) {
        EXPECT_EQ(std::get<std::int64_t>(e.value()), *whole);
      } else {
        EXPECT_EQ(bits_of(std::get<double>(e.value())), bits_of(std::get<double>(row.value)));
      }
      EXPECT_EQ(std::string_view(e.what()), row.what);
    }
  }
  EXPECT_EQ(acemq::amqp::parameter_name(Parameter::draw), "r");
  EXPECT_EQ(acemq::amqp::parameter_name(Parameter::max_message_age), "max_message_age");
  EXPECT_EQ(acemq::amqp::rule_text(Rule::draw_interval), "in [0, 1)");
}

TEST(Validation, DrawOutsideUnitIntervalIsAnErrorNotAClamp) {
  const RetryPolicy policy = RetryPolicy::exponential(5, 1s);
  for (const double r : {1.0, -0.0000001, 1.5, kNaN, kInf, -kInf}) {
    EXPECT_THAT(InvalidArgumentMessage([&] { (void)policy.jittered(1s, [r] { return r; }); }),
                HasSubstr("draw r must be in [0, 1)"))
        << r;
    EXPECT_THROW((void)policy.next_delay(1, 0s, [r] { return r; }), std::invalid_argument);
    EXPECT_THROW((void)policy.jittered_with_draw(1s, r), std::invalid_argument);
  }
}

// ---- next_delay: giving up, ages, clamping ----

TEST(NextDelay, GivesUpAtMaxAttempts) {
  const RetryPolicy policy = RetryPolicy::fixed(3, 1s);
  EXPECT_TRUE(policy.next_delay(2, 0s, Jitter::off).has_value());
  EXPECT_EQ(policy.next_delay(3, 0s, Jitter::off), std::nullopt);
  EXPECT_EQ(policy.next_delay(std::numeric_limits<std::int64_t>::max()), std::nullopt);
}

TEST(NextDelay, GivesUpAtTheAgeLimitInclusive) {
  const RetryPolicy policy = RetryPolicy::fixed(5, 1s).give_up_after(60s);
  EXPECT_TRUE(policy.next_delay(1, 59.999999s, Jitter::off).has_value());
  EXPECT_EQ(policy.next_delay(1, 60s, Jitter::off), std::nullopt);
  EXPECT_EQ(policy.next_delay(1, 60.000001s, Jitter::off), std::nullopt);
  // A negative age counts as young; an infinite one as older than any limit.
  EXPECT_TRUE(policy.next_delay(1, -5s, Jitter::off).has_value());
  EXPECT_EQ(policy.next_delay(1, Seconds{kInf}, Jitter::off), std::nullopt);
  // With no limit, even an infinite age is retried.
  EXPECT_TRUE(RetryPolicy::fixed(5, 1s).next_delay(1, Seconds{kInf}, Jitter::off).has_value());
}

TEST(NextDelay, DefaultAgeIsZero) {
  // No jitter factor, so no draw: the default age alone decides.
  const RetryPolicy policy({.max_attempts = 3, .initial_delay = 1s, .max_message_age = 0.5s});
  ASSERT_TRUE(policy.next_delay(1).has_value());
  EXPECT_EQ(bits_of(*policy.next_delay(1)), bits_of(1.0));
}

TEST(NextDelay, UnjitteredIsTheScheduleEntry) {
  const RetryPolicy policy({.max_attempts = 40,
                            .initial_delay = 0.3s,
                            .multiplier = 1.3,
                            .max_delay = 200s,
                            .jitter_factor = 0.5});
  const std::vector<Seconds> schedule = policy.schedule();
  for (std::int64_t attempt = 1; attempt < 40; ++attempt) {
    EXPECT_EQ(bits_of(*policy.next_delay(attempt, 0s, Jitter::off)),
              bits_of(schedule[static_cast<std::size_t>(attempt - 1)]))
        << "attempt " << attempt;
  }
}

TEST(NextDelay, InfinityIsAnAnswerWithoutACap) {
  const RetryPolicy policy(
      {.max_attempts = 2000, .initial_delay = 1s, .multiplier = 2.0, .jitter_factor = 0.5});
  EXPECT_EQ(bits_of(*policy.next_delay(1500, 0s, Jitter::off)), bits_of(kInf));
  EXPECT_EQ(bits_of(*policy.next_delay(1500, 0s, RubyRandom(1))), bits_of(kInf));
}

TEST(NextDelay, InfiniteDelayWithFullJitterAndZeroDrawStaysInfinite) {
  // inf * (1 + (0 * 2 - 1) * 1) is inf * 0, NaN in IEEE arithmetic. The
  // reference returns that NaN from jittered and raises from next_delay; the
  // contract answers +inf (docs/contract.md, "Decisions").
  const RetryPolicy policy({.max_attempts = 2000, .initial_delay = 1s, .jitter_factor = 1.0});
  EXPECT_EQ(bits_of(policy.jittered_with_draw(Seconds{kInf}, 0.0)), bits_of(kInf));
  EXPECT_EQ(bits_of(*policy.next_delay(1500, 0s, [] { return 0.0; })), bits_of(kInf));
  // 2^-55 * 2 - 1 is a tie that rounds to -1, so the same NaN arises for any
  // injected draw up to 2^-55 (Ruby's own draws are multiples of 2^-53).
  EXPECT_EQ(bits_of(policy.jittered_with_draw(Seconds{kInf}, 0x1.0p-55)), bits_of(kInf));
  EXPECT_EQ(bits_of(policy.jittered_with_draw(Seconds{kInf}, 0x1.0p-54)), bits_of(kInf));
  // Any other draw leaves inf as inf in plain IEEE arithmetic.
  EXPECT_EQ(bits_of(policy.jittered_with_draw(Seconds{kInf}, 0x1.0p-53)), bits_of(kInf));
}

TEST(NextDelay, FullJitterAtZeroDrawGivesPositiveZero) {
  const RetryPolicy policy({.max_attempts = 3, .initial_delay = 5s, .jitter_factor = 1.0});
  EXPECT_EQ(bits_of(*policy.next_delay(1, 0s, [] { return 0.0; })), bits_of(0.0));
}

TEST(NextDelay, ZeroMultiplierGivesZeroAfterTheFirst) {
  const RetryPolicy policy({.max_attempts = 5, .initial_delay = 7s, .multiplier = 0.0});
  ExpectBitsEqual(policy.schedule(), {7.0, 0.0, 0.0, 0.0});
}

TEST(NextDelay, NegativeZeroMultiplierAlternatesTheSignOfZero) {
  // The early exit compares bits: 0.0 == -0.0 would stop a step too soon.
  const RetryPolicy policy({.max_attempts = 6, .initial_delay = 7s, .multiplier = -0.0});
  ExpectBitsEqual(policy.schedule(), {7.0, -0.0, 0.0, -0.0, 0.0});
  for (std::int64_t attempt = 1; attempt < 6; ++attempt) {
    EXPECT_EQ(bits_of(*policy.next_delay(attempt, 0s, Jitter::off)),
              bits_of(policy.schedule()[static_cast<std::size_t>(attempt - 1)]));
  }
}

// ---- The fast path: early exits keep the bits of the plain loop ----

// The plain O(k) loop of the contract, from the shared model.
double PlainLoop(const RetryPolicy& p, std::int64_t attempt) {
  return *model::next_delay(p.options(), attempt, 0.0);
}

TEST(FastPath, PlainLoopKeepsTheSignOfZero) {
  // The comparison model itself must not lose -0.0, or the test below
  // could not see a port that does.
  const RetryPolicy policy({.max_attempts = 30, .initial_delay = 7s, .multiplier = -0.0});
  EXPECT_EQ(bits_of(PlainLoop(policy, 20)), bits_of(-0.0));
  EXPECT_EQ(bits_of(PlainLoop(policy, 21)), bits_of(0.0));
}

TEST(FastPath, EarlyExitsKeepThePlainLoopsBits) {
  const std::vector<RetryPolicy> policies = {
      RetryPolicy({.max_attempts = 1'000'001, .initial_delay = 0.5s, .max_delay = 30s}),
      RetryPolicy({.max_attempts = 1'000'001, .initial_delay = 1s, .multiplier = 0.5}),
      RetryPolicy({.max_attempts = 1'000'001, .initial_delay = 1s, .multiplier = 1.0}),
      RetryPolicy({.max_attempts = 1'000'001, .initial_delay = 1s, .multiplier = 1 + 1e-17}),
      RetryPolicy({.max_attempts = 1'000'001, .initial_delay = 3s, .multiplier = 1 + 1e-9}),
      RetryPolicy({.max_attempts = 1'000'001, .initial_delay = 1e300s, .multiplier = 1e10}),
      RetryPolicy(
          {.max_attempts = 1'000'001, .initial_delay = 100s, .multiplier = 0.9, .max_delay = 30s}),
      RetryPolicy({.max_attempts = 1'000'001, .initial_delay = 7s, .multiplier = -0.0}),
      RetryPolicy({.max_attempts = 1'000'001, .initial_delay = 1e-310s, .multiplier = 0.75}),
  };
  for (const RetryPolicy& policy : policies) {
    // 16 and 17 straddle the remembered running values; the rest the walk.
    for (const std::int64_t attempt :
         {1, 2, 3, 15, 16, 17, 18, 19, 60, 1075, 1076, 5000, 999'999, 1'000'000}) {
      EXPECT_EQ(bits_of(*policy.next_delay(attempt, 0s, Jitter::off)),
                bits_of(PlainLoop(policy, attempt)))
          << "multiplier " << policy.multiplier() << ", attempt " << attempt;
    }
  }
}

TEST(FastPath, NegativeZeroMultiplierSettlesByParity) {
  // Without the parity rule the zero would be walked 10^12 times (about 12
  // minutes a call), which the ctest timeout turns into a failure.
  const RetryPolicy policy({.max_attempts = 2'000'000'000'000,
                            .initial_delay = 7s,
                            .multiplier = -0.0,
                            .max_delay = 30s});
  // Attempt k multiplies k - 1 times: an odd count of -0.0 factors is -0.0.
  EXPECT_EQ(bits_of(*policy.next_delay(1'000'000'000'000, 0s, Jitter::off)), bits_of(-0.0));
  EXPECT_EQ(bits_of(*policy.next_delay(1'000'000'000'001, 0s, Jitter::off)), bits_of(0.0));
  // A positive multiplier keeps the sign of a zero.
  const RetryPolicy negative_zero(
      {.max_attempts = 2'000'000'000'000, .initial_delay = Seconds{-0.0}, .multiplier = 3.0});
  EXPECT_EQ(bits_of(*negative_zero.next_delay(1'000'000'000'001, 0s, Jitter::off)), bits_of(-0.0));
}

TEST(FastPath, NegativeZeroParityHoldsAtTheLargestAttempts) {
  // The parity is of the steps left, attempt - entry, which cannot overflow;
  // attempt + entry has the same parity on paper but wraps past INT64_MAX,
  // and a negative odd number % 2 is -1, not 1.
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  const RetryPolicy policy(
      {.max_attempts = kMax, .initial_delay = 7s, .multiplier = -0.0, .max_delay = 30s});
  // Attempt k has k - 1 factors of -0.0: even is +0.0, odd is -0.0.
  EXPECT_EQ(bits_of(*policy.next_delay(kMax - 3, 0s, Jitter::off)), bits_of(-0.0));
  EXPECT_EQ(bits_of(*policy.next_delay(kMax - 2, 0s, Jitter::off)), bits_of(0.0));
  EXPECT_EQ(bits_of(*policy.next_delay(kMax - 1, 0s, Jitter::off)), bits_of(-0.0));
}

TEST(FastPath, CappedSlowMultiplierAnswersAtOnce) {
  // Above the cap from the start with multiplier 1 + 1e-9: the early exit
  // stops at once; without it, 10^12 steps run into the ctest timeout.
  // Caps below one second too, since "a cap exists" is cap > 0, not cap > 1.
  for (const double cap : {30.0, 0.5, 1e-300}) {
    SCOPED_TRACE(cap);
    const RetryPolicy policy({.max_attempts = 2'000'000'000'000,
                              .initial_delay = Seconds{2 * cap},
                              .multiplier = 1 + 1e-9,
                              .max_delay = Seconds{cap}});
    EXPECT_EQ(bits_of(*policy.next_delay(1'000'000'000'000, 0s, Jitter::off)), bits_of(cap));
  }
}

TEST(FastPath, CappedPolicyAnswersAttemptOneBillionAtOnce) {
  // A timed test would be flaky; this one would take seconds of looping
  // without the early exit and is bounded by ctest's timeout otherwise.
  const RetryPolicy policy({.max_attempts = 2'000'000'000,
                            .initial_delay = 0.5s,
                            .max_delay = 30s,
                            .jitter_factor = 0.2});
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(bits_of(*policy.next_delay(1'000'000'000, 0s, Jitter::off)), bits_of(30.0));
  }
}

// ---- Jitter and the draw discipline ----

TEST(Jitter, ReferenceExamples) {
  // Answers from the Ruby reference (docs/protocol.md, Examples).
  const RetryPolicy policy({.jitter_factor = 0.2});
  EXPECT_EQ(bits_of(policy.jittered_with_draw(1.5s, 0.0)), bits_of(1.2000000000000002));
  const RetryPolicy exp = RetryPolicy::exponential(5, 0.5s);
  RubyRandom rand(42);
  const std::vector<double> want = {0.4749080237694725, 1.1802857225639665, 2.1855951534491243,
                                    4.157853574715259};
  for (std::int64_t attempt = 1; attempt <= 4; ++attempt) {
    EXPECT_EQ(bits_of(*exp.next_delay(attempt, 0s, rand)),
              bits_of(want[static_cast<std::size_t>(attempt - 1)]));
  }
  EXPECT_EQ(exp.next_delay(5, 0s, rand), std::nullopt);
}

TEST(Jitter, ArithmeticOrderIsTheContracts) {
  // delay * (1 + ((r * 2 - 1) * f)), each step rounded. Regrouping as
  // delay + delay * (...) or fusing it into fma(d, x, d) (what GCC does
  // without -ffp-contract=off) differs in the last bit for this draw.
  const RetryPolicy policy({.jitter_factor = 0.3});
  const double d = 0.7;
  const double r = 0x1.5876015e4d702p-6;
  const double jittered = policy.jittered_with_draw(Seconds{d}, r).count();
  EXPECT_EQ(bits_of(jittered), bits_of(0.49883017593502538));
  EXPECT_NE(bits_of(jittered), bits_of(0.49883017593502532));  // d + d * x, and fma
}

TEST(Jitter, NoDrawWhenJitterDoesNotApply) {
  int draws = 0;
  CountingSource source{0.5, &draws};
  const RetryPolicy unjittered = RetryPolicy::fixed(5, 2s);
  EXPECT_EQ(bits_of(unjittered.jittered(2s, source)), bits_of(2.0));
  EXPECT_EQ(bits_of(*unjittered.next_delay(1, 0s, source)), bits_of(2.0));
  const RetryPolicy jittery = RetryPolicy::exponential(5, 0s).give_up_after(10s);
  EXPECT_EQ(bits_of(jittery.jittered(0s, source)), bits_of(0.0));
  EXPECT_EQ(bits_of(jittery.jittered(-3s, source)), bits_of(-3.0));
  EXPECT_EQ(bits_of(jittery.jittered(Seconds{-0.0}, source)), bits_of(-0.0));
  EXPECT_EQ(bits_of(*jittery.next_delay(2, 0s, source)), bits_of(0.0));
  EXPECT_EQ(jittery.next_delay(5, 0s, source), std::nullopt);
  EXPECT_EQ(jittery.next_delay(1, 10s, source), std::nullopt);
  EXPECT_EQ(draws, 0);
}

TEST(Jitter, ExactlyOneDrawPerJitteredDelay) {
  int draws = 0;
  CountingSource source{0.25, &draws};
  const RetryPolicy policy = RetryPolicy::exponential(10, 1s, 30s);
  for (std::int64_t attempt = 1; attempt < 10; ++attempt) {
    (void)policy.next_delay(attempt, 0s, source);
  }
  (void)policy.jittered(3s, source);
  EXPECT_EQ(draws, 10);
}

TEST(Jitter, ExtremeDrawsReachTheEdgesOfTheRange) {
  const RetryPolicy policy({.jitter_factor = 0.5});
  EXPECT_EQ(bits_of(policy.jittered_with_draw(8s, 0.0)), bits_of(4.0));
  EXPECT_EQ(bits_of(policy.jittered_with_draw(8s, 0.5)), bits_of(8.0));
  // The top of the range is reachable after rounding: 1 + (1 - 2^-52) * 0.5
  // is a tie that rounds to even, 1.5, so the jittered range is closed,
  // [d(1 - f), d(1 + f)], not half-open as exact arithmetic would have it.
  EXPECT_EQ(bits_of(policy.jittered_with_draw(8s, 1.0 - 0x1.0p-53)), bits_of(12.0));
  EXPECT_LT(policy.jittered_with_draw(8s, 1.0 - 0x1.0p-52).count(), 12.0);
}

TEST(Jitter, JitterIsAppliedAfterTheCap) {
  const RetryPolicy policy(
      {.max_attempts = 10, .initial_delay = 1s, .max_delay = 4s, .jitter_factor = 0.5});
  EXPECT_EQ(bits_of(*policy.next_delay(9, 0s, [] { return 0.0; })), bits_of(2.0));
  EXPECT_EQ(bits_of(*policy.next_delay(9, 0s, [] { return 0.75; })), bits_of(5.0));
}

TEST(DefaultSource, DrawsAreInTheUnitIntervalAndReseedable) {
  DefaultSource source;
  DefaultSource::seed_this_thread(99);
  std::vector<double> first;
  for (int i = 0; i < 1000; ++i) {
    const double r = source();
    ASSERT_GE(r, 0.0);
    ASSERT_LT(r, 1.0);
    first.push_back(r);
  }
  DefaultSource::seed_this_thread(99);
  for (int i = 0; i < 1000; ++i)
    ASSERT_EQ(bits_of(source()), bits_of(first[static_cast<std::size_t>(i)]));
}

TEST(DefaultSource, NextDelayDrawsFromTheThreadsEngine) {
  DefaultSource::seed_this_thread(7);
  const double r = DefaultSource{}();
  const RetryPolicy policy = RetryPolicy::exponential(3, 1s);
  DefaultSource::seed_this_thread(7);
  EXPECT_EQ(bits_of(*policy.next_delay(1)), bits_of(policy.jittered_with_draw(1s, r)));
  DefaultSource::seed_this_thread(7);
  EXPECT_EQ(bits_of(policy.jittered(1s)), bits_of(policy.jittered_with_draw(1s, r)));
  EXPECT_NE(bits_of(policy.jittered_with_draw(1s, r)), bits_of(1.0));
}

// Where jitter does not apply (giving up, Jitter::off, factor 0) the default
// source is not drawn from, so the next call that jitters takes the draw that
// comes next; a stray draw there shifts every later delay of a replay.
TEST(DefaultSource, NextDelayTakesNoDrawWhereJitterDoesNotApply) {
  DefaultSource::seed_this_thread(11);
  const double first = DefaultSource{}();
  const double second = DefaultSource{}();
  const RetryPolicy policy = RetryPolicy::exponential(3, 1s);
  const RetryPolicy still = RetryPolicy::fixed(3, 1s);
  DefaultSource::seed_this_thread(11);
  EXPECT_FALSE(policy.next_delay(3).has_value());  // the last attempt: give up
  EXPECT_FALSE(policy.give_up_after(60s).next_delay(1, 60s).has_value());  // too old
  EXPECT_EQ(bits_of(*policy.next_delay(2, 0s, Jitter::off)), bits_of(2.0));
  EXPECT_FALSE(policy.next_delay(3, 0s, Jitter::off).has_value());
  EXPECT_EQ(bits_of(*still.next_delay(1)), bits_of(1.0));  // factor 0
  EXPECT_EQ(bits_of(*policy.next_delay(1)), bits_of(policy.jittered_with_draw(1s, first)));
  EXPECT_EQ(bits_of(DefaultSource{}()), bits_of(second));  // and no draw after it
}

TEST(DefaultSource, JitteredStaysWithinTheFactor) {
  const RetryPolicy policy = RetryPolicy::exponential(10, 1s, 30s);
  for (int i = 0; i < 10000; ++i) {
    const double d = policy.jittered(10s).count();
    ASSERT_GE(d, 8.0);
    ASSERT_LT(d, 12.0);
    const std::optional<Seconds> next = policy.next_delay(9);
    ASSERT_TRUE(next.has_value());
    ASSERT_GE(next->count(), 24.0);
    ASSERT_LT(next->count(), 36.0);
  }
}

}  // namespace
}  // namespace acemq::amqp
