// The contract's rule for a port's default source, in bits (docs/contract.md
// §5, "The draw"): its draws have at least 53 bits of resolution, as Ruby's
// Kernel.rand, Python's random.random, Java's nextDouble and Go's Float64
// do, so that the delays a fleet draws have the same distribution in every
// language, to the last bit of resolution. resolution.hpp measures it.
#pragma once

namespace acemq::stats {

// A binary64 in [0, 1) on the finest grid every language's standard library
// fills: 2^-53, one full significand.
inline constexpr int kContractBits = 53;
// The coarsest floor `retry-policy stats --min-bits` accepts: a byte. Below
// it the spacing test has no margin left (its threshold is 2^-(B − 3)).
inline constexpr int kLeastMinBits = 8;

}  // namespace acemq::stats
