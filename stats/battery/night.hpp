// night: what one nightly run (or a per-commit run) draws, as jobs.
//
// The grid's cells at n samples each, cell i seeded derive_seed(seed, i),
// then the known-bad doubles at the ordinary delay and f = 0.2 (the
// exponential factory's) at their own n, double b seeded derive_seed(seed,
// cells + b). The cells run factor by factor and delay by delay, each
// through every path and source in turn, so that shards of the night carry
// equal work. The grid's tests form the family that shares the false-alarm
// budget (family.hpp), always the full grid's even when `only` picks some
// cells, so a partial run is never more lenient than the full one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "stats/battery/grid.hpp"
#include "stats/battery/known_bad.hpp"
#include "stats/battery/runner.hpp"
#include "stats/battery/runs.hpp"

namespace acemq::stats {

struct NightPlan {
  std::uint64_t seed = 0;
  std::uint64_t n = kNightlySamples;
  std::uint64_t known_bad_n = kCommitSamples;
  bool with_known_bad = true;
  std::string only;  // an ECMAScript regex on cell names; empty for all

  // One line for people and for state files: "n 1000000000 a cell, ...".
  std::string describe() const;
  // The stats_nightly options that draw this plan again: "--seed S", then
  // --n, --only and --no-known-bad where they differ from the defaults.
  std::string arguments() const;
};

// The factor the nightly runs the known-bad doubles at.
inline constexpr double kKnownBadFactor = 0.2;

std::vector<Job> jobs(const NightPlan& plan);
std::size_t family_size();

// The building blocks: cell `index` of the grid, and a double at a factor.
Job grid_job(const Cell& cell, std::size_t index, std::uint64_t run_seed, std::uint64_t n);
Job known_bad_job(const KnownBad& bad, double factor, std::uint64_t seed, std::uint64_t n);

}  // namespace acemq::stats
