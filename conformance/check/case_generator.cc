#include "conformance/check/case_generator.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <span>

#include <nlohmann/json.hpp>

#include "acemq/amqp/retry_policy.hpp"
#include "acemq/model/contract.hpp"
#include "acemq/model/edge_values.hpp"
#include "acemq/model/unit_interval.hpp"
#include "conformance/protocol/limits.hpp"
#include "conformance/protocol/respond.hpp"
#include "conformance/protocol/wire.hpp"

namespace acemq::conformance {
namespace {

using nlohmann::ordered_json;
namespace edges = model::edges;

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kSeedMax = kMaxSeed;
constexpr std::int64_t kMaxStepsAnswered = kMaxSteps + 1;  // attempt 2^20 + 1 is always answered

double next_up(double x) { return std::nextafter(x, HUGE_VAL); }
double next_down(double x) { return std::nextafter(x, -HUGE_VAL); }

// Wire form of a double inside a JSON document: a number, or the string for
// a non-finite value.
ordered_json wire(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  return x;
}

// The generator's randomness: integers and doubles from the engine's bits
// alone, so a seed means the same requests everywhere.
class Dice {
 public:
  explicit Dice(std::mt19937_64& engine) : engine_(engine) {}

  std::uint64_t bits() { return engine_(); }
  double uniform01() { return model::unit_interval_from_bits(engine_()); }
  bool chance(double p) { return uniform01() < p; }

  // Uniform in [0, n), by rejection; n is never 0 here.
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t limit =
        std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % n;
    for (;;) {
      const std::uint64_t x = engine_();
      if (x < limit) return x % n;
    }
  }

  std::int64_t between(std::int64_t lo, std::int64_t hi) {
    const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    if (span == std::numeric_limits<std::uint64_t>::max()) {
      return static_cast<std::int64_t>(engine_());
    }
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + below(span + 1));
  }

  template <typename T, std::size_t N>
  const T& one_of(const T (&values)[N]) {
    return values[below(N)];
  }

  // A double with a random 52-bit mantissa and a binary exponent in
  // [lo, hi]: log-uniform without libm, every bit pattern of those binades
  // possible.
  double with_exponent(int lo, int hi) {
    const double mantissa = 1.0 + static_cast<double>(engine_() >> 12U) * 0x1p-52;
    return std::ldexp(mantissa, static_cast<int>(between(lo, hi)));
  }

  double subnormal() { return std::ldexp(static_cast<double>((engine_() >> 12U) | 1U), -1074); }

 private:
  std::mt19937_64& engine_;
};

// What a choice may depend on: the profile, the op, and the policy chosen
// so far.
struct Context {
  Profile profile = Profile::full;
  std::string_view op;
  bool replay = false;
  double initial_delay = 0.0;
  std::int64_t max_attempts = 1;  // after the factory
  double age_limit = 0.0;         // after the factory and give_up_after
};

// One row of a generator's table: what the choice is, how often it is made
// relative to the others in its table, how to make it, and, where it fits
// only some requests, when.
template <typename T>
struct Choice {
  std::string_view name;
  double weight;
  T (*make)(Dice&, const Context&);
  bool (*applies)(const Context&) = nullptr;
};

// One row of `rows` that `fits`, chosen by weight.
template <typename Row, typename Fits>
const Row& weighted(Dice& dice, std::span<const Row> rows, const Fits& fits) {
  double total = 0.0;
  for (const Row& row : rows) total += fits(row) ? row.weight : 0.0;
  double x = dice.uniform01() * total;
  const Row* last = nullptr;
  for (const Row& row : rows) {
    if (!fits(row)) continue;
    if (x < row.weight) return row;
    x -= row.weight;
    last = &row;
  }
  return *last;
}

template <typename Row>
const Row& weighted(Dice& dice, std::span<const Row> rows) {
  return weighted(dice, rows, [](const Row&) { return true; });
}

template <typename T>
const Choice<T>& pick(Dice& dice, std::span<const Choice<T>> table, const Context& context) {
  return weighted(dice, table,
                  [&](const Choice<T>& c) { return c.applies == nullptr || c.applies(context); });
}

template <typename T>
T choose(Dice& dice, std::span<const Choice<T>> table, const Context& context) {
  return pick(dice, table, context).make(dice, context);
}

bool for_replay(const Context& c) { return c.replay; }
bool for_schedule_in_full(const Context& c) {
  return c.op == "schedule" && c.profile == Profile::full;
}
bool for_calls(const Context& c) { return c.op != "schedule"; }
bool with_age_limit(const Context& c) { return c.age_limit > 0.0; }
bool on_huge_policy(const Context& c) { return c.max_attempts > 100000; }

// ---- The tables -----------------------------------------------------------

constexpr Choice<std::string_view> kOps[] = {
    {"schedule", 25, [](Dice&, const Context&) { return std::string_view("schedule"); }},
    {"next_delay", 35, [](Dice&, const Context&) { return std::string_view("next_delay"); }},
    {"jittered", 15, [](Dice&, const Context&) { return std::string_view("jittered"); }},
    {"replay", 25, [](Dice&, const Context&) { return std::string_view("replay"); }},
};

// The forms' members and signatures are the protocol's (policy_spec.hpp);
// only how often each is made is the generator's.
constexpr Choice<Form> kForms[] = {
    {"constructor", 6, [](Dice&, const Context&) { return Form::constructor; }},
    {"exponential", 2, [](Dice&, const Context&) { return Form::exponential; }},
    {"fixed", 2, [](Dice&, const Context&) { return Form::fixed; }},
    {"none", 1, [](Dice&, const Context&) { return Form::none; }},
};

constexpr double kRoundDelays[] = {0.001, 0.1, 0.25, 0.5,  1.0,   1.5,
                                   2.0,   5.0, 30.0, 60.0, 100.0, 3600.0};

// Initial delays, and the delays jittered is asked about.
constexpr Choice<double> kDelays[] = {
    {"zero", 2, [](Dice&, const Context&) { return 0.0; }},
    {"-0.0: kept, sign and all", 1, [](Dice&, const Context&) { return -0.0; }},
    {"subnormal", 1, [](Dice& d, const Context&) { return d.subnormal(); }},
    {"2^-1074", 0.5, [](Dice&, const Context&) { return edges::kSmallestSubnormal; }},
    {"tiny: 2^-1022 to 2^-30", 2,
     [](Dice& d, const Context&) { return d.with_exponent(-1022, -30); }},
    {"ordinary: 2^-10 to 2^12 s", 8,
     [](Dice& d, const Context&) { return d.with_exponent(-10, 12); }},
    {"round", 4, [](Dice& d, const Context&) { return d.one_of(kRoundDelays); }},
    {"near DBL_MAX: doubling overflows at once", 1.5,
     [](Dice& d, const Context&) { return d.with_exponent(990, 1023); }},
    {"DBL_MAX", 0.5, [](Dice&, const Context&) { return edges::kLargest; }},
};

constexpr double kExactMultipliers[] = {0.5, 1.5, 3.0, 10.0, 0.1};

constexpr Choice<double> kMultipliers[] = {
    {"zero: every delay after the first is 0", 2, [](Dice&, const Context&) { return 0.0; }},
    // In a replay the first delay is jittered and every later one is 0,
    // which must take no draw.
    {"zero, again for a replay", 2, [](Dice&, const Context&) { return 0.0; }, for_replay},
    {"-0.0: the sign of zero flips each step", 0.5, [](Dice&, const Context&) { return -0.0; }},
    {"below 1: the cap applies to the first entries only", 3,
     [](Dice& d, const Context&) { return d.uniform01(); }},
    {"tiny: underflows to zero", 1,
     [](Dice& d, const Context&) { return d.with_exponent(-1074 + 52, -20); }},
    {"1: fixed", 2, [](Dice&, const Context&) { return 1.0; }},
    {"1 + 2^-52: grows by an ulp a step", 1,
     [](Dice&, const Context&) { return edges::kOneUlpAboveOne; }},
    {"1 + 1e-9: 7e11 steps to overflow", 1,
     [](Dice&, const Context&) { return edges::kCreepingMultiplier; }},
    {"slightly above 1", 1, [](Dice& d, const Context&) { return 1.0 + d.with_exponent(-30, -5); }},
    {"2: doubling", 3, [](Dice&, const Context&) { return 2.0; }},
    {"in (1, 4)", 4, [](Dice& d, const Context&) { return 1.0 + 3.0 * d.uniform01(); }},
    {"round", 2, [](Dice& d, const Context&) { return d.one_of(kExactMultipliers); }},
    {"large: 2^4 to 2^40", 1, [](Dice& d, const Context&) { return d.with_exponent(4, 40); }},
    {"1e300: overflows at the second step", 0.5, [](Dice&, const Context&) { return 1e300; }},
};

constexpr Choice<double> kCaps[] = {
    {"none", 4, [](Dice&, const Context&) { return 0.0; }},
    {"below the initial delay", 1.5,
     [](Dice& d, const Context& c) { return std::fabs(c.initial_delay) * d.uniform01(); }},
    {"at the initial delay", 1, [](Dice&, const Context& c) { return std::fabs(c.initial_delay); }},
    {"above the initial delay", 1.5,
     [](Dice& d, const Context& c) {
       return std::min(std::fabs(c.initial_delay) * (1.0 + 99.0 * d.uniform01()), edges::kLargest);
     }},
    {"ordinary: 2^-10 to 2^12 s", 2,
     [](Dice& d, const Context&) { return d.with_exponent(-10, 12); }},
    {"whole minutes up to 2 h", 1,
     [](Dice& d, const Context&) { return 30.0 * static_cast<double>(d.between(1, 120)); }},
    {"subnormal", 0.5, [](Dice& d, const Context&) { return d.subnormal(); }},
    {"huge: 2^990 and up", 0.5, [](Dice& d, const Context&) { return d.with_exponent(990, 1023); }},
};

constexpr Choice<double> kJitterFactors[] = {
    {"zero: no draw", 3, [](Dice&, const Context&) { return 0.0; }},
    {"1: a draw of 0 makes 0, and +Infinity stays", 1.5, [](Dice&, const Context&) { return 1.0; }},
    {"0.2: the exponential factory's", 1, [](Dice&, const Context&) { return 0.2; }},
    {"0.5", 1, [](Dice&, const Context&) { return 0.5; }},
    {"uniform in [0, 1)", 3, [](Dice& d, const Context&) { return d.uniform01(); }},
    {"2^-53", 0.5, [](Dice&, const Context&) { return edges::kSmallestPositiveDraw; }},
    {"1 - 2^-53", 0.5, [](Dice&, const Context&) { return edges::kLargestDraw; }},
};

constexpr Choice<double> kAgeLimits[] = {
    {"none", 5, [](Dice&, const Context&) { return 0.0; }},
    {"ordinary: 2^-10 to 2^12 s", 2,
     [](Dice& d, const Context&) { return d.with_exponent(-10, 12); }},
    {"whole minutes up to 2 h", 1,
     [](Dice& d, const Context&) { return 30.0 * static_cast<double>(d.between(1, 120)); }},
    {"tiny: 2^-1022 to 2^-30 s", 0.5,
     [](Dice& d, const Context&) { return d.with_exponent(-1074 + 52, -30); }},
};

constexpr Choice<std::int64_t> kMaxAttempts[] = {
    {"1: no retries", 1, [](Dice&, const Context&) { return std::int64_t{1}; }},
    {"2 to 10", 5, [](Dice& d, const Context&) { return d.between(2, 10); }},
    {"11 to 100", 2, [](Dice& d, const Context&) { return d.between(11, 100); }},
    {"1000 to 2000: uncapped doubling overflows past entry 1025", 1.5,
     [](Dice& d, const Context&) { return d.between(1000, 2000); }},
    {"huge: 2^20 to 2^62, for far attempts", 1,
     [](Dice& d, const Context&) {
       return d.between(std::int64_t{1} << 20, std::int64_t{1} << 62);
     },
     for_calls},
    {"INT64_MAX", 0.2, [](Dice&, const Context&) { return kInt64Max; }, for_calls},
    {"65,537: the longest schedule answered", 0.05,
     [](Dice&, const Context&) { return kMaxScheduleEntries + 1; }, for_schedule_in_full},
};

// Far along a huge policy: settles (capped, zero, overflowed) or hits the
// protocol's cost limit, and both sides must say which.
constexpr std::int64_t kFarAttempts[] = {std::int64_t{1000000000}, std::int64_t{1} << 40,
                                         std::int64_t{1000000000000000}, kInt64Max - 1};

constexpr Choice<std::int64_t> kAttempts[] = {
    {"1", 2, [](Dice&, const Context&) { return std::int64_t{1}; }},
    {"in range", 5,
     [](Dice& d, const Context& c) {
       const bool huge = c.max_attempts > 100000;
       return d.between(1, std::max<std::int64_t>(1, huge ? 2000 : c.max_attempts));
     }},
    {"the last retry", 2,
     [](Dice&, const Context& c) { return std::max<std::int64_t>(1, c.max_attempts - 1); }},
    {"max_attempts: gives up", 1, [](Dice&, const Context& c) { return c.max_attempts; }},
    {"past max_attempts", 0.5,
     [](Dice&, const Context& c) {
       return c.max_attempts == kInt64Max ? c.max_attempts : c.max_attempts + 1;
     }},
    {"far: 10^9 to 2^63 - 2", 1,
     [](Dice& d, const Context& c) { return std::min(d.one_of(kFarAttempts), c.max_attempts - 1); },
     on_huge_policy},
};

// Message ages; the first five only with an age limit, where the limit is
// inclusive and its neighbours are where ports go wrong.
constexpr Choice<double> kAges[] = {
    {"below the limit", 3, [](Dice& d, const Context& c) { return c.age_limit * d.uniform01(); },
     with_age_limit},
    {"at the limit: gives up", 1.5, [](Dice&, const Context& c) { return c.age_limit; },
     with_age_limit},
    {"an ulp past the limit", 1.5, [](Dice&, const Context& c) { return next_up(c.age_limit); },
     with_age_limit},
    {"an ulp below the limit", 1.5, [](Dice&, const Context& c) { return next_down(c.age_limit); },
     with_age_limit},
    {"far past the limit", 0.75,
     [](Dice& d, const Context& c) { return c.age_limit * (1.0 + 100.0 * d.uniform01()); },
     with_age_limit},
    {"zero", 4, [](Dice&, const Context&) { return 0.0; }},
    {"-0.0", 0.5, [](Dice&, const Context&) { return -0.0; }},
    {"negative: young", 1, [](Dice& d, const Context&) { return -d.with_exponent(-10, 12); }},
    {"+Infinity: older than any limit", 0.5, [](Dice&, const Context&) { return HUGE_VAL; }},
    {"-Infinity", 0.5, [](Dice&, const Context&) { return -HUGE_VAL; }},
    {"ordinary", 1, [](Dice& d, const Context&) { return d.with_exponent(-10, 12); }},
};

constexpr Choice<double> kDraws[] = {
    {"0: the bottom of the range", 2, [](Dice&, const Context&) { return 0.0; }},
    {"2^-53: Ruby's smallest", 1,
     [](Dice&, const Context&) { return edges::kSmallestPositiveDraw; }},
    {"0.5: no change", 1, [](Dice&, const Context&) { return 0.5; }},
    {"1 - 2^-53: the top, a tie that rounds to even", 1,
     [](Dice&, const Context&) { return edges::kLargestDraw; }},
    {"uniform", 5, [](Dice& d, const Context&) { return d.uniform01(); }},
    {"just below 0.5", 0.5, [](Dice&, const Context&) { return next_down(0.5); }},
    {"tiny: below 2^-55, r * 2 - 1 rounds to -1", 0.5,
     [](Dice& d, const Context&) { return d.with_exponent(-1074 + 52, -60); }},
};

// The delay jittered is asked to spread.
constexpr Choice<double> kJitteredDelays[] = {
    {"a delay", 6, [](Dice& d, const Context& c) { return choose<double>(d, kDelays, c); }},
    {"negative: unchanged, no draw", 1,
     [](Dice& d, const Context&) { return -d.with_exponent(-10, 12); }},
    {"+Infinity", 0.5, [](Dice&, const Context&) { return HUGE_VAL; }},
    {"-Infinity", 0.3, [](Dice&, const Context&) { return -HUGE_VAL; }},
    {"the policy's initial delay", 1, [](Dice&, const Context& c) { return c.initial_delay; }},
};

constexpr Choice<std::int64_t> kSeeds[] = {
    {"uniform", 8, [](Dice& d, const Context&) { return d.between(0, kSeedMax); }},
    {"0", 1, [](Dice&, const Context&) { return std::int64_t{0}; }},
    {"2^32 - 1", 1, [](Dice&, const Context&) { return kSeedMax; }},
    {"42: the doc page's", 1, [](Dice&, const Context&) { return std::int64_t{42}; }},
};

// A replay's calls: many give up or land on zero delays between jittered
// ones, so a port that draws where no jitter applies shifts every later draw.
constexpr Choice<std::int64_t> kCallAttempts[] = {
    {"early: up to 60", 6,
     [](Dice& d, const Context& c) {
       return d.between(1, std::max<std::int64_t>(1, std::min<std::int64_t>(c.max_attempts, 60)));
     }},
    {"gives up: must take no draw", 2,
     [](Dice& d, const Context& c) {
       return c.max_attempts == kInt64Max ? c.max_attempts : c.max_attempts + d.between(0, 1);
     }},
    {"1", 2, [](Dice&, const Context&) { return std::int64_t{1}; }},
    {"any attempt", 0.3,
     [](Dice& d, const Context& c) { return choose<std::int64_t>(d, kAttempts, c); }},
};

// How many calls a replay makes. Ruby's MT19937 makes each draw from two
// words of its state, and the twist that refills the state reads words it
// has already replaced from word 227 on: a slip in the twist shows only from
// the 114th draw, which only a long replay takes (the protocol allows 256).
constexpr Choice<std::int64_t> kReplayLengths[] = {
    {"1 to 12 calls", 88, [](Dice& d, const Context&) { return d.between(1, 12); }},
    {"13 to 40 calls", 10, [](Dice& d, const Context&) { return d.between(13, 40); }},
    {"160 to 255 calls: past the 113th draw", 1.5,
     [](Dice& d, const Context&) {
       return d.between(160, static_cast<std::int64_t>(kMaxReplayCalls) - 1);
     }},
    {"256 calls: the most a replay may make", 0.5,
     [](Dice&, const Context&) { return static_cast<std::int64_t>(kMaxReplayCalls); }},
};

// Draws a replay discards before its first call. MT19937 refills its 624
// words at once, every 312 draws, and the refill's last word is made from
// word 0 (already replaced) and word 396: a slip there shows at the 312th
// draw and after, which no replay of 256 calls from the seed reaches. So a
// replay in seven skips to a refill's last word or past it; most stay
// within 32 refills, since a pure-Python port takes 2 µs a draw.
constexpr std::int64_t kDrawsPerRefill = 312;
constexpr std::int64_t kNearRefills = 32;
constexpr Choice<std::optional<std::int64_t>> kReplaySkips[] = {
    {"absent: the seed's first draw comes first", 82,
     [](Dice&, const Context&) { return std::optional<std::int64_t>(); }},
    {"0, written out", 2, [](Dice&, const Context&) { return std::optional<std::int64_t>(0); }},
    {"to the first refill's last word: draw 311 among the first four", 5,
     [](Dice& d, const Context&) {
       return std::optional<std::int64_t>(kDrawsPerRefill - 1 - d.between(0, 3));
     }},
    {"to a later refill's last word, up to the 32nd: draw 312k - 1 among the first four", 6,
     [](Dice& d, const Context&) {
       const std::int64_t refills = d.between(2, kNearRefills);
       return std::optional<std::int64_t>(refills * kDrawsPerRefill - 1 - d.between(0, 3));
     }},
    {"past the first refill, anywhere up to the 32nd", 3,
     [](Dice& d, const Context&) {
       return std::optional<std::int64_t>(
           d.between(kDrawsPerRefill, kNearRefills * kDrawsPerRefill));
     }},
    {"2^16: the most a replay may skip", 0.5,
     [](Dice&, const Context&) { return std::optional<std::int64_t>(kMaxReplaySkip); }},
};

constexpr Choice<double> kCallAges[] = {
    {"zero", 5, [](Dice&, const Context&) { return 0.0; }},
    {"any age", 2, [](Dice& d, const Context& c) { return choose<double>(d, kAges, c); }},
    {"negative", 0.5, [](Dice& d, const Context&) { return -d.with_exponent(-10, 12); }},
    {"+Infinity: gives up with a limit", 0.3, [](Dice&, const Context&) { return HUGE_VAL; }},
    {"-Infinity", 0.2, [](Dice&, const Context&) { return -HUGE_VAL; }},
};

// A next_delay request's `jitter` member: absent means true, and both then
// need `r`.
enum class JitterMember { absent, on, off };
constexpr Choice<JitterMember> kJitterMembers[] = {
    {"absent: true", 3, [](Dice&, const Context&) { return JitterMember::absent; }},
    {"true", 2, [](Dice&, const Context&) { return JitterMember::on; }},
    {"false: no r", 1, [](Dice&, const Context&) { return JitterMember::off; }},
};

// ---- Policies -------------------------------------------------------------

struct PolicyParameters {
  PolicySpec spec;
  // Which constructor fields are written out (the rest take the defaults).
  bool has[6] = {true, true, true, true, true, true};

  // The values the policy ends up with, after the factory and the copies.
  double effective_age_limit() const {
    if (spec.give_up_after) return *spec.give_up_after;
    return spec.form == Form::constructor ? spec.fields.max_message_age.count() : 0.0;
  }
  std::int64_t effective_max_attempts() const {
    return spec.form == Form::none ? 1 : spec.fields.max_attempts;
  }
};

// A factor for a replay: above zero, so that most replays draw.
double replay_jitter(Dice& d) {
  return d.chance(0.2) ? 1.0 : d.uniform01() + edges::kSmallestPositiveDraw;
}

PolicyParameters policy_parameters(Dice& d, Context& c) {
  PolicyParameters p;
  amqp::RetryPolicy::Options& o = p.spec.fields;
  p.spec.form = choose<Form>(d, kForms, c);
  o.max_attempts = choose<std::int64_t>(d, kMaxAttempts, c);
  if (c.replay && d.chance(0.15)) {
    // Underflow to zero part-way: tiny delays times a tiny multiplier.
    o.initial_delay = amqp::Seconds{d.with_exponent(-1070, -1000)};
    o.multiplier = d.with_exponent(-60, -10);
  } else {
    o.initial_delay = amqp::Seconds{choose<double>(d, kDelays, c)};
    o.multiplier = choose<double>(d, kMultipliers, c);
  }
  c.initial_delay = o.initial_delay.count();
  o.max_delay = amqp::Seconds{choose<double>(d, kCaps, c)};
  o.jitter_factor =
      c.replay && d.chance(0.7) ? replay_jitter(d) : choose<double>(d, kJitterFactors, c);
  o.max_message_age = amqp::Seconds{choose<double>(d, kAgeLimits, c)};
  for (bool& present : p.has) present = d.chance(0.75);
  // max_attempts: the default 1 makes a dull policy, but the default must
  // be seen too.
  p.has[0] = !d.chance(0.05);
  if (d.chance(0.2)) p.spec.give_up_after = d.chance(0.3) ? 0.0 : d.with_exponent(-10, 12);
  // A factor of 0 never draws, which would make a replay say nothing about
  // draws; keep most replays jittered.
  if (d.chance(c.replay && p.spec.form != Form::exponential ? 0.5 : 0.2)) {
    p.spec.with_jitter = c.replay ? replay_jitter(d) : choose<double>(d, kJitterFactors, c);
  }
  c.max_attempts = p.effective_max_attempts();
  c.age_limit = p.effective_age_limit();
  return p;
}

ordered_json member_json(const PolicyMember& member, const PolicySpec& spec) {
  const MemberValue value = member.get(spec);
  if (member.integer) return std::get<std::int64_t>(value);
  return wire(std::get<double>(value));
}

// The policy member of a request, written from the protocol's table of
// forms: a factory's required fields always, its optional ones sometimes.
ordered_json encode_policy(Dice& d, const PolicyParameters& p) {
  const Factory& factory = factory_of(p.spec.form);
  ordered_json policy = ordered_json::object();
  if (p.spec.form != Form::constructor) policy["factory"] = factory.name;
  for (std::size_t i = 0; i < factory.fields.size(); ++i) {
    const FactoryField& field = factory.fields[i];
    const PolicyMember& member = *policy_member(field.member);
    if (!field.required) {
      // The constructor's presence was drawn with the policy; a factory's
      // optional max_delay is written when it is not the default, and
      // sometimes when it is.
      const bool present = p.spec.form == Form::constructor
                               ? p.has[i]
                               : std::get<double>(member.get(p.spec)) != 0.0 || d.chance(0.3);
      if (!present) continue;
    }
    policy[field.member] = member_json(member, p.spec);
  }
  for (const std::string_view copy : kCopyMembers) {
    const PolicyMember& member = *policy_member(copy);
    const bool given =
        copy == "give_up_after" ? p.spec.give_up_after.has_value() : p.spec.with_jitter.has_value();
    if (given) policy[copy] = member_json(member, p.spec);
  }
  return policy;
}

// ---- Far calls at the cost limit's edges -------------------------------------

// A far next_delay call (attempt past 2^20 + 1) and its policy, made
// together so that the walk settles, or fails to, within a step of the
// protocol's cost limit: there a port that orders the give-up test, the cap
// exit or the count differently answers a different set of calls, and most
// slips a port's author makes there show on no other request.
struct FarCall {
  amqp::RetryPolicy::Options policy;
  std::int64_t attempt = 0;
  double message_age = 0.0;
};

constexpr std::int64_t kCostLimit = kMaxSteps;

// Far attempts, from the first one the limit can refuse to the largest.
std::int64_t far_attempt(Dice& d, std::int64_t max_attempts) {
  static constexpr std::int64_t kFar[] = {kCostLimit + 2, kCostLimit + 3, std::int64_t{1000000000},
                                          std::int64_t{1} << 40, kInt64Max - 1};
  return std::min(d.one_of(kFar), max_attempts - 1);
}

std::int64_t huge_max_attempts(Dice& d) {
  return d.chance(0.5) ? kInt64Max : d.between(std::int64_t{1} << 40, std::int64_t{1} << 62);
}

// Where a walk stops: at 2^20 - 1, 2^20 or 2^20 + 1 (the step each side of
// the limit, and the limit), by the variant; a port that counts one step
// off answers, or refuses, exactly one of the three.
std::int64_t exit_step(std::size_t variant) {
  return kCostLimit - 1 + static_cast<std::int64_t>(variant);
}

// A multiplier within a few ulps of 1: the running value moves by about
// one ulp a step, so it takes a million steps to move one part in 2^32.
double creeping_up(Dice& d) {
  return d.chance(0.8) ? 1.0 + static_cast<double>(d.between(1, 64)) * 0x1p-52
                       : 1.0 + d.with_exponent(-45, -41);
}
double creeping_down(Dice& d) {
  return d.chance(0.8) ? 1.0 - static_cast<double>(d.between(1, 64)) * 0x1p-53
                       : 1.0 - d.with_exponent(-45, -41);
}

amqp::RetryPolicy::Options far_policy(Dice& d, double initial_delay, double multiplier) {
  amqp::RetryPolicy::Options o;
  o.max_attempts = huge_max_attempts(d);
  o.initial_delay = amqp::Seconds{initial_delay};
  o.multiplier = multiplier;
  return o;
}

// A creeping-up policy whose cap exit fires at step `exit`: it fires at the
// first step k with running value r_k > cap, so a cap in [r_(K-1), r_K)
// makes it fire at step K, within the limit up to K = 2^20, refused from
// 2^20 + 1. `at_start` puts the cap at r_(K-1), else just below r_K.
FarCall cap_first_passed_at(Dice& d, std::int64_t exit, bool at_start) {
  FarCall call{far_policy(d, d.with_exponent(-10, 12), creeping_up(d))};
  const double before = model::running_value(call.policy, exit);  // r_(K-1)
  call.policy.max_delay =
      amqp::Seconds{at_start ? before : next_down(before * call.policy.multiplier)};
  call.attempt = far_attempt(d, call.policy.max_attempts);
  return call;
}

// Far calls are sent in turn, not by weight, as the malformed lines are: a
// slip at the limit shows on one exact step, which a drawn step misses often
// enough that a whole run may send none. The t-th far call is row
// t % rows, variant (t / rows) % variants, so every 9 far calls send each
// row once.
struct FarCallRow {
  std::string_view name;
  std::size_t variants;
  FarCall (*make)(Dice&, std::size_t variant);
};

constexpr FarCallRow kFarCalls[] = {
    {"creeping up under a cap first passed at 2^20 - 1, 2^20 or 2^20 + 1: cap at r_(K-1)", 3,
     [](Dice& d, std::size_t v) { return cap_first_passed_at(d, exit_step(v), true); }},
    {"creeping up under a cap first passed at 2^20 - 1, 2^20 or 2^20 + 1: cap below r_K", 3,
     [](Dice& d, std::size_t v) { return cap_first_passed_at(d, exit_step(v), false); }},
    // The cap exit is strict: a running value equal to the cap has not
    // passed it. With the cap equal to the value after 2^20 steps, the exit
    // comes at step 2^20 + 1, past the limit; a port that tests >= stops
    // one step early and answers. The second variant: a cap first passed
    // anywhere between 2^19 and 2^21 steps, the ordinary far case.
    {"a cap equal to the running value after 2^20 steps, or passed anywhere near the limit", 2,
     [](Dice& d, std::size_t v) {
       if (v == 1) return cap_first_passed_at(d, d.between(kCostLimit / 2, kCostLimit * 2), true);
       FarCall call{far_policy(d, d.with_exponent(-10, 12), creeping_up(d))};
       call.policy.max_delay = amqp::Seconds{model::running_value(call.policy, kCostLimit + 1)};
       call.attempt = far_attempt(d, call.policy.max_attempts);
       return call;
     }},
    {"creeping down under a cap: the cap exit must not fire", 2,
     [](Dice& d, std::size_t v) {
       const double initial = d.with_exponent(-10, 12);
       FarCall call{far_policy(d, initial, creeping_down(d))};
       call.policy.max_delay = amqp::Seconds{initial * (v == 0 ? d.uniform01() : 2.0)};
       call.attempt = far_attempt(d, call.policy.max_attempts);
       return call;
     }},
    // The age either side of the limit: at it or past it gives up at once;
    // below it, the walk is refused.
    {"an age limit on a walk that never settles: giving up comes first", 4,
     [](Dice& d, std::size_t v) {
       const double multiplier = d.chance(0.5)   ? creeping_up(d)
                                 : d.chance(0.5) ? creeping_down(d)
                                                 : edges::kCreepingMultiplier;
       FarCall call{far_policy(d, d.with_exponent(-10, 12), multiplier)};
       // Below 1 s on the even variants, at or above it on the odd: a port
       // that tests the limit against 1 instead of 0 then gives up too late.
       const double limit = v % 2 == 0 ? d.with_exponent(-10, -1) : d.with_exponent(0, 12);
       call.policy.max_message_age = amqp::Seconds{limit};
       const double below = d.chance(0.5) ? next_down(limit) : limit * d.uniform01();
       const double ages[] = {limit, below, next_up(limit), HUGE_VAL};
       call.message_age = ages[v];
       call.attempt = far_attempt(d, call.policy.max_attempts);
       return call;
     }},
    // max_attempts is inclusive: attempt max_attempts gives up, and must
    // before the walk is counted; one below it is refused.
    {"attempt at a far max_attempts, or one below, on a walk that never settles", 2,
     [](Dice& d, std::size_t v) {
       FarCall call{far_policy(d, d.with_exponent(-10, 12),
                               d.chance(0.5) ? creeping_up(d) : creeping_down(d))};
       call.attempt = call.policy.max_attempts - static_cast<std::int64_t>(v);
       return call;
     }},
    {"an attempt at the limit on a walk that never settles", 2,
     [](Dice& d, std::size_t v) {
       // Attempt 2^20 + 1 needs 2^20 multiplications, the most answered;
       // 2^20 + 2, one more, is a far attempt of the other rows.
       FarCall call{far_policy(d, d.with_exponent(-10, 12),
                               d.chance(0.5) ? creeping_up(d) : creeping_down(d))};
       call.attempt = kCostLimit + static_cast<std::int64_t>(v);
       return call;
     }},
    // The zero exit answers any far attempt at once; under multiplier -0.0
    // the sign still flips every step, so the parity of the steps left
    // decides it, and a port that walks on instead hangs or is refused.
    {"a zero under multiplier -0.0, far: the parity decides its sign", 2,
     [](Dice& d, std::size_t v) {
       FarCall call{far_policy(d, d.with_exponent(-10, 12), -0.0)};
       call.attempt = far_attempt(d, call.policy.max_attempts) - static_cast<std::int64_t>(v);
       return call;
     }},
    {"a rounding fixed point reached at 2^20 - 1, 2^20 or 2^20 + 1", 3,
     [](Dice& d, std::size_t v) {
       // Times 1 - 2^-53, 2^-1022 + K * 2^-1074 loses one ulp a step and
       // stops at 2^-1022, where the product is a tie that rounds back to
       // it: K steps, and the multiplication that shows it is the K+1-th.
       const std::int64_t steps = exit_step(v) - 1;
       const double initial =
           std::ldexp(static_cast<double>((std::int64_t{1} << 52) + steps), -1074);
       FarCall call{far_policy(d, initial, 1.0 - 0x1p-53)};
       if (d.chance(0.3)) call.policy.max_delay = amqp::Seconds{d.with_exponent(-10, 12)};
       call.attempt = far_attempt(d, call.policy.max_attempts);
       return call;
     }},
};

// One case in 150 of the full profile is a far call: 33 in a run of 5000
// cases, every variant of every row (9 rows of at most 4), each a walk of a
// million steps in a port (about 0.2 s in Python, 7 s a run).
constexpr std::size_t kFarCallEvery = 150;

// The far call of turn `turn` (kFarCalls), as a next_delay request: the
// full profile only, since the Ruby reference walks every step and would
// take minutes.
ordered_json far_call_request(Dice& d, std::int64_t id, std::size_t turn) {
  const FarCallRow& row = kFarCalls[turn % std::size(kFarCalls)];
  const FarCall call = row.make(d, (turn / std::size(kFarCalls)) % row.variants);
  Context c;
  c.op = "next_delay";
  PolicyParameters p;
  p.spec.form = Form::constructor;
  p.spec.fields = call.policy;
  ordered_json request = ordered_json::object();
  request["id"] = id;
  request["op"] = "next_delay";
  request["policy"] = encode_policy(d, p);
  request["attempt"] = call.attempt;
  request["message_age"] = wire(call.message_age);
  if (d.chance(0.5)) {
    request["jitter"] = false;
  } else {
    request["r"] = choose<double>(d, kDraws, c);
  }
  return request;
}

// ---- Requests -------------------------------------------------------------

ordered_json valid_request(Dice& d, Profile profile, std::int64_t id, std::string_view op) {
  Context c;
  c.profile = profile;
  c.op = op;
  c.replay = op == "replay";
  const PolicyParameters p = policy_parameters(d, c);
  ordered_json request = ordered_json::object();
  request["id"] = id;
  request["op"] = op;
  request["policy"] = encode_policy(d, p);
  const auto within_reference = [&](std::int64_t attempt) {
    return profile == Profile::reference ? std::min(attempt, kReferenceMaxAttempt) : attempt;
  };

  if (op == "next_delay") {
    request["attempt"] = within_reference(choose<std::int64_t>(d, kAttempts, c));
    if (d.chance(0.8)) request["message_age"] = wire(choose<double>(d, kAges, c));
    const JitterMember jitter = choose<JitterMember>(d, kJitterMembers, c);
    if (jitter != JitterMember::absent) request["jitter"] = jitter == JitterMember::on;
    if (jitter != JitterMember::off) request["r"] = choose<double>(d, kDraws, c);
  } else if (op == "jittered") {
    request["delay"] = wire(choose<double>(d, kJitteredDelays, c));
    request["r"] = choose<double>(d, kDraws, c);
  } else if (op == "replay") {
    request["seed"] = choose<std::int64_t>(d, kSeeds, c);
    if (const std::optional<std::int64_t> skip =
            choose<std::optional<std::int64_t>>(d, kReplaySkips, c)) {
      request["skip"] = *skip;
    }
    ordered_json calls = ordered_json::array();
    const std::int64_t count = choose<std::int64_t>(d, kReplayLengths, c);
    for (std::int64_t i = 0; i < count; ++i) {
      const std::int64_t attempt = within_reference(choose<std::int64_t>(d, kCallAttempts, c));
      calls.push_back(ordered_json::array({attempt, wire(choose<double>(d, kCallAges, c))}));
    }
    request["calls"] = std::move(calls);
  }
  return request;
}

// ---- Malformed lines ------------------------------------------------------

// A valid request's line, broken so that it is no JSON object within the
// protocol's limits (conformance/README.md, Requests). Sent in turn, not by
// weight, so that a run of 5000 cases (about 87 malformed lines, 30 kinds)
// sends every kind two or three times, and its report can say so for each.
struct Malformation {
  std::string_view name;
  // `round`: how many lines of this kind were sent before; a kind's
  // variants go in turn by it, so a run's two or three send different ones.
  std::string (*make)(Dice&, const std::string& valid, std::size_t round);
};

// The valid line with its id (the first member, a number) written as
// `raw`: a bad string there is the line's only fault, so a port that misses
// it answers the request instead of refusing the line. (In an unknown
// member it would be refused for the member anyway.)
std::string with_raw_id(const std::string& valid, std::string_view raw) {
  const std::size_t start = valid.find(':') + 1;
  const std::size_t end = valid.find(',', start);
  return valid.substr(0, start) + std::string(raw) + valid.substr(end);
}

// The line up to the raw id's end (the first comma after it; the id holds
// none), so that it ends where the id does.
std::string cut_after_raw_id(const std::string& line) { return line.substr(0, line.find(',', 5)); }

// A line of exactly `bytes` bytes: the valid line with spaces (JSON
// whitespace) after its opening brace, so that only its length can make it
// an error.
std::string padded_to(const std::string& valid, std::size_t bytes) {
  std::string line = valid;
  if (line.size() < bytes) line.insert(1, bytes - line.size(), ' ');
  return line;
}

// `number` as an id alone, or inside an array or an object, where a check
// of the top level alone misses it.
std::string beyond_binary64(std::size_t round, const std::string& number) {
  static constexpr std::string_view kWhere[] = {"", "[1, ", "{\"a\": 1, \"b\": "};
  static constexpr std::string_view kEnd[] = {"", "]", "}"};
  const std::size_t where = round % std::size(kWhere);
  std::string id(kWhere[where]);
  id += number;
  id += kEnd[where];
  return id;
}

const Malformation kMalformations[] = {
    {"truncated",
     [](Dice& d, const std::string& v, std::size_t) {
       return v.substr(
           0, static_cast<std::size_t>(d.between(0, static_cast<std::int64_t>(v.size()) - 1)));
     }},
    {"text after the value", [](Dice&, const std::string& v, std::size_t) { return v + " x"; }},
    {"two values", [](Dice&, const std::string& v, std::size_t) { return v + v; }},
    {"an array, not an object",
     [](Dice&, const std::string& v, std::size_t) { return "[" + v + "]"; }},
    {"empty", [](Dice&, const std::string&, std::size_t) { return std::string(); }},
    {"only whitespace",
     [](Dice&, const std::string&, std::size_t) { return std::string("   \t "); }},
    {"a byte-order mark",
     [](Dice&, const std::string& v, std::size_t) { return "\xEF\xBB\xBF" + v; }},
    // The request object is one level: an id nested 32 deep makes 33, one
    // past the protocol's 32 (the id form "nested 32 deep in all" is the
    // deepest answered); 40 deep is well past it.
    {"nested 33 deep, or 41",
     [](Dice& d, const std::string& v, std::size_t round) {
       // After a string with escapes, sometimes: a depth counter that
       // misreads them leaves the string late and misses the brackets.
       // After 40 sibling arrays, sometimes: a counter that closes a level
       // twice, or not at all, is off by then.
       if (round % 3 == 0) {
         std::string id = "[";
         for (int i = 0; i < 40; ++i) id += "[], {}, ";
         id.append(31, '[');
         id.append(31, ']');
         return with_raw_id(v, id + "]");
       }
       if (round % 3 == 1) {
         std::string id = R"(["\"\\", )";
         id.append(31, '[');
         id.append(31, ']');
         return with_raw_id(v, id + "]");
       }
       const std::size_t depth = d.chance(0.5) ? 32 : 40;
       return with_raw_id(v, std::string(depth, '[') + std::string(depth, ']'));
     }},
    {"invalid UTF-8",
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, "\"\xFF\xFE\""); }},
    // Lone surrogates in the id, each where a scanner that pairs them
    // carelessly would pass it; a row each, so that every run sends each.
    {"a lone high surrogate",
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("\ud800")"); }},
    {"a lone high surrogate, last in its string",
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("a\udbff")"); }},
    {"a high surrogate before a plain character",
     [](Dice&, const std::string& v, std::size_t round) {
       return with_raw_id(v, round % 2 == 0 ? R"("\ud800x")" : R"("\ud800xudc00")");
     }},
    {"a high surrogate before an escape that is no low half",
     [](Dice&, const std::string& v, std::size_t round) {
       return with_raw_id(v, round % 2 == 0 ? R"("\udbff\ue000")" : R"("\ud800\u0041")");
     }},
    {"a high surrogate before another high one, then a low half",
     [](Dice&, const std::string& v, std::size_t) {
       return with_raw_id(v, R"("\ud83d\ud83d\ude00")");
     }},
    // 0xDBFF is one below the low halves: a scanner whose range starts
    // there takes this pair for a whole one.
    {"a high surrogate before the last high one, \\udbff",
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("\ud800\udbff")"); }},
    {"a lone high surrogate right after another escape",
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("\u00e9\ud800")"); }},
    // A line that ends inside an escape: a scanner that reads past the
    // line's end crashes on it. A row for the backslash that is the last
    // byte, where a scanner looks one byte ahead for the escape's letter.
    {"ends right after a backslash in a string",
     [](Dice&, const std::string& v, std::size_t round) {
       static constexpr std::string_view kEnds[] = {R"("x\)", R"("\\\)"};
       return cut_after_raw_id(with_raw_id(v, kEnds[round % std::size(kEnds)]));
     }},
    {"ends in a \\u escape, or right after one",
     [](Dice&, const std::string& v, std::size_t round) {
       static constexpr std::string_view kEnds[] = {R"("\ud800\)", R"("\ud800)", R"("\ud800\u)",
                                                    R"("\u00)"};
       return cut_after_raw_id(with_raw_id(v, kEnds[round % std::size(kEnds)]));
     }},
    {"a lone low surrogate right after a pair",
     [](Dice&, const std::string& v, std::size_t) {
       return with_raw_id(v, R"("\ud83d\ude00\udc00")");
     }},
    {"a lone low surrogate, the last of the range",
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("x\udfff y")"); }},
    {"a lone surrogate inside an array or an object's key",
     [](Dice&, const std::string& v, std::size_t round) {
       return with_raw_id(v, round % 2 == 0 ? R"([1, ["ok", "\ud800"]])" : R"({"\udc00": 1})");
     }},
    {"a control character in a string",
     [](Dice&, const std::string& v, std::size_t round) {
       static constexpr std::string_view kRaw[] = {"\"tab\there\"", "\"\x01\"",
                                                   "\"vertical\x0btab\"", "\"\x1f\""};
       return with_raw_id(v, kRaw[round % std::size(kRaw)]);
     }},
    {"a bare NaN",
     [](Dice&, const std::string& v, std::size_t round) {
       return with_raw_id(v, round % 2 == 0 ? "NaN" : "-Infinity");
     }},
    // A float, or an integer of 400 digits, which a reader of integers may
    // keep exact where the protocol calls it malformed.
    {"a float beyond binary64",
     [](Dice&, const std::string& v, std::size_t round) {
       return with_raw_id(v, beyond_binary64(round, "1e400"));
     }},
    // An integer too, which a reader of integers may keep exact where the
    // protocol calls it malformed.
    {"an integer beyond binary64",
     [](Dice&, const std::string& v, std::size_t round) {
       std::string number = "1";
       number.append(400, '0');
       return with_raw_id(v, beyond_binary64(round, number));
     }},
    // One byte past the limit, or two buffers past it: a reader whose buffer
    // is a byte short or long answers the first, or refuses a line it must
    // answer (the layout "padded to exactly 1 MiB"); the second is dropped
    // over more than one read.
    {"one byte longer than 1 MiB",
     [](Dice&, const std::string& v, std::size_t) { return padded_to(v, kMaxLineBytes + 1); }},
    {"3 MiB long",
     [](Dice&, const std::string& v, std::size_t) { return padded_to(v, 3 * kMaxLineBytes); }},
    // A NUL is not JSON, but a JSON reader may take it for the end of its
    // input and answer the bytes before it, as this kit's once did.
    {"a NUL byte after the object",
     [](Dice&, const std::string& v,
        std::size_t) { return v + std::string(1, '\0') + "{\"garbage"; }},
    {"a NUL byte in a string",
     [](Dice&, const std::string& v,
        std::size_t) { return with_raw_id(v, "\"a" + std::string(1, '\0') + "b\""); }},
    {"a lone low surrogate, then another",
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("\udc00\udc00")"); }},
};

// ---- Invalid requests -----------------------------------------------------

// Each row breaks one rule of the protocol (conformance/README.md, Errors)
// in a request of its op made to be valid, so both sides must answer with an
// error; `op` is the op the row needs, or any. (A far attempt the generator
// chose can make the request an error already, at the cost limit.)
constexpr std::string_view kAnyOp = "any";

// Which variant of its rule an invalid case sends. A rule's discrete
// choices (which bad value, which member) are the digits of the variant's
// number, so a probe counts them, and the rules' variants are sent in turn:
// which ones a run reaches depends on the case count only, never on the
// seed or on the other rules. Continuous values (a negative delay's size)
// are still drawn.
class Variant {
 public:
  explicit Variant(std::size_t number) : rest_(number) {}

  template <typename T, std::size_t N>
  const T& one_of(const T (&values)[N]) {
    return values[digit(N)];
  }
  bool either() { return digit(2) == 1; }
  // How many variants the choices made so far make: their product.
  std::size_t count() const { return count_; }

 private:
  std::size_t digit(std::size_t n) {
    count_ *= n;
    const std::size_t k = rest_ % n;
    rest_ /= n;
    return k;
  }
  std::size_t rest_;
  std::size_t count_ = 1;
};

struct InvalidRule {
  std::string_view rule;
  std::string_view op;
  void (*make)(Dice&, Variant&, ordered_json& request);
};

const ordered_json kNaN = "NaN";

// 2^63 and 2^64 - 1: integers one past int64 and at the end of uint64.
constexpr std::uint64_t kPastInt64[] = {std::uint64_t{1} << 63,
                                        std::numeric_limits<std::uint64_t>::max()};

const InvalidRule kInvalidRules[] = {
    // The policy.
    {"policy.max_attempts below 1", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       r["policy"] = {{"max_attempts", v.either() ? 0 : -3}};
     }},
    {"policy.max_attempts written with a fraction", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       r["policy"] = {{"max_attempts", v.either() ? 2.5 : 5.0}};
     }},
    {"policy.max_attempts past int64", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       r["policy"] = {{"max_attempts", v.one_of(kPastInt64)}};
     }},
    {"policy.max_attempts not a number", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {"5", true, nullptr};
       r["policy"] = {{"max_attempts", v.one_of(kBad)}};
     }},
    {"policy.initial_delay negative", kAnyOp,
     [](Dice& d, Variant&, ordered_json& r) {
       r["policy"] = {{"initial_delay", -d.with_exponent(-10, 3)}};
     }},
    {"policy.multiplier NaN", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"max_attempts", 3}, {"multiplier", kNaN}};
     }},
    {"policy.max_delay infinite", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"max_attempts", 3}, {"max_delay", "Infinity"}};
     }},
    {"policy.jitter_factor above 1", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"jitter_factor", next_up(1.0)}};
     }},
    // Below 0 too: a range test that starts lower than 0 passes it.
    {"policy.jitter_factor below 0", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"jitter_factor", -0.25}};
     }},
    {"policy.max_message_age negative", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"max_message_age", -1.0}};
     }},
    {"policy field null", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"max_attempts", 3}, {"initial_delay", nullptr}};
     }},
    {"policy.give_up_after negative or NaN", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {-1.0, kNaN, "soon", nullptr};
       r["policy"]["give_up_after"] = v.one_of(kBad);
     }},
    {"policy.with_jitter outside [0, 1]", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {1.5, -0.25, "half", nullptr};
       r["policy"]["with_jitter"] = v.one_of(kBad);
     }},
    {"the base policy is validated before its copies", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"max_attempts", 3}, {"jitter_factor", 1.5}, {"with_jitter", 0.5}};
     }},
    {"policy field misspelt", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) { r["policy"]["max_atempts"] = 3; }},
    {"policy.factory unknown or null", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       r["policy"] = {{"factory", v.either() ? ordered_json("linear") : ordered_json(nullptr)}};
     }},
    {"factory fixed without its delay", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"factory", "fixed"}, {"max_attempts", 3}};
     }},
    {"a factory's field out of range", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {
           {{"factory", "fixed"}, {"max_attempts", 3}, {"delay", -1.0}},
           {{"factory", "fixed"}, {"max_attempts", 0}, {"delay", 1.0}},
           {{"factory", "fixed"}, {"max_attempts", 3}, {"delay", "Infinity"}},
           {{"factory", "exponential"}, {"max_attempts", 3}, {"initial_delay", -0.5}},
           {{"factory", "exponential"},
            {"max_attempts", 3},
            {"initial_delay", 1.0},
            {"max_delay", "NaN"}},
           {{"factory", "exponential"}, {"max_attempts", -1}, {"initial_delay", 1.0}},
       };
       r["policy"] = v.one_of(kBad);
     }},
    {"a factory's field not a number", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {
           {{"factory", "fixed"}, {"max_attempts", 3}, {"delay", "soon"}},
           {{"factory", "exponential"}, {"max_attempts", 3}, {"initial_delay", nullptr}},
           {{"factory", "exponential"},
            {"max_attempts", 3},
            {"initial_delay", 1.0},
            {"max_delay", "none"}},
       };
       r["policy"] = v.one_of(kBad);
     }},
    // Each factory takes its own members only: another's is refused, not
    // ignored, or the policy would silently differ from the one written.
    {"a factory given another shape's member", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {
           {{"factory", "exponential"},
            {"max_attempts", 3},
            {"initial_delay", 1.0},
            {"multiplier", 3.0}},
           {{"factory", "exponential"},
            {"max_attempts", 3},
            {"initial_delay", 1.0},
            {"delay", 1.0}},
           {{"factory", "fixed"}, {"max_attempts", 3}, {"delay", 1.0}, {"max_delay", 2.0}},
       };
       r["policy"] = v.one_of(kBad);
     }},
    {"factory none with max_attempts", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"factory", "none"}, {"max_attempts", 3}};
     }},
    {"policy not an object", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {ordered_json::array(), "exponential", 7};
       if (v.either()) r.erase("id");  // an absent id is answered as null
       r["policy"] = v.one_of(kBad);
     }},
    // The request.
    {"op unknown", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {"sched", 1, nullptr};
       r["op"] = v.one_of(kBad);
     }},
    {"op missing", kAnyOp, [](Dice&, Variant&, ordered_json& r) { r.erase("op"); }},
    {"policy missing", kAnyOp, [](Dice&, Variant&, ordered_json& r) { r.erase("policy"); }},
    {"unknown top-level member", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       static constexpr const char* kMisspelt[] = {"messageAge", "Policy", "jiter", "comment",
                                                   "expected"};
       r[v.one_of(kMisspelt)] = 1;
     }},
    {"a member of another op", "schedule",
     [](Dice&, Variant&, ordered_json& r) { r["attempt"] = 1; }},
    {"a member of another op", "jittered",
     [](Dice&, Variant&, ordered_json& r) { r["message_age"] = 0.0; }},
    {"a member of another op", "replay", [](Dice&, Variant&, ordered_json& r) { r["r"] = 0.5; }},
    // next_delay.
    {"attempt below 1", "next_delay",
     [](Dice&, Variant& v, ordered_json& r) { r["attempt"] = v.either() ? 0 : -1; }},
    {"attempt checked before the give-up test", "next_delay",
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"max_attempts", 1}};
       r["attempt"] = 0;
     }},
    {"attempt not an integer", "next_delay",
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {1.5, 2.0, "1", nullptr};
       r["attempt"] = v.one_of(kBad);
     }},
    {"attempt past int64", "next_delay",
     [](Dice&, Variant& v, ordered_json& r) { r["attempt"] = v.one_of(kPastInt64); }},
    {"a required member missing", "next_delay",
     [](Dice&, Variant&, ordered_json& r) { r.erase("attempt"); }},
    {"a required member missing", "jittered",
     [](Dice&, Variant& v, ordered_json& r) { r.erase(v.either() ? "delay" : "r"); }},
    {"a required member missing", "replay",
     [](Dice&, Variant& v, ordered_json& r) { r.erase(v.either() ? "seed" : "calls"); }},
    {"message_age not a number", "next_delay",
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {nullptr, "old", true, ordered_json::array({1.0})};
       r["message_age"] = v.one_of(kBad);
     }},
    {"message_age NaN", "next_delay",
     [](Dice&, Variant&, ordered_json& r) {
       r["message_age"] = kNaN;
       r["jitter"] = false;
     }},
    {"jitter not a boolean", "next_delay",
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {"yes", 1, nullptr};
       r["jitter"] = v.one_of(kBad);
       r["r"] = 0.5;
     }},
    {"r outside [0, 1) or not a number", "next_delay",
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {1.0, -5e-324, "NaN", 1.5, nullptr};
       r.erase("jitter");
       r["r"] = v.one_of(kBad);
     }},
    // Out of range even where no jitter applies: a port that checks r only
    // when it draws answers these.
    {"r outside [0, 1) where no jitter applies", "next_delay",
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {-5e-324, -0.5, 1.0};
       r["policy"] = {{"max_attempts", 5}, {"initial_delay", v.either() ? 0.0 : 1.0}};
       r["attempt"] = 2;
       r.erase("jitter");
       r["r"] = v.one_of(kBad);
     }},
    {"r missing where jitter is on", "next_delay",
     [](Dice&, Variant& v, ordered_json& r) {
       if (v.either()) {
         r.erase("jitter");
       } else {
         r["jitter"] = true;
       }
       r.erase("r");
     }},
    {"next_delay past the cost limit", "next_delay",
     [](Dice&, Variant& v, ordered_json& r) {
       // No cap and a multiplier that creeps: the running value does not
       // settle, so an attempt past 2^20 + 1 is beyond the cost limit.
       r["policy"] = {
           {"max_attempts", kInt64Max},
           {"initial_delay", 1.0},
           {"multiplier", v.either() ? edges::kCreepingMultiplier : edges::kOneUlpAboveOne}};
       r["attempt"] = v.either() ? kMaxStepsAnswered + 1 : std::int64_t{1} << 40;
       r["jitter"] = false;
     }},
    // jittered.
    {"delay NaN or not a number", "jittered",
     [](Dice&, Variant& v, ordered_json& r) {
       r["delay"] = v.either() ? kNaN : ordered_json("x");
     }},
    {"jittered's r outside [0, 1) or null", "jittered",
     [](Dice&, Variant& v, ordered_json& r) {
       r["r"] = v.either() ? ordered_json(1.0) : ordered_json(nullptr);
     }},
    // replay.
    {"seed outside [0, 2^32 - 1] or not an integer", "replay",
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {-1, 4294967296, 1.5, "42", nullptr};
       r["seed"] = v.one_of(kBad);
     }},
    {"a replay call not two elements", "replay",
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {ordered_json::array({1}), ordered_json::array({1, 0, 0}),
                                           "x", ordered_json::object({{"attempt", 1}})};
       r["calls"].push_back(v.one_of(kBad));
     }},
    {"calls not an array", "replay",
     [](Dice&, Variant&, ordered_json& r) { r["calls"] = ordered_json::object(); }},
    // A bad age is refused by two different checks: a number that is NaN by
    // the contract's rule, anything else by the protocol's; a row each.
    {"a replay call with a bad attempt, or age NaN", "replay",
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {ordered_json::array({1.5, 0}),
                                           ordered_json::array({0, 0}),
                                           ordered_json::array({1, "NaN"})};
       r["calls"].push_back(v.one_of(kBad));
     }},
    {"a replay call with an age not a number", "replay",
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {ordered_json::array({1, "old"}),
                                           ordered_json::array({1, nullptr})};
       r["calls"].push_back(v.one_of(kBad));
     }},
    {"skip outside [0, 2^16] or not an integer", "replay",
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {-1, kMaxReplaySkip + 1, 2.0, "0", nullptr, true};
       r["skip"] = v.one_of(kBad);
     }},
    {"a replay of 257 calls", "replay",
     [](Dice&, Variant&, ordered_json& r) {
       ordered_json calls = ordered_json::array();
       for (std::size_t i = 0; i <= kMaxReplayCalls; ++i)
         calls.push_back(ordered_json::array({1, 0}));
       r["calls"] = std::move(calls);
     }},
    // schedule.
    {"a schedule longer than 65,536 entries", "schedule",
     [](Dice&, Variant& v, ordered_json& r) {
       r["policy"] = {
           {"max_attempts", v.either() ? kMaxScheduleEntries + 2 : std::int64_t{1} << 40}};
     }},
};

constexpr std::string_view kOpNames[] = {"schedule", "next_delay", "jittered", "replay"};

// What a case is: valid, or (full profile only) invalid or malformed. About
// one request in ten breaks a rule.
enum class Sort { valid, invalid, malformed };
bool in_full(const Context& c) { return c.profile == Profile::full; }
constexpr Choice<Sort> kSorts[] = {
    {"valid", 90, [](Dice&, const Context&) { return Sort::valid; }},
    {"invalid: breaks one rule", 8.5, [](Dice&, const Context&) { return Sort::invalid; }, in_full},
    {"malformed: no JSON object", 1.5, [](Dice&, const Context&) { return Sort::malformed; },
     in_full},
};

// A valid request's id, as the JSON text the line holds: a number mostly;
// sometimes any other JSON value, which the answer must echo as the same
// value (check compares ids as values), written as ASCII. The escapes are
// where a port's own string scanner (for lone surrogates, for nesting) can
// slip: an escaped pair, an escaped backslash before "u", brackets and
// quotes inside a string.
struct IdForm {
  std::string_view name;
  double weight;
  std::string (*make)(std::int64_t id);
};
const IdForm kIdForms[] = {
    {"a whole number", 92, [](std::int64_t id) { return std::to_string(id); }},
    {"non-ASCII text", 2,
     [](std::int64_t id) {
       return ordered_json("r\u00e9essai \u2713 " + std::to_string(id)).dump();
     }},
    {"escaped text: BMP, a surrogate pair", 1,
     [](std::int64_t id) {
       return R"("r\u00e9essai \u2713 \ud83d\ude00 )" + std::to_string(id) + "\"";
     }},
    // The first and last pairs, and the neighbours of the surrogate range.
    {"escaped text: surrogates at the edges of their range", 0.5,
     [](std::int64_t id) {
       return R"("\ud800\udc00\udbff\udfff\ud7ff\ue000\uffff )" + std::to_string(id) + "\"";
     }},
    {"brackets, quotes, backslashes and control escapes in a string", 1.5,
     [](std::int64_t id) {
       return R"("\\ud800 [{\"id\": \\ud800 \\\" \u0001\u001f\u007f\t\/ )" + std::to_string(id) +
              "}]\"";
     }},
    {"an array and an object, nested", 1,
     [](std::int64_t id) {
       std::string text = "[";
       text += std::to_string(id);
       text += R"(, {"b": [true, false, null], "a": "x", "c": {}}, [], -0.5, 1e5])";
       return text;
     }},
    {"80 sibling arrays and objects, nested 3 deep: more brackets than the depth limit", 0.5,
     [](std::int64_t id) {
       std::string text = "[";
       for (int i = 0; i < 40; ++i) text += "{\"a\": []}, ";
       text += std::to_string(id);
       return text + "]";
     }},
    {"nested 32 deep in all: the deepest answered", 0.3,
     [](std::int64_t id) {
       std::string text(31, '[');
       text += std::to_string(id);
       text.append(31, ']');
       return text;
     }},
    // Brackets inside strings are no nesting: 40 of them, after an escaped
    // quote and after an escaped backslash, where a depth counter that
    // misreads an escape leaves the string early and counts them.
    {"40 brackets inside strings, after escapes", 0.5,
     [](std::int64_t id) {
       return R"(["a\\", "\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", ")" + std::to_string(id) +
              R"(\\", "{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{"])";
     }},
    {"true or false", 0.5,
     [](std::int64_t id) { return std::string(id % 2 == 0 ? "true" : "false"); }},
    {"a number with a fraction or an exponent", 0.5,
     [](std::int64_t id) { return std::to_string(id) + ".5e1"; }},
    {"null", 1, [](std::int64_t) { return std::string("null"); }},
};

// Numeric ids a port mangles when its JSON reader holds a number as a
// binary64 double (JavaScript's JSON.parse, a Python float(id)) or as an
// int64, each with what it catches; check compares them by value
// (same_id, conformance/README.md, Requests). Sent in turn, not by weight:
// a drawn id is a case number, nowhere near 2^53. Every kNumericIdEvery-th
// valid case takes the next row's text instead of its drawn id, after the
// draw, so every other case's dice are as they were.
struct NumericId {
  std::string_view name;
  std::string_view text;
  std::string_view why;
};
const NumericId kNumericIds[] = {
    {"2^53", "9007199254740992",
     "the top of the integers every double holds: exact through a double, where 2^53 + 1 is not"},
    {"2^53 + 1", "9007199254740993",
     "the least positive integer no double holds: a double makes it 9007199254740992"},
    {"2^53 - 1", "9007199254740991",
     "JavaScript's Number.MAX_SAFE_INTEGER: exact through a double, where 2^53 + 1 is not"},
    {"2^54 + 1", "18014398509481985",
     "odd where doubles are 4 apart: a double makes it 18014398509481984"},
    {"int64 max", "9223372036854775807",
     "2^63 - 1: a double makes it 2^63, one past int64, written 9223372036854775808 or "
     "9.223372036854776e18"},
    {"int64 min", "-9223372036854775808",
     "-2^63: a reader that reads 2^63 and then negates it overflows int64"},
    {"int64 max + 1", "9223372036854775808",
     "2^63, beyond int64, so compared as a double: an int64 reader overflows or refuses it"},
    {"2^64", "18446744073709551616",
     "beyond uint64 too: a reader that falls back to uint64 wraps it to 0"},
    {"30 digits", "123456789012345678901234567890",
     "beyond every integer type: compared as the double nearest it, 1.2345678901234568e+29"},
    {"a fraction", "1.5", "an integer reader truncates it to 1"},
    {"an exponent", "1e5",
     "an integral double with an exponent: 100000.0 (Python) or 1e+05 (this port), one value"},
    {"a capital E and a plus sign", "1E+300",
     "as JSON allows: a scanner that knows only e stops at the E, and single precision "
     "overflows to infinity"},
    {"a negative exponent", "2.5e-3", "0.0025, a fraction written with an exponent"},
    {"the integer zero, written -0", "-0",
     "the integer zero: serve echoes 0, and -0, 0 and -0.0 are one id"},
    {"negative zero", "-0.0",
     "a double equal to 0 by value: echoed as -0.0, 0.0, 0 or -0, it is the same id"},
    {"a decimal no double holds", "0.1",
     "a port that holds ids in single precision echoes 0.10000000149011612"},
    {"the least subnormal", "5e-324", "2^-1074: a reader that flushes subnormals echoes 0"},
};

// 37 valid cases apart, the 17 rows come round every 629 valid cases, about
// 700 cases (9 in 10 are valid): a run of 5000 sends each row about 7
// times, and any 2000 cases (about 1800 valid, 48 of them numeric ids) send
// each at least twice.
constexpr std::size_t kNumericIdEvery = 37;

// A valid request's layout: compact mostly; sometimes with CRs, which are
// JSON whitespace, not line ends (a reader that splits on CR answers one
// request twice and falls out of step).
struct Layout {
  std::string_view name;
  double weight;
  std::string (*apply)(const std::string& line);
  bool full_only = false;
};

// The line with every number outside a string that is written as an
// integral double ("7.0", "-0.0") written as an integer ("7", "-0"), but
// for the id, the line's first member: it is echoed, not read, and
// kNumericIds sends -0.0 and -0 as rows of their own.
std::string integral_as_integers(const std::string& line) {
  std::string out;
  bool in_string = false;
  bool escaped = false;
  int depth = 0;
  bool past_id = false;  // at the id's end, the first comma inside the line's own object
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    out.push_back(ch);
    if (in_string) {
      escaped = !escaped && ch == '\\';
      if (!escaped && ch == '"') in_string = false;
      continue;
    }
    if (ch == '"') in_string = true;
    if (ch == '{' || ch == '[') ++depth;
    if (ch == '}' || ch == ']') --depth;
    if (ch == ',' && depth == 1) past_id = true;
    if (!past_id || (ch != ':' && ch != ',' && ch != '[')) continue;
    std::size_t end = i + 1;
    if (end < line.size() && line[end] == '-') ++end;
    while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end])) != 0) ++end;
    if (end > i + 1 && line.compare(end, 2, ".0") == 0 && end + 2 < line.size() &&
        (line[end + 2] == ',' || line[end + 2] == '}' || line[end + 2] == ']')) {
      out.append(line, i + 1, end - i - 1);
      i = end + 1;
    }
  }
  return out;
}

const Layout kLayouts[] = {
    {"compact", 94, [](const std::string& line) { return line; }},
    {"a CR before the line's end", 2, [](const std::string& line) { return line + "\r"; }},
    {"a CR and spaces inside the object", 2,
     [](const std::string& line) { return std::string(line).insert(1, " \r\t "); }},
    // An integer literal is a number too, and -0 is the integer zero, +0.0
    // (conformance/README.md). The reference profile keeps doubles: Ruby
    // would do integer arithmetic on integers.
    {"integral numbers as integers: 7.0 as 7, -0.0 as -0 (which is +0.0)", 2, integral_as_integers,
     true},
    {"padded with spaces to exactly 1 MiB: the longest line answered", 0.1,
     [](const std::string& line) { return padded_to(line, kMaxLineBytes); }},
};

GeneratedCase generated(std::string line, CaseKind kind, std::string_view op,
                        std::string_view rule) {
  ParsedLine parsed = parse_request(line);
  return {std::move(line), std::move(parsed), kind, op, rule};
}

GeneratedCase malformed_line(Dice& d, Profile profile, std::int64_t id, std::size_t turn) {
  const std::string valid = to_line(valid_request(d, profile, id, "schedule"));
  const Malformation& m = kMalformations[turn % std::size(kMalformations)];
  return generated(m.make(d, valid, turn / std::size(kMalformations)), CaseKind::malformed, {},
                   m.name);
}

// Each row of kInvalidRules: how many variants it has, counted by a probe,
// and where they start among the variants of the rules of its name.
struct VariantCount {
  std::size_t variants;
  std::size_t first_of_name;
};
const std::vector<VariantCount>& variant_counts() {
  static const std::vector<VariantCount> counts = [] {
    std::vector<VariantCount> out;
    std::mt19937_64 engine(0);
    Dice d(engine);
    for (const InvalidRule& rule : kInvalidRules) {
      const std::string_view op = rule.op == kAnyOp ? kOpNames[0] : rule.op;
      ordered_json request = valid_request(d, Profile::full, 0, op);
      Variant probe(0);
      rule.make(d, probe, request);
      std::size_t first = 0;
      for (std::size_t i = 0; i < out.size(); ++i) {
        if (kInvalidRules[i].rule == rule.rule) first += out[i].variants;
      }
      out.push_back({probe.count(), first});
    }
    return out;
  }();
  return counts;
}

std::size_t invalid_variant_total() {
  std::size_t total = 0;
  for (const VariantCount& count : variant_counts()) total += count.variants;
  return total;
}

// The turn-th invalid case sends the turn-th variant of all the rules'
// variants, laid end to end in the table's order.
GeneratedCase invalid_case(Dice& d, Profile profile, std::int64_t id, std::size_t turn) {
  const std::vector<VariantCount>& counts = variant_counts();
  std::size_t k = turn % invalid_variant_total();
  std::size_t row = 0;
  while (k >= counts[row].variants) k -= counts[row++].variants;
  const InvalidRule& rule = kInvalidRules[row];
  const std::string_view op = rule.op == kAnyOp ? d.one_of(kOpNames) : rule.op;
  ordered_json request = valid_request(d, profile, id, op);
  Variant variant(k);
  rule.make(d, variant, request);
  GeneratedCase invalid = generated(to_line(request), CaseKind::invalid, op, rule.rule);
  invalid.variant = counts[row].first_of_name + k;
  return invalid;
}

}  // namespace

std::string_view GeneratedCase::tally_name() const {
  switch (kind) {
    case CaseKind::valid: return op;
    case CaseKind::invalid: return "invalid";
    case CaseKind::malformed: return "malformed line";
  }
  return op;
}

std::vector<std::string_view> malformation_names() {
  std::vector<std::string_view> names;
  for (const Malformation& m : kMalformations) names.push_back(m.name);
  return names;
}

std::vector<NumericIdRow> numeric_id_rows() {
  std::vector<NumericIdRow> rows;
  for (const NumericId& row : kNumericIds) rows.push_back({row.name, row.text});
  return rows;
}

std::vector<InvalidRuleRow> invalid_rules() {
  std::vector<InvalidRuleRow> rows;
  for (std::size_t i = 0; i < std::size(kInvalidRules); ++i) {
    const std::string_view name = kInvalidRules[i].rule;
    const auto same = [&](const InvalidRuleRow& row) { return row.name == name; };
    auto it = std::find_if(rows.begin(), rows.end(), same);
    if (it == rows.end()) it = rows.insert(rows.end(), {name, 0});
    it->variants += variant_counts()[i].variants;
  }
  return rows;
}

std::size_t invalid_variant_count() { return invalid_variant_total(); }

bool reference_agrees(const Request& request) {
  if (!respond(request).ok) return false;
  // Far attempts: the reference walks every step, so 10^9 takes it minutes.
  if (const auto* replay = std::get_if<ReplayCall>(&request.op)) {
    return std::none_of(replay->calls.begin(), replay->calls.end(),
                        [](const ReplayCall::Call& c) { return c.attempt > kReferenceMaxAttempt; });
  }
  // The one documented deviation on valid input: +Infinity jittered by a
  // factor that rounds to 0 is +Infinity here, NaN (or ArgumentError) in
  // Ruby. That needs jitter_factor 1 and r <= 2^-55 (then r * 2 - 1 rounds
  // to -1), not only r = 0: Ruby's own draws are multiples of 2^-53, but an
  // injected r need not be.
  const double factor = make_policy(request.policy).jitter_factor();
  if (const auto* call = std::get_if<JitteredCall>(&request.op)) {
    return model::jitter_scale(factor, call->r) != 0.0 || call->delay != HUGE_VAL;
  }
  if (const auto* call = std::get_if<NextDelayCall>(&request.op)) {
    if (call->attempt > kReferenceMaxAttempt) return false;
    if (!call->jitter || model::jitter_scale(factor, call->r) != 0.0) return true;
    Request unjittered = request;
    std::get<NextDelayCall>(unjittered.op).jitter = false;
    const Answer entry = respond(unjittered);
    return !(entry.items.at(0) && *entry.items.at(0) == HUGE_VAL);
  }
  return true;
}

CaseGenerator::CaseGenerator(std::uint64_t seed, Profile profile)
    : engine_(seed), profile_(profile) {}

GeneratedCase CaseGenerator::next(std::int64_t id) {
  Dice d(engine_);
  Context c;
  c.profile = profile_;
  const bool far = profile_ == Profile::full && ++cases_ % kFarCallEvery == 0;
  if (!far) {
    switch (choose<Sort>(d, kSorts, c)) {
      case Sort::invalid: return invalid_case(d, profile_, id, invalid_++);
      case Sort::malformed: return malformed_line(d, profile_, id, malformed_++);
      case Sort::valid: break;
    }
  }
  ++valid_;
  const NumericId* numeric =
      valid_ % kNumericIdEvery == 0
          ? &kNumericIds[(valid_ / kNumericIdEvery - 1) % std::size(kNumericIds)]
          : nullptr;
  for (;;) {
    const std::string_view op = far ? "next_delay" : choose<std::string_view>(d, kOps, c);
    ordered_json request =
        far ? far_call_request(d, id, far_calls_++) : valid_request(d, profile_, id, op);
    std::string id_text = weighted<IdForm>(d, kIdForms).make(id);
    if (numeric != nullptr) id_text = numeric->text;
    const Layout& layout = weighted<Layout>(
        d, std::span<const Layout>(kLayouts),
        [&](const Layout& l) { return !l.full_only || profile_ == Profile::full; });
    GeneratedCase valid =
        generated(layout.apply(with_raw_id(to_line(request), id_text)), CaseKind::valid, op, {});
    if (numeric != nullptr) valid.numeric_id = numeric->name;
    if (profile_ == Profile::full) return valid;
    // A valid request's line is always a Request: only the core can refuse it.
    if (reference_agrees(std::get<Request>(valid.parsed))) return valid;
  }
}

}  // namespace acemq::conformance
