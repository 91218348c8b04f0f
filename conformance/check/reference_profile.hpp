// The two profiles a run sends requests of, and which requests the
// reference profile admits.
//
// The Ruby reference does not validate its input and walks every step of
// its loop, so the reference profile sends only valid requests it answers
// as the core does: reference_agrees is the test, and the case generator
// draws again until a request passes it.
#pragma once

#include <cstdint>

#include "conformance/protocol/request.hpp"

namespace acemq::conformance {

enum class Profile {
  // Everything the protocol defines, invalid input included.
  full,
  // Only valid requests on which the contract and the Ruby reference agree:
  // no errors, none of the documented deviations (conformance/README.md,
  // "Where the Ruby reference and the contract differ"), and attempts of at
  // most kReferenceMaxAttempt, since the reference's loop has no early exit.
  reference,
};

// The reference walks every step of its loop; attempts up to this keep one
// Ruby answer quick.
inline constexpr std::int64_t kReferenceMaxAttempt = 5000;

// Whether a valid request's answer is one the Ruby reference gives too: the
// core answers it without error and it avoids the documented deviations.
// The reference profile sends only these.
bool reference_agrees(const Request& request);

}  // namespace acemq::conformance
