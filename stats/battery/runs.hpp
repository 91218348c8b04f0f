// The two kinds of run, their sizes, and the segment every stream is cut into.
//
// Per commit (ctest label `stats`): fixed seeds, so the verdict is the same
// on every machine and every run, at kCommitSamples per cell, the size the
// known-bad doubles are proved against. Nightly (label `nightly`): a fresh
// seed and kNightlySamples per cell, streamed, so memory does not grow with n.
#pragma once

#include <cstddef>
#include <cstdint>

namespace acemq::stats {

inline constexpr std::uint64_t kCommitSeed = 0xACE0'5EED'2024'0004ULL;
inline constexpr std::uint64_t kCommitSamples = 1'000'000;
inline constexpr std::uint64_t kNightlySamples = 1'000'000'000;

// A cell's draws come in segments of this many, each from its own seed
// (derive_seed(cell seed, segment)), so that any set of segments can run
// anywhere and merge to the same state. It is also the repeats test's window:
// at least kCommitSamples, so the per-commit run is one segment a cell and
// the repeats test keeps its full power there.
inline constexpr std::uint64_t kSegmentSamples = std::uint64_t{1} << 20U;
static_assert(kSegmentSamples >= kCommitSamples);

// The histogram counts in 32 bits, so a cell holds at most this many samples.
inline constexpr std::uint64_t kMaxSamples = 0xFFFF'FFFFULL;

}  // namespace acemq::stats
