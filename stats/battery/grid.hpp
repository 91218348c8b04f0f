// The grid: every way the suite samples jitter from the real policy.
//
// A cell is a jitter factor (kFactors), a delay (tiny, ordinary, huge, or at
// the cap), a path (RetryPolicy::jittered or next_delay) and a source
// (RubyRandom or DefaultSource). The delay is the same number on both paths;
// through next_delay it comes out of a policy's backoff (and, for the cap,
// out of the cap: jitter is applied after capping, so the jittered delay may
// exceed max_delay by up to f·max_delay).
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
//
// The cells are data (factor, policy, attempt, delay) that any sampler can
// use; stream() is the one that samples this C++ core. port_grid() is the
// grid for a port's own default source (`retry-policy stats --impl`), which
// no seed reaches: both paths, every factor and delay, source `port`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "acemq/amqp/retry_policy.hpp"

namespace acemq::stats {

enum class DelayKind { tiny, ordinary, huge, cap };
enum class Path { jittered, next_delay };
enum class SourceKind { ruby, default_source, port };

inline constexpr double kFactors[] = {0.05, 0.2, 0.5, 1.0};
inline constexpr DelayKind kDelayKinds[] = {DelayKind::tiny, DelayKind::ordinary, DelayKind::huge,
                                            DelayKind::cap};

// The policy and attempt whose unjittered next_delay is a cell's delay.
struct Backoff {
  amqp::RetryPolicy::Options options;
  std::int64_t attempt = 1;
};

struct Cell {
  double factor = 0.2;
  DelayKind delay = DelayKind::ordinary;
  Path path = Path::jittered;
  SourceKind source = SourceKind::ruby;

  // "jittered/ruby/f0.2/ordinary": stable, usable in file and test names.
  std::string name() const;
  Backoff backoff() const;
  // The unjittered delay d of this cell.
  double delay_seconds() const;
};

std::vector<Cell> grid();
// The grid's cells for one port's own source: 2 paths × 4 factors × 4 delays.
std::vector<Cell> port_grid();

// The tests of a port's run (`retry-policy stats --impl`), one Holm family:
// the battery's on each cell of port_grid() and on the threads cell when it
// is drawn, the resolution test, and the fleet's when it is judged (300 with
// both). Owned here so that the command, the power-table tool and the tests
// cannot disagree about the per-test alpha.
std::size_t port_family_size(bool threads_cell = true, bool fleet = true);

// A stream of jittered delays: each call fills the span with the next ones.
using JitterStream = std::function<void(std::span<double>)>;

// The cell's jittered delays from the real policy (throws std::logic_error
// for a port cell, which only its port can draw), its source seeded with
// `seed` (RubyRandom takes its low 32 bits, which is all Ruby's srand keeps
// below 2^32; DefaultSource reseeds the calling thread's engine, so the
// stream must be drained on the thread that made it).
JitterStream stream(const Cell& cell, std::uint64_t seed);

// A seed for each (seed, index): SplitMix64 of both, so neighbouring cells
// and segments get unrelated streams.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t index);

}  // namespace acemq::stats
