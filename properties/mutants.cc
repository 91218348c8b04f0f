#include "mutants.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>

#include "show.hpp"

namespace acemq::props {
namespace {

using M = Mutation;

constexpr MutationInfo kMutations[] = {
    {M::none, "Unmutated", "none: a faithful copy of the library"},
    {M::cap_on_running_value, "CapOnRunningValue",
     "the cap applied to the running value, not to each entry"},
    {M::next_delay_ignores_cap, "NextDelayIgnoresCap", "next_delay forgets the cap"},
    {M::closed_form_pow, "ClosedFormPow",
     "next_delay as initial_delay * pow(multiplier, k - 1), not k - 1 multiplications"},
    {M::backoff_off_by_one, "BackoffOffByOne", "next_delay(k) multiplies k times, not k - 1"},
    {M::fast_path_any_multiplier, "FastPathAnyMultiplier",
     "the early exit at the cap taken for multipliers below 1 too"},
    {M::remembered_off_by_one, "RememberedOffByOne",
     "next_delay(k) for k <= 16 reads the remembered running value of entry k + 1"},
    {M::zero_sign_not_settled, "ZeroSignNotSettled",
     "the zero exit keeps the zero's sign; multiplier -0.0 flips it each step"},
    {M::no_early_exit, "NoEarlyExit", "no early exit: attempt 10^9 costs 10^9 multiplications"},
    {M::overflow_saturates, "OverflowSaturates",
     "an overflowing delay saturates at DBL_MAX instead of +inf"},
    {M::overflow_to_zero, "OverflowToZero", "an overflowing delay becomes 0, 'no delay'"},
    {M::zero_cap_is_a_cap, "ZeroCapIsACap", "max_delay 0 caps at 0 instead of meaning 'none'"},
    {M::schedule_one_long, "ScheduleOneLong",
     "schedule() and delays() count the first delivery: max_attempts entries"},
    {M::lazy_range_caps_running, "LazyRangeCapsRunning",
     "delays() caps the running value while schedule() does not"},
    {M::lazy_range_one_short, "LazyRangeOneShort", "delays() stops one entry early"},
    {M::clamp_drops_negative_zero, "ClampDropsNegativeZero",
     "next_delay clamps with std::max(0.0, x), turning -0.0 into +0.0"},
    {M::cap_after_jitter, "CapAfterJitter", "next_delay caps the jittered delay too"},
    {M::one_sided_jitter, "OneSidedJitter",
     "r instead of 2r - 1: jitter only ever lengthens a delay"},
    {M::half_width_jitter, "HalfWidthJitter", "r - 0.5 instead of 2r - 1: half the spread"},
    {M::flipped_jitter, "FlippedJitter", "1 - 2r instead of 2r - 1: a small r lengthens"},
    {M::reassociated_jitter, "ReassociatedJitter",
     "delay + delay * ((2r - 1) * f): the same real number, rounded differently"},
    {M::fused_jitter, "FusedJitter",
     "the jitter contracted into std::fma, as -ffp-contract=fast would do"},
    {M::jitter_without_one_plus, "JitterWithoutOnePlus", "delay * ((2r - 1) * f): the 1 + lost"},
    {M::nan_guard_dropped, "NanGuardDropped",
     "jittered(+inf) with factor 1 and r = 0 returns inf * 0 = NaN"},
    {M::draw_when_factor_zero, "DrawWhenFactorZero",
     "a draw taken before checking that jitter applies"},
    {M::draw_for_zero_delay, "DrawForZeroDelay", "jitter applies to delay >= 0, drawing for 0"},
    {M::draw_when_giving_up, "DrawWhenGivingUp",
     "next_delay draws before deciding whether to give up"},
    {M::two_draws_per_jitter, "TwoDrawsPerJitter",
     "a stray source() call: two draws per jittered delay"},
    {M::attempt_off_by_one, "AttemptOffByOne", "gives up only when attempt > max_attempts"},
    {M::age_strict_comparison, "AgeStrictComparison",
     "gives up only when message_age > max_message_age"},
    {M::zero_age_is_a_limit, "ZeroAgeIsALimit",
     "max_message_age 0 is a limit of 0 instead of 'never'"},
    {M::age_uses_magnitude, "AgeUsesMagnitude", "compares |message_age|, so -5 s is 5 s old"},
    {M::nan_jitter_accepted, "NanJitterAccepted",
     "jitter_factor checked as f < 0 || f > 1, which lets NaN through"},
    {M::negative_zero_rejected, "NegativeZeroRejected",
     "std::signbit used for 'negative', refusing -0.0"},
    {M::subnormal_rejected, "SubnormalRejected", "subnormal durations and multipliers refused"},
    {M::infinite_cap_accepted, "InfiniteCapAccepted",
     "max_delay only checked for < 0, letting +inf and NaN through"},
    {M::zero_attempts_accepted, "ZeroAttemptsAccepted", "max_attempts checked for < 0"},
    {M::draw_of_one_accepted, "DrawOfOneAccepted", "r checked against [0, 1], not [0, 1)"},
    {M::nan_age_accepted, "NanAgeAccepted", "no NaN check on message_age: NaN never gives up"},
    {M::attempt_zero_accepted, "AttemptZeroAccepted", "no check that attempt >= 1"},
    {M::wrong_field_named, "WrongFieldNamed",
     "initial_delay and max_delay named the other way round"},
    {M::value_loses_digits, "ValueLosesDigits",
     "the value in the message printed with std::to_string (six decimals)"},
    {M::copies_unvalidated, "CopiesUnvalidated", "give_up_after and with_jitter skip validation"},
    {M::fixed_keeps_default_multiplier, "FixedKeepsDefaultMultiplier",
     "fixed() leaves the multiplier at its default, 2"},
    {M::exponential_without_jitter, "ExponentialWithoutJitter",
     "exponential() forgets its 20% jitter"},
    {M::give_up_after_resets_jitter, "GiveUpAfterResetsJitter",
     "give_up_after builds the copy without jitter_factor"},
    {M::with_jitter_drops_age, "WithJitterDropsAge",
     "with_jitter builds the copy without max_message_age"},
    {M::shared_ruby_engine, "SharedRubyEngine",
     "every RubyRandom draws from one shared engine, reseeded on construction"},
    {M::res32_draw, "Res32Draw", "a draw from one 32-bit output / 2^32, not genrand_res53"},
};

constexpr std::int64_t kMaxScheduleLength = std::int64_t{1} << 24;
// The library remembers the running values before entries 1..16.
constexpr std::int64_t kRemembered = 16;

// The library's early exits are what make attempt 10^12 finite. A mutant
// that loses them would spin for minutes a call, so the copy stops after
// 10^8 multiplications, about 0.1 s, and throws: a failure the property
// reports. No property walks a correct core more than 10^6 steps.
constexpr std::int64_t kPatience = 100'000'000;

[[noreturn]] void reject(std::string_view where, std::string_view name, const std::string& value,
                         std::string_view rule) {
  std::string message;
  message.append(where).append(": ").append(name).append(" must be ");
  message.append(rule).append(", got ").append(value);
  throw std::invalid_argument(message);
}

// The copy. Each member mirrors the library function of the same name; a
// mutation changes one line, named where it does.
class Copy {
 public:
  explicit Copy(Mutation mutation) : m_(mutation) {}

  bool is(Mutation m) const { return m_ == m; }

  std::string show(double value) const {
    return is(M::value_loses_digits) ? std::to_string(value) : shortest(value);
  }

  std::string_view field(std::string_view name) const {
    if (is(M::wrong_field_named)) {
      if (name == "initial_delay") return "max_delay";
      if (name == "max_delay") return "initial_delay";
    }
    return name;
  }

  void require_finite_non_negative(std::string_view where, std::string_view name,
                                   double value) const {
    bool bad = !std::isfinite(value) || value < 0.0;
    if (is(M::negative_zero_rejected)) bad = !std::isfinite(value) || std::signbit(value);
    if (is(M::subnormal_rejected) && std::fpclassify(value) == FP_SUBNORMAL) bad = true;
    if (is(M::infinite_cap_accepted) && name == "max_delay") bad = value < 0.0;
    if (bad) reject(where, field(name), show(value), "finite and >= 0");
  }

  void require_jitter_factor(std::string_view where, double factor) const {
    const bool bad = is(M::nan_jitter_accepted) ? (factor < 0.0 || factor > 1.0)
                                                : !(factor >= 0.0 && factor <= 1.0);
    if (bad) reject(where, "jitter_factor", show(factor), "in [0, 1]");
  }

  void validate(const Options& o) const {
    constexpr std::string_view kWhere = "RetryPolicy";
    const bool bad_attempts =
        is(M::zero_attempts_accepted) ? o.max_attempts < 0 : o.max_attempts < 1;
    if (bad_attempts) {
      reject(kWhere, "max_attempts", std::to_string(o.max_attempts), "at least 1");
    }
    require_finite_non_negative(kWhere, "initial_delay", o.initial_delay.count());
    require_finite_non_negative(kWhere, "multiplier", o.multiplier);
    require_finite_non_negative(kWhere, "max_delay", o.max_delay.count());
    require_jitter_factor(kWhere, o.jitter_factor);
    require_finite_non_negative(kWhere, "max_message_age", o.max_message_age.count());
  }

  // An entry of the schedule: the running value, capped.
  double capped(const Options& o, double running) const {
    const double cap = o.max_delay.count();
    const bool has_cap = is(M::zero_cap_is_a_cap) ? cap >= 0.0 : cap > 0.0;
    return has_cap && running > cap ? cap : running;
  }

  // The running value after one more entry.
  double step(const Options& o, double running, bool cap_running) const {
    double next = (cap_running ? capped(o, running) : running) * o.multiplier;
    if (std::isinf(next) && !std::isinf(running)) {
      if (is(M::overflow_saturates)) next = DBL_MAX;
      if (is(M::overflow_to_zero)) next = 0.0;
    }
    return next;
  }

  std::int64_t schedule_length(const Options& o) const {
    return o.max_attempts - 1 + (is(M::schedule_one_long) ? 1 : 0);
  }

  std::vector<double> walk(const Options& o, std::int64_t length, bool cap_running) const {
    std::vector<double> entries;
    double running = o.initial_delay.count();
    for (std::int64_t i = 0; i < length; ++i) {
      entries.push_back(capped(o, running));
      running = step(o, running, cap_running);
    }
    return entries;
  }

  std::vector<double> schedule(const Options& o) const {
    validate(o);
    const std::int64_t length = schedule_length(o);
    if (length > kMaxScheduleLength) {
      throw std::length_error("schedule: " + std::to_string(length) + " entries");
    }
    return walk(o, length, is(M::cap_on_running_value));
  }

  std::vector<double> lazy_delays(const Options& o) const {
    validate(o);
    std::int64_t length = schedule_length(o);
    if (is(M::lazy_range_one_short) && length > 0) --length;
    return walk(o, length, is(M::cap_on_running_value) || is(M::lazy_range_caps_running));
  }

  std::optional<double> unjittered(const Options& o, std::int64_t attempt,
                                   double message_age) const {
    if (!is(M::attempt_zero_accepted) && attempt < 1) {
      reject("next_delay", "attempt", std::to_string(attempt), "at least 1");
    }
    if (!is(M::nan_age_accepted) && std::isnan(message_age)) {
      reject("next_delay", "message_age", show(message_age), "a number, not NaN");
    }
    const bool last =
        is(M::attempt_off_by_one) ? attempt > o.max_attempts : attempt >= o.max_attempts;
    if (last) return std::nullopt;
    const double max_age = o.max_message_age.count();
    const bool limited = is(M::zero_age_is_a_limit) ? max_age >= 0.0 : max_age > 0.0;
    const double age = is(M::age_uses_magnitude) ? std::abs(message_age) : message_age;
    const bool old = is(M::age_strict_comparison) ? age > max_age : age >= max_age;
    if (limited && old) return std::nullopt;

    const double cap = o.max_delay.count();
    const double multiplier = o.multiplier;
    if (is(M::closed_form_pow)) {
      return capped(
          o, o.initial_delay.count() * std::pow(multiplier, static_cast<double>(attempt - 1)));
    }
    const bool cap_is_final = cap > 0.0 && (is(M::fast_path_any_multiplier) || multiplier >= 1.0);
    const bool exits = !is(M::no_early_exit);
    const bool cap_running = is(M::cap_on_running_value);
    const std::int64_t last_entry = attempt + (is(M::backoff_off_by_one) ? 1 : 0);
    // The running values before entries 1..16, walked when the policy is
    // made (one spare, for the mutant that reads one too far).
    std::array<double, kRemembered + 1> remembered{};
    double running = o.initial_delay.count();
    for (double& slot : remembered) {
      slot = running;
      running = step(o, running, cap_running);
    }
    if (last_entry <= kRemembered) {
      // An attempt below 1 reaches here only in the mutant that forgot to
      // refuse it; it reads entry 1, as Ruby's loop would, not out of bounds.
      const std::int64_t slot =
          std::max<std::int64_t>(last_entry, 1) - 1 + (is(M::remembered_off_by_one) ? 1 : 0);
      running = remembered[static_cast<std::size_t>(slot)];
    } else {
      running = remembered[kRemembered - 1];
      for (std::int64_t entry = kRemembered; entry < last_entry; ++entry) {
        if (entry > kPatience) {
          throw std::runtime_error("the copy gave up on next_delay(" + std::to_string(attempt) +
                                   ") after " + std::to_string(kPatience) + " multiplications");
        }
        if (exits && cap_is_final && running > cap) break;
        if (exits && running == 0.0) {
          if (!is(M::zero_sign_not_settled) && std::signbit(o.multiplier) &&
              (last_entry - entry) % 2 == 1) {
            running = -running;
          }
          break;
        }
        const double next = step(o, running, cap_running);
        if (exits && std::bit_cast<std::uint64_t>(next) == std::bit_cast<std::uint64_t>(running)) {
          break;
        }
        running = next;
      }
    }
    if (is(M::next_delay_ignores_cap)) return running;
    return capped(o, running);
  }

  bool jitter_applies(const Options& o, double delay) const {
    if (std::isnan(delay)) reject("jittered", "delay", show(delay), "a number, not NaN");
    const bool positive = is(M::draw_for_zero_delay) ? delay >= 0.0 : delay > 0.0;
    return o.jitter_factor > 0.0 && positive;
  }

  double apply_draw(const Options& o, double delay, double r) const {
    const bool ok = is(M::draw_of_one_accepted) ? (r >= 0.0 && r <= 1.0) : (r >= 0.0 && r < 1.0);
    if (!ok) reject("jitter", "draw r", show(r), "in [0, 1)");
    const double f = o.jitter_factor;
    double jittered = delay * (1 + (((r * 2) - 1) * f));
    if (is(M::one_sided_jitter)) jittered = delay * (1 + (r * f));
    if (is(M::half_width_jitter)) jittered = delay * (1 + ((r - 0.5) * f));
    if (is(M::flipped_jitter)) jittered = delay * (1 + ((1 - (r * 2)) * f));
    if (is(M::reassociated_jitter)) jittered = delay + (delay * (((r * 2) - 1) * f));
    if (is(M::fused_jitter)) jittered = delay * std::fma(std::fma(r, 2.0, -1.0), f, 1.0);
    if (is(M::jitter_without_one_plus)) jittered = delay * (((r * 2) - 1) * f);
    if (is(M::nan_guard_dropped)) return jittered;
    return std::isnan(jittered) ? delay : jittered;
  }

  double clamp_at_zero(double delay) const {
    if (is(M::clamp_drops_negative_zero)) return std::max(0.0, delay);
    return delay < 0.0 ? 0.0 : delay;
  }

  double take(Source& source) const {
    if (is(M::two_draws_per_jitter)) source();
    return source();
  }

  std::optional<double> next_delay(const Options& o, std::int64_t attempt, double age,
                                   Source& source) const {
    std::optional<double> early;
    if (is(M::draw_when_giving_up) && o.jitter_factor > 0.0) early = source();
    const std::optional<double> delay = unjittered(o, attempt, age);
    if (!delay) return std::nullopt;
    if (is(M::draw_when_factor_zero)) early = source();
    if (!jitter_applies(o, *delay)) return clamp_at_zero(*delay);
    const double r = early ? *early : take(source);
    double jittered = apply_draw(o, *delay, r);
    if (is(M::cap_after_jitter)) jittered = capped(o, jittered);
    return clamp_at_zero(jittered);
  }

  double jittered(const Options& o, double delay, Source& source) const {
    std::optional<double> early;
    if (is(M::draw_when_factor_zero)) {
      if (std::isnan(delay)) reject("jittered", "delay", show(delay), "a number, not NaN");
      early = source();
    }
    if (!jitter_applies(o, delay)) return delay;
    return apply_draw(o, delay, early ? *early : take(source));
  }

  double jittered_with_draw(const Options& o, double delay, double r) const {
    if (!jitter_applies(o, delay)) return delay;
    return apply_draw(o, delay, r);
  }

  Options made(const Options& o) const {
    validate(o);
    return o;
  }

  std::pair<Options, Options> give_up_after(const Options& o, double age) const {
    validate(o);
    if (!is(M::copies_unvalidated)) {
      require_finite_non_negative("give_up_after", "max_message_age", age);
    }
    Options copy = o;
    if (is(M::give_up_after_resets_jitter)) copy.jitter_factor = 0.0;
    copy.max_message_age = amqp::Seconds{age};
    if (!is(M::copies_unvalidated)) validate(copy);
    return {o, copy};
  }

  std::pair<Options, Options> with_jitter(const Options& o, double factor) const {
    validate(o);
    if (!is(M::copies_unvalidated)) require_jitter_factor("with_jitter", factor);
    Options copy = o;
    if (is(M::with_jitter_drops_age)) copy.max_message_age = amqp::Seconds{0.0};
    copy.jitter_factor = factor;
    if (!is(M::copies_unvalidated)) validate(copy);
    return {o, copy};
  }

  Source ruby_random(std::uint32_t seed) const {
    if (is(M::shared_ruby_engine)) {
      static std::mt19937 shared;
      shared.seed(seed);
      return [] { return res53(shared); };
    }
    auto engine = std::make_shared<std::mt19937>(seed);
    if (is(M::res32_draw)) {
      return [engine] { return static_cast<double>((*engine)()) / 4294967296.0; };
    }
    return [engine] { return res53(*engine); };
  }

 private:
  static double res53(std::mt19937& engine) {
    const std::uint32_t a = static_cast<std::uint32_t>(engine()) >> 5U;
    const std::uint32_t b = static_cast<std::uint32_t>(engine()) >> 6U;
    return (static_cast<double>(a) * 67108864.0 + static_cast<double>(b)) / 9007199254740992.0;
  }

  Mutation m_;
};

}  // namespace

std::span<const MutationInfo> all_mutations() { return kMutations; }

const MutationInfo& info(Mutation mutation) {
  for (const MutationInfo& entry : kMutations) {
    if (entry.mutation == mutation) return entry;
  }
  throw std::logic_error("info: unknown mutation");
}

Core mutant(Mutation mutation) {
  const auto copy = std::make_shared<const Copy>(mutation);
  Core c;
  c.name = std::string(info(mutation).name);
  c.construct = [copy](const Options& o) { return copy->made(o); };
  c.schedule = [copy](const Options& o) { return copy->schedule(o); };
  c.lazy_delays = [copy](const Options& o) { return copy->lazy_delays(o); };
  c.lazy_size = [copy](const Options& o) {
    copy->validate(o);
    return copy->schedule_length(o);
  };
  c.next_delay_unjittered = [copy](const Options& o, std::int64_t attempt, double age) {
    copy->validate(o);
    const std::optional<double> delay = copy->unjittered(o, attempt, age);
    if (!delay) return delay;
    return std::optional<double>(copy->clamp_at_zero(*delay));
  };
  c.next_delay = [copy](const Options& o, std::int64_t attempt, double age, Source& source) {
    copy->validate(o);
    return copy->next_delay(o, attempt, age, source);
  };
  c.jittered = [copy](const Options& o, double delay, Source& source) {
    copy->validate(o);
    return copy->jittered(o, delay, source);
  };
  c.jittered_with_draw = [copy](const Options& o, double delay, double r) {
    copy->validate(o);
    return copy->jittered_with_draw(o, delay, r);
  };
  c.none = [copy] { return copy->made(Options{.max_attempts = 1}); };
  c.default_constructed = [] { return Options{}; };
  c.fixed = [copy](std::int64_t n, double delay) {
    const double multiplier = copy->is(M::fixed_keeps_default_multiplier) ? 2.0 : 1.0;
    return copy->made(Options{
        .max_attempts = n, .initial_delay = amqp::Seconds{delay}, .multiplier = multiplier});
  };
  const auto exponential = [copy](std::int64_t n, double delay, double cap) {
    const double jitter = copy->is(M::exponential_without_jitter) ? 0.0 : 0.2;
    return copy->made(Options{.max_attempts = n,
                              .initial_delay = amqp::Seconds{delay},
                              .multiplier = 2.0,
                              .max_delay = amqp::Seconds{cap},
                              .jitter_factor = jitter});
  };
  c.exponential = [exponential](std::int64_t n, double delay) {
    return exponential(n, delay, 0.0);
  };
  c.exponential_capped = exponential;
  c.give_up_after = [copy](const Options& o, double age) { return copy->give_up_after(o, age); };
  c.with_jitter = [copy](const Options& o, double f) { return copy->with_jitter(o, f); };
  c.ruby_random = [copy](std::uint32_t seed) { return copy->ruby_random(seed); };
  return c;
}

}  // namespace acemq::props
