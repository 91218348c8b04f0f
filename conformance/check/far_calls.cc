#include "conformance/check/far_calls.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

#include "acemq/amqp/retry_policy.hpp"
#include "acemq/model/contract.hpp"
#include "acemq/model/edge_values.hpp"
#include "conformance/check/choice.hpp"
#include "conformance/check/doubles.hpp"
#include "conformance/check/op_kind.hpp"
#include "conformance/check/policies.hpp"
#include "conformance/check/value_tables.hpp"
#include "conformance/protocol/limits.hpp"

namespace acemq::conformance::generator {
namespace {

using nlohmann::ordered_json;
namespace edges = model::edges;

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
//
// At the exit step 2^20 itself the cap is below 1 and the attempt at least
// 2^40: a port that takes the cap exit only for caps above 1 (a constant
// slipped from 0 to 1) walks on for 2^40 steps there, and hangs, where any
// cap it happens to draw above 1, or an attempt of 10^9, would hide it.
FarCall cap_first_passed_at(Dice& d, std::int64_t exit, bool at_start) {
  const bool small_cap = exit == kCostLimit;
  FarCall call{far_policy(d, small_cap ? d.with_exponent(-10, -2) : d.with_exponent(-10, 12),
                          creeping_up(d))};
  const double before = model::running_value(call.policy, exit);  // r_(K-1)
  call.policy.max_delay =
      amqp::Seconds{at_start ? before : next_down(before * call.policy.multiplier)};
  static constexpr std::int64_t kSlowestFar[] = {std::int64_t{1} << 40, kInt64Max - 1};
  call.attempt = small_cap ? std::min(d.one_of(kSlowestFar), call.policy.max_attempts - 1)
                           : far_attempt(d, call.policy.max_attempts);
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

}  // namespace

ordered_json far_call_request(Dice& d, std::int64_t id, std::size_t turn) {
  const FarCallRow& row = kFarCalls[turn % std::size(kFarCalls)];
  const FarCall call = row.make(d, (turn / std::size(kFarCalls)) % row.variants);
  Context c;
  c.op = OpKind::next_delay;
  PolicyParameters p;
  p.spec.form = Form::constructor;
  p.spec.fields = call.policy;
  ordered_json request = ordered_json::object();
  request["id"] = id;
  request["op"] = op_name(OpKind::next_delay);
  request["policy"] = encode_policy(d, p);
  request["attempt"] = call.attempt;
  request["message_age"] = wire(call.message_age);
  if (d.chance(0.5)) {
    request["jitter"] = false;
  } else {
    request["r"] = choose_draw(d, c);
  }
  return request;
}

}  // namespace acemq::conformance::generator
