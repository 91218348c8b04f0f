// The resolution test (resolution.hpp): the exact cell gives the draw back,
// the dyadic grid is read exactly, the spacing test sees sources on no
// binary grid, its null bound holds (and is tight) by simulation, and its
// thresholds are the ones the docs state.
#include "stats/resolution.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <random>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "acemq/amqp/retry_policy.hpp"
#include "acemq/model/bits.hpp"
#include "acemq/model/contract.hpp"
#include "acemq/model/unit_interval.hpp"
#include "stats/family.hpp"
#include "stats/grid.hpp"
#include "stats/runs.hpp"

namespace acemq::stats {
namespace {

using amqp::RetryPolicy;
using amqp::Seconds;
using model::same_bits;

// The port family's per-test alpha, as `retry-policy stats --impl` runs it.
double port_alpha() { return per_test_alpha(port_family_size()); }

// The exact cell's delays of a source, through the real policy.
ResolutionState measure(const std::function<double()>& source, std::uint64_t n, int min_bits) {
  ResolutionState state(ResolutionPlan::for_samples(n, min_bits, port_alpha()));
  const RetryPolicy policy({.max_attempts = 2, .jitter_factor = kExactFactor});
  ResolutionAccumulator accumulator;
  std::vector<double> chunk(4096);
  for (std::uint64_t segment = 0; segment * kSegmentSamples < n; ++segment) {
    const std::uint64_t size = std::min(kSegmentSamples, n - segment * kSegmentSamples);
    accumulator.begin(state, segment);
    for (std::uint64_t done = 0; done < size; done += chunk.size()) {
      const std::size_t k =
          static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), size - done));
      for (std::size_t i = 0; i < k; ++i) {
        chunk[i] = policy.jittered_with_draw(Seconds{kExactDelay}, source()).count();
      }
      accumulator.add_jittered(std::span<const double>(chunk.data(), k));
    }
    accumulator.end();
  }
  return state;
}

// Sources, each in the shape the real bug has.
std::function<double()> binary_grid(int bits, std::uint64_t seed) {
  return [engine = std::mt19937_64(seed), bits]() mutable {
    return std::ldexp(static_cast<double>(engine() >> (64U - static_cast<unsigned>(bits))), -bits);
  };
}
// Mono's System.Random.NextDouble, in shape: i·(1/(2^31 − 1)), i uniform.
std::function<double()> mono_shape(std::uint64_t seed) {
  return [engine = std::mt19937_64(seed)]() mutable {
    return static_cast<double>(engine() % 2147483647U) * (1.0 / 2147483647.0);
  };
}
// xorshift32(13, 17, 5) / 2^32: every nonzero 32-bit state once a period.
std::function<double()> xorshift32(std::uint32_t seed) {
  return [x = seed]() mutable {
    x ^= x << 13U;
    x ^= x >> 17U;
    x ^= x << 5U;
    return static_cast<double>(x) * 0x1.0p-32;
  };
}

TEST(ResolutionTest, ExactCellGivesTheDrawBack) {
  // Against the model's arithmetic and the real policy's: y = 2r for every r
  // on the 2^-54 grid and every r >= 1/4; finer r below 1/4 round to that grid.
  std::mt19937_64 engine(3);
  const RetryPolicy policy({.max_attempts = 2, .jitter_factor = kExactFactor});
  std::vector<double> draws = {0.0,  0x1.0p-54,       0x1.0p-53, 0.25 - 0x1.0p-54,
                               0.25, 0.5 - 0x1.0p-54, 0.5,       1.0 - 0x1.0p-53};
  for (int i = 0; i < 100000; ++i) {
    draws.push_back(model::unit_interval_from_bits(engine()));               // 2^-53 grid
    draws.push_back(std::ldexp(static_cast<double>(engine() >> 10U), -54));  // 2^-54 grid
    draws.push_back(0.25 + 0.75 * std::ldexp(static_cast<double>(engine() >> 1U), -63));  // any
  }
  for (const double r : draws) {
    if (!(r >= 0.0 && r < 1.0)) continue;
    const double y = kExactDelay * model::jitter_scale(kExactFactor, r);
    ASSERT_TRUE(same_bits(y, policy.jittered_with_draw(Seconds{kExactDelay}, r).count())) << r;
    ASSERT_TRUE(same_bits(recovered_draw(y), r)) << r;
  }
  // Below 1/4 a finer draw reads as its rounding to the 2^-54 grid.
  const double fine = 0x1.0p-3 + 0x1.0p-60;
  const double y = kExactDelay * model::jitter_scale(kExactFactor, fine);
  EXPECT_TRUE(same_bits(recovered_draw(y), 0x1.0p-3)) << recovered_draw(y);
}

TEST(ResolutionTest, TheBinaryGridIsReadExactly) {
  for (const int bits : {24, 31, 32, 48, 52, 53}) {
    const ResolutionState s =
        measure(binary_grid(bits, static_cast<std::uint64_t>(bits)), 1U << 16U, kContractBits);
    EXPECT_EQ(s.dyadic_bits, bits);
    const ResolutionResult r = analyze_resolution(s, port_alpha());
    std::cout << bits << "-bit grid: " << r.estimate << ", p " << r.p_value << "\n";
    if (bits < kContractBits) {
      EXPECT_TRUE(r.exact);
      EXPECT_EQ(r.bits, bits);
      EXPECT_LT(r.p_value, 1e-300) << bits;
    } else {
      EXPECT_EQ(r.p_value, 1.0);
    }
  }
}

TEST(ResolutionTest, AFullPeriodGeneratorIsSeenThoughItNeverRepeats) {
  const ResolutionState s = measure(xorshift32(2463534242U), 1U << 19U, kContractBits);
  const ResolutionResult r = analyze_resolution(s, port_alpha());
  std::cout << "xorshift32 / 2^32: " << r.estimate << ", p " << r.p_value << "\n";
  EXPECT_EQ(s.dyadic_bits, 32);
  EXPECT_LT(r.p_value, port_alpha());
  EXPECT_EQ(resolution_verdict(r, true, port_alpha()),
            "resolution 32 bits, below the contract's 53 (docs/contract.md §5)");
}

TEST(ResolutionTest, ASourceOnNoBinaryGridIsSeenBySpacing) {
  const ResolutionState s = measure(mono_shape(5), 1U << 19U, kContractBits);
  const ResolutionResult r = analyze_resolution(s, port_alpha());
  std::cout << "i/(2^31 - 1): " << r.estimate << ", p " << r.p_value << "\n";
  EXPECT_GT(s.dyadic_bits, kContractBits - 1);  // no binary grid tells it
  EXPECT_EQ(s.plan.threshold_bits, 33);
  EXPECT_EQ(s.gaps_below, 0U);
  EXPECT_LT(r.p_value, port_alpha());
  EXPECT_EQ(r.bits_text(), "31.0");
  EXPECT_EQ(resolution_verdict(r, true, port_alpha()),
            "resolution 31.0 bits, below the contract's 53 (docs/contract.md §5)");
}

TEST(ResolutionTest, MinBitsAcceptsTheCoarserSourceKnowingly) {
  const ResolutionState s = measure(mono_shape(6), 1U << 19U, 31);
  const ResolutionResult r = analyze_resolution(s, port_alpha());
  EXPECT_EQ(s.plan.threshold_bits, 28);
  EXPECT_EQ(s.plan.contract_threshold_bits, 33);
  EXPECT_GE(r.p_value, port_alpha());
  EXPECT_LT(r.contract_p_value, port_alpha());
  EXPECT_EQ(resolution_verdict(r, false, port_alpha()),
            "resolution 31.0 bits: accepted at --min-bits 31 (below the contract's 53)");
  // A 24-bit source is still below 31.
  const ResolutionResult floats =
      analyze_resolution(measure(binary_grid(24, 1), 1U << 19U, 31), port_alpha());
  EXPECT_LT(floats.p_value, port_alpha());
  EXPECT_EQ(resolution_verdict(floats, true, port_alpha()),
            "resolution 24 bits, below --min-bits 31 (the contract's is 53, docs/contract.md §5)");
  // And a 53-bit source meets both.
  const ResolutionResult fine =
      analyze_resolution(measure(binary_grid(53, 2), 1U << 19U, 31), port_alpha());
  EXPECT_EQ(
      resolution_verdict(fine, false, port_alpha()),
      "resolution 53 bits: meets the contract's 53 (docs/contract.md §5), above --min-bits 31");
}

TEST(ResolutionTest, TheThresholdsAreTheDocumentedOnes) {
  const double a = port_alpha();
  EXPECT_EQ(spacing_threshold_bits(std::uint64_t{1} << 19U, kContractBits, a), 33);
  EXPECT_EQ(spacing_threshold_bits(1'000'000, kContractBits, a), 35);
  EXPECT_EQ(spacing_threshold_bits(1'000'000'000, kContractBits, a), 45);
  EXPECT_EQ(spacing_threshold_bits(10240, kContractBits, a), 22);
  EXPECT_EQ(spacing_threshold_bits(std::uint64_t{1} << 19U, 31, a), 28);
  EXPECT_EQ(spacing_threshold_bits(std::uint64_t{1} << 19U, 24, a), 21);
}

// The null bound, by simulation: a source uniform on a grid of 2^16 points
// (H0(16)), windows of 256 draws, threshold 2^-13 (eight steps). The bound
// exp(−m(m − 1)·(2^-13 − s)) must hold for the zero-gap frequency; the
// bound without the grid's correction, exp(−m(m − 1)·2^-13), must not (so
// the correction is needed and the bound is not loose by more than it).
TEST(ResolutionTest, TheZeroGapBoundHoldsForAGridSourceAndIsTight) {
  constexpr int kBits = 16;
  constexpr int kThreshold = 13;
  constexpr std::size_t kWindow = 256;
  constexpr int kReplications = 100000;
  ResolutionPlan plan;
  plan.min_bits = kBits;
  plan.threshold_bits = kThreshold;
  std::mt19937_64 engine(11);
  double zero = 0.0;
  double bound = 0.0;
  double naive = 0.0;
  ResolutionAccumulator accumulator;
  std::vector<double> delays(kWindow);
  for (int i = 0; i < kReplications; ++i) {
    ResolutionState s(plan);
    for (double& y : delays) y = 2.0 * std::ldexp(static_cast<double>(engine() >> 48U), -kBits);
    accumulator.begin(s, 0);
    accumulator.add_jittered(delays);
    accumulator.end();
    zero += s.gaps_below == 0;
    const double pairs = static_cast<double>(s.distinct_pairs);
    bound += null_zero_gap_bound(s.distinct_pairs, kThreshold, kBits);
    naive += std::exp(-pairs * std::ldexp(1.0, -kThreshold));
    if (s.gaps_below == 0) {
      // The state's p-value is this very bound, times 2 for its two tests.
      ASSERT_EQ(analyze_resolution(s, port_alpha()).p_value,
                std::min(1.0, 2.0 * null_zero_gap_bound(s.distinct_pairs, kThreshold, kBits)));
    }
  }
  std::cout << "zero-gap windows: " << zero << " of " << kReplications << "; bound " << bound
            << ", without the grid's correction " << naive << "\n";
  // Poisson noise on ~90 events: 4 sigma either side. The bound's own slack
  // is (1 − x)^m <= exp(−m·x) with x = 7(m − 1)/N = 0.027, a factor
  // exp(−m·x²/2) = 0.91 here, and the C(N − ·, m)/C(N, m) step another 0.99:
  // about 86 zero-gap windows expected against the bound's 96.
  EXPECT_LE(zero, bound + 4.0 * std::sqrt(bound));
  EXPECT_GE(zero, naive + 4.0 * std::sqrt(naive));
  EXPECT_GE(zero, 0.6 * bound);
}

TEST(ResolutionTest, StatesMergeAsOne) {
  const std::uint64_t n = 3 * kSegmentSamples / 2;
  const ResolutionPlan plan = ResolutionPlan::for_samples(n, kContractBits, port_alpha());
  ResolutionState whole = measure(mono_shape(9), n, kContractBits);
  // The same draws, each window its own state, merged.
  auto source = mono_shape(9);
  const RetryPolicy policy({.max_attempts = 2, .jitter_factor = kExactFactor});
  ResolutionState merged(plan);
  ResolutionAccumulator accumulator;
  for (std::uint64_t segment = 0; segment < 2; ++segment) {
    ResolutionState part(plan);
    std::vector<double> delays(segment == 0 ? kSegmentSamples : n - kSegmentSamples);
    for (double& y : delays) y = policy.jittered_with_draw(Seconds{kExactDelay}, source()).count();
    accumulator.begin(part, segment);
    accumulator.add_jittered(delays);
    accumulator.end();
    merged.merge(part);
  }
  EXPECT_EQ(merged.measured, whole.measured);
  EXPECT_EQ(merged.dyadic_bits, whole.dyadic_bits);
  EXPECT_EQ(merged.gaps_below, whole.gaps_below);
  EXPECT_EQ(merged.distinct_pairs, whole.distinct_pairs);
  EXPECT_EQ(merged.windows, 2U);
  EXPECT_TRUE(same_bits(merged.smallest_gap, whole.smallest_gap));
  ResolutionState other(ResolutionPlan::for_samples(n, 31, port_alpha()));
  EXPECT_THROW(merged.merge(other), std::invalid_argument);
}

TEST(ResolutionTest, OutOfRangeDelaysAreShownNotMeasured) {
  ResolutionState s(ResolutionPlan::for_samples(1U << 16U, kContractBits, port_alpha()));
  ResolutionAccumulator accumulator;
  const std::vector<double> delays = {0.5, 2.0, std::nan(""), -0.0, 1.5, 3.0};
  accumulator.begin(s, 0);
  accumulator.add_jittered(delays);
  accumulator.end();
  EXPECT_EQ(s.range.outside, 3U);  // 2 (r = 1), NaN, 3
  EXPECT_EQ(s.range.shown[0].draw, 1U);
  EXPECT_EQ(s.measured, 3U);
  EXPECT_EQ(s.n(), 6U);
}

}  // namespace
}  // namespace acemq::stats
