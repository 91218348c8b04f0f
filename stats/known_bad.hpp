// Known-bad jitter: test doubles the suite must reject, to prove its power.
//
// Each double is one bug someone could plausibly write, either in the jitter
// formula (the model's jitter with one change, drawing r from a good 53-bit
// MT19937 stream) or in the uniform source (fed through the real
// RetryPolicy::jittered). `caught_by` names the tests whose power
// (stats/README.md) predicts the rejection at the per-commit n;
// known_bad_test.cc asserts each of them rejects.
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

}  // namespace acemq::stats
