#include "acemq/amqp/retry_policy.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

#include "acemq/amqp/invalid_parameter.hpp"

#include "acemq/amqp/internal/thread_engine.hpp"
#include "acemq/amqp/internal/walk.hpp"

namespace acemq::amqp {
namespace {

[[noreturn]] void reject(std::string_view where, Parameter parameter, Rule rule,
                         InvalidParameter::Value value) {
  throw InvalidParameter(where, parameter, rule, value);
}

// Negative zero passes: it is not below zero, and the reference keeps its
// sign through the schedule, so this port does too.
void require_finite_non_negative(std::string_view where, Parameter parameter, double value) {
  if (!std::isfinite(value) || value < 0.0) {
    reject(where, parameter, Rule::finite_non_negative, value);
  }
}

void require_jitter_factor(std::string_view where, double factor) {
  // Written so that NaN fails too: it is in no interval.
  if (!(factor >= 0.0 && factor <= 1.0)) {
    reject(where, Parameter::jitter_factor, Rule::unit_interval, factor);
  }
}

void validate(const RetryPolicy::Options& o) {
  constexpr std::string_view kWhere = "RetryPolicy";
  if (o.max_attempts < 1) {
    reject(kWhere, Parameter::max_attempts, Rule::at_least_one, o.max_attempts);
  }
  require_finite_non_negative(kWhere, Parameter::initial_delay, o.initial_delay.count());
  require_finite_non_negative(kWhere, Parameter::multiplier, o.multiplier);
  require_finite_non_negative(kWhere, Parameter::max_delay, o.max_delay.count());
  require_jitter_factor(kWhere, o.jitter_factor);
  require_finite_non_negative(kWhere, Parameter::max_message_age, o.max_message_age.count());
}

// Out of line and cold, so the hot path of next_delay builds no strings and
// keeps a small frame, which the benchmarks showed in every call's time.
[[noreturn, gnu::noinline, gnu::cold]] void reject_attempt(std::int64_t attempt) {
  reject("next_delay", Parameter::attempt, Rule::at_least_one, attempt);
}
[[noreturn, gnu::noinline, gnu::cold]] void reject_draw(double r) {
  reject("jitter", Parameter::draw, Rule::draw_interval, r);
}
[[noreturn, gnu::noinline, gnu::cold]] void reject_message_age(double age) {
  reject("next_delay", Parameter::message_age, Rule::not_nan, age);
}

// Where a walk of the contract's loop stopped: the running value the entry
// is capped from, and how many multiplications from initial_delay it took.
struct WalkEnd {
  double running;
  std::int64_t multiplications;
};

// The contract's loop from `running`, the value before entry `entry`, on to
// the value before entry `attempt`, with every early exit the core takes.
// Each exit keeps the bits of the plain loop. next_delay and
// walk_multiplications both walk here, so the cost the protocol limits is
// the cost the core pays.
[[gnu::always_inline]] inline WalkEnd walk(double running, std::int64_t entry, std::int64_t attempt,
                                           double multiplier, double cap) {
  // With multiplier >= 1 the running value never shrinks (rounding is
  // monotonic), so once it passes the cap every later entry is the cap.
  const bool cap_is_final = cap > 0.0 && multiplier >= 1.0;
  for (; entry < attempt; ++entry) {
    if (cap_is_final && running > cap) break;
    if (running == 0.0) {
      // A zero stays zero; only its sign can change, and only when the
      // multiplier is -0.0, once per remaining step. Settle it by parity so
      // that attempt 10^9 costs no more than for any other zero.
      if (std::signbit(multiplier) && (attempt - entry) % 2 == 1) running = -running;
      break;
    }
    const double next = running * multiplier;
    // A value that maps to itself (+inf, or d * m == d after rounding)
    // stays put. Compared as bits, as the contract's fixed point is; the
    // multiplication that showed it counts.
    if (std::bit_cast<std::uint64_t>(next) == std::bit_cast<std::uint64_t>(running)) {
      return {running, entry};
    }
    running = next;
  }
  return {running, entry - 1};
}

}  // namespace

RetryPolicy::RetryPolicy(const Options& options) : options_(options) {
  validate(options_);
  remember_running_values();
}

void RetryPolicy::remember_running_values() noexcept {
  double running = options_.initial_delay.count();
  for (double& remembered : running_) {
    remembered = running;
    running = running * options_.multiplier;
  }
}

RetryPolicy RetryPolicy::none() { return RetryPolicy(Options{.max_attempts = 1}); }

RetryPolicy RetryPolicy::fixed(std::int64_t max_attempts, Seconds delay) {
  return RetryPolicy(
      Options{.max_attempts = max_attempts, .initial_delay = delay, .multiplier = 1.0});
}

RetryPolicy RetryPolicy::exponential(std::int64_t max_attempts, Seconds initial_delay,
                                     Seconds max_delay) {
  return RetryPolicy(Options{.max_attempts = max_attempts,
                             .initial_delay = initial_delay,
                             .multiplier = 2.0,
                             .max_delay = max_delay,
                             .jitter_factor = 0.2});
}

RetryPolicy RetryPolicy::give_up_after(Seconds age) const {
  require_finite_non_negative("give_up_after", Parameter::max_message_age, age.count());
  Options copy = options_;
  copy.max_message_age = age;
  return RetryPolicy(copy);
}

RetryPolicy RetryPolicy::with_jitter(double factor) const {
  require_jitter_factor("with_jitter", factor);
  Options copy = options_;
  copy.jitter_factor = factor;
  return RetryPolicy(copy);
}

std::optional<double> RetryPolicy::unjittered(std::int64_t attempt, double message_age) const {
  return unjittered_inline(attempt, message_age);
}

// Inlined into this file's next_delay, where it saves a call per delay.
[[gnu::always_inline]] inline std::optional<double> RetryPolicy::unjittered_inline(
    std::int64_t attempt, double message_age) const {
  if (attempt < 1) reject_attempt(attempt);
  if (std::isnan(message_age)) reject_message_age(message_age);
  if (gives_up(attempt, message_age)) return std::nullopt;

  const double cap = options_.max_delay.count();
  if (attempt <= kRemembered) {
    const double running = running_[static_cast<std::size_t>(attempt - 1)];
    return cap > 0.0 && running > cap ? cap : running;
  }
  const double running =
      walk(running_[kRemembered - 1], kRemembered, attempt, options_.multiplier, cap).running;
  return cap > 0.0 && running > cap ? cap : running;
}

void RetryPolicy::reject_nan_delay(double delay) {
  reject("jittered", Parameter::delay, Rule::not_nan, delay);
}

double RetryPolicy::apply_draw(double delay, double r) const {
  if (!(r >= 0.0 && r < 1.0)) reject_draw(r);
  const double jittered = delay * (1 + (((r * 2) - 1) * options_.jitter_factor));
  // The one NaN this arithmetic can make: delay +inf, factor 1, r 0, so
  // inf * 0. The reference returns NaN from jittered and raises from
  // next_delay; a delay that was infinite stays infinite here instead.
  return std::isnan(jittered) ? delay : jittered;
}

std::optional<Seconds> RetryPolicy::next_delay(std::int64_t attempt, Seconds message_age,
                                               Jitter jitter) const {
  if (jitter == Jitter::on) {
    // The same engine as DefaultSource, drawn inline.
    const std::optional<double> delay = unjittered_inline(attempt, message_age.count());
    if (!delay) return std::nullopt;
    if (!jitter_applies(*delay)) return Seconds{clamp_at_zero(*delay)};
    return Seconds{clamp_at_zero(apply_draw(*delay, internal::draw_from_thread_engine()))};
  }
  const std::optional<double> delay = unjittered_inline(attempt, message_age.count());
  if (!delay) return std::nullopt;
  return Seconds{clamp_at_zero(*delay)};
}

Seconds RetryPolicy::jittered(Seconds delay) const {
  return jittered(delay, internal::draw_from_thread_engine);
}

Seconds RetryPolicy::jittered_with_draw(Seconds delay, double r) const {
  if (!jitter_applies(delay.count())) return delay;
  return Seconds{apply_draw(delay.count(), r)};
}

std::vector<Seconds> RetryPolicy::schedule() const {
  const DelayRange range = delays();
  if (range.size() > kMaxScheduleLength) {
    throw std::length_error("schedule: " + std::to_string(range.size()) +
                            " entries is more than kMaxScheduleLength (" +
                            std::to_string(kMaxScheduleLength) + "); walk delays() instead");
  }
  std::vector<Seconds> entries;
  entries.reserve(static_cast<std::size_t>(range.size()));
  for (const Seconds delay : range) entries.push_back(delay);
  return entries;
}

DelayRange RetryPolicy::delays() const noexcept {
  return DelayRange(options_.initial_delay.count(), options_.multiplier, options_.max_delay.count(),
                    options_.max_attempts - 1);
}

namespace internal {

std::int64_t walk_multiplications(const RetryPolicy& policy, std::int64_t attempt,
                                  double message_age, std::int64_t limit) noexcept {
  // So that limit + 2 below cannot overflow; no walk is that long anyway.
  limit = std::clamp<std::int64_t>(limit, 0, std::numeric_limits<std::int64_t>::max() - 2);
  // The arguments next_delay rejects walk nothing either.
  if (attempt < 1 || std::isnan(message_age) || policy.gives_up(attempt, message_age)) return 0;
  const RetryPolicy::Options& o = policy.options_;
  if (attempt <= kRememberedRunningValues) return std::min(attempt - 1, limit + 1);
  // A walk to entry limit + 2 decides whether the answer needs more than
  // `limit`: reaching its end costs limit + 1.
  const std::int64_t end = limit < attempt - 2 ? limit + 2 : attempt;
  const std::int64_t walked = walk(policy.running_[kRememberedRunningValues - 1],
                                   kRememberedRunningValues, end, o.multiplier, o.max_delay.count())
                                  .multiplications;
  return std::min(walked, limit + 1);
}

}  // namespace internal
}  // namespace acemq::amqp
