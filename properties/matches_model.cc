// matches_model: the core's answers are the shared model's, bit for bit.
//
// The model (model/acemq/model/contract.hpp) is docs/contract.md transcribed
// plainly: the reference's loop, one rounded operation at a time, with no
// early exit and no remembered prefix. Where the core is faster it must not
// be different, so every delay is compared as bits (0.0 is not -0.0), over
// the regimes where floating point breaks: each row names the share of
// cases that must reach each, so a generator that drifts away from them
// fails here before a bug can hide there.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <rapidcheck.h>

#include "acemq/model/contract.hpp"
#include "properties/generators.hpp"
#include "properties/properties.hpp"
#include "properties/support.hpp"

namespace acemq::props {
namespace {

// schedule() is bit-equal to the model's.
void schedule_matches_model(Cases& cases) {
  const Policy p = *valid_policy();
  cases.policy(*p);
  const std::vector<double> got = counts(RetryPolicy(*p).schedule());
  const std::vector<double> want = model::schedule(*p);
  require(got.size() == want.size(), "schedule() has ", got.size(), " entries, the model ",
          want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    require_same(got[i], want[i], "schedule()[", i, "] against the model");
  }
}

// next_delay, with jitter off and with jitter from a given r, is bit-equal
// to the model's, giving up included.
void next_delay_matches_model(Cases& cases) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  const RetryPolicy policy(*p);
  // 2 * 10^5: the model walks every step, four times a case.
  const std::int64_t attempt = *attempt_for(max_attempts(p), 200'000);
  const Real age = *age_for(age_limit(p));
  const Real r = *draw();
  cases.policy(*p, attempt, age);
  require_same(count(policy.next_delay(attempt, Seconds{age}, Jitter::off)),
               model::next_delay(*p, attempt, age), "next_delay(", attempt, ", ", age,
               ", Jitter::off) against the model");
  for (const double each : draws_with_edges(r)) {
    int draws = 0;
    require_same(count(policy.next_delay(attempt, Seconds{age}, CountingSource(each, draws))),
                 model::next_delay(*p, attempt, age, each).delay, "next_delay(", attempt, ", ", age,
                 ") with r = ", each, " against the model");
  }
}

// jittered(d) and jittered_with_draw(d, r), for any d (±0, negative,
// subnormal, inf) and any r, are bit-equal to the model's.
void jittered_matches_model(Cases& cases) {
  // Factor 0 is the identity, which NoDrawWithoutJitter checks; here every
  // case does the arithmetic.
  const Policy p = *valid_policy({.jitters = Jitters::positive});
  const RetryPolicy policy(*p);
  const Real d = *delay_argument(true);
  const Real r = *draw();
  for (const double each : draws_with_edges(r)) {
    const double want = model::jittered(*p, d, each);
    cases.value(d);
    int draws = 0;
    require_same(policy.jittered(Seconds{d}, CountingSource(each, draws)).count(), want,
                 "jittered(", d, ") with r = ", each, " against the model");
    require_same(policy.jittered_with_draw(Seconds{d}, each).count(), want, "jittered_with_draw(",
                 d, ", ", each, ") against the model");
  }
}

const Property kMatchesModelRows[] = {
    {"ScheduleMatchesModel",
     schedule_matches_model,
     {{Regime::cap_passed, 0.12},
      {Regime::multiplier_below_one, 0.2},
      {Regime::negative_zero, 0.15},
      {Regime::overflow, 0.07},
      {Regime::subnormal, 0.15}},
     {"delay_range.hpp | acemq::amqp::DelayRange::iterator::operator++() | cap-on-running-value "
      "running * m -> capped(running) * m | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::delays() | constant 1 -> 0 | 0"}},
    {"NextDelayMatchesModel",
     next_delay_matches_model,
     {{Regime::cap_passed, 0.06},
      {Regime::multiplier_below_one, 0.05},
      {Regime::negative_zero, 0.15},
      {Regime::overflow, 0.03},
      {Regime::subnormal, 0.15},
      {Regime::age_at_limit, 0.05},
      {Regime::past_remembered_prefix, 0.35},
      {Regime::huge_attempt, 0.1}},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::unjittered_inline(std::int64_t, double) | "
      "closed-form-pow walk(...) -> running * pow(m, attempt - entry) | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | jitter-regrouped d "
      "* (1 + t) -> d + d * t | 0",
      "retry_policy.hpp | acemq::amqp::RetryPolicy::clamp_at_zero(double) | relational < -> <= | "
      "0"}},
    {"JitteredMatchesModel",
     jittered_matches_model,
     {{Regime::negative_zero, 0.03}, {Regime::subnormal, 0.07}},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | jitter-fused d * "
      "(1 + t) -> fma(d, t, d) | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | jitter-regrouped d "
      "* (1 + (2r - 1) f) -> d (1 - f) + d 2f r | 0"}},
};

}  // namespace

std::span<const Property> matches_model_properties() { return kMatchesModelRows; }

}  // namespace acemq::props
