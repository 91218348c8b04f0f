#include "properties/generators.hpp"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <limits>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace acemq::props {
namespace {

constexpr double kMin = std::numeric_limits<double>::denorm_min();  // 2^-1074
constexpr double kMax = DBL_MAX;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();

double up(double x) { return std::nextafter(x, kInf); }
double down(double x) { return std::nextafter(x, -kInf); }

template <typename T>
struct Alternative {
  int weight;
  const char* regime;
  rc::Gen<T> gen;
};

template <typename T>
struct Labelled {
  T value{};
  const char* regime = "";
};

// Picks an alternative with probability weight / total. The ticket is drawn
// at full size, so every regime is reachable from the first case, and it
// shrinks towards 0: towards the first (simplest) alternative.
template <typename T>
rc::Gen<Labelled<T>> choose(std::vector<Alternative<T>> alternatives) {
  int total = 0;
  for (const auto& alternative : alternatives) total += alternative.weight;
  auto shared = std::make_shared<const std::vector<Alternative<T>>>(std::move(alternatives));
  return rc::gen::mapcat(
      rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, total)), [shared](int ticket) {
        for (const auto& alternative : *shared) {
          if (ticket < alternative.weight) {
            return rc::gen::map(alternative.gen, [regime = alternative.regime](T value) {
              return Labelled<T>{value, regime};
            });
          }
          ticket -= alternative.weight;
        }
        throw std::logic_error("choose: ticket beyond the total weight");
      });
}

template <typename T>
rc::Gen<T> unlabelled(rc::Gen<Labelled<T>> gen) {
  return rc::gen::map(std::move(gen), [](const Labelled<T>& labelled) { return labelled.value; });
}

rc::Gen<Real> as_real(rc::Gen<Labelled<double>> gen) {
  return rc::gen::map(std::move(gen),
                      [](const Labelled<double>& labelled) { return Real{labelled.value}; });
}

rc::Gen<double> exactly(double value) { return rc::gen::just(value); }

// Inclusive; hi below INT64_MAX. Full size, so the range never depends on
// how far into the run RapidCheck is.
rc::Gen<std::int64_t> integer_between(std::int64_t lo, std::int64_t hi) {
  return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(lo, hi + 1));
}

rc::Gen<std::int64_t> just_integer(std::int64_t value) { return rc::gen::just(value); }

// Uniform over the representable doubles in [lo, hi], for 0 <= lo <= hi:
// every binade equally likely, which is what reaches the edges.
rc::Gen<double> bits_between(double lo, double hi) {
  const auto first = std::bit_cast<std::uint64_t>(lo);
  const auto last = std::bit_cast<std::uint64_t>(hi);
  return rc::gen::map(
      rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::uint64_t>(first, last + 1)),
      [](std::uint64_t bits) { return std::bit_cast<double>(bits); });
}

rc::Gen<double> negated(rc::Gen<double> gen) {
  return rc::gen::map(std::move(gen), [](double x) { return -x; });
}

rc::Gen<double> whole(std::int64_t lo, std::int64_t hi) {
  return rc::gen::map(integer_between(lo, hi),
                      [](std::int64_t k) { return static_cast<double>(k); });
}

rc::Gen<double> nan_values() {
  return unlabelled(choose<double>({
      {2, "quiet NaN", exactly(std::numeric_limits<double>::quiet_NaN())},
      {1, "-NaN", exactly(std::bit_cast<double>(std::uint64_t{0xfff8000000000000}))},
      {1, "signalling NaN", exactly(std::bit_cast<double>(std::uint64_t{0x7ff0000000000001}))},
      {1, "NaN with a payload", exactly(std::bit_cast<double>(std::uint64_t{0x7ff8000000c0ffee}))},
  }));
}

rc::Gen<Labelled<double>> initial_delays() {
  return choose<double>({
      {2, "zero", exactly(0.0)},
      {3, "whole seconds", whole(1, 100)},
      {2, "milliseconds",
       rc::gen::map(integer_between(1, 1'000'000),
                    [](std::int64_t k) { return static_cast<double>(k) / 1000.0; })},
      {2, "ordinary", bits_between(1e-3, 1e3)},
      {1, "-0.0", exactly(-0.0)},
      {1, "2^-1074", exactly(kMin)},
      {1, "subnormal", bits_between(kMin, down(DBL_MIN))},
      {1, "tiny", bits_between(DBL_MIN, 1e-100)},
      {1, "1e300", exactly(1e300)},
      {1, "DBL_MAX", exactly(kMax)},
      {1, "near 1e300", bits_between(1e299, kMax)},
  });
}

rc::Gen<Labelled<double>> multipliers(Multipliers which) {
  switch (which) {
    case Multipliers::any:
      return choose<double>({
          {3, "2", exactly(2.0)},
          {2, "1", exactly(1.0)},
          {1, "0", exactly(0.0)},
          {1, "0.5", exactly(0.5)},
          {1, "1 + 1e-9", exactly(1.0 + 1e-9)},
          {2, "(0, 1)", bits_between(kMin, down(1.0))},
          // Close to 1 the running value crosses the cap or decays only
          // after many entries, past the library's table of 16.
          {2, "[0.9, 1)", bits_between(0.9, down(1.0))},
          {1, "(1, 1.1]", bits_between(up(1.0), 1.1)},
          {1, "(1, 10]", bits_between(up(1.0), 10.0)},
          {1, "10", exactly(10.0)},
          {1, "large", bits_between(10.0, 1e10)},
          {1, "1e300", exactly(1e300)},
          {1, "DBL_MAX", exactly(kMax)},
          // A zero then flips sign every step, and never maps to itself.
          {2, "-0.0", exactly(-0.0)},
          {1, "1 - 2^-53", exactly(down(1.0))},
      });
    case Multipliers::at_least_one:
      return choose<double>({
          {3, "2", exactly(2.0)},
          {2, "1", exactly(1.0)},
          {1, "1 + 1e-9", exactly(1.0 + 1e-9)},
          {1, "1 + 2^-52", exactly(up(1.0))},
          {1, "(1, 1.1]", bits_between(up(1.0), 1.1)},
          {2, "(1, 10]", bits_between(up(1.0), 10.0)},
          {1, "10", exactly(10.0)},
          {1, "large", bits_between(10.0, 1e10)},
          {1, "1e300", exactly(1e300)},
          {1, "DBL_MAX", exactly(kMax)},
      });
    case Multipliers::near_one:
      return choose<double>({
          {3, "[0.9, 1)", bits_between(0.9, down(1.0))},
          {2, "(1, 1.1]", bits_between(up(1.0), 1.1)},
          {1, "1 - 2^-53", exactly(down(1.0))},
          {1, "1 + 2^-52", exactly(up(1.0))},
          {1, "1 + 1e-9", exactly(1.0 + 1e-9)},
      });
    case Multipliers::settling:
      return choose<double>({
          {3, "2", exactly(2.0)},
          {2, "1", exactly(1.0)},
          {1, "0", exactly(0.0)},
          {1, "0.5", exactly(0.5)},
          {2, "(0, 0.9]", bits_between(kMin, 0.9)},
          {2, "[1.5, 10]", bits_between(1.5, 10.0)},
          {1, "10", exactly(10.0)},
          {1, "large", bits_between(10.0, 1e10)},
          {1, "1e300", exactly(1e300)},
          {1, "DBL_MAX", exactly(kMax)},
      });
  }
  throw std::logic_error("multipliers: unknown set");
}

rc::Gen<Labelled<double>> jitter_factors(Jitters which) {
  std::vector<Alternative<double>> alternatives;
  if (which != Jitters::positive) alternatives.push_back({3, "0", exactly(0.0)});
  if (which != Jitters::zero) {
    alternatives.push_back({2, "1", exactly(1.0)});
    alternatives.push_back({1, "0.2", exactly(0.2)});
    alternatives.push_back({1, "0.5", exactly(0.5)});
    alternatives.push_back({2, "(0, 1)", bits_between(kMin, down(1.0))});
    alternatives.push_back({1, "2^-1074", exactly(kMin)});
    alternatives.push_back({1, "1 - 2^-53", exactly(down(1.0))});
  }
  if (which != Jitters::positive) alternatives.push_back({1, "-0.0", exactly(-0.0)});
  return choose(std::move(alternatives));
}

rc::Gen<Labelled<double>> age_limits() {
  return choose<double>({
      {4, "never (0)", exactly(0.0)},
      {2, "whole seconds", whole(1, 3600)},
      {1, "ordinary", bits_between(1e-3, 1e6)},
      {1, "2^-1074", exactly(kMin)},
      {1, "DBL_MAX", exactly(kMax)},
      {1, "never (-0.0)", exactly(-0.0)},
  });
}

rc::Gen<Labelled<std::int64_t>> max_attempts_regimes(Lengths lengths, bool retries) {
  if (lengths == Lengths::unbounded) {
    return choose<std::int64_t>({{1, "INT64_MAX", just_integer(kInt64Max)}});
  }
  std::vector<Alternative<std::int64_t>> alternatives;
  if (!retries) alternatives.push_back({1, "1", just_integer(1)});
  alternatives.push_back({3, "2..10", integer_between(2, 10)});
  alternatives.push_back({2, "~1e3", integer_between(990, 1100)});
  alternatives.push_back({1, "11..2000", integer_between(11, 2000)});
  if (lengths == Lengths::any) {
    alternatives.push_back({1, "~1e6", integer_between(999'990, 1'000'010)});
    alternatives.push_back({1, "1e9", just_integer(1'000'000'000)});
    alternatives.push_back({1, "INT64_MAX", just_integer(kInt64Max)});
  }
  return choose(std::move(alternatives));
}

// The cap relative to the initial delay `d`.
rc::Gen<Labelled<double>> caps(double d, Caps which) {
  std::vector<Alternative<double>> alternatives;
  if (which == Caps::any) {
    alternatives.push_back({3, "none", exactly(0.0)});
    alternatives.push_back({1, "none (-0.0)", exactly(-0.0)});
  }
  const bool all = which != Caps::crossing;
  if (d > 0.0) {
    if (all && d > kMin) alternatives.push_back({2, "below", bits_between(kMin, down(d))});
    // A cap the running value crosses within a few hundred entries when the
    // multiplier is near 1, where the early exits and the cap interact. At
    // least 2^-1074: a fraction of a subnormal may round to 0, no cap at all.
    alternatives.push_back(
        {2, "a fraction of the delay", rc::gen::map(integer_between(1, 999), [d](std::int64_t k) {
           return std::max(d * (static_cast<double>(k) / 1000.0), kMin);
         })});
    if (all) alternatives.push_back({2, "at", exactly(d)});
    if (d < kMax) {
      if (all) alternatives.push_back({1, "just above", exactly(up(d))});
      alternatives.push_back(
          {2, "k times above", rc::gen::map(integer_between(2, 1000), [d](std::int64_t k) {
             return std::min(d * static_cast<double>(k), kMax);
           })});
      if (all) alternatives.push_back({1, "far above", bits_between(up(d), kMax)});
    }
  } else {
    alternatives.push_back({2, "ordinary", bits_between(1e-3, 1e3)});
  }
  if (all || alternatives.empty()) {
    alternatives.push_back({1, "2^-1074", exactly(kMin)});
    alternatives.push_back({1, "DBL_MAX", exactly(kMax)});
  }
  return choose(std::move(alternatives));
}

rc::Gen<std::int64_t> bad_counts() {
  return unlabelled(choose<std::int64_t>({
      {2, "0", just_integer(0)},
      {1, "-1", just_integer(-1)},
      {1, "INT64_MIN", just_integer(kInt64Min)},
      {1, "negative", integer_between(kInt64Min, -1)},
  }));
}

}  // namespace

void showValue(Real x, std::ostream& os) { os << describe(x.value); }

void showValue(const Policy& policy, std::ostream& os) {
  os << describe(policy.options) << "\n    regimes: " << policy.regime;
}

void showValue(const InvalidPolicy& policy, std::ostream& os) {
  os << describe(policy.options)
     << "\n    first bad field: " << amqp::parameter_name(policy.first_bad);
}

rc::Gen<Policy> valid_policy(PolicyShape shape) {
  return rc::gen::mapcat(
      rc::gen::tuple(initial_delays(), multipliers(shape.multipliers),
                     jitter_factors(shape.jitters), age_limits(),
                     max_attempts_regimes(shape.lengths, shape.retries)),
      [which = shape.caps](const auto& fields) {
        // Copies, not structured bindings: clang 14 cannot capture those.
        const Labelled<double> delay = std::get<0>(fields);
        const Labelled<double> multiplier = std::get<1>(fields);
        const Labelled<double> jitter = std::get<2>(fields);
        const Labelled<double> age = std::get<3>(fields);
        const Labelled<std::int64_t> attempts = std::get<4>(fields);
        return rc::gen::map(caps(delay.value, which), [=](const Labelled<double>& cap) {
          Policy policy;
          policy.options.max_attempts = attempts.value;
          policy.options.initial_delay = amqp::Seconds{delay.value};
          policy.options.multiplier = multiplier.value;
          policy.options.max_delay = amqp::Seconds{cap.value};
          policy.options.jitter_factor = jitter.value;
          policy.options.max_message_age = amqp::Seconds{age.value};
          policy.regime = std::string("max_attempts ") + attempts.regime + ", delay " +
                          delay.regime + ", multiplier " + multiplier.regime + ", cap " +
                          cap.regime + ", jitter " + jitter.regime + ", age limit " + age.regime;
          return policy;
        });
      });
}

rc::Gen<InvalidPolicy> invalid_policy() {
  return rc::gen::apply(
      [](const Policy& base, std::int64_t first, std::int64_t also, std::int64_t attempts,
         Real initial_delay, Real multiplier, Real max_delay, Real jitter, Real age) {
        Options o = base.options;
        // Field `first` is bad; each later field is bad too when its bit of
        // `also` is set, so the port must name the first in declaration order.
        const auto bad = [&](std::int64_t field) {
          return field == first || (field > first && ((also >> (field - first - 1)) & 1) != 0);
        };
        if (bad(0)) o.max_attempts = attempts;
        if (bad(1)) o.initial_delay = amqp::Seconds{initial_delay};
        if (bad(2)) o.multiplier = multiplier;
        if (bad(3)) o.max_delay = amqp::Seconds{max_delay};
        if (bad(4)) o.jitter_factor = jitter;
        if (bad(5)) o.max_message_age = amqp::Seconds{age};
        static constexpr amqp::Parameter kFields[] = {
            amqp::Parameter::max_attempts,  amqp::Parameter::initial_delay,
            amqp::Parameter::multiplier,    amqp::Parameter::max_delay,
            amqp::Parameter::jitter_factor, amqp::Parameter::max_message_age};
        return InvalidPolicy{o, kFields[first]};
      },
      valid_policy({.lengths = Lengths::any}), integer_between(0, 5), integer_between(0, 31),
      bad_counts(), bad_duration(), bad_duration(), bad_duration(), bad_jitter_factor(),
      bad_duration());
}

rc::Gen<std::int64_t> attempt_for(std::int64_t max_attempts, std::int64_t max_work) {
  std::vector<Alternative<std::int64_t>> alternatives;
  const std::int64_t below = std::min(max_attempts - 1, max_work);
  if (below >= 1) {
    alternatives.push_back({2, "1", just_integer(1)});
    alternatives.push_back({3, "below max_attempts", integer_between(1, below)});
    alternatives.push_back({1, "last retry", just_integer(below)});
    // The library answers 1..16 from a table and walks from 17 on.
    if (below >= 18) alternatives.push_back({1, "16..18", integer_between(16, 18)});
  }
  alternatives.push_back({2, "max_attempts", just_integer(max_attempts)});
  if (max_attempts < kInt64Max) {
    alternatives.push_back({1, "max_attempts + 1", just_integer(max_attempts + 1)});
    alternatives.push_back({1, "beyond", integer_between(max_attempts, kInt64Max - 1)});
  }
  alternatives.push_back({1, "INT64_MAX", just_integer(kInt64Max)});
  return unlabelled(choose(std::move(alternatives)));
}

rc::Gen<std::int64_t> retrying_attempt_for(std::int64_t max_attempts, std::int64_t max_work) {
  const std::int64_t below = std::min(max_attempts - 1, max_work);
  if (below < 1) throw std::logic_error("retrying_attempt_for: no attempt below max_attempts");
  std::vector<Alternative<std::int64_t>> alternatives = {
      {2, "1", just_integer(1)},
      {1, "2", just_integer(std::min<std::int64_t>(2, below))},
      {3, "below max_attempts", integer_between(1, below)},
      {1, "last retry", just_integer(below)},
  };
  if (below >= 18) alternatives.push_back({1, "16..18", integer_between(16, 18)});
  return unlabelled(choose(std::move(alternatives)));
}

rc::Gen<std::int64_t> final_attempt_for(std::int64_t max_attempts) {
  std::vector<Alternative<std::int64_t>> alternatives = {
      {2, "max_attempts", just_integer(max_attempts)}};
  if (max_attempts < kInt64Max) {
    alternatives.push_back({1, "max_attempts + 1", just_integer(max_attempts + 1)});
    alternatives.push_back({1, "beyond", integer_between(max_attempts, kInt64Max - 1)});
  }
  alternatives.push_back({1, "INT64_MAX", just_integer(kInt64Max)});
  return unlabelled(choose(std::move(alternatives)));
}

rc::Gen<std::int64_t> bad_attempt() { return bad_counts(); }

rc::Gen<Real> age_for(double limit) {
  std::vector<Alternative<double>> alternatives = {
      {2, "0", exactly(0.0)},
      {1, "-0.0", exactly(-0.0)},
      {1, "negative whole seconds", negated(whole(1, 3600))},
      {1, "-2^-1074", exactly(-kMin)},
      {1, "-inf", exactly(-kInf)},
      {1, "-DBL_MAX", exactly(-kMax)},
      {1, "ordinary", bits_between(1e-3, 1e6)},
      {1, "+inf", exactly(kInf)},
      {1, "DBL_MAX", exactly(kMax)},
  };
  if (limit > 0.0) {
    alternatives.push_back({3, "at the limit", exactly(limit)});
    alternatives.push_back({2, "just above the limit", exactly(up(limit))});
    alternatives.push_back({2, "just below the limit", exactly(down(limit))});
    alternatives.push_back({1, "below the limit", bits_between(0.0, down(limit))});
    if (limit < kMax) alternatives.push_back({1, "above the limit", bits_between(up(limit), kMax)});
  }
  return as_real(choose(std::move(alternatives)));
}

rc::Gen<Real> young_age_for(double limit) {
  if (!(limit > 0.0)) return age_for(limit);
  return as_real(choose<double>({
      {2, "0", exactly(0.0)},
      {1, "-0.0", exactly(-0.0)},
      {1, "negative whole seconds", negated(whole(1, 3600))},
      {1, "-inf", exactly(-kInf)},
      {1, "-DBL_MAX", exactly(-kMax)},
      {2, "just below the limit", exactly(down(limit))},
      {2, "below the limit", bits_between(0.0, down(limit))},
  }));
}

rc::Gen<Real> old_age_for(double limit) {
  return as_real(choose<double>({
      {3, "at the limit", exactly(limit)},
      {2, "just above the limit", exactly(up(limit))},
      {1, "above the limit", bits_between(limit, kMax)},
      {1, "+inf", exactly(kInf)},
      {1, "DBL_MAX", exactly(kMax)},
  }));
}

rc::Gen<Real> draw() {
  return as_real(choose<double>({
      {2, "0", exactly(0.0)},
      {1, "0.5", exactly(0.5)},
      {1, "2^-53", exactly(0x1p-53)},
      {1, "1 - 2^-53", exactly(down(1.0))},
      {4, "k * 2^-53",
       rc::gen::map(integer_between(0, (std::int64_t{1} << 53) - 1),
                    [](std::int64_t k) { return static_cast<double>(k) * 0x1p-53; })},
      {2, "any double in (0, 1)", bits_between(kMin, down(1.0))},
      {1, "-0.0", exactly(-0.0)},
      {1, "just below 0.5", exactly(down(0.5))},
      {1, "just above 0.5", exactly(up(0.5))},
  }));
}

rc::Gen<Real> bad_draw() {
  return as_real(choose<double>({
      {2, "1", exactly(1.0)},
      {1, "1 + 2^-52", exactly(up(1.0))},
      {1, "2", exactly(2.0)},
      {1, "-2^-1074", exactly(-kMin)},
      {1, "-1", exactly(-1.0)},
      {2, "NaN", nan_values()},
      {1, "+inf", exactly(kInf)},
      {1, "-inf", exactly(-kInf)},
      {1, "above 1", bits_between(up(1.0), kMax)},
      {1, "negative", negated(bits_between(kMin, kMax))},
  }));
}

rc::Gen<Real> delay_argument(bool negatives) {
  std::vector<Alternative<double>> alternatives = {
      {2, "0", exactly(0.0)},
      {1, "-0.0", exactly(-0.0)},
      {3, "whole seconds", whole(1, 100)},
      {2, "ordinary", bits_between(1e-3, 1e3)},
      {1, "2^-1074", exactly(kMin)},
      {1, "subnormal", bits_between(kMin, down(DBL_MIN))},
      {1, "1e300", exactly(1e300)},
      {1, "DBL_MAX", exactly(kMax)},
      {3, "+inf", exactly(kInf)},
  };
  if (negatives) {
    alternatives.push_back({1, "-2^-1074", exactly(-kMin)});
    alternatives.push_back({1, "-1.5", exactly(-1.5)});
    alternatives.push_back({1, "negative", negated(bits_between(kMin, kMax))});
    alternatives.push_back({1, "-inf", exactly(-kInf)});
  }
  return as_real(choose(std::move(alternatives)));
}

rc::Gen<Real> positive_delay_argument() {
  return as_real(choose<double>({
      {3, "whole seconds", whole(1, 100)},
      {2, "ordinary", bits_between(1e-3, 1e3)},
      {1, "2^-1074", exactly(kMin)},
      {1, "subnormal", bits_between(kMin, down(DBL_MIN))},
      {1, "1e300", exactly(1e300)},
      {1, "DBL_MAX", exactly(kMax)},
      {1, "+inf", exactly(kInf)},
  }));
}

rc::Gen<Real> non_positive_delay_argument() {
  return as_real(choose<double>({
      {2, "0", exactly(0.0)},
      {2, "-0.0", exactly(-0.0)},
      {1, "-2^-1074", exactly(-kMin)},
      {1, "-1.5", exactly(-1.5)},
      {1, "-inf", exactly(-kInf)},
      {1, "negative", negated(bits_between(kMin, kMax))},
  }));
}

rc::Gen<Real> valid_delay() { return as_real(initial_delays()); }
rc::Gen<Real> valid_age_limit() { return as_real(age_limits()); }
rc::Gen<Real> valid_jitter_factor() { return as_real(jitter_factors(Jitters::any)); }

rc::Gen<Real> bad_duration() {
  return as_real(choose<double>({
      {2, "-1", exactly(-1.0)},
      {1, "-2^-1074", exactly(-kMin)},
      {1, "-DBL_MAX", exactly(-kMax)},
      {1, "-inf", exactly(-kInf)},
      {1, "+inf", exactly(kInf)},
      {2, "NaN", nan_values()},
      {1, "negative", negated(bits_between(kMin, kMax))},
      {1, "negative tenths",
       rc::gen::map(integer_between(1, 1000),
                    [](std::int64_t k) { return static_cast<double>(k) / -10.0; })},
  }));
}

rc::Gen<Real> bad_jitter_factor() {
  return as_real(choose<double>({
      {2, "2", exactly(2.0)},
      {1, "1 + 2^-52", exactly(up(1.0))},
      {1, "-2^-1074", exactly(-kMin)},
      {1, "-0.5", exactly(-0.5)},
      {1, "+inf", exactly(kInf)},
      {1, "-inf", exactly(-kInf)},
      {2, "NaN", nan_values()},
      {1, "above 1", bits_between(up(1.0), kMax)},
      {1, "a percentage", whole(2, 100)},
  }));
}

rc::Gen<Real> nan() {
  return rc::gen::map(nan_values(), [](double x) { return Real{x}; });
}

rc::Gen<std::int64_t> schedulable_max_attempts() {
  return unlabelled(max_attempts_regimes(Lengths::schedulable, false));
}

rc::Gen<std::uint32_t> seed() {
  return unlabelled(choose<std::uint32_t>({
      {1, "42", rc::gen::just(std::uint32_t{42})},
      {1, "0", rc::gen::just(std::uint32_t{0})},
      {1, "2^32 - 1", rc::gen::just(std::numeric_limits<std::uint32_t>::max())},
      {3, "any",
       rc::gen::map(integer_between(0, std::numeric_limits<std::uint32_t>::max()),
                    [](std::int64_t s) { return static_cast<std::uint32_t>(s); })},
  }));
}

}  // namespace acemq::props
