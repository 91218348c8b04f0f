// contract: the retry-policy contract (docs/contract.md) transcribed plainly,
// the one model that every harness checks the core against, bit for bit.
//
// Written from the Ruby reference (the seed doc page) and the contract's
// documented decisions, never from src/: it shares only the plain Options
// struct with the core and never calls its arithmetic. Every delay here is
// the reference's loop, one operation at a time, in the reference's order,
// with no early exit, so schedule_entry is O(attempt) by design; the one
// walk with exits, protocol_cost, is the protocol's cost limit as
// docs/protocol.md states it.
//
// Rejections throw Rejected naming the parameter with the core's own enum
// (acemq/amqp/invalid_parameter.hpp), so a harness can ask the core for an
// InvalidParameter naming the same one, compared as values.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "acemq/amqp/retry_policy.hpp"
#include "acemq/model/bits.hpp"

namespace acemq::model {

using Options = amqp::RetryPolicy::Options;

// A parameter the port refuses.
struct Rejected {
  amqp::Parameter parameter;
};

// ---- Validation (docs/contract.md, Decisions) ------------------------------

// Durations and the multiplier: finite and not below zero. -0.0 is not below
// zero, and the reference keeps its sign, so it passes.
inline bool finite_non_negative(double value) { return std::isfinite(value) && !(value < 0.0); }

// The jitter factor lies in [0, 1]; NaN lies in no interval.
inline bool jitter_factor_ok(double factor) { return factor >= 0.0 && factor <= 1.0; }

// The first parameter the constructor refuses, in declaration order, or
// nothing when the policy is valid.
inline std::optional<amqp::Parameter> first_invalid_field(const Options& o) {
  if (o.max_attempts < 1) return amqp::Parameter::max_attempts;
  if (!finite_non_negative(o.initial_delay.count())) return amqp::Parameter::initial_delay;
  if (!finite_non_negative(o.multiplier)) return amqp::Parameter::multiplier;
  if (!finite_non_negative(o.max_delay.count())) return amqp::Parameter::max_delay;
  if (!jitter_factor_ok(o.jitter_factor)) return amqp::Parameter::jitter_factor;
  if (!finite_non_negative(o.max_message_age.count())) return amqp::Parameter::max_message_age;
  return std::nullopt;
}

// ---- schedule (§3) ----------------------------------------------------------

// Ruby: `max_delay.positive? && delay > max_delay ? max_delay : delay`.
inline double capped(double max_delay, double delay) {
  return max_delay > 0.0 && delay > max_delay ? max_delay : delay;
}
inline double capped(const Options& o, double delay) { return capped(o.max_delay.count(), delay); }

// Ruby's #schedule: the running value starts at initial_delay, each entry is
// that value capped, and the running value is multiplied after each entry.
inline std::vector<double> schedule(const Options& o) {
  std::vector<double> delays;
  double delay = o.initial_delay.count();
  for (std::int64_t i = 1; i < o.max_attempts; ++i) {
    delays.push_back(capped(o, delay));
    delay *= o.multiplier;
  }
  return delays;
}

// The running value before entry `entry` (from 1): entry - 1 multiplications.
inline double running_value(const Options& o, std::int64_t entry) {
  double delay = o.initial_delay.count();
  for (std::int64_t i = 1; i < entry; ++i) delay *= o.multiplier;
  return delay;
}

// Entry `attempt` of the schedule (from 1), by the same loop: attempt - 1
// multiplications, then the cap. What next_delay asks Ruby's backoff for.
inline double schedule_entry(const Options& o, std::int64_t attempt) {
  return capped(o, running_value(o, attempt));
}

// ---- jittered (§5) ------------------------------------------------------------

// The port rejects a NaN delay before anything else; Ruby returned it.
inline void check_delay(double delay) {
  if (std::isnan(delay)) throw Rejected{amqp::Parameter::delay};
}

// Ruby: `jitter_factor.positive? && delay.positive?`. Only then is a draw
// taken.
inline bool jitter_applies(double jitter_factor, double delay) {
  return jitter_factor > 0.0 && delay > 0.0;
}
inline bool jitter_applies(const Options& o, double delay) {
  return jitter_applies(o.jitter_factor, delay);
}

// What the delay is multiplied by: 1 + (((r * 2) - 1) * jitter_factor), each
// operation rounded in this order.
inline double jitter_scale(double jitter_factor, double r) {
  // Stored through a volatile so it is rounded to binary64 before the add,
  // whatever the build's -ffp-contract: (2r - 1) * f + 1 is the one place an
  // FMA changes the answer, and a model fused like a broken core would agree
  // with it.
  const volatile double spread = ((r * 2) - 1) * jitter_factor;
  return 1 + spread;
}

// Ruby's #jittered with the draw given:
//   delay * (1 + (((r * 2) - 1) * jitter_factor))
// The port checks r is in [0, 1) and, where the one possible NaN arises
// (delay +inf, factor 1, r <= 2^-55: inf * 0), keeps the infinite delay.
inline double jittered(double jitter_factor, double delay, double r) {
  check_delay(delay);
  if (!jitter_applies(jitter_factor, delay)) return delay;
  if (!(r >= 0.0 && r < 1.0)) throw Rejected{amqp::Parameter::draw};
  const double result = delay * jitter_scale(jitter_factor, r);
  return std::isnan(result) ? delay : result;
}
inline double jittered(const Options& o, double delay, double r) {
  return jittered(o.jitter_factor, delay, r);
}

// ---- next_delay (§4) ----------------------------------------------------------

// Ruby's `[delay, 0.0].max`: the first of equals wins, so -0.0 stays -0.0.
inline double clamp_at_zero(double delay) { return delay < 0.0 ? 0.0 : delay; }

// Whether next_delay gives up: the last attempt has been made, or the message
// is at least max_message_age old (when that is positive; 0 means never).
inline bool gives_up(const Options& o, std::int64_t attempt, double message_age) {
  if (attempt >= o.max_attempts) return true;
  const double max_age = o.max_message_age.count();
  return max_age > 0.0 && message_age >= max_age;
}

// The port's argument checks, before anything else.
inline void check_call(std::int64_t attempt, double message_age) {
  if (attempt < 1) throw Rejected{amqp::Parameter::attempt};
  if (std::isnan(message_age)) throw Rejected{amqp::Parameter::message_age};
}

// next_delay without jitter.
inline std::optional<double> next_delay(const Options& o, std::int64_t attempt,
                                        double message_age) {
  check_call(attempt, message_age);
  if (gives_up(o, attempt, message_age)) return std::nullopt;
  return clamp_at_zero(schedule_entry(o, attempt));
}

// What a jittered next_delay answers, and whether it took the draw.
struct Jittered {
  std::optional<double> delay;
  bool drew = false;
};

// next_delay with jitter, `r` standing in for Kernel.rand: drawn only when
// the policy has not given up and jitter applies to the delay.
inline Jittered next_delay(const Options& o, std::int64_t attempt, double message_age, double r) {
  check_call(attempt, message_age);
  if (gives_up(o, attempt, message_age)) return {};
  const double delay = schedule_entry(o, attempt);
  if (!jitter_applies(o, delay)) return {clamp_at_zero(delay), false};
  return {clamp_at_zero(jittered(o, delay, r)), true};
}

// ---- The protocol's cost limit (docs/protocol.md, Limits) ---------------

// How many multiplications of the loop above next_delay(attempt) needs once
// the running value settles: attempt - 1, or fewer where it stops changing
// the entry. It settles when it has passed a cap with multiplier >= 1 (it can
// only grow), is a zero (only its sign can change, by parity), or maps to
// the same bits (+Infinity or a rounding fixed point; the multiplication
// that shows it counts). More than `limit` (which must be below INT64_MAX)
// is reported as limit + 1 after limit + 1 steps.
inline std::int64_t protocol_cost(const Options& o, std::int64_t attempt, std::int64_t limit) {
  if (attempt < 1) return 0;
  const double cap = o.max_delay.count();
  double d = o.initial_delay.count();
  for (std::int64_t k = 0; k < attempt - 1; ++k) {
    if (k > limit) return limit + 1;
    if (cap > 0.0 && o.multiplier >= 1.0 && d > cap) return k;
    if (d == 0.0) return k;
    const double next = d * o.multiplier;
    if (same_bits(next, d)) return k + 1 > limit ? limit + 1 : k + 1;
    d = next;
  }
  return attempt - 1 > limit ? limit + 1 : attempt - 1;
}

}  // namespace acemq::model
