// edge_values: the doubles where retry-policy arithmetic breaks, named once
// for every suite (properties' generators, the conformance case generator,
// the statistics grid, the unit tests), each with why it is an edge.
#pragma once

#include <cfloat>
#include <limits>

namespace acemq::model::edges {

// ---- Draws r in [0, 1) ----------------------------------------------------
// The smallest draw a port makes (a multiple of 2^-53, as genrand_res53's).
inline constexpr double kSmallestPositiveDraw = 0x1.0p-53;
// The largest draw: 1 - 2^-53. With factor 0.5 and delay 8 it gives a tie
// that rounds to even, exactly 12 (docs/contract.md §5).
inline constexpr double kLargestDraw = 0x1.fffffffffffffp-1;
// Up to here r * 2 - 1 rounds to -1, so factor 1 scales by exactly 0:
// +Infinity times that is the contract's one NaN, which the port keeps as
// +Infinity (docs/contract.md, Decisions).
inline constexpr double kLargestDrawRoundingToMinusOne = 0x1.0p-55;
// The draws every jitter check tries whatever else it generates: the least,
// the identity and the most.
inline constexpr double kEdgeDraws[] = {0.0, 0.5, kLargestDraw};

// ---- Delays and durations ---------------------------------------------------
// 2^-1074: the smallest positive double, a subnormal.
inline constexpr double kSmallestSubnormal = std::numeric_limits<double>::denorm_min();
// The largest double: one more doubling overflows to +Infinity.
inline constexpr double kLargest = DBL_MAX;
inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

// ---- Multipliers ------------------------------------------------------------
// 1 + 2^-52: the running value grows by an ulp a step, so it creeps.
inline constexpr double kOneUlpAboveOne = 0x1.0000000000001p+0;
// 1 + 1e-9: about 7·10^11 steps to overflow with no cap, and 3.4·10^9 from
// 1 s to a 30 s cap: the walk the protocol's cost limit exists for.
inline constexpr double kCreepingMultiplier = 1.000000001;

}  // namespace acemq::model::edges
