// The two kinds of run and their sizes.
//
// Per commit (ctest label `stats`): fixed seeds, so the verdict is the same
// on every machine and every run; 10^6 samples per cell, which is what the
// known-bad doubles are proved against. Nightly (label `nightly`): a fresh
// seed and 3·10^7 samples per cell, three times the floor of 10^7
// for sqrt(3) the power, still about ten minutes on 2 cores.
#pragma once

#include <cstddef>
#include <cstdint>

namespace acemq::stats {

inline constexpr std::uint64_t kCommitSeed = 0xACE0'5EED'2024'0004ULL;
inline constexpr std::size_t kCommitSamples = 1'000'000;
inline constexpr std::size_t kNightlySamples = 30'000'000;

}  // namespace acemq::stats
