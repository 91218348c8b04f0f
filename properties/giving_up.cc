// giving_up: when next_delay answers nullopt, and when it must not.
//
// next_delay gives up when attempt >= max_attempts, or when max_message_age
// is positive and message_age >= max_message_age (docs/contract.md §4): both
// limits inclusive, a limit of 0 meaning never, a negative age young. A
// consumer dead-letters on nullopt, so an answer on the wrong side of either
// limit loses a message or retries one forever. Jitter, on or off, must not
// change the decision.
#include <chrono>
#include <cstdint>
#include <optional>

#include <rapidcheck.h>

#include "properties/generators.hpp"
#include "properties/properties.hpp"
#include "properties/support.hpp"

namespace acemq::props {
namespace {

// At or past a positive max_message_age, nullopt; younger (negative
// included), a delay, unless the attempts have run out.
void gives_up_at_age_limit(Cases& cases) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  const RetryPolicy policy(*p);
  const std::int64_t attempt = *attempt_for(max_attempts(p), 1'000'000);
  const Real age = *age_for(age_limit(p));
  cases.policy(*p, attempt, age, 0);
  const Real r = *draw();
  const bool out_of_attempts = attempt >= max_attempts(p);
  const bool too_old = age_limit(p) > 0.0 && age >= age_limit(p);
  const bool want_nothing = out_of_attempts || too_old;
  const std::optional<double> plain = count(policy.next_delay(attempt, Seconds{age}, Jitter::off));
  int draws = 0;
  const std::optional<double> jittered =
      count(policy.next_delay(attempt, Seconds{age}, CountingSource(r, draws)));
  const char* want = want_nothing ? "nullopt" : "a delay";
  require(plain.has_value() != want_nothing, "next_delay(", attempt, ", ", age,
          ", Jitter::off) = ", plain, ", want ", want);
  require(jittered.has_value() != want_nothing, "next_delay(", attempt, ", ", age,
          ") with jitter = ", jittered, ", want ", want);
}

// attempt >= max_attempts gives nullopt whatever the age, jitter or r; an
// attempt before it, with a young message, gives a delay.
void gives_up_after_last_attempt(Cases& /*cases*/) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  const RetryPolicy policy(*p);
  const std::int64_t attempt = *final_attempt_for(max_attempts(p));
  const Real age = *age_for(age_limit(p));
  const Real r = *draw();
  int draws = 0;
  const CountingSource source(r, draws);
  require(!policy.next_delay(attempt, Seconds{age}, Jitter::off).has_value(), "next_delay(",
          attempt, ", ", age, ", Jitter::off) did not give up at max_attempts ", max_attempts(p));
  require(!policy.next_delay(attempt, Seconds{age}, source).has_value(), "next_delay(", attempt,
          ", ", age, ") with jitter did not give up at max_attempts ", max_attempts(p));
  if (max_attempts(p) >= 2) {
    const std::int64_t retry = *retrying_attempt_for(max_attempts(p), 1'000'000);
    const Real young = *young_age_for(age_limit(p));
    require(policy.next_delay(retry, Seconds{young}, Jitter::off).has_value(), "next_delay(", retry,
            ", ", young, ", Jitter::off) gave up before max_attempts ", max_attempts(p));
    require(policy.next_delay(retry, Seconds{young}, source).has_value(), "next_delay(", retry,
            ", ", young, ") with jitter gave up before max_attempts ", max_attempts(p));
  }
}

const Property kGivingUpRows[] = {
    {"GivesUpAtAgeLimit",
     gives_up_at_age_limit,
     {{Regime::age_at_limit, 0.05}, {Regime::huge_attempt, 0.1}},
     {"retry_policy.hpp | acemq::amqp::RetryPolicy::gives_up(std::int64_t, double) | relational >= "
      "-> > | 1",
      "retry_policy.hpp | acemq::amqp::RetryPolicy::gives_up(std::int64_t, double) | relational > "
      "-> >= | 0"}},
    {"GivesUpAfterLastAttempt",
     gives_up_after_last_attempt,
     {},
     {"retry_policy.hpp | acemq::amqp::RetryPolicy::gives_up(std::int64_t, double) | relational >= "
      "-> > | 0",
      "retry_policy.hpp | acemq::amqp::RetryPolicy::gives_up(std::int64_t, double) | logical || -> "
      "&& | 0"}},
};

}  // namespace

std::span<const Property> giving_up_properties() { return kGivingUpRows; }

}  // namespace acemq::props
