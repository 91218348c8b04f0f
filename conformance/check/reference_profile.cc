#include "conformance/check/reference_profile.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

#include "acemq/model/contract.hpp"
#include "conformance/protocol/answer.hpp"
#include "conformance/protocol/policy_spec.hpp"
#include "conformance/protocol/respond.hpp"

namespace acemq::conformance {

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

}  // namespace acemq::conformance
