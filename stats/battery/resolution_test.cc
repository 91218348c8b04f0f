// The resolution test (resolution.hpp): the exact cell gives the draw back,
// the dyadic grid is read exactly, the spacing test sees sources on no
// binary grid (time units among them) with power that grows with n, its null
// bound holds (and is tight) by simulation, the repeats see a stuck source,
// and the certain bits are the ones the docs state.
#include "stats/battery/resolution.hpp"

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
#include "stats/battery/family.hpp"
#include "stats/battery/grid.hpp"
#include "stats/battery/runs.hpp"

namespace acemq::stats {
namespace {

using amqp::RetryPolicy;
using amqp::Seconds;
using model::same_bits;

// The port family's per-test alpha, as `retry-policy stats --impl` runs it.
double port_alpha() { return per_test_alpha(port_family_size()); }

// The exact cell's delays, as a port answers them, n in windows.
ResolutionState measure_delays(const std::function<double()>& delay, std::uint64_t n,
                               int min_bits) {
  ResolutionState state(min_bits);
  ResolutionAccumulator accumulator;
  std::vector<double> chunk(4096);
  for (std::uint64_t segment = 0; segment * kSegmentSamples < n; ++segment) {
    const std::uint64_t size = std::min(kSegmentSamples, n - segment * kSegmentSamples);
    accumulator.begin(state, segment);
    for (std::uint64_t done = 0; done < size; done += chunk.size()) {
      const std::size_t k =
          static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), size - done));
      for (std::size_t i = 0; i < k; ++i) chunk[i] = delay();
      accumulator.add_jittered(std::span<const double>(chunk.data(), k));
    }
    accumulator.end();
  }
  return state;
}

// The exact cell's delays of a source, through the real policy.
ResolutionState measure(const std::function<double()>& source, std::uint64_t n, int min_bits) {
  const RetryPolicy policy({.max_attempts = 2, .jitter_factor = kExactFactor});
  return measure_delays(
      [&] { return policy.jittered_with_draw(Seconds{kExactDelay}, source()).count(); }, n,
      min_bits);
}

// A port that jitters right, with a 53-bit source, and then converts the
// delay to whole units of 1/per_second (truncating, as a cast to long does)
// and back to seconds: google-http-java-client and resilience4j in whole
// milliseconds, grpc-go and failsafe in integer nanoseconds.
std::function<double()> whole_units(double per_second, std::uint64_t seed) {
  return [policy = RetryPolicy({.max_attempts = 2, .jitter_factor = kExactFactor}),
          engine = std::mt19937_64(seed), per_second]() mutable {
    const double r = model::unit_interval_from_bits(engine());
    const double y = policy.jittered_with_draw(Seconds{kExactDelay}, r).count();
    return std::trunc(y * per_second) / per_second;
  };
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
      EXPECT_EQ(r.dyadic_p, 1.0);
      EXPECT_GE(r.p_value, port_alpha());
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
  EXPECT_LT(r.spacing_p, port_alpha());
  EXPECT_LT(r.p_value, port_alpha());
  EXPECT_EQ(r.bits_text(), "31.0");
  EXPECT_EQ(r.decimal_unit, -1);
  EXPECT_EQ(resolution_verdict(r, true, port_alpha()),
            "resolution 31.0 bits, below the contract's 53 (docs/contract.md §5)");
}

TEST(ResolutionTest, MinBitsAcceptsTheCoarserSourceKnowingly) {
  const ResolutionState s = measure(mono_shape(6), 1U << 19U, 31);
  const ResolutionResult r = analyze_resolution(s, port_alpha());
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

// The grids real libraries put their delays on (google-http-java-client and
// resilience4j in whole milliseconds; a 1/2,000,000 grid), at --quick's n and
// at 10^6: each read as its own bits, its unit named, and rejected at both.
TEST(ResolutionTest, TimeUnitGridsAreReadAsTheirBitsAtEveryN) {
  struct Unit {
    double per_second;
    int k;             // 10^-k s
    const char* bits;  // the estimate, −log2 of the grid in r (half the unit)
    const char* words;
  };
  const Unit units[] = {
      {1e3, 3, "11.0", "whole milliseconds"},
      {1e6, 6, "20.9", "whole microseconds"},
      {1e9, 9, "30.9", "whole nanoseconds"},
  };
  for (const Unit& unit : units) {
    for (const std::uint64_t n : {std::uint64_t{1} << 19U, std::uint64_t{1'000'000}}) {
      const ResolutionState s = measure_delays(whole_units(unit.per_second, n), n, kContractBits);
      const ResolutionResult r = analyze_resolution(s, port_alpha());
      const std::string verdict = resolution_verdict(r, r.p_value < port_alpha(), port_alpha());
      std::cout << "whole 1/" << unit.per_second << " s, n " << n << ": " << r.estimate << ", p "
                << r.p_value << "; " << verdict << "\n";
      EXPECT_LT(r.p_value, port_alpha()) << unit.per_second << " at n " << n;
      EXPECT_EQ(r.bits_text(), unit.bits) << unit.per_second << " at n " << n;
      EXPECT_EQ(r.decimal_unit, unit.k) << unit.per_second << " at n " << n;
      EXPECT_NE(verdict.find(std::string("the draws sit on a ") + decimal_unit_name(unit.k) +
                             " grid, so the port converts delays to " + unit.words),
                std::string::npos)
          << verdict;
    }
  }
}

// google-http-java-client's own shape: (int)(min + r·(max − min + 1)) whole
// milliseconds of [0, 2000], so 2001 values, the last of them 2 s, a draw of
// 1 (out of range, and said so); the rest read as the 1 ms grid they are.
TEST(ResolutionTest, TwoThousandAndOnePointsReadAsElevenBits) {
  std::mt19937_64 engine(9);
  const ResolutionState s = measure_delays(
      [&] {
        const double r = model::unit_interval_from_bits(engine());
        return std::trunc(0.0 + r * (2000.0 - 0.0 + 1.0)) / 1000.0;
      },
      std::uint64_t{1} << 19U, kContractBits);
  const ResolutionResult r = analyze_resolution(s, port_alpha());
  std::cout << "2001 points: " << r.estimate << "; " << s.range.outside << " outside\n";
  EXPECT_GT(s.range.outside, 0U);
  EXPECT_EQ(r.bits_text(), "11.0");
  EXPECT_EQ(r.decimal_unit, 3);
  EXPECT_LT(r.p_value, port_alpha());
}

// Power only grows with n: the p-value of a grid source falls as n grows,
// and so does the coarsest grid the test may miss.
TEST(ResolutionTest, PowerGrowsWithN) {
  double last_p = 1.0;
  double last_certain = 0.0;
  for (const std::uint64_t n :
       {std::uint64_t{10240}, std::uint64_t{1} << 17U, std::uint64_t{1} << 19U,
        std::uint64_t{1'000'000}, std::uint64_t{3} << 20U}) {
    const ResolutionResult r =
        analyze_resolution(measure_delays(whole_units(2e6 / 2, 7), n, kContractBits), port_alpha());
    const double certain =
        spacing_certain_bits(distinct_draw_pairs(n), kContractBits, port_alpha());
    std::cout << "1/1,000,000 s at n " << n << ": spacing p " << r.spacing_p
              << ", every grid coarser than 2^-" << certain << " certain\n";
    EXPECT_LE(r.spacing_p, last_p) << n;
    EXPECT_GT(certain, last_certain) << n;
    last_p = r.spacing_p;
    last_certain = certain;
  }
}

TEST(ResolutionTest, TheCertainBitsAreTheDocumentedOnes) {
  // stats/README.md, "Resolution", quotes these (a fine source's pairs).
  const double a = port_alpha();
  const auto certain = [&](std::uint64_t n, int bits) {
    return std::floor(spacing_certain_bits(distinct_draw_pairs(n), bits, a) * 10) / 10;
  };
  EXPECT_EQ(certain(10240, kContractBits), 22.2);
  EXPECT_EQ(certain(std::uint64_t{1} << 19U, kContractBits), 33.6);
  EXPECT_EQ(certain(1'000'000, kContractBits), 35.4);
  EXPECT_EQ(certain(1'000'000'000, kContractBits), 45.5);
}

// What is certain and what is probable at one n (stats/README.md,
// "Resolution"), on grids of N points i/N with N odd (on no binary grid):
// coarser than the spacing test's certain bound, rejected every time; finer,
// seen by the repeats of a source that draws its grid at random, which a
// window of w draws makes C(w, 2)/N of on average, and two of them reject
// (the null expects 5.8e-9): with probability 0.999 at a mean of 9.23 (the
// power row's figure), 1/2 at 1.68, 0.005 at 0.1. At n 10240, 200 runs a
// row, each range about 4 sigma wide.
TEST(ResolutionTest, TheBoundaryIsAsDocumented) {
  constexpr std::uint64_t kN = 10240;
  constexpr int kRuns = 200;
  const double certain = spacing_certain_bits(distinct_draw_pairs(kN), kContractBits, port_alpha());
  const double pairs = static_cast<double>(kN) * (kN - 1) / 2;
  struct Row {
    std::uint64_t points;
    int least;
    int most;
  };
  const Row rows[] = {
      {static_cast<std::uint64_t>(std::exp2(certain - 0.1)), kRuns, kRuns},
      {static_cast<std::uint64_t>(pairs / 9.23), kRuns - 4, kRuns},
      {static_cast<std::uint64_t>(pairs / 1.68), kRuns / 2 - 28, kRuns / 2 + 28},
      {static_cast<std::uint64_t>(pairs / 0.1), 0, 5},
  };
  std::mt19937_64 engine(21);
  for (const Row& row : rows) {
    const std::uint64_t points = row.points | 1U;
    int rejected = 0;
    for (int run = 0; run < kRuns; ++run) {
      const ResolutionResult r = analyze_resolution(
          measure(
              [&] { return static_cast<double>(engine() % points) / static_cast<double>(points); },
              kN, kContractBits),
          port_alpha());
      rejected += r.p_value < port_alpha();
    }
    std::cout << "a grid of " << points << " points (" << std::log2(static_cast<double>(points))
              << " bits; certain to " << certain << "): rejected " << rejected << " of " << kRuns
              << "\n";
    EXPECT_GE(rejected, row.least) << points;
    EXPECT_LE(rejected, row.most) << points;
  }
}

// A stuck source, and one of few values: the repeats see them, and the
// estimate says what they are.
TEST(ResolutionTest, AStuckSourceAndOneOfFewValuesAreNamed) {
  const ResolutionResult stuck =
      analyze_resolution(measure([] { return 1.0 / 3.0; }, 10240, kContractBits), port_alpha());
  std::cout << "stuck: " << stuck.estimate << "\n";
  EXPECT_TRUE(stuck.stuck);
  EXPECT_LT(stuck.repeats_p, 1e-300);
  EXPECT_EQ(stuck.bits_text(), "0");
  EXPECT_EQ(resolution_verdict(stuck, true, port_alpha()),
            "resolution 0 bits, below the contract's 53: every draw is one value, the source is "
            "stuck");
  std::mt19937_64 engine(4);
  const ResolutionResult few = analyze_resolution(
      measure([&] { return static_cast<double>(engine() % 10) / 10.0; }, 10240, kContractBits),
      port_alpha());
  std::cout << "ten values: " << few.estimate << "\n";
  EXPECT_LT(few.p_value, port_alpha());
  EXPECT_EQ(few.bits_text(), "3.3");
}

// The null bound, by simulation: a source uniform on a grid of 2^16 points
// (H0(16)), windows of 256 draws, gap 2^-13 (eight steps). The bound
// exp(−m(m − 1)·(2^-13 − s)) must hold for the frequency of G >= 2^-13; the
// bound without the grid's correction, exp(−m(m − 1)·2^-13), must not (so
// the correction is needed and the bound is not loose by more than it).
TEST(ResolutionTest, TheGapBoundHoldsForAGridSourceAndIsTight) {
  constexpr int kBits = 16;
  constexpr double kGap = 0x1.0p-13;
  constexpr std::size_t kWindow = 256;
  constexpr int kReplications = 100000;
  std::mt19937_64 engine(11);
  double wide = 0.0;
  double bound = 0.0;
  double naive = 0.0;
  ResolutionAccumulator accumulator;
  std::vector<double> delays(kWindow);
  for (int i = 0; i < kReplications; ++i) {
    ResolutionState s(kBits);
    for (double& y : delays) y = 2.0 * std::ldexp(static_cast<double>(engine() >> 48U), -kBits);
    accumulator.begin(s, 0);
    accumulator.add_jittered(delays);
    accumulator.end();
    wide += s.smallest_gap >= kGap;
    const double pairs = static_cast<double>(s.distinct_pairs);
    bound += null_gap_bound(s.distinct_pairs, kGap, kBits);
    naive += std::exp(-pairs * kGap);
    // The spacing test's p-value is the bound at the observed gap.
    ASSERT_EQ(analyze_resolution(s, port_alpha()).spacing_p,
              null_gap_bound(s.distinct_pairs, s.smallest_gap, kBits));
  }
  std::cout << "windows with G >= 2^-13: " << wide << " of " << kReplications << "; bound " << bound
            << ", without the grid's correction " << naive << "\n";
  // Poisson noise on ~90 events: 4 sigma either side. The bound's own slack
  // is (1 − x)^m <= exp(−m·x) with x = 7(m − 1)/N = 0.027, a factor
  // exp(−m·x²/2) = 0.91 here, and the C(N − ·, m)/C(N, m) step another 0.99:
  // about 86 such windows expected against the bound's 96.
  EXPECT_LE(wide, bound + 4.0 * std::sqrt(bound));
  EXPECT_GE(wide, naive + 4.0 * std::sqrt(naive));
  EXPECT_GE(wide, 0.6 * bound);
}

TEST(ResolutionTest, StatesMergeAsOne) {
  const std::uint64_t n = 3 * kSegmentSamples / 2;
  ResolutionState whole = measure(mono_shape(9), n, kContractBits);
  // The same draws, each window its own state, merged.
  auto source = mono_shape(9);
  const RetryPolicy policy({.max_attempts = 2, .jitter_factor = kExactFactor});
  ResolutionState merged(kContractBits);
  ResolutionAccumulator accumulator;
  for (std::uint64_t segment = 0; segment < 2; ++segment) {
    ResolutionState part(kContractBits);
    std::vector<double> delays(segment == 0 ? kSegmentSamples : n - kSegmentSamples);
    for (double& y : delays) y = policy.jittered_with_draw(Seconds{kExactDelay}, source()).count();
    accumulator.begin(part, segment);
    accumulator.add_jittered(delays);
    accumulator.end();
    merged.merge(part);
  }
  EXPECT_EQ(merged.measured, whole.measured);
  EXPECT_EQ(merged.dyadic_bits, whole.dyadic_bits);
  EXPECT_EQ(merged.repeats, whole.repeats);
  EXPECT_EQ(merged.window_pairs, whole.window_pairs);
  EXPECT_EQ(merged.decimal_units, whole.decimal_units);
  EXPECT_EQ(merged.distinct_pairs, whole.distinct_pairs);
  EXPECT_EQ(merged.windows, 2U);
  EXPECT_TRUE(same_bits(merged.smallest_gap, whole.smallest_gap));
  ResolutionState other(31);
  EXPECT_THROW(merged.merge(other), std::invalid_argument);
}

TEST(ResolutionTest, OutOfRangeDelaysAreShownNotMeasured) {
  ResolutionState s(kContractBits);
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
