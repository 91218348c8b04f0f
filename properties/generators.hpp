// generators: the values that break floating-point code, in one place.
//
// RapidCheck's own numeric generators never reach them: gen::inRange<double>
// does not compile, gen::arbitrary<double> yields no NaN, infinity, subnormal
// or huge value, and integer ranges grow with the size parameter. These do:
// each generator picks a regime first (zero, -0.0, 2^-1074, a subnormal, an
// ordinary value, 1e300, DBL_MAX, +inf, ...) and then a value in it, with
// integer ranges fixed at full size. Every regime is listed simplest first,
// and a counterexample shrinks towards the first one, then towards the low
// end of its range, so a failure reads "multiplier 2" when 2 will do.
//
// Values that reach a counterexample print themselves exactly (show.hpp):
// a Real prints its shortest round-trip form and, where it helps, its bits;
// a Policy prints all six fields and the regime each came from.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "acemq/amqp/invalid_parameter.hpp"
#include "acemq/model/edge_values.hpp"
#include "properties/show.hpp"

namespace acemq::props {

// A double that prints exactly in a counterexample.
struct Real {
  double value = 0.0;
  // Implicit: a Real is used wherever its double is.
  constexpr operator double() const noexcept { return value; }
};
void showValue(Real x, std::ostream& os);

// A valid policy, and the regime each of its fields was drawn from.
struct Policy {
  Options options;
  std::string regime;
  const Options& operator*() const noexcept { return options; }
  const Options* operator->() const noexcept { return &options; }
};
void showValue(const Policy& policy, std::ostream& os);

// A policy with one or more bad fields, and the one the port must name: the
// first bad one in declaration order (what model::first_invalid_field says;
// kept here so a counterexample prints which field the case was built
// around).
struct InvalidPolicy {
  Options options;
  amqp::Parameter first_bad;
};
void showValue(const InvalidPolicy& policy, std::ostream& os);

// How long a policy's schedule may be. `schedulable` keeps max_attempts at
// most a few thousand so schedule() is cheap; `any` adds ~10^6, 10^9 and
// INT64_MAX, for properties that only call next_delay; `unbounded` is
// INT64_MAX alone, a policy that never runs out of attempts.
enum class Lengths { schedulable, any, unbounded };

// Which jitter factors a policy may have.
enum class Jitters {
  any,       // 0, -0.0, 2^-1074, (0, 1), 0.2, 0.5, 1 - 2^-53, 1
  positive,  // the same without 0 and -0.0: jitter applies to a positive delay
  zero,      // 0 and -0.0: jitter never applies
};

// Which multipliers a policy may have.
enum class Multipliers {
  any,           // 0, -0.0, (0, 1), [0.9, 1), 1 - 2^-53, 1, 1 + 1e-9,
                 // (1, 1.1], 2, large, DBL_MAX
  at_least_one,  // 1, 1 + 1e-9, (1, 1.1], (1, 10], 2, 10, large, 1e300, DBL_MAX
  // Close to 1, either side: [0.9, 1), 1 - 2^-53, 1 + 2^-52, 1 + 1e-9,
  // (1, 1.1]. The running value crosses a cap or decays only after many
  // entries, past the library's table of 16.
  near_one,
  // Those whose running value settles (capped, zero, +inf or a fixed point)
  // within about 14000 steps from any start: 0, (0, 0.9], 0.5, 1, 2,
  // [1.5, 10], 10, large, 1e300, DBL_MAX. Not 1 + 1e-9, 1 - 2^-53 or -0.0,
  // which walk for billions of steps or flip the sign of zero forever.
  settling,
};

// Which caps a policy may have, relative to its initial delay d.
enum class Caps {
  any,       // none (0 or -0.0), below d, a fraction of d, at d, just above,
             // k times above, far above, 2^-1074, DBL_MAX
  positive,  // the same without none: max_delay > 0 always
  // A fraction of d or k times d: a cap the running value crosses after a
  // few or a few hundred entries when the multiplier is near 1.
  crossing,
};

struct PolicyShape {
  Lengths lengths = Lengths::schedulable;
  Multipliers multipliers = Multipliers::any;
  Jitters jitters = Jitters::any;
  Caps caps = Caps::any;
  bool retries = false;  // max_attempts >= 2 always: there is a delay to ask for
};

// Valid policies by regime: delays of 0, -0.0, 2^-1074, subnormal, tiny,
// ordinary and near 1e300; multipliers, caps and jitter factors per `shape`;
// age limits none, whole seconds, ordinary, 2^-1074 and DBL_MAX;
// max_attempts 1, 2..10, ~10^3, up to 2000 and, for Lengths::any, ~10^6,
// 10^9 and INT64_MAX.
rc::Gen<Policy> valid_policy(PolicyShape shape = {});

// Any invalid policy: each validation rule broken alone or with others.
rc::Gen<InvalidPolicy> invalid_policy();

// An attempt for a policy with `max_attempts`: 1, 16..18 (where the library
// stops answering from its table of 16 remembered values), M - 1, M, M + 1,
// beyond, INT64_MAX and uniform below M. Attempts below M stay at most `max_work`,
// since answering them may cost attempt - 1 multiplications.
rc::Gen<std::int64_t> attempt_for(std::int64_t max_attempts, std::int64_t max_work);
// An attempt below max_attempts (which must be at least 2), at most max_work.
rc::Gen<std::int64_t> retrying_attempt_for(std::int64_t max_attempts, std::int64_t max_work);
// An attempt of at least max_attempts: M, M + 1, beyond, INT64_MAX.
rc::Gen<std::int64_t> final_attempt_for(std::int64_t max_attempts);
// Attempts below 1: 0, -1, INT64_MIN, any negative.
rc::Gen<std::int64_t> bad_attempt();

// A message age for an age limit: 0, -0.0, negative, -inf, ordinary, +inf,
// DBL_MAX and, when the limit is positive, just below, at and just above it.
rc::Gen<Real> age_for(double max_message_age);
// An age the limit lets through: below it, negative, or anything when there
// is no limit.
rc::Gen<Real> young_age_for(double max_message_age);
// An age at or above a positive limit.
rc::Gen<Real> old_age_for(double max_message_age);

// A valid draw r in [0, 1): 0, -0.0, 2^-53, 0.5 and its neighbours,
// 1 - 2^-53, uniform multiples of 2^-53 (what a source yields) and any
// double in the interval (what the contract allows).
rc::Gen<Real> draw();
// The draws every jitter check also tries, whatever was generated.
using model::edges::kEdgeDraws;
// Outside [0, 1): 1, 1 + 2^-52, 2, -2^-1074, -1, NaNs, +-inf, huge.
rc::Gen<Real> bad_draw();

// A delay argument for jittered(): 0, -0.0, 2^-1074, subnormal, ordinary,
// 1e300, DBL_MAX and +inf; with `negatives`, also -2^-1074, -1.5 and -inf.
rc::Gen<Real> delay_argument(bool negatives);
// A positive delay argument, +inf included.
rc::Gen<Real> positive_delay_argument();
// A delay argument at or below zero: 0, -0.0, -2^-1074, -1.5, -inf, any.
rc::Gen<Real> non_positive_delay_argument();
// Valid values for one field: a delay for fixed(), an age for
// give_up_after(), a factor for with_jitter(), a cap for exponential().
rc::Gen<Real> valid_delay();
rc::Gen<Real> valid_age_limit();
rc::Gen<Real> valid_jitter_factor();
// Values give_up_after() and with_jitter() must refuse.
rc::Gen<Real> bad_duration();
rc::Gen<Real> bad_jitter_factor();
// NaNs: quiet, negative, signalling, with a payload.
rc::Gen<Real> nan();
// max_attempts for a schedule: 1, 2..10, ~10^3.
rc::Gen<std::int64_t> schedulable_max_attempts();
// Seeds for RubyRandom: 42, 0, 2^32 - 1 and any.
rc::Gen<std::uint32_t> seed();

}  // namespace acemq::props
