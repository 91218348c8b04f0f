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

#include "stats/battery/grid.hpp"

namespace acemq::stats {

struct KnownBad {
  std::string name;
  std::string bug;
  std::vector<std::string> caught_by;
  // The jittered delays of `delay` at jitter factor `factor`, seeded.
  std::function<JitterStream(double delay, double factor, std::uint64_t seed)> stream;
};

std::vector<KnownBad> known_bad();

// java.util.Random: the JDK's 48-bit LCG and its nextDouble, 53 bits. Alone
// a passable stream; but the first draws of neighbouring seeds lie about
// 9e-5 apart a unit of seed (0x5DEECE66D / 2^48), which is what a fleet
// seeded by its clock or its process ids gets (fleet.hpp). Anchor:
// new Random(42).nextDouble() is 0.7275636800328681.
class JavaRandom {
 public:
  explicit JavaRandom(std::uint64_t seed) : state_((seed ^ kMultiplier) & kMask) {}
  double operator()() {
    const std::uint64_t high = next(26);
    return static_cast<double>((high << 27U) + next(27)) * 0x1p-53;
  }

 private:
  static constexpr std::uint64_t kMultiplier = 0x5DEECE66DULL;
  static constexpr std::uint64_t kMask = (std::uint64_t{1} << 48U) - 1;
  std::uint64_t next(unsigned bits) {
    state_ = (state_ * kMultiplier + 0xBU) & kMask;
    return state_ >> (48U - bits);
  }
  std::uint64_t state_;
};

// Whether a test of the battery (not only the resolution test) must reject it.
bool battery_sees(const KnownBad& bad);

}  // namespace acemq::stats
