// The grid: every way the suite samples jitter from the real policy.
//
// A cell is a jitter factor (0.05, 0.2, 0.5, 1), a delay (tiny, ordinary,
// huge, or at the cap), a path (RetryPolicy::jittered or next_delay) and a
// source (RubyRandom or DefaultSource): 4 × 4 × 2 × 2 = 64 cells. The delay
// is the same number on both paths; through next_delay it comes out of a
// policy's backoff (and, for the cap, out of the cap: jitter is applied after
// capping, so the jittered delay may exceed max_delay by up to f·max_delay).
//
//   tiny      1.3·2^-1022: the smallest normal range. A subnormal delay is
//             quantised by binary64 itself (5e-324 jitters to 0, 5e-324 or
//             1e-323), which is the contract's answer, not a bug, so the
//             grid stays normal; products below 2^-1022 still round onto
//             the 2^-1074 grid, moving u by at most 2^-53/(1.3·f).
//   ordinary  0.3·1.7^4 (attempt 5 of a 0.3 s, ×1.7 backoff) = 2.5056...,
//             not 1: additive jitter equals multiplicative at d = 1.
//   huge      DBL_MAX/2, the largest delay whose jitter cannot overflow at
//             any factor (fl(1 + f) <= 2).
//   cap       30 s, the cap of a 0.5 s doubling backoff at attempt 8 (64 s).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "jitter_sample.hpp"

namespace acemq::stats {

enum class DelayKind { tiny, ordinary, huge, cap };
enum class Path { jittered, next_delay };
enum class SourceKind { ruby, default_source };

struct Cell {
  double factor = 0.2;
  DelayKind delay = DelayKind::ordinary;
  Path path = Path::jittered;
  SourceKind source = SourceKind::ruby;

  // "jittered/ruby/f0.2/ordinary": stable, usable in file and test names.
  std::string name() const;
  // The unjittered delay d of this cell.
  double delay_seconds() const;
};

inline constexpr double kFactors[] = {0.05, 0.2, 0.5, 1.0};

std::vector<Cell> grid();

// n jittered delays of the cell, from the real policy and the cell's source
// seeded with `seed` (RubyRandom takes its low 32 bits, which is all Ruby's
// srand keeps below 2^32).
JitterSample sample(const Cell& cell, std::size_t n, std::uint64_t seed);

// A 64-bit seed for each (run seed, cell index): SplitMix64 of both, so
// neighbouring cells get unrelated streams.
std::uint64_t cell_seed(std::uint64_t run_seed, std::size_t index);

}  // namespace acemq::stats
