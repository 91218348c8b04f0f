// schedule: the delays without jitter, however they are read.
//
// The contract's loop (docs/contract.md §3) makes max_attempts - 1 entries,
// each the running value capped. A caller reads them three ways: all at once
// (schedule()), lazily (delays(), for any length), or one at a time
// (next_delay(k, age, Jitter::off)). These properties hold the three to that
// shape and to each other, bit for bit; that the entries are the model's is
// matches_model.cc's.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include <rapidcheck.h>

#include "properties/generators.hpp"
#include "properties/properties.hpp"
#include "properties/support.hpp"

namespace acemq::props {
namespace {

using amqp::DelayRange;
using namespace std::chrono_literals;

// delays() walked to its end with ++it, or with it++: two operators a
// refactor can break apart.
std::vector<double> walk_prefix(const DelayRange& range) {
  std::vector<double> out;
  for (const Seconds d : range) out.push_back(d.count());
  return out;
}
std::vector<double> walk_postfix(const DelayRange& range) {
  std::vector<double> out;
  for (auto it = range.begin(); it != range.end();) out.push_back((*it++).count());
  return out;
}

// Whether begin() advanced i times equals begin() advanced j times.
bool same_position(const DelayRange& range, std::int64_t i, std::int64_t j) {
  auto a = range.begin();
  auto b = range.begin();
  for (std::int64_t k = 0; k < i; ++k) ++a;
  for (std::int64_t k = 0; k < j; ++k) ++b;
  return a == b;
}

// schedule() and delays() have max_attempts - 1 entries; past
// kMaxScheduleLength schedule() refuses with std::length_error before it
// allocates, while delays() still counts.
void schedule_length(Cases& /*cases*/) {
  const Policy p = *valid_policy();
  const RetryPolicy policy(*p);
  const std::int64_t want = max_attempts(p) - 1;
  const std::size_t entries = policy.schedule().size();
  require(entries == static_cast<std::size_t>(want), "schedule() has ", entries, " entries, want ",
          want);
  const std::int64_t size = policy.delays().size();
  require(size == want, "delays().size() is ", size, ", want ", want);
  require(policy.delays().empty() == (want == 0), "delays().empty() for ", want, " entries");
  // Exactly 2^24 entries are allowed: 128 MiB, so one case in a hundred.
  if (*rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 100)) == 0) {
    Options at_limit = *p;
    at_limit.max_attempts = RetryPolicy::kMaxScheduleLength + 1;
    const std::size_t length = RetryPolicy(at_limit).schedule().size();
    require(length == std::size_t{1} << 24, "schedule() at the limit has ", length, " entries");
  }
  for (const std::int64_t huge :
       {(std::int64_t{1} << 24) + 2, std::int64_t{1'000'000'000}, kInt64Max}) {
    Options longer = *p;
    longer.max_attempts = huge;
    const RetryPolicy long_policy(longer);
    const std::int64_t longer_size = long_policy.delays().size();
    require(longer_size == huge - 1, "delays().size() for max_attempts ", huge, " is ",
            longer_size);
    bool refused = false;
    try {
      (void)long_policy.schedule();
    } catch (const std::length_error&) {
      refused = true;
    }
    require(refused, "schedule() with max_attempts ", huge, " did not throw std::length_error");
  }
}

// With a cap, every schedule entry and every unjittered next_delay is at most
// max_delay: the cap applies to each entry, whatever the running value does.
void schedule_respects_cap(Cases& /*cases*/) {
  const Policy p =
      *valid_policy({.lengths = Lengths::any, .caps = Caps::positive, .retries = true});
  const RetryPolicy policy(*p);
  const double max_delay = cap(p);
  if (max_attempts(p) <= 2000) {
    const std::vector<double> schedule = counts(policy.schedule());
    for (std::size_t i = 0; i < schedule.size(); ++i) {
      require(schedule[i] <= max_delay, "schedule()[", i, "] = ", schedule[i],
              " is above max_delay ", max_delay);
    }
    const std::vector<double> lazy = walk_prefix(policy.delays());
    for (std::size_t i = 0; i < lazy.size(); ++i) {
      require(lazy[i] <= max_delay, "delays()[", i, "] = ", lazy[i], " is above max_delay");
    }
  }
  const std::int64_t attempt = *retrying_attempt_for(max_attempts(p), 1'000'000);
  const std::optional<double> delay = count(policy.next_delay(attempt, 0s, Jitter::off));
  require(delay.has_value(), "next_delay(", attempt, ", 0, Jitter::off) gave up");
  require(*delay <= max_delay, "next_delay(", attempt, ", 0, Jitter::off) = ", *delay,
          " is above max_delay ", max_delay);
}

// With multiplier >= 1 the schedule and next_delay never decrease: rounding
// is monotonic, and the cap only flattens.
void non_decreasing_when_multiplier_at_least_one(Cases& /*cases*/) {
  const Policy p = *valid_policy({.multipliers = Multipliers::at_least_one});
  const RetryPolicy policy(*p);
  const std::vector<double> schedule = counts(policy.schedule());
  for (std::size_t i = 1; i < schedule.size(); ++i) {
    require(schedule[i - 1] <= schedule[i], "schedule()[", i - 1, "] = ", schedule[i - 1],
            " > schedule()[", i, "] = ", schedule[i]);
  }
  if (max_attempts(p) >= 3) {
    const std::int64_t k = *retrying_attempt_for(max_attempts(p) - 1, 1'000'000);
    const std::optional<double> now = count(policy.next_delay(k, 0s, Jitter::off));
    const std::optional<double> next = count(policy.next_delay(k + 1, 0s, Jitter::off));
    require(now && next && *now <= *next, "next_delay(", k, ") = ", now, " > next_delay(", k + 1,
            ") = ", next);
  }
}

// Unjittered next_delay(k) is bit-equal to schedule()[k - 1], every k: the
// one-at-a-time answer (with its remembered prefix and early exits) and the
// plain walk agree.
void next_delay_matches_schedule(Cases& /*cases*/) {
  const Policy p = *valid_policy();
  const RetryPolicy policy(*p);
  const std::vector<double> schedule = counts(policy.schedule());
  for (std::int64_t k = 1; k < max_attempts(p); ++k) {
    const std::optional<double> delay = count(policy.next_delay(k, 0s, Jitter::off));
    require(delay.has_value(), "next_delay(", k, ", 0, Jitter::off) gave up");
    require_same(*delay, schedule[static_cast<std::size_t>(k - 1)], "next_delay(", k,
                 ", 0, Jitter::off) against schedule()[", k - 1, "]");
  }
}

// delays() is bit-equal to schedule(), walked with ++it or it++; iterators
// at the same entry are equal and others not; empty() says whether it has
// entries.
void lazy_range_matches_schedule(Cases& /*cases*/) {
  const Policy p = *valid_policy();
  const RetryPolicy policy(*p);
  const std::vector<double> schedule = counts(policy.schedule());
  const std::vector<double> lazy = walk_prefix(policy.delays());
  require(lazy.size() == schedule.size(), "delays() has ", lazy.size(), " entries, schedule() has ",
          schedule.size());
  for (std::size_t i = 0; i < lazy.size(); ++i) {
    require_same(lazy[i], schedule[i], "delays()[", i, "] against schedule()[", i, "]");
  }
  const std::vector<double> postfix = walk_postfix(policy.delays());
  require(postfix.size() == schedule.size(), "delays() walked with it++ has ", postfix.size(),
          " entries, schedule() has ", schedule.size());
  for (std::size_t i = 0; i < postfix.size(); ++i) {
    require_same(postfix[i], schedule[i], "delays() walked with it++, entry ", i);
  }
  require(policy.delays().empty() == schedule.empty(), "delays().empty() is ",
          policy.delays().empty(), " for ", schedule.size(), " entries");
  if (!schedule.empty()) {
    const auto last = static_cast<std::int64_t>(schedule.size()) - 1;
    const std::int64_t i =
        *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(0, last + 1));
    const std::int64_t j =
        *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(0, last + 1));
    const bool same = same_position(policy.delays(), i, j);
    require(same == (i == j), "delays(): begin() advanced ", i, " times == begin() advanced ", j,
            " times is ", same);
  }
}

const Property kScheduleRows[] = {
    {"ScheduleLength",
     schedule_length,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::schedule() | relational > -> >= | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::delays() | constant 1 -> 0 | 0"}},
    {"ScheduleRespectsCap",
     schedule_respects_cap,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::unjittered_inline(std::int64_t, double) | "
      "ternary-arms c ? a : b -> c ? b : a | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::unjittered_inline(std::int64_t, double) | "
      "ternary-arms c ? a : b -> c ? b : a | 1"}},
    {"NonDecreasingWhenMultiplierAtLeastOne",
     non_decreasing_when_multiplier_at_least_one,
     {},
     {"retry_policy.cc | acemq::amqp::(anonymous)::walk(double, std::int64_t, std::int64_t, "
      "double, double) | return-default return x -> return {} | 1"}},
    {"NextDelayMatchesSchedule",
     next_delay_matches_schedule,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::unjittered_inline(std::int64_t, double) | "
      "index-off-by-one [i] -> [i + 1] | 0",
      "retry_policy.cc | acemq::amqp::(anonymous)::walk(double, std::int64_t, std::int64_t, "
      "double, double) | negation-removed -x -> x | 0"}},
    {"LazyRangeMatchesSchedule",
     lazy_range_matches_schedule,
     {},
     {"delay_range.hpp | acemq::amqp::DelayRange::iterator::operator++(int) | statement-deleted "
      "statement -> nothing | 0",
      "delay_range.hpp | acemq::amqp::DelayRange::iterator::operator++(int) | return-default "
      "return x -> return {} | 0"}},
};

}  // namespace

std::span<const Property> schedule_properties() { return kScheduleRows; }

}  // namespace acemq::props
