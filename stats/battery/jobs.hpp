// jobs: a grid cell or a known-bad double as a runner job, and the size of
// the grid's family.
//
// Cell `index` of a run is seeded derive_seed(run seed, index), so any run
// (per commit, nightly, a shard of one) draws a cell the same way. The
// grid's tests form the family that shares the false-alarm budget
// (family.hpp), always the full grid's even when a run draws some cells, so
// a partial run is never more lenient than the full one.
#pragma once

#include <cstddef>
#include <cstdint>

#include "stats/battery/grid.hpp"
#include "stats/battery/known_bad.hpp"
#include "stats/battery/runner.hpp"

namespace acemq::stats {

// The full grid's tests: its cells × kTestsPerSample.
std::size_t family_size();

// Cell `index` of the grid at n samples, seeded from `run_seed`.
Job grid_job(const Cell& cell, std::size_t index, std::uint64_t run_seed, std::uint64_t n);
// A double at the ordinary delay and `factor`, at n samples from `seed`.
Job known_bad_job(const KnownBad& bad, double factor, std::uint64_t seed, std::uint64_t n);

}  // namespace acemq::stats
