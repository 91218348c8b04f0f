// A valid request of an op: a policy (policies.hpp) and the op's members,
// each drawn from its value table (value_tables.hpp), as a JSON object
// whose first member is the id, a number.
//
// Valid means the protocol's grammar holds; the core may still refuse it
// (a far attempt at the cost limit, a schedule too long). In the reference
// profile no attempt is above kReferenceMaxAttempt.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "conformance/check/dice.hpp"
#include "conformance/check/op_kind.hpp"
#include "conformance/check/reference_profile.hpp"

namespace acemq::conformance::generator {

nlohmann::ordered_json valid_request(Dice& d, Profile profile, std::int64_t id, OpKind op);

}  // namespace acemq::conformance::generator
