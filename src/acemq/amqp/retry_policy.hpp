// RetryPolicy: when to try again, and when to stop.
//
// The C++ member of the AceMQ retry-policy family, a port of the Ruby class
// AceMQ::AMQP::RetryPolicy. The arithmetic is a cross-language contract, not
// a local choice (docs/contract.md): IEEE-754 binary64, round-to-nearest, the
// reference's operations in the reference's order, so that Java, Go, .NET,
// Python, Ruby and C++ consumers retrying the same message agree to the bit.
// Jitter is the exception, being random by definition; its draw comes from a
// UniformSource the caller may inject.
//
// Unlike the reference, this port validates: bad input throws
// InvalidParameter, a std::invalid_argument that carries the parameter, the
// rule and the value as values (invalid_parameter.hpp), and names them in
// what(). A valid policy with no cap may still overflow to +infinity; that is
// the reference's answer and it is kept.
//
// Durations are std::chrono::duration<double> in seconds, as the Ruby class
// speaks Ruby floats; the double inside is the value the contract is about.
// Converting from another duration (500ms) happens before the contract: it is
// one correctly rounded division, so 100ms is exactly the double 0.1.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "acemq/amqp/delay_range.hpp"
#include "acemq/amqp/invalid_parameter.hpp"
#include "acemq/amqp/uniform_source.hpp"

namespace acemq::amqp {

using Seconds = std::chrono::duration<double>;

class RetryPolicy;

namespace internal {
// How many running values a policy remembers when it is made. Most policies
// stop within 16 attempts, and a lookup there is much faster than walking
// the latency chain of multiplications on every call (README.md,
// Performance, has the measurement).
inline constexpr std::int64_t kRememberedRunningValues = 16;
// Declared here to be a friend; documented, and meant to be included, in
// internal/walk.hpp, which is not installed.
std::int64_t walk_multiplications(const RetryPolicy& policy, std::int64_t attempt,
                                  double message_age, std::int64_t limit) noexcept;
}  // namespace internal

// Whether next_delay spreads the delay. Jitter::off gives the delay the
// schedule says, which is what to ask for when the number has to name
// something, such as a broker queue named after its delay.
enum class Jitter : bool { off = false, on = true };

class RetryPolicy {
 public:
  // The constructor's parameters by name, with the reference's defaults, for
  // C++20 designated initializers:
  //   RetryPolicy({.max_attempts = 5, .initial_delay = 500ms, .max_delay = 30s})
  struct Options {
    std::int64_t max_attempts = 1;  // total deliveries including the first
    Seconds initial_delay{0.0};     // before the second attempt
    double multiplier = 2.0;        // applied to the delay each time
    Seconds max_delay{0.0};         // the ceiling, or 0 for none
    double jitter_factor = 0.0;     // how far a delay may move either side
    Seconds max_message_age{0.0};   // give up on anything older, or 0: never
  };

  // schedule() refuses longer schedules with std::length_error: 2^24 entries
  // is 128 MiB of doubles. delays() walks any length in O(1) memory.
  static constexpr std::int64_t kMaxScheduleLength = std::int64_t{1} << 24;

  // One delivery, no second chance: the same as none().
  RetryPolicy() noexcept { remember_running_values(); }
  // Throws InvalidParameter naming the first bad parameter and its value.
  explicit RetryPolicy(const Options& options);

  // One delivery, no second chance.
  static RetryPolicy none();
  // The same wait every time, with no jitter.
  static RetryPolicy fixed(std::int64_t max_attempts, Seconds delay);
  // Doubling delays with 20% jitter, which is the sane default.
  static RetryPolicy exponential(std::int64_t max_attempts, Seconds initial_delay,
                                 Seconds max_delay = Seconds{0.0});

  std::int64_t max_attempts() const noexcept { return options_.max_attempts; }
  Seconds initial_delay() const noexcept { return options_.initial_delay; }
  double multiplier() const noexcept { return options_.multiplier; }
  Seconds max_delay() const noexcept { return options_.max_delay; }
  double jitter_factor() const noexcept { return options_.jitter_factor; }
  Seconds max_message_age() const noexcept { return options_.max_message_age; }
  const Options& options() const noexcept { return options_; }

  // A copy that abandons a message older than `age`. The honest limit when a
  // queue has been paused: attempts say nothing about how long it waited.
  RetryPolicy give_up_after(Seconds age) const;
  // A copy using a different jitter factor, between 0 and 1.
  RetryPolicy with_jitter(double factor) const;

  // How long to wait after `attempt` (from 1) has failed, or nullopt to give
  // up: when attempt >= max_attempts, or when max_message_age > 0 and
  // message_age >= max_message_age. A negative age counts as young, and an
  // infinite one as older than any limit. Never negative, never NaN.
  //
  // Costs at most attempt - 1 multiplications, and stops early with the same
  // bits once the running value has passed the cap (multiplier >= 1), or is
  // zero, infinite or at a fixed point: exponential(n, 0.5s, 30s) answers
  // attempt 10^9 as fast as attempt 10. A running value that creeps (1 + 1e-9
  // from 1 s to a 30 s cap takes 3.4e9 steps) still costs a walk. Allocates
  // nothing. The first overload jitters with DefaultSource.
  std::optional<Seconds> next_delay(std::int64_t attempt, Seconds message_age = Seconds{0.0},
                                    Jitter jitter = Jitter::on) const;
  // The same with jitter on, drawing from `source`; the draw is taken only
  // when jitter applies and the policy has not given up.
  template <UniformSource Source>
  std::optional<Seconds> next_delay(std::int64_t attempt, Seconds message_age,
                                    Source&& source) const;

  // The same delay, moved either side by up to jitter_factor:
  //   delay * (1 + ((r * 2 - 1) * jitter_factor)),  r in [0, 1).
  // Both directions, so a fleet that failed together does not come back
  // together. Unchanged, with no draw, unless jitter_factor > 0 and delay > 0.
  Seconds jittered(Seconds delay) const;
  template <UniformSource Source>
  Seconds jittered(Seconds delay, Source&& source) const;
  // The same with the draw given: the arithmetic alone, for conformance
  // checks and replays. Throws unless r is in [0, 1).
  Seconds jittered_with_draw(Seconds delay, double r) const;

  // The delays this policy would use, without jitter: max_attempts - 1 of
  // them. Four numbers are easier to argue with than three parameters.
  // Throws std::length_error above kMaxScheduleLength entries.
  std::vector<Seconds> schedule() const;
  // The same entries, lazily, for any length.
  DelayRange delays() const noexcept;

  // Same parameters, compared as values (so 0.0 and -0.0 are equal here even
  // though their schedules differ in sign bits).
  friend bool operator==(const RetryPolicy& a, const RetryPolicy& b) noexcept {
    const Options& x = a.options_;
    const Options& y = b.options_;
    return x.max_attempts == y.max_attempts && x.initial_delay == y.initial_delay &&
           x.multiplier == y.multiplier && x.max_delay == y.max_delay &&
           x.jitter_factor == y.jitter_factor && x.max_message_age == y.max_message_age;
  }

 private:
  // The building blocks, compiled once in retry_policy.cc under the
  // project's -ffp-contract=off, so a caller's flags cannot fuse them.
  std::optional<double> unjittered(std::int64_t attempt, double message_age) const;
  std::optional<double> unjittered_inline(std::int64_t attempt, double message_age) const;
  // The last attempt has been made, or the message is at least
  // max_message_age old (when that is positive; 0 means never).
  bool gives_up(std::int64_t attempt, double message_age) const noexcept {
    const double max_age = options_.max_message_age.count();
    return attempt >= options_.max_attempts || (max_age > 0.0 && message_age >= max_age);
  }
  // Whether a draw is due for this delay; throws for a NaN delay. Inline, as
  // it only compares: nothing here for a caller's flags to fuse.
  bool jitter_applies(double delay) const {
    if (delay != delay) reject_nan_delay(delay);
    return options_.jitter_factor > 0.0 && delay > 0.0;
  }
  [[noreturn]] static void reject_nan_delay(double delay);
  // Checks r is in [0, 1), then does the jitter arithmetic.
  double apply_draw(double delay, double r) const;
  // Ruby's [delay, 0.0].max keeps the first of equals, so -0.0 stays -0.0.
  static double clamp_at_zero(double delay) noexcept { return delay < 0.0 ? 0.0 : delay; }

  // The running value before entries 1..kRemembered, walked once by the
  // contract's own loop when the policy is made.
  static constexpr std::int64_t kRemembered = internal::kRememberedRunningValues;
  void remember_running_values() noexcept;
  friend std::int64_t internal::walk_multiplications(const RetryPolicy&, std::int64_t, double,
                                                     std::int64_t) noexcept;

  Options options_{};
  std::array<double, kRemembered> running_{};
};

template <UniformSource Source>
std::optional<Seconds> RetryPolicy::next_delay(std::int64_t attempt, Seconds message_age,
                                               Source&& source) const {
  const std::optional<double> delay = unjittered(attempt, message_age.count());
  if (!delay) return std::nullopt;
  if (!jitter_applies(*delay)) return Seconds{clamp_at_zero(*delay)};
  return Seconds{clamp_at_zero(apply_draw(*delay, static_cast<double>(source())))};
}

template <UniformSource Source>
Seconds RetryPolicy::jittered(Seconds delay, Source&& source) const {
  const double d = delay.count();
  if (!jitter_applies(d)) return delay;
  return Seconds{apply_draw(d, static_cast<double>(source()))};
}

}  // namespace acemq::amqp
