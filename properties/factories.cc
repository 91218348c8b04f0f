// factories: the ways to make a policy, and what makes two the same.
//
// none(), RetryPolicy(), fixed() and exponential() set the values the
// reference's doc page gives them; give_up_after and with_jitter are copies
// with one field changed and the original kept; == compares the six values.
// A consumer configures through these, so a wrong default is a wrong delay
// in every language's fleet at once.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <rapidcheck.h>

#include "properties/generators.hpp"
#include "properties/properties.hpp"
#include "properties/support.hpp"

namespace acemq::props {
namespace {

using namespace std::chrono_literals;

// fixed(n, d) schedules d, d, ..., d bit for bit and draws nothing: its
// jitter factor is 0.
void fixed_is_constant(Cases& /*cases*/) {
  const std::int64_t n = *schedulable_max_attempts();
  const Real d = *valid_delay();
  const RetryPolicy fixed = RetryPolicy::fixed(n, Seconds{d});
  const std::vector<double> schedule = counts(fixed.schedule());
  require(schedule.size() == static_cast<std::size_t>(n - 1), "fixed(", n, ", ", d,
          ").schedule() has ", schedule.size(), " entries");
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    require_same(schedule[i], d, "fixed(", n, ", ", d, ").schedule()[", i, "]");
  }
  if (n >= 2) {
    int draws = 0;
    const std::int64_t k = *retrying_attempt_for(n, 1'000'000);
    require_same(count(fixed.next_delay(k, 0s, CountingSource(0.0, draws))),
                 std::optional<double>(d), "fixed(", n, ", ", d, ").next_delay(", k,
                 ") with jitter on");
    require(draws == 0, "fixed(", n, ", ", d, ").next_delay(", k, ") took ", draws, " draws");
  }
}

// none(), RetryPolicy(), fixed() and exponential() set the doc page's
// values, and a default DelayRange is empty.
void factories_match_doc_page(Cases& /*cases*/) {
  const std::int64_t n = *schedulable_max_attempts();
  const Real d = *valid_delay();
  const Real max_delay = *valid_delay();
  const auto options = [](std::int64_t attempts, double delay, double multiplier, double cap_,
                          double jitter) {
    return Options{.max_attempts = attempts,
                   .initial_delay = Seconds{delay},
                   .multiplier = multiplier,
                   .max_delay = Seconds{cap_},
                   .jitter_factor = jitter,
                   .max_message_age = Seconds{0.0}};
  };
  // The doc page: new(max_attempts: 1, initial_delay: 0.0, multiplier: 2.0,
  // max_delay: 0.0, jitter_factor: 0.0, max_message_age: 0.0); none is
  // new(max_attempts: 1); fixed sets multiplier 1.0; exponential sets 2.0 and
  // jitter 0.2.
  require_same_options(RetryPolicy::none().options(), options(1, 0.0, 2.0, 0.0, 0.0), "none()");
  const amqp::DelayRange empty;
  require(empty.size() == 0 && empty.empty() && empty.begin() == empty.end(),
          "a default-constructed DelayRange is not empty, or its begin() is not its end()");
  require_same_options(RetryPolicy().options(), options(1, 0.0, 2.0, 0.0, 0.0), "RetryPolicy()");
  require_same_options(RetryPolicy::fixed(n, Seconds{d}).options(), options(n, d, 1.0, 0.0, 0.0),
                       "fixed(n, d)");
  // The two-argument overload: its cap is the header's default argument.
  require_same_options(RetryPolicy::exponential(n, Seconds{d}).options(),
                       options(n, d, 2.0, 0.0, 0.2), "exponential(n, d)");
  require_same_options(RetryPolicy::exponential(n, Seconds{d}, Seconds{max_delay}).options(),
                       options(n, d, 2.0, max_delay, 0.2), "exponential(n, d, max_delay)");
}

// give_up_after / with_jitter change one field, keep the other five, and
// leave the original as it was.
void copies_change_one_field(Cases& /*cases*/) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  const Real age = *valid_age_limit();
  const Real factor = *valid_jitter_factor();
  Options aged = *p;
  aged.max_message_age = Seconds{age};
  Options spread = *p;
  spread.jitter_factor = factor;
  Options both = aged;
  both.jitter_factor = factor;

  const RetryPolicy original(*p);
  const RetryPolicy copy = original.give_up_after(Seconds{age});
  require_same_options(original.options(), *p, "the original after give_up_after");
  require_same_options(copy.options(), aged, "give_up_after(age)");
  const RetryPolicy copy2 = original.with_jitter(factor);
  require_same_options(original.options(), *p, "the original after with_jitter");
  require_same_options(copy2.options(), spread, "with_jitter(factor)");
  require_same_options(copy.with_jitter(factor).options(), both,
                       "give_up_after(age).with_jitter(factor)");
}

// Takes one field from another policy: index 6 takes none.
using TakeField = void (*)(Options& into, const Options& from);
constexpr TakeField kTakeField[] = {
    [](Options& into, const Options& from) { into.max_attempts = from.max_attempts; },
    [](Options& into, const Options& from) { into.initial_delay = from.initial_delay; },
    [](Options& into, const Options& from) { into.multiplier = from.multiplier; },
    [](Options& into, const Options& from) { into.max_delay = from.max_delay; },
    [](Options& into, const Options& from) { into.jitter_factor = from.jitter_factor; },
    [](Options& into, const Options& from) { into.max_message_age = from.max_message_age; },
    [](Options& /*into*/, const Options& /*from*/) {},
};

// RetryPolicy's == compares the six values (0.0 == -0.0), symmetrically.
void equality_compares_the_six_values(Cases& cases) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  const Policy other = *valid_policy({.lengths = Lengths::any});
  cases.policy(*p);
  // q is p with one field (or none) taken from the other policy.
  const int field = *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 7));
  Options q = *p;
  kTakeField[field](q, *other);
  // As values: 0.0 == -0.0 here, though their schedules differ in sign bits.
  const bool want = p->max_attempts == q.max_attempts &&
                    p->initial_delay.count() == q.initial_delay.count() &&
                    p->multiplier == q.multiplier && p->max_delay.count() == q.max_delay.count() &&
                    p->jitter_factor == q.jitter_factor &&
                    p->max_message_age.count() == q.max_message_age.count();
  const RetryPolicy a(*p);
  const RetryPolicy b(q);
  require((a == b) == want, "RetryPolicy(", describe(*p), ") == RetryPolicy(", describe(q), ") is ",
          a == b, ", want ", want);
  require((b == a) == want, "equality is not symmetric for ", describe(q));
}

const Property kFactoriesRows[] = {
    {"FixedIsConstant",
     fixed_is_constant,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::fixed(std::int64_t, acemq::amqp::Seconds) | "
      "constant 1.0 -> 2.0 | 0"}},
    {"FactoriesMatchDocPage",
     factories_match_doc_page,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::fixed(std::int64_t, acemq::amqp::Seconds) | "
      "constant 1.0 -> 2.0 | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::exponential(std::int64_t, acemq::amqp::Seconds, "
      "acemq::amqp::Seconds) | constant 0.2 -> 1.2 | 0"}},
    {"CopiesChangeOneField",
     copies_change_one_field,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::give_up_after(acemq::amqp::Seconds) | "
      "statement-deleted statement -> nothing | 1",
      "retry_policy.cc | acemq::amqp::RetryPolicy::with_jitter(double) | statement-deleted "
      "statement -> nothing | 1"}},
    {"EqualityComparesTheSixValues",
     equality_compares_the_six_values,
     {},
     {"retry_policy.hpp | acemq::amqp::operator==(const acemq::amqp::RetryPolicy &, const "
      "acemq::amqp::RetryPolicy &) | logical && -> || | 0",
      "retry_policy.hpp | acemq::amqp::operator==(const acemq::amqp::RetryPolicy &, const "
      "acemq::amqp::RetryPolicy &) | equality == -> != | 3"}},
};

}  // namespace

std::span<const Property> factories_properties() { return kFactoriesRows; }

}  // namespace acemq::props
