// night: what one nightly run draws, as jobs.
//
// The grid's cells at n samples each, cell i seeded derive_seed(seed, i),
// then the known-bad doubles at the ordinary delay and f = 0.2 (the
// exponential factory's) at their own n, double b seeded derive_seed(seed,
// cells + b). The cells run factor by factor and delay by delay, each
// through every path and source in turn, so that shards of the night carry
// equal work. A night that `only` draws some cells is judged with the full
// grid's family (battery/jobs.hpp), so it is never more lenient.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

}  // namespace acemq::stats
