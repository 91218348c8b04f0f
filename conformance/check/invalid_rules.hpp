// Invalid requests: each row of kInvalidRules (invalid_rules.cc) breaks one
// rule of the protocol (docs/protocol.md, Errors) in a request of its
// op made to be valid, so both sides must answer with an error.
//
// A rule's discrete choices (which bad value, which member) make its
// variants, counted by a probe, and the rules' variants are sent in turn,
// laid end to end in the table's order: which ones a run reaches depends on
// the count of invalid cases only, never on the seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "conformance/check/dice.hpp"
#include "conformance/check/op_kind.hpp"
#include "conformance/check/reference_profile.hpp"

namespace acemq::conformance::generator {

struct InvalidRequest {
  nlohmann::ordered_json request;
  OpKind op;
  std::string_view rule;
  // Which of the variants of the rules of this name (from 0).
  std::size_t variant = 0;
};

// The turn-th invalid request of a run (from 0).
InvalidRequest invalid_request(Dice& d, Profile profile, std::int64_t id, std::size_t turn);

}  // namespace acemq::conformance::generator
