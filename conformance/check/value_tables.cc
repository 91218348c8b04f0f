#include "conformance/check/value_tables.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "acemq/model/edge_values.hpp"
#include "conformance/check/doubles.hpp"
#include "conformance/check/op_kind.hpp"
#include "conformance/protocol/limits.hpp"

namespace acemq::conformance::generator {
namespace {

namespace edges = model::edges;

constexpr std::int64_t kSeedMax = kMaxSeed;

bool for_replay(const Context& c) { return c.replay; }
bool for_schedule_in_full(const Context& c) {
  return c.op == OpKind::schedule && c.profile == Profile::full;
}
bool for_calls(const Context& c) { return c.op != OpKind::schedule; }
bool with_age_limit(const Context& c) { return c.age_limit > 0.0; }
bool on_huge_policy(const Context& c) { return c.max_attempts > 100000; }

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

constexpr Choice<JitterMember> kJitterMembers[] = {
    {"absent: true", 3, [](Dice&, const Context&) { return JitterMember::absent; }},
    {"true", 2, [](Dice&, const Context&) { return JitterMember::on; }},
    {"false: no r", 1, [](Dice&, const Context&) { return JitterMember::off; }},
};

}  // namespace

Form choose_form(Dice& d, const Context& c) { return choose<Form>(d, kForms, c); }
std::int64_t choose_max_attempts(Dice& d, const Context& c) {
  return choose<std::int64_t>(d, kMaxAttempts, c);
}
double choose_delay(Dice& d, const Context& c) { return choose<double>(d, kDelays, c); }
double choose_multiplier(Dice& d, const Context& c) { return choose<double>(d, kMultipliers, c); }
double choose_cap(Dice& d, const Context& c) { return choose<double>(d, kCaps, c); }
double choose_jitter_factor(Dice& d, const Context& c) {
  return choose<double>(d, kJitterFactors, c);
}
double choose_age_limit(Dice& d, const Context& c) { return choose<double>(d, kAgeLimits, c); }

std::int64_t choose_attempt(Dice& d, const Context& c) {
  return choose<std::int64_t>(d, kAttempts, c);
}
double choose_message_age(Dice& d, const Context& c) { return choose<double>(d, kAges, c); }
JitterMember choose_jitter_member(Dice& d, const Context& c) {
  return choose<JitterMember>(d, kJitterMembers, c);
}
double choose_draw(Dice& d, const Context& c) { return choose<double>(d, kDraws, c); }

double choose_jittered_delay(Dice& d, const Context& c) {
  return choose<double>(d, kJitteredDelays, c);
}

std::int64_t choose_seed(Dice& d, const Context& c) { return choose<std::int64_t>(d, kSeeds, c); }
std::optional<std::int64_t> choose_skip(Dice& d, const Context& c) {
  return choose<std::optional<std::int64_t>>(d, kReplaySkips, c);
}
std::int64_t choose_replay_length(Dice& d, const Context& c) {
  return choose<std::int64_t>(d, kReplayLengths, c);
}
std::int64_t choose_call_attempt(Dice& d, const Context& c) {
  return choose<std::int64_t>(d, kCallAttempts, c);
}
double choose_call_age(Dice& d, const Context& c) { return choose<double>(d, kCallAges, c); }

}  // namespace acemq::conformance::generator
