// regimes: the corners of the contract where retry-policy arithmetic breaks,
// defined once for every harness that asks which of them a case reached:
// the properties' coverage shares and `retry-policy check`'s tally speak of
// the same eleven things, judged the same way.
//
// A regime is judged from the policy, the call and the model's own walk of
// the schedule loop (contract.hpp), never from the core. Walks stop at a
// limit the caller gives; past it a regime is reported only where the walk
// already decides it (a value that has passed the cap with multiplier >= 1,
// or overflowed, stays so), never guessed.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "acemq/model/contract.hpp"

namespace acemq::model {

enum class Regime : std::size_t {
  cap_passed,
  multiplier_below_one,
  negative_zero,
  overflow,
  subnormal,
  age_at_limit,
  past_remembered_prefix,
  huge_attempt,
  creeping_cap_far,
  age_limit_far,
  settles_at_cost_limit,
};
inline constexpr std::size_t kRegimeCount = 11;

struct RegimeRow {
  Regime regime;
  std::string_view name;         // short, for a run's distribution
  std::string_view description;  // what reaching it means, for a report
};

// Every regime, in the enum's order.
inline constexpr std::array<RegimeRow, kRegimeCount> kRegimeRows = {{
    {Regime::cap_passed, "cap passed", "capped: a running value past a positive max_delay"},
    {Regime::multiplier_below_one, "multiplier below 1",
     "multiplier below 1, at an entry past the first"},
    {Regime::negative_zero, "-0.0", "-0.0 in the policy, the call, a running value or the answer"},
    {Regime::overflow, "overflow", "overflow to +Infinity from finite input"},
    {Regime::subnormal, "subnormal",
     "a subnormal in the policy, the call, a running value or the answer"},
    {Regime::age_at_limit, "age at the limit",
     "message age at max_message_age, or an ulp either side (the limit is inclusive)"},
    {Regime::past_remembered_prefix, "past the remembered prefix",
     "attempt past the core's remembered running values, where it walks"},
    {Regime::huge_attempt, "huge attempt",
     "huge attempt: past 2^20 + 1, which only an early exit or giving up answers"},
    {Regime::creeping_cap_far, "creeping under a cap, far",
     "huge attempt under a cap, multiplier within 2^-40 of 1: the cap exit alone decides"},
    {Regime::age_limit_far, "age limit, far, unsettled",
     "huge attempt with an age limit on a walk past the cost limit: giving up comes first"},
    {Regime::settles_at_cost_limit, "settles at the cost limit",
     "a walk that settles at 2^20 - 1, 2^20 or 2^20 + 1 multiplications: either side of the "
     "limit"},
}};

inline constexpr std::string_view regime_name(Regime regime) {
  return kRegimeRows[static_cast<std::size_t>(regime)].name;
}

// A set of regimes.
class Regimes {
 public:
  constexpr void add(Regime regime, bool reached = true) {
    if (reached) bits_ |= 1U << static_cast<unsigned>(regime);
  }
  constexpr bool has(Regime regime) const {
    return (bits_ >> static_cast<unsigned>(regime) & 1U) != 0;
  }
  constexpr Regimes& operator|=(Regimes other) {
    bits_ |= other.bits_;
    return *this;
  }
  constexpr bool empty() const { return bits_ == 0; }

 private:
  unsigned bits_ = 0;
};

// Beyond this many steps of the loop (attempt - 1 above it) an attempt is
// huge: the protocol's cost limit, which only an early exit gets past.
inline constexpr std::int64_t kHugeAttemptSteps = std::int64_t{1} << 20;

// The regimes one double is in: -0.0 or a subnormal; and overflow when it is
// +Infinity computed from finite input (`from_finite`).
inline Regimes regimes_of_value(double x, bool from_finite = false) {
  Regimes r;
  r.add(Regime::negative_zero, x == 0.0 && std::signbit(x));
  r.add(Regime::subnormal, std::fpclassify(x) == FP_SUBNORMAL);
  r.add(Regime::overflow, from_finite && x == HUGE_VAL);
  return r;
}

// The regimes of the policy's fields alone.
inline Regimes regimes_of_policy(const Options& o) {
  Regimes r;
  for (const double field : {o.initial_delay.count(), o.multiplier, o.max_delay.count(),
                             o.jitter_factor, o.max_message_age.count()}) {
    r |= regimes_of_value(field);
  }
  return r;
}

// The regimes the running value before entry `entry` (from 1) reaches, as
// the model's loop walks it for at most `walk_limit` multiplications.
inline Regimes regimes_of_entry(const Options& o, std::int64_t entry, std::int64_t walk_limit) {
  Regimes r;
  if (entry < 1) return r;
  r.add(Regime::multiplier_below_one, entry >= 2 && o.multiplier < 1.0);
  const std::int64_t walked = entry - 1 <= walk_limit ? entry : walk_limit + 1;
  const double running = running_value(o, walked);
  const bool whole = walked == entry;
  if (whole) r |= regimes_of_value(running);
  // Both stay once reached while the multiplier is at least 1 (a running
  // value at +Infinity has one above 1), so a partial walk decides them.
  const double cap = o.max_delay.count();
  r.add(Regime::cap_passed, cap > 0.0 && running > cap && (whole || o.multiplier >= 1.0));
  r.add(Regime::overflow, running == HUGE_VAL && std::isfinite(o.initial_delay.count()));
  return r;
}

// A walk this long decides the cost limit's regimes: it sees a walk settle
// at 2^20 + 1 multiplications and tell it from one that does not.
inline constexpr std::int64_t kCostEdgeWalk = kHugeAttemptSteps + 2;

// The regimes of a huge attempt at the protocol's cost limit, where ports
// disagree on which calls are answered (docs/protocol.md, Limits).
// Creeping under a cap needs no walk; the other two walk the model's
// protocol_cost up to kCostEdgeWalk steps (a few milliseconds), and only when
// the caller's `walk_limit` allows a walk that long.
inline Regimes regimes_of_far_call(const Options& o, std::int64_t attempt, double message_age,
                                   std::int64_t walk_limit) {
  Regimes r;
  if (attempt - 1 <= kHugeAttemptSteps || std::isnan(message_age)) return r;
  const bool given_up = gives_up(o, attempt, message_age);
  const double multiplier = o.multiplier;
  // Within 2^-40 of 1 a step moves the running value by a few ulps, so the
  // cap is passed (or, below 1, left) only millions of steps in.
  r.add(Regime::creeping_cap_far, !given_up && o.max_delay.count() > 0.0 && multiplier != 1.0 &&
                                      std::fabs(multiplier - 1.0) <= 0x1p-40);
  if (walk_limit < kCostEdgeWalk) return r;
  const std::int64_t cost = protocol_cost(o, attempt, kCostEdgeWalk);
  r.add(Regime::age_limit_far, o.max_message_age.count() > 0.0 && cost > kHugeAttemptSteps);
  r.add(Regime::settles_at_cost_limit,
        !given_up && cost >= kHugeAttemptSteps - 1 && cost <= kHugeAttemptSteps + 1);
  return r;
}

// The regimes of a call next_delay(attempt, message_age) on policy `o`: its
// policy, its arguments and, when it does not give up, the running value
// its entry comes from. `remembered` is how many running values the core
// under test remembers (it exports the figure); past them it walks.
inline Regimes regimes_of_call(const Options& o, std::int64_t attempt, double message_age,
                               std::int64_t remembered, std::int64_t walk_limit) {
  Regimes r = regimes_of_policy(o);
  r |= regimes_of_value(message_age);
  const double limit = o.max_message_age.count();
  r.add(Regime::age_at_limit,
        limit > 0.0 && (message_age == limit || message_age == std::nextafter(limit, HUGE_VAL) ||
                        message_age == std::nextafter(limit, -HUGE_VAL)));
  // Of the attempt alone, whether or not the call then gives up: the core
  // must decide that too without walking.
  r.add(Regime::past_remembered_prefix, attempt > remembered);
  r.add(Regime::huge_attempt, attempt > kHugeAttemptSteps + 1);
  if (attempt < 1) return r;
  r |= regimes_of_far_call(o, attempt, message_age, walk_limit);
  if (std::isnan(message_age) || gives_up(o, attempt, message_age)) return r;
  r |= regimes_of_entry(o, attempt, walk_limit);
  return r;
}

// The regimes of a whole schedule: its policy, and the running values of its
// first and last entries.
inline Regimes regimes_of_schedule(const Options& o, std::int64_t walk_limit) {
  Regimes r = regimes_of_policy(o);
  const std::int64_t entries = o.max_attempts - 1;
  if (entries < 1) return r;
  r |= regimes_of_entry(o, 1, walk_limit);
  r |= regimes_of_entry(o, entries, walk_limit);
  return r;
}

}  // namespace acemq::model
