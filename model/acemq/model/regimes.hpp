// regimes: the corners of the contract where retry-policy arithmetic breaks,
// defined once for every harness that asks which of them a case reached:
// the properties' coverage shares and `retry-policy check`'s tally speak of
// the same eight things, judged the same way.
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
};
inline constexpr std::size_t kRegimeCount = 8;

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
  if (attempt < 1 || std::isnan(message_age) || gives_up(o, attempt, message_age)) return r;
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
