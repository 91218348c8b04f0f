// Core: the policy core's public surface as a table of functions, the one
// place where the properties call the library: each property is written
// against this table, and the mutation build (mutation/) swaps the core
// underneath it.
//
// Policies travel as plain RetryPolicy::Options and durations as the double
// inside Seconds: the contract is about those bits. Each function does what
// the library call of the same name does; `library()` is the real thing.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "acemq/amqp/retry_policy.hpp"

namespace acemq::props {

using Options = amqp::RetryPolicy::Options;

// A uniform source as the core sees it: called once per draw.
using Source = std::function<double()>;

struct Core {
  std::string name;

  // RetryPolicy(options).options(): validates, then keeps the fields.
  std::function<Options(const Options&)> construct;
  // schedule(), as doubles.
  std::function<std::vector<double>(const Options&)> schedule;
  // delays(), walked to its end.
  std::function<std::vector<double>(const Options&)> lazy_delays;
  // delays().size(), which any length answers without walking.
  std::function<std::int64_t(const Options&)> lazy_size;
  // next_delay(attempt, age, Jitter::off).
  std::function<std::optional<double>(const Options&, std::int64_t, double)> next_delay_unjittered;
  // next_delay(attempt, age, source).
  std::function<std::optional<double>(const Options&, std::int64_t, double, Source&)> next_delay;
  // jittered(delay, source).
  std::function<double(const Options&, double, Source&)> jittered;
  // jittered_with_draw(delay, r).
  std::function<double(const Options&, double, double)> jittered_with_draw;

  // delays() walked with the post-increment, it++.
  std::function<std::vector<double>(const Options&)> lazy_delays_postfix;
  // Whether begin() advanced i times equals begin() advanced j times.
  std::function<bool(const Options&, std::int64_t, std::int64_t)> lazy_positions_equal;
  // delays().empty().
  std::function<bool(const Options&)> lazy_empty;
  // A default-constructed DelayRange: size 0, empty, begin() == end().
  std::function<bool()> default_range_is_empty;

  // next_delay(attempt, age) and jittered(delay): jitter from DefaultSource.
  std::function<std::optional<double>(const Options&, std::int64_t, double)> next_delay_default;
  std::function<double(const Options&, double)> jittered_default;
  // DefaultSource::seed_this_thread(seed), and one draw of DefaultSource.
  std::function<void(std::uint64_t)> seed_default_source;
  std::function<double()> default_draw;

  // The accessors, max_attempts() ... max_message_age(), as options.
  std::function<Options(const Options&)> accessors;
  // RetryPolicy(a) == RetryPolicy(b).
  std::function<bool(const Options&, const Options&)> equal;

  // The factories and the default constructor, as the options they make.
  std::function<Options()> none;
  std::function<Options()> default_constructed;
  std::function<Options(std::int64_t, double)> fixed;
  // exponential(max_attempts, initial_delay): the two-argument overload.
  std::function<Options(std::int64_t, double)> exponential;
  std::function<Options(std::int64_t, double, double)> exponential_capped;

  // The copies, as {the original afterwards, the copy}.
  std::function<std::pair<Options, Options>(const Options&, double)> give_up_after;
  std::function<std::pair<Options, Options>(const Options&, double)> with_jitter;

  // internal::walk_multiplications(RetryPolicy(options), attempt, age, limit).
  std::function<std::int64_t(const Options&, std::int64_t, double, std::int64_t)>
      walk_multiplications;

  // RubyRandom(seed), as a source.
  std::function<Source(std::uint32_t)> ruby_random;
};

// The library itself: every function calls the public API of acemq::retry.
const Core& library();

}  // namespace acemq::props
