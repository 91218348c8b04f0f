// model: the retry-policy contract transcribed plainly, for the properties to
// check the library against bit for bit.
//
// Written from the Ruby reference (AceMQ::AMQP::RetryPolicy, the seed doc
// page) and the port's documented decisions (retry_policy.hpp/.cc: what is
// validated, and the two places the port departs from Ruby). It shares only
// the plain Options struct with the library and never calls its arithmetic:
// every delay here is the reference's loop, one operation at a time, in the
// reference's order, with no early exit, so it is O(attempt) by design.
//
// Rejections throw model::Rejected naming the parameter, so a property can
// ask the library for std::invalid_argument naming the same one.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string_view>
#include <vector>

#include "acemq/amqp/retry_policy.hpp"

namespace acemq::props::model {

using Options = amqp::RetryPolicy::Options;

// A parameter the port refuses, by the name the reference gives it.
struct Rejected {
  std::string_view field;
};

// Durations and the multiplier: finite and not below zero. -0.0 is not below
// zero, and the reference keeps its sign, so it passes.
inline bool finite_non_negative(double value) { return std::isfinite(value) && !(value < 0.0); }

// The jitter factor lies in [0, 1]; NaN lies in no interval.
inline bool jitter_factor_ok(double factor) { return factor >= 0.0 && factor <= 1.0; }

// The first parameter the constructor refuses, in declaration order, or
// nothing when the policy is valid.
inline std::optional<std::string_view> first_invalid_field(const Options& o) {
  if (o.max_attempts < 1) return "max_attempts";
  if (!finite_non_negative(o.initial_delay.count())) return "initial_delay";
  if (!finite_non_negative(o.multiplier)) return "multiplier";
  if (!finite_non_negative(o.max_delay.count())) return "max_delay";
  if (!jitter_factor_ok(o.jitter_factor)) return "jitter_factor";
  if (!finite_non_negative(o.max_message_age.count())) return "max_message_age";
  return std::nullopt;
}

// Ruby: `max_delay.positive? && delay > max_delay ? max_delay : delay`.
inline double capped(const Options& o, double delay) {
  const double max_delay = o.max_delay.count();
  return max_delay > 0.0 && delay > max_delay ? max_delay : delay;
}

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

// Entry `attempt` of the schedule (from 1), by the same loop: attempt - 1
// multiplications, then the cap. What next_delay asks Ruby's backoff for.
inline double backoff(const Options& o, std::int64_t attempt) {
  double delay = o.initial_delay.count();
  for (std::int64_t i = 1; i < attempt; ++i) delay *= o.multiplier;
  return capped(o, delay);
}

// The port rejects a NaN delay before anything else; Ruby returned it.
inline void check_delay(double delay) {
  if (std::isnan(delay)) throw Rejected{"delay"};
}

// Ruby: `jitter_factor.positive? && delay.positive?`. Only then is a draw
// taken.
inline bool jitter_applies(const Options& o, double delay) {
  return o.jitter_factor > 0.0 && delay > 0.0;
}

// Ruby's #jittered with the draw given:
//   delay * (1 + (((r * 2) - 1) * jitter_factor))
// The port checks r is in [0, 1) and, where the one possible NaN arises
// (delay +inf, factor 1, r 0: inf * 0), keeps the infinite delay.
inline double jittered(const Options& o, double delay, double r) {
  check_delay(delay);
  if (!jitter_applies(o, delay)) return delay;
  if (!(r >= 0.0 && r < 1.0)) throw Rejected{"r"};
  // Stored through a volatile so it is rounded to binary64 before the add,
  // whatever the build's -ffp-contract: (2r - 1) * f + 1 is the one place an
  // FMA changes the answer, and a model fused like the library would agree
  // with it.
  const volatile double spread = ((r * 2) - 1) * o.jitter_factor;
  const double result = delay * (1 + spread);
  return std::isnan(result) ? delay : result;
}

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
  if (attempt < 1) throw Rejected{"attempt"};
  if (std::isnan(message_age)) throw Rejected{"message_age"};
}

// next_delay without jitter.
inline std::optional<double> next_delay(const Options& o, std::int64_t attempt,
                                        double message_age) {
  check_call(attempt, message_age);
  if (gives_up(o, attempt, message_age)) return std::nullopt;
  return clamp_at_zero(backoff(o, attempt));
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
  const double delay = backoff(o, attempt);
  if (!jitter_applies(o, delay)) return {clamp_at_zero(delay), false};
  return {clamp_at_zero(jittered(o, delay, r)), true};
}

// Ruby's Random after srand(seed) for seeds below 2^32: MT19937 from
// init_genrand(seed), which is std::mt19937{seed}, and genrand_res53 per draw:
//   ((a >> 5) * 67108864.0 + (b >> 6)) / 9007199254740992.0
class RubyRand {
 public:
  explicit RubyRand(std::uint32_t seed) : engine_(seed) {}
  double operator()() {
    const std::uint32_t a = static_cast<std::uint32_t>(engine_()) >> 5U;
    const std::uint32_t b = static_cast<std::uint32_t>(engine_()) >> 6U;
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }

 private:
  std::mt19937 engine_;
};

}  // namespace acemq::props::model
