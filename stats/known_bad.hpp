// Known-bad jitter: test doubles the suite must reject, to prove its power.
//
// Each double is one bug someone could plausibly write, either in the jitter
// formula (sampled on its own, with a good 53-bit MT19937 stream) or in the
// uniform source (fed through the real RetryPolicy::jittered). `caught_by`
// names the tests whose power (stats/README.md) predicts the rejection at
// the per-commit n; known_bad_test.cc asserts each of them rejects.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "jitter_sample.hpp"

namespace acemq::stats {

struct KnownBad {
  std::string name;
  std::string bug;
  std::vector<std::string> caught_by;
  // n jittered delays of `delay` at jitter factor `factor`, seeded.
  std::function<JitterSample(double delay, double factor, std::size_t n, std::uint32_t seed)>
      sample;
};

std::vector<KnownBad> known_bad();

}  // namespace acemq::stats
