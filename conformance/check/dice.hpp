// Dice: the case generator's randomness, integers and doubles made from the
// words of a std::mt19937_64 alone.
//
// The standard fixes the engine's output, and Dice builds every value from
// those words by rejection and ldexp, never through std:: distributions or
// libm, whose results vary by implementation: so a seed means the same
// requests on every platform. Each call takes the engine's next words, so
// the generator's output is its calls in order: adding, removing or
// reordering one changes every later line of a run.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "acemq/model/unit_interval.hpp"

namespace acemq::conformance::generator {

class Dice {
 public:
  explicit Dice(std::mt19937_64& engine) : engine_(engine) {}

  std::uint64_t bits() { return engine_(); }
  double uniform01() { return model::unit_interval_from_bits(engine_()); }
  bool chance(double p) { return uniform01() < p; }

  // Uniform in [0, n), by rejection; n is never 0 here.
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t limit =
        std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % n;
    for (;;) {
      const std::uint64_t x = engine_();
      if (x < limit) return x % n;
    }
  }

  std::int64_t between(std::int64_t lo, std::int64_t hi) {
    const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    if (span == std::numeric_limits<std::uint64_t>::max()) {
      return static_cast<std::int64_t>(engine_());
    }
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + below(span + 1));
  }

  template <typename T, std::size_t N>
  const T& one_of(const T (&values)[N]) {
    return values[below(N)];
  }

  // A double with a random 52-bit mantissa and a binary exponent in
  // [lo, hi]: log-uniform without libm, every bit pattern of those binades
  // possible.
  double with_exponent(int lo, int hi) {
    const double mantissa = 1.0 + static_cast<double>(engine_() >> 12U) * 0x1p-52;
    return std::ldexp(mantissa, static_cast<int>(between(lo, hi)));
  }

  double subnormal() { return std::ldexp(static_cast<double>((engine_() >> 12U) | 1U), -1074); }

 private:
  std::mt19937_64& engine_;
};

}  // namespace acemq::conformance::generator
