// unit_interval: a uniform double in [0, 1) from 64 random bits.
//
// The top 53 bits times 2^-53: exact, never 1.0 (std::generate_canonical can
// round up to 1.0, LWG 2524), and on the grid of Ruby's genrand_res53, so a
// harness's draws look like any port's. Harnesses that make their own draws
// (generated cases, power simulations, range scans) use this one conversion.
#pragma once

#include <cstdint>

namespace acemq::model {

constexpr double unit_interval_from_bits(std::uint64_t bits) noexcept {
  return static_cast<double>(bits >> 11U) * 0x1.0p-53;
}

}  // namespace acemq::model
