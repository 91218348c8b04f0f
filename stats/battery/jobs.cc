#include "stats/battery/jobs.hpp"

#include <string>
#include <utility>

#include "stats/battery/battery.hpp"

namespace acemq::stats {

std::size_t family_size() { return grid().size() * kTestsPerSample; }

Job grid_job(const Cell& cell, std::size_t index, std::uint64_t run_seed, std::uint64_t n) {
  JobInfo info{cell.name(), "",  cell.delay_seconds(), cell.factor, derive_seed(run_seed, index),
               n,           true};
  return Job{std::move(info), [cell](std::uint64_t seed) { return stream(cell, seed); }};
}

Job known_bad_job(const KnownBad& bad, double factor, std::uint64_t seed, std::uint64_t n) {
  const double delay = Cell{.factor = factor, .delay = DelayKind::ordinary}.delay_seconds();
  JobInfo info{"known_bad/" + bad.name, bad.bug, delay, factor, seed, n, false};
  return Job{std::move(info), [bad, delay, factor](std::uint64_t segment_seed) {
               return bad.stream(delay, factor, segment_seed);
             }};
}

}  // namespace acemq::stats
