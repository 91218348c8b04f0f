// sources: where jitter's randomness comes from, and how much of it a call
// takes.
//
// A UniformSource is asked for exactly one draw per jittered delay and for
// none when jitter does not apply (factor 0, a delay <= 0, giving up), so a
// caller who injects a seeded source can replay a run. These properties
// count the draws with a source that counts, with DefaultSource seeded, and
// with RubyRandom, which must replay Ruby's srand(seed) bit for bit.
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "acemq/amqp/ruby_random.hpp"
#include "acemq/amqp/uniform_source.hpp"
#include "acemq/model/contract.hpp"
#include "acemq/model/ruby_rand.hpp"
#include "properties/generators.hpp"
#include "properties/properties.hpp"
#include "properties/support.hpp"

namespace acemq::props {
namespace {

using namespace std::chrono_literals;
using amqp::DefaultSource;
using amqp::RubyRandom;

// No draw when the factor is 0, the delay is at or below 0, the call gives
// up, or the schedule's delay is zero; jittered(d) is then d itself.
void no_draw_without_jitter(Cases& /*cases*/) {
  // Factor 0: jittered() is the identity and nothing draws, for any delay.
  const Policy still = *valid_policy({.lengths = Lengths::any, .jitters = Jitters::zero});
  const RetryPolicy still_policy(*still);
  const Real d = *delay_argument(true);
  const std::int64_t attempt = *attempt_for(max_attempts(still), 100'000);
  const Real age = *age_for(age_limit(still));
  int draws = 0;
  const CountingSource source(0.5, draws);
  require_same(still_policy.jittered(Seconds{d}, source).count(), d, "jittered(d) with factor ",
               still->jitter_factor);
  require(draws == 0, "jittered(", d, ") with factor 0 took ", draws, " draws");
  (void)still_policy.next_delay(attempt, Seconds{age}, source);
  require(draws == 0, "next_delay(", attempt, ", ", age, ") with factor 0 took ", draws, " draws");

  // A delay at or below zero: the identity, no draw, for any factor.
  const Policy p = *valid_policy({.lengths = Lengths::any, .jitters = Jitters::positive});
  const RetryPolicy policy(*p);
  const Real zero_or_less = *non_positive_delay_argument();
  require_same(policy.jittered(Seconds{zero_or_less}, source).count(), zero_or_less,
               "jittered(d <= 0)");
  require(draws == 0, "jittered(", zero_or_less, ") took ", draws, " draws");

  // Giving up draws nothing, and nor does a zero delay from the schedule.
  const std::int64_t last = *final_attempt_for(max_attempts(p));
  (void)policy.next_delay(last, 0s, source);
  require(draws == 0, "next_delay(", last, ") at max_attempts ", max_attempts(p), " took ", draws,
          " draws");
  if (age_limit(p) > 0.0) {
    const Real old = *old_age_for(age_limit(p));
    (void)policy.next_delay(1, Seconds{old}, source);
    require(draws == 0, "next_delay(1, ", old, ") past the age limit took ", draws, " draws");
  }
  if (max_attempts(p) >= 2) {
    const std::int64_t k = *retrying_attempt_for(max_attempts(p), 100'000);
    const std::optional<double> plain = count(policy.next_delay(k, 0s, Jitter::off));
    if (plain && *plain == 0.0) {
      (void)policy.next_delay(k, 0s, source);
      require(draws == 0, "next_delay(", k, ") of a zero delay took ", draws, " draws");
    }
  }
}

// Each call that jitters takes exactly one draw, in any run of calls.
void one_draw_per_jitter(Cases& /*cases*/) {
  const Policy p = *valid_policy({.lengths = Lengths::any, .jitters = Jitters::positive});
  const RetryPolicy policy(*p);
  const Real d = *positive_delay_argument();
  const Real r = *draw();
  int draws = 0;
  const CountingSource source(r, draws);
  (void)policy.jittered(Seconds{d}, source);
  require(draws == 1, "jittered(", d, ") took ", draws, " draws, want 1");

  // A run of next_delay calls takes one draw for each call that jitters.
  const auto calls = *rc::gen::container<std::vector<std::pair<std::int64_t, Real>>>(
      static_cast<std::size_t>(*rc::gen::resize(rc::kNominalSize, rc::gen::inRange(1, 9))),
      rc::gen::pair(attempt_for(max_attempts(p), 10'000), age_for(age_limit(p))));
  for (const auto& [attempt, age] : calls) {
    const std::optional<double> plain =
        count(policy.next_delay(attempt, Seconds{age}, Jitter::off));
    const int want = plain && *plain > 0.0 ? 1 : 0;
    draws = 0;
    (void)policy.next_delay(attempt, Seconds{age}, source);
    require(draws == want, "next_delay(", attempt, ", ", age, ") took ", draws, " draws, want ",
            want, " (the delay without jitter is ", plain, ")");
  }
}

// DefaultSource, seeded, gives draws that are multiples of 2^-53 in [0, 1),
// on both sides of 1/2; next_delay(attempt, age) and jittered(d) with it take
// one draw exactly where jitter applies (as the model decides) and none
// elsewhere, Jitter::off included, so they replay like an injected source.
void default_source_draws_only_when_jitter_applies(Cases& cases) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  const RetryPolicy policy(*p);
  const auto seed = static_cast<std::uint64_t>(
      *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(0, kInt64Max)));
  // The draws this thread's engine gives after the seed, taken once, then
  // replayed: each call that jitters must take the next one, and no other.
  constexpr int kDraws = 64;
  DefaultSource::seed_this_thread(seed);
  std::vector<double> draws;
  bool low = false;
  bool high = false;
  for (int i = 0; i < kDraws; ++i) {
    const double r = DefaultSource{}();
    require(r >= 0.0 && r < 1.0 && r * 0x1p53 == std::floor(r * 0x1p53), "DefaultSource drew ", r,
            ": not a multiple of 2^-53 in [0, 1)");
    low = low || r < 0.5;
    high = high || r >= 0.5;
    draws.push_back(r);
  }
  // 64 fair draws on one side of 1/2 have odds 2^-63.
  require(low && high, "64 draws of DefaultSource after seed ", static_cast<std::int64_t>(seed),
          " all lie on one side of 1/2");
  const auto calls = *rc::gen::container<std::vector<std::tuple<int, std::int64_t, Real, Real>>>(
      static_cast<std::size_t>(*rc::gen::resize(rc::kNominalSize, rc::gen::inRange(1, 9))),
      rc::gen::tuple(rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 3)),
                     attempt_for(max_attempts(p), 10'000), age_for(age_limit(p)),
                     delay_argument(true)));
  DefaultSource::seed_this_thread(seed);
  std::size_t next = 0;
  for (const auto& [kind, attempt, age, d] : calls) {
    cases.policy(*p, attempt, age, 0);
    if (kind == 0) {
      const model::Jittered want = model::next_delay(*p, attempt, age, draws[next]);
      require_same(count(policy.next_delay(attempt, Seconds{age})), want.delay, "next_delay(",
                   attempt, ", ", age, ") with DefaultSource, its draw ", next, " being ",
                   draws[next]);
      next += want.drew ? 1U : 0U;
    } else if (kind == 1) {
      require_same(count(policy.next_delay(attempt, Seconds{age}, Jitter::off)),
                   model::next_delay(*p, attempt, age), "next_delay(", attempt, ", ", age,
                   ", Jitter::off)");
    } else {
      require_same(policy.jittered(Seconds{d}).count(), model::jittered(*p, d, draws[next]),
                   "jittered(", d, ") with DefaultSource, its draw ", next, " being ", draws[next]);
      next += model::jitter_applies(*p, d) ? 1U : 0U;
    }
  }
  require_same(DefaultSource{}(), draws[next], "the draw after the calls: they took ", next,
               " draws, or some other number");
}

// Two RubyRandom(seed) give the same sequence however interleaved, so a run
// of jittered calls replays bit for bit.
void ruby_random_replays(Cases& /*cases*/) {
  const std::uint32_t s = *seed();
  const int n = *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(1, 65));
  RubyRandom first(s);
  RubyRandom second(s);
  for (int i = 0; i < n; ++i) {
    const double a = first();
    const double b = second();
    require_same(b, a, "draw ", i, " of the second RubyRandom(", static_cast<std::int64_t>(s),
                 "), taken in turn with the first");
    require(a >= 0.0 && a < 1.0, "draw ", i, " of RubyRandom(", static_cast<std::int64_t>(s),
            ") is ", a, ", outside [0, 1)");
  }
  // A replay: the same calls with the same seed give the same bits.
  const Policy p = *valid_policy({.lengths = Lengths::any, .jitters = Jitters::positive});
  const RetryPolicy policy(*p);
  const auto calls = *rc::gen::container<std::vector<std::pair<std::int64_t, Real>>>(
      static_cast<std::size_t>(*rc::gen::resize(rc::kNominalSize, rc::gen::inRange(1, 9))),
      rc::gen::pair(attempt_for(max_attempts(p), 10'000), age_for(age_limit(p))));
  RubyRandom once(s);
  std::vector<std::optional<double>> answers;
  answers.reserve(calls.size());
  for (const auto& [attempt, age] : calls) {
    answers.push_back(count(policy.next_delay(attempt, Seconds{age}, once)));
  }
  RubyRandom again(s);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const auto& [attempt, age] = calls[i];
    require_same(count(policy.next_delay(attempt, Seconds{age}, again)), answers[i], "call ", i,
                 " replayed with RubyRandom(", static_cast<std::int64_t>(s), ")");
  }
}

// RubyRandom(seed) is genrand_res53 over MT19937 init_genrand(seed), as the
// model transcribes it from Ruby's random.c.
void ruby_random_matches_genrand_res53(Cases& /*cases*/) {
  const std::uint32_t s = *seed();
  const int n = *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(1, 65));
  RubyRandom source(s);
  model::RubyRand reference(s);
  for (int i = 0; i < n; ++i) {
    require_same(source(), reference(), "draw ", i, " of RubyRandom(", static_cast<std::int64_t>(s),
                 ") against genrand_res53");
  }
}

const Property kSourcesRows[] = {
    {"NoDrawWithoutJitter",
     no_draw_without_jitter,
     {},
     {"retry_policy.hpp | acemq::amqp::RetryPolicy::next_delay(std::int64_t, acemq::amqp::Seconds, "
      "Source &&) | extra-draw return x -> draw; return x | 0",
      "retry_policy.hpp | acemq::amqp::RetryPolicy::jitter_applies(double) | relational > -> >= | "
      "1"}},
    {"OneDrawPerJitter",
     one_draw_per_jitter,
     {},
     {"retry_policy.hpp | acemq::amqp::RetryPolicy::next_delay(std::int64_t, acemq::amqp::Seconds, "
      "Source &&) | extra-draw return x -> draw; return x | 2",
      "retry_policy.hpp | acemq::amqp::RetryPolicy::next_delay(std::int64_t, acemq::amqp::Seconds, "
      "Source &&) | extra-draw return x -> draw; return x | 1"}},
    {"DefaultSourceDrawsOnlyWhenJitterApplies",
     default_source_draws_only_when_jitter_applies,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::next_delay(std::int64_t, acemq::amqp::Seconds, "
      "acemq::amqp::Jitter) | extra-draw return x -> draw; return x | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::next_delay(std::int64_t, acemq::amqp::Seconds, "
      "acemq::amqp::Jitter) | extra-draw return x -> draw; return x | 3",
      "thread_engine.hpp | acemq::amqp::internal::draw_from_thread_engine() | constant 11U -> 12U "
      "| 0"}},
    {"RubyRandomReplays",
     ruby_random_replays,
     {},
     {"ruby_random.hpp | acemq::amqp::RubyRandom::operator()() | constant 5U -> 4U | 0",
      "ruby_random.hpp | acemq::amqp::RubyRandom::operator()() | arithmetic / -> * | 0"}},
    {"RubyRandomMatchesGenrandRes53",
     ruby_random_matches_genrand_res53,
     {},
     {"ruby_random.hpp | acemq::amqp::RubyRandom::operator()() | constant 6U -> 5U | 0",
      "ruby_random.hpp | acemq::amqp::RubyRandom::operator()() | constant 67108864.0 -> 67108865.0 "
      "| 0"}},
};

}  // namespace

std::span<const Property> sources_properties() { return kSourcesRows; }

}  // namespace acemq::props
