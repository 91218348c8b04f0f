// validation: what the port refuses, and what it must not.
//
// The reference validates nothing; the port refuses bad input with
// InvalidParameter (docs/contract.md, Decisions), and says which parameter,
// which value and which call as values, so that a consumer, the protocol and
// the command line each name the parameter in their own words. What is bad
// is the model's to say (model::first_invalid_field for a policy, and
// model::Rejected from each call), so these properties ask the model and
// hold the core to its answer: a refusal exactly where the model refuses,
// naming the same parameter, carrying the value passed, from the call that
// refused. The text of what() is the unit tests'.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <rapidcheck.h>

#include "acemq/model/contract.hpp"
#include "properties/generators.hpp"
#include "properties/properties.hpp"
#include "properties/support.hpp"

namespace acemq::props {
namespace {

using namespace std::chrono_literals;
using amqp::InvalidParameter;
using amqp::Parameter;

// The value of each of a policy's six fields as a refusal carries it, by
// Parameter: max_attempts is whole, the rest are the doubles inside.
using FieldValue = InvalidParameter::Value (*)(const Options&);
constexpr FieldValue kFieldValue[] = {
    [](const Options& o) -> InvalidParameter::Value { return o.max_attempts; },
    [](const Options& o) -> InvalidParameter::Value { return o.initial_delay.count(); },
    [](const Options& o) -> InvalidParameter::Value { return o.multiplier; },
    [](const Options& o) -> InvalidParameter::Value { return o.max_delay.count(); },
    [](const Options& o) -> InvalidParameter::Value { return o.jitter_factor; },
    [](const Options& o) -> InvalidParameter::Value { return o.max_message_age.count(); },
};

// The refusal the model expects of a call, named `where`, that makes a
// policy of `o`: the first bad field, and its value.
Refusal refusal_making(const Options& o, std::string_view where) {
  const std::optional<Parameter> bad = model::first_invalid_field(o);
  require(bad.has_value(), "the model accepts ", describe(o), ": a generator bug, not a core one");
  return {*bad, kFieldValue[static_cast<std::size_t>(*bad)](o), where};
}

// Whatever `core_call` does, it must do what `model_call` does: refuse, as
// `where`, naming the model's parameter and carrying `value`; or answer the
// model's bits.
template <typename ModelCall, typename CoreCall>
void require_as_model(ModelCall&& model_call, CoreCall&& core_call,
                      const InvalidParameter::Value& value, std::string_view where,
                      const std::string& what) {
  std::optional<double> want;
  std::optional<Parameter> refused;
  try {
    want = model_call();
  } catch (const model::Rejected& rejected) {
    refused = rejected.parameter;
  }
  if (refused) {
    require_refusal(core_call, {*refused, value, where}, what);
  } else {
    require_same(core_call(), want, what, " (the model answers: nothing it reads is bad)");
  }
}

// A bad constructor argument, factory argument or copy argument throws
// InvalidParameter naming the first bad field, as the model finds it, and
// carrying its value.
void bad_policy_rejected_naming_field(Cases& /*cases*/) {
  const InvalidPolicy bad = *invalid_policy();
  require_refusal([&] { (void)RetryPolicy(bad.options); },
                  refusal_making(bad.options, "RetryPolicy"),
                  "RetryPolicy(" + describe(bad.options) + ")");

  const Policy p = *valid_policy({.lengths = Lengths::any});
  const RetryPolicy policy(*p);
  const Real age = *bad_duration();
  Options aged = *p;
  aged.max_message_age = Seconds{age};
  require_refusal([&] { (void)policy.give_up_after(Seconds{age}); },
                  refusal_making(aged, "give_up_after"), cat("give_up_after(", age, ")"));
  const Real factor = *bad_jitter_factor();
  Options spread = *p;
  spread.jitter_factor = factor;
  require_refusal([&] { (void)policy.with_jitter(factor); }, refusal_making(spread, "with_jitter"),
                  cat("with_jitter(", factor, ")"));
  // The factories refuse through the constructor they call.
  const std::int64_t attempts = *bad_attempt();
  require_refusal([&] { (void)RetryPolicy::fixed(attempts, 1s); },
                  refusal_making({.max_attempts = attempts, .initial_delay = 1s, .multiplier = 1.0},
                                 "RetryPolicy"),
                  cat("fixed(", attempts, ", 1)"));
  const Real delay = *bad_duration();
  require_refusal([&] { (void)RetryPolicy::exponential(3, Seconds{delay}); },
                  refusal_making({.max_attempts = 3,
                                  .initial_delay = Seconds{delay},
                                  .multiplier = 2.0,
                                  .jitter_factor = 0.2},
                                 "RetryPolicy"),
                  cat("exponential(3, ", delay, ")"));
}

// attempt < 1, a NaN age, a NaN delay and an r outside [0, 1) are refused
// exactly where the model refuses them, naming the same argument: a bad r
// only where jitter applies, since elsewhere nothing reads it.
void bad_call_rejected_naming_field(Cases& /*cases*/) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  const RetryPolicy policy(*p);
  int draws = 0;
  const CountingSource half(0.5, draws);

  const std::int64_t attempt = *bad_attempt();
  require_as_model([&] { return model::next_delay(*p, attempt, 0.0); },
                   [&] { return count(policy.next_delay(attempt, 0s, Jitter::off)); }, attempt,
                   "next_delay", cat("next_delay(", attempt, ", 0, Jitter::off)"));
  require_as_model([&] { return model::next_delay(*p, attempt, 0.0, 0.5).delay; },
                   [&] { return count(policy.next_delay(attempt, 0s, half)); }, attempt,
                   "next_delay", cat("next_delay(", attempt, ", 0, source)"));

  const std::int64_t k = *attempt_for(max_attempts(p), 100'000);
  const Real nan_age = *nan();
  require_as_model([&] { return model::next_delay(*p, k, nan_age); },
                   [&] { return count(policy.next_delay(k, Seconds{nan_age}, Jitter::off)); },
                   nan_age.value, "next_delay", cat("next_delay(", k, ", NaN, Jitter::off)"));
  require_as_model([&] { return model::next_delay(*p, k, nan_age, 0.5).delay; },
                   [&] { return count(policy.next_delay(k, Seconds{nan_age}, half)); },
                   nan_age.value, "next_delay", cat("next_delay(", k, ", NaN, source)"));

  const Real nan_delay = *nan();
  require_as_model(
      [&] { return std::optional<double>(model::jittered(*p, nan_delay, 0.5)); },
      [&] { return std::optional<double>(policy.jittered(Seconds{nan_delay}, half).count()); },
      nan_delay.value, "jittered", "jittered(NaN)");
  require_as_model(
      [&] { return std::optional<double>(model::jittered(*p, nan_delay, 0.5)); },
      [&] {
        return std::optional<double>(policy.jittered_with_draw(Seconds{nan_delay}, 0.5).count());
      },
      nan_delay.value, "jittered", "jittered_with_draw(NaN, 0.5)");

  const Real r = *bad_draw();
  const Real d = *delay_argument(true);
  const Real young = *young_age_for(age_limit(p));
  require_as_model(
      [&] { return std::optional<double>(model::jittered(*p, d, r)); },
      [&] { return std::optional<double>(policy.jittered_with_draw(Seconds{d}, r).count()); },
      r.value, "jitter", cat("jittered_with_draw(", d, ", ", r, ")"));
  const CountingSource bad_source(r, draws);
  require_as_model(
      [&] { return std::optional<double>(model::jittered(*p, d, r)); },
      [&] { return std::optional<double>(policy.jittered(Seconds{d}, bad_source).count()); },
      r.value, "jitter", cat("jittered(", d, ") with r = ", r));
  require_as_model([&] { return model::next_delay(*p, k, young, r).delay; },
                   [&] { return count(policy.next_delay(k, Seconds{young}, bad_source)); }, r.value,
                   "jitter", cat("next_delay(", k, ", ", young, ") with r = ", r));
}

// Every valid policy (-0.0, subnormals, DBL_MAX, factor 1 ...) is accepted
// with its bits kept, by the constructor, the copies and the factories, and
// the accessors return them.
void valid_policies_accepted(Cases& /*cases*/) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  const RetryPolicy policy(*p);
  require_same_options(policy.options(), *p, "RetryPolicy(options).options()");
  const Options accessed{.max_attempts = policy.max_attempts(),
                         .initial_delay = policy.initial_delay(),
                         .multiplier = policy.multiplier(),
                         .max_delay = policy.max_delay(),
                         .jitter_factor = policy.jitter_factor(),
                         .max_message_age = policy.max_message_age()};
  require_same_options(accessed, *p, "max_attempts() ... max_message_age()");
  const Real age = *valid_age_limit();
  const Real factor = *valid_jitter_factor();
  (void)policy.give_up_after(Seconds{age});
  (void)policy.with_jitter(factor);
  (void)RetryPolicy::fixed(p->max_attempts, p->initial_delay);
  (void)RetryPolicy::exponential(p->max_attempts, p->initial_delay, p->max_delay);
}

const Property kValidationRows[] = {
    {"BadPolicyRejectedNamingField",
     bad_policy_rejected_naming_field,
     {},
     {"retry_policy.cc | acemq::amqp::(anonymous)::require_jitter_factor(std::string_view, double) "
      "| negation-removed !x -> x | 0",
      "retry_policy.cc | acemq::amqp::(anonymous)::validate(const RetryPolicy::Options &) | "
      "constant 1 -> 0 | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::give_up_after(acemq::amqp::Seconds) | "
      "statement-deleted statement -> nothing | 0"}},
    {"BadCallRejectedNamingField",
     bad_call_rejected_naming_field,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | relational < -> <= "
      "| 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::unjittered_inline(std::int64_t, double) | "
      "statement-deleted statement -> nothing | 2",
      "retry_policy.cc | acemq::amqp::RetryPolicy::unjittered_inline(std::int64_t, double) | "
      "constant 1 -> 0 | 0"}},
    {"ValidPoliciesAccepted",
     valid_policies_accepted,
     {},
     {"retry_policy.cc | acemq::amqp::(anonymous)::require_finite_non_negative(std::string_view, "
      "acemq::amqp::Parameter, double) | relational < -> <= | 0",
      "retry_policy.hpp | acemq::amqp::RetryPolicy::max_message_age() | return-default return x -> "
      "return {} | 0"}},
};

}  // namespace

std::span<const Property> validation_properties() { return kValidationRows; }

}  // namespace acemq::props
