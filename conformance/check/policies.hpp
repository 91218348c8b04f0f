// The policy of a generated request: its parameters drawn from the value
// tables, and its `policy` member written in one of the protocol's forms.
//
// policy_parameters draws a policy for the op in the Context and records in
// the Context what later choices read (the initial delay, and the
// max_attempts and age limit the policy ends up with). encode_policy writes
// it from the protocol's table of forms (policy_spec.hpp), drawing which of
// the optional fields are written out.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "conformance/check/choice.hpp"
#include "conformance/check/dice.hpp"
#include "conformance/protocol/policy_spec.hpp"

namespace acemq::conformance::generator {

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

PolicyParameters policy_parameters(Dice& d, Context& c);

// The policy member of a request, written from the protocol's table of
// forms: a factory's required fields always, its optional ones sometimes.
nlohmann::ordered_json encode_policy(Dice& d, const PolicyParameters& p);

}  // namespace acemq::conformance::generator
