// Known-bad jitter: test doubles the suite must reject, to prove its power.
//
// Each double is one bug someone could plausibly write, either in the jitter
// formula (the model's jitter with one change, drawing r from a good 53-bit
// MT19937 stream) or in the uniform source (fed through the real
// RetryPolicy::jittered). `caught_by` names the tests whose power
// (stats/README.md) predicts the rejection at the per-commit n;
// known_bad_test.cc asserts each of them rejects. "resolution" is the test
// of resolution.hpp, run on the double's exact cell (d = 1, f = 1): a double
// only it catches (a full-period 32-bit generator) is left out of the
// nightly, which runs the battery alone.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "stats/grid.hpp"

namespace acemq::stats {

struct KnownBad {
  std::string name;
  std::string bug;
  std::vector<std::string> caught_by;
  // The jittered delays of `delay` at jitter factor `factor`, seeded.
  std::function<JitterStream(double delay, double factor, std::uint64_t seed)> stream;
};

std::vector<KnownBad> known_bad();

// Whether a test of the battery (not only the resolution test) must reject it.
bool battery_sees(const KnownBad& bad);

}  // namespace acemq::stats
