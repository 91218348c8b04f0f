// show: how the property suite prints a double or a policy, so a person can
// read a counterexample and paste it back into a unit test.
//
// A double prints in its shortest round-trip form (std::to_chars), so the
// printed text parses back to the same bits. Where that text alone would
// hide what matters (a sign bit, a subnormal, a NaN's payload, an infinity,
// or a long mantissa), the IEEE-754 bits follow in brackets:
//   0.5    -0 [0x8000000000000000]    5e-324 [0x0000000000000001]
// A policy prints all six constructor fields by name, as a C++20 designated
// initializer of RetryPolicy::Options.
#pragma once

#include <cstdint>
#include <string>

#include "acemq/amqp/retry_policy.hpp"
#include "acemq/model/bits.hpp"

namespace acemq::props {

using Options = amqp::RetryPolicy::Options;

// The shortest text that parses back to `value`: "0.1", "1e+300", "-0", "inf".
std::string shortest(double value);

// shortest(value), then the bits in hex when they say something the text
// does not.
std::string describe(double value);

// "{.max_attempts = 5, .initial_delay = 0.5, .multiplier = 2, ...}".
std::string describe(const Options& options);

// The one equality the suite uses for a delay, from the shared model.
using model::bits_of;
using model::same_bits;

}  // namespace acemq::props
