// bits: the only equality the harness uses for a delay.
//
// 0.0 == -0.0 and NaN != NaN both lie about the contract, which is about the
// 64 bits of each double (docs/contract.md §1), so every suite compares
// delays as bits, through these.
#pragma once

#include <bit>
#include <cstdint>

namespace acemq::model {

// The raw IEEE-754 bits of `value`.
constexpr std::uint64_t bits_of(double value) noexcept {
  return std::bit_cast<std::uint64_t>(value);
}

// Whether two doubles are the same bits.
constexpr bool same_bits(double a, double b) noexcept { return bits_of(a) == bits_of(b); }

}  // namespace acemq::model
