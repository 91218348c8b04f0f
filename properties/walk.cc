// walk: the core's shortcuts past its remembered prefix, and the cost it
// exports.
//
// The core remembers the first 16 running values of a policy and walks the
// contract's loop only past them, stopping early once the running value has
// settled (passed the cap with multiplier >= 1, zero, or a fixed point);
// internal::walk_multiplications (acemq/amqp/internal/walk.hpp) exports how
// many steps that walk takes, which the protocol's cost limit reads. The
// shortcuts are where a refactor most easily changes one bit, so these
// properties aim at the attempts around each exit: the exits must give the
// plain loop's bits, must make a huge attempt cheap, and must cost what the
// model's plain walk (model::protocol_cost) says.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>

#include <rapidcheck.h>

#include "acemq/amqp/internal/walk.hpp"
#include "acemq/model/contract.hpp"
#include "properties/generators.hpp"
#include "properties/properties.hpp"
#include "properties/support.hpp"

namespace acemq::props {
namespace {

using namespace std::chrono_literals;

// The most multiplications a case may ask of next_delay: 10^6 costs about a
// millisecond.
constexpr std::int64_t kMaxWork = 1'000'000;

// The early exits give the plain loop's bits, attempts up to 10^6, chosen
// around where the running value crosses the cap or settles.
void fast_path_matches_plain_loop(Cases& cases) {
  // Half the cases walk slowly to a cap they cross past entry 16, where the
  // early exits decide; the other half are any policy at all.
  const Policy p =
      *rc::gen::mapcat(rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 2)), [](int slow) {
        return slow == 0 ? valid_policy({.lengths = Lengths::unbounded})
                         : valid_policy({.lengths = Lengths::unbounded,
                                         .multipliers = Multipliers::near_one,
                                         .caps = Caps::crossing});
      });
  // Where the plain loop's entries change regime: the running value crosses
  // the cap (either way), or maps to itself. The early exits start there,
  // and past the library's table of 16 values, so the attempts around those
  // points are where an off-by-one in them shows.
  std::int64_t crosses = kMaxWork;
  std::int64_t settles = kMaxWork;
  double running = p->initial_delay.count();
  const auto above_cap = [&p](double x) { return cap(p) > 0.0 && x > cap(p); };
  for (std::int64_t k = 1; k < kMaxWork; ++k) {
    const double next = running * p->multiplier;
    if (crosses == kMaxWork && above_cap(next) != above_cap(running)) crosses = k + 1;
    if (same_bits(next, running)) {
      settles = k;
      break;
    }
    running = next;
  }
  const auto near = [](std::int64_t k, std::int64_t offset) {
    return rc::gen::just(std::clamp<std::int64_t>(k + offset, 1, kMaxWork));
  };
  const std::int64_t attempt = *rc::gen::mapcat(
      rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 10)),
      // By value: RapidCheck keeps this generator to shrink the attempt after
      // this frame is gone.
      [crosses, settles, near](int which) -> rc::Gen<std::int64_t> {
        switch (which) {
          case 0: return near(crosses, -1);
          case 1: return near(crosses, 0);
          case 2: return near(crosses, 1);
          case 3: return near(settles, -1);
          case 4: return near(settles, 0);
          case 5: return near(settles, 1);
          case 6: return near(settles, 2);
          case 7: return rc::gen::just(kMaxWork);
          case 8: return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(16, 19));
          default:
            return rc::gen::resize(rc::kNominalSize,
                                   rc::gen::inRange<std::int64_t>(1, kMaxWork + 1));
        }
      });
  cases.policy(*p, attempt, 0.0, kMaxWork);
  require_same(count(RetryPolicy(*p).next_delay(attempt, 0s, Jitter::off)),
               model::next_delay(*p, attempt, 0.0), "next_delay(", attempt,
               ", 0, Jitter::off) against the plain loop (crosses the cap at ", crosses,
               ", settles at ", settles, ")");
}

// A policy whose running value settles answers attempt ~10^12 with the
// settled bits. Not timed: speed is asserted in bench/, never in a test.
// Attempt ~10^12 makes a lost early exit a hang instead, 10^12
// multiplications or about 12 minutes a call, which the test's timeout turns
// into a failure.
void huge_attempt_answers_at_once(Cases& cases) {
  // 2 * 10^4 steps settle every Multipliers::settling policy from any start
  // (1.5^3600 spans 2^-1074 to DBL_MAX; 0.9^13800 the way back).
  constexpr std::int64_t kSettled = 20'000;
  Policy p = *valid_policy({.lengths = Lengths::unbounded, .multipliers = Multipliers::settling});
  // One case in four: multiplier -0.0, whose zero flips sign every step, so
  // the answer is settled by the parity of the attempt, up to INT64_MAX - 1.
  const bool flips = *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 4)) == 0;
  if (flips) p.options.multiplier = -0.0;
  const std::int64_t attempt =
      flips ? *rc::gen::resize(rc::kNominalSize,
                               rc::gen::inRange<std::int64_t>(kInt64Max - 1000, kInt64Max))
            : *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(1'000'000'000'000,
                                                                                1'000'000'001'000));
  cases.policy(*p, attempt, 0.0, 0);
  // The model at an attempt past kSettled with the same parity.
  const std::int64_t same_parity = kSettled + (attempt - kSettled) % 2;
  const std::optional<double> settled = model::next_delay(*p, same_parity, 0.0);
  const std::optional<double> later = model::next_delay(*p, same_parity + 2, 0.0);
  require_same(later, settled, "the model has not settled by attempt ", same_parity,
               ": a generator bug, not a core one");
  const std::optional<double> got = count(RetryPolicy(*p).next_delay(attempt, 0s, Jitter::off));
  require_same(got, settled, "next_delay(", attempt, ", 0, Jitter::off) against the settled value");
}

// The exported cost model, internal::walk_multiplications, equals the
// model's plain walk (model::protocol_cost) wherever that counts 16 or more;
// below, it lies between the plain count and 16, since the core walks only
// past its remembered prefix.
void walk_matches_plain_walk(Cases& cases) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  // Below 1 and NaN are the arguments next_delay rejects: nothing to walk.
  const std::int64_t attempt =
      *rc::gen::mapcat(rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 10)),
                       [m = max_attempts(p)](int which) -> rc::Gen<std::int64_t> {
                         return which == 0 ? bad_attempt() : attempt_for(m, kInt64Max);
                       });
  const Real age = *rc::gen::mapcat(
      rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 10)),
      [limit = age_limit(p)](int which) { return which == 0 ? nan() : age_for(limit); });
  // A negative limit counts as 0.
  const std::int64_t drawn_limit = *rc::gen::mapcat(
      rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 7)),
      [](int which) -> rc::Gen<std::int64_t> {
        switch (which) {
          case 0: return rc::gen::just(std::int64_t{0});
          case 1: return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(1, 40));
          case 2: return rc::gen::just(std::int64_t{1} << 12);
          case 3: return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(-5, 0));
          case 4:
            return rc::gen::resize(rc::kNominalSize,
                                   rc::gen::inRange<std::int64_t>(kInt64Max - 3, kInt64Max));
          default:
            return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(1, 100'000));
        }
      });
  // Both walks cost up to min(limit, attempt - 1) steps, and a policy whose
  // running value creeps by an ulp never settles: a limit above 10^5 keeps
  // only an attempt within 10^5, or the case hangs (1 in about 10^4 did).
  const std::int64_t limit =
      drawn_limit > 100'000 && !(attempt >= 1 && attempt <= 100'000) ? 100'000 : drawn_limit;
  cases.policy(*p, attempt, age, 0);
  const std::int64_t got =
      amqp::internal::walk_multiplications(RetryPolicy(*p), attempt, age, limit);
  const auto what = [&] {
    return cat("walk_multiplications(", attempt, ", ", age, ", ", limit, ")");
  };
  if (attempt < 1 || std::isnan(age) || model::gives_up(*p, attempt, age)) {
    require(got == 0, what(), " = ", got, " for a call that gives up or is rejected; want 0");
    return;
  }
  const std::int64_t counted = std::max<std::int64_t>(limit, 0);
  // limit + 1, "needs more than limit", saturating.
  const std::int64_t more = counted == kInt64Max ? kInt64Max : counted + 1;
  require(got >= 0 && got <= attempt - 1 && got <= more, what(), " = ", got,
          ": below 0, or more than attempt - 1 or limit + 1");
  const std::int64_t prefix = amqp::internal::kRememberedRunningValues;
  if (attempt <= prefix) {
    require(got == std::min(attempt - 1, more), what(), " = ", got,
            "; within the remembered prefix the answer rests on attempt - 1 multiplications");
  }
  const std::int64_t plain = model::protocol_cost(*p, attempt, std::min(counted, kInt64Max - 1));
  if (plain >= prefix) {
    require(got == plain, what(), " = ", got, ", the plain walk counts ", plain);
  } else {
    require(got >= plain && got <= prefix, what(), " = ", got, ", outside [", plain, ", ", prefix,
            "]: the plain walk counts ", plain, " and the core walks only past the prefix");
  }
}

const Property kWalkRows[] = {
    {"FastPathMatchesPlainLoop",
     fast_path_matches_plain_loop,
     {{Regime::cap_passed, 0.15},
      {Regime::multiplier_below_one, 0.25},
      {Regime::overflow, 0.09},
      {Regime::past_remembered_prefix, 0.5}},
     {"retry_policy.cc | acemq::amqp::(anonymous)::walk(double, std::int64_t, std::int64_t, "
      "double, double) | cap-on-running-value running * m -> capped(running) * m | 0",
      "retry_policy.cc | acemq::amqp::(anonymous)::walk(double, std::int64_t, std::int64_t, "
      "double, double) | constant 1.0 -> 0.0 | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::unjittered_inline(std::int64_t, double) | "
      "closed-form-pow walk(...) -> running * pow(m, attempt - entry) | 0"}},
    {"HugeAttemptAnswersAtOnce",
     huge_attempt_answers_at_once,
     {{Regime::huge_attempt, 0.9}, {Regime::multiplier_below_one, 0.12}},
     {"retry_policy.cc | acemq::amqp::(anonymous)::walk(double, std::int64_t, std::int64_t, "
      "double, double) | statement-deleted statement -> nothing | 6",
      "retry_policy.cc | acemq::amqp::(anonymous)::walk(double, std::int64_t, std::int64_t, "
      "double, double) | negation-removed -x -> x | 0"}},
    {"WalkMatchesPlainWalk",
     walk_matches_plain_walk,
     {{Regime::past_remembered_prefix, 0.35},
      {Regime::huge_attempt, 0.12},
      {Regime::multiplier_below_one, 0.06},
      {Regime::negative_zero, 0.15}},
     {"retry_policy.cc | acemq::amqp::internal::walk_multiplications(const "
      "acemq::amqp::RetryPolicy &, std::int64_t, double, std::int64_t) | constant 0 -> 1 | 0",
      "retry_policy.cc | acemq::amqp::internal::walk_multiplications(const "
      "acemq::amqp::RetryPolicy &, std::int64_t, double, std::int64_t) | closed-form-pow walk(...) "
      "-> running * pow(m, attempt - entry) | 0",
      "retry_policy.cc | acemq::amqp::(anonymous)::walk(double, std::int64_t, std::int64_t, "
      "double, double) | return-default return x -> return {} | 0"}},
};

}  // namespace

std::span<const Property> walk_properties() { return kWalkRows; }

}  // namespace acemq::props
