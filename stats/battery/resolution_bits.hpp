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
// The coarsest floor `retry-policy stats --min-bits` accepts: a byte. A
// coarser source has so few values that the battery's 1024 chi-square bins
// and 2^-39 repeat cells are no longer about jitter.
inline constexpr int kLeastMinBits = 8;

}  // namespace acemq::stats
