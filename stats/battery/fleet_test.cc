// The fleet's tests (fleet.hpp): their laws, and that each sees the fleet
// failure it is for and passes a fleet of independent streams.
#include "stats/battery/fleet.hpp"

#include <gtest/gtest.h>

#include <boost/math/special_functions/gamma.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "stats/battery/family.hpp"
#include "stats/battery/grid.hpp"
#include "stats/battery/known_bad.hpp"

namespace acemq::stats {
namespace {

using Fleet = std::vector<std::vector<double>>;

// The per-test alpha of `stats --impl`'s family.
const double kPerTest = per_test_alpha(port_family_size());

double res53(std::mt19937_64& g) { return static_cast<double>(g() >> 11U) * 0x1p-53; }

// Each process its own 53-bit stream, seeded apart (as the OS's entropy would).
Fleet independent_fleet(std::uint64_t seed) {
  Fleet fleet(kFleetProcesses);
  for (std::size_t p = 0; p < fleet.size(); ++p) {
    std::mt19937_64 g(seed * 1000 + p);
    for (std::size_t k = 0; k < kFleetDraws; ++k) fleet[p].push_back(res53(g));
  }
  return fleet;
}

// java.util.Random seeded by `seed(p)`, what a clock or a PID gives.
template <class Seed>
Fleet java_fleet(Seed seed) {
  Fleet fleet(kFleetProcesses);
  for (std::size_t p = 0; p < fleet.size(); ++p) {
    JavaRandom random(static_cast<std::uint64_t>(seed(p)));
    for (std::size_t k = 0; k < kFleetDraws; ++k) fleet[p].push_back(random());
  }
  return fleet;
}

TEST(Fleet, JavaRandomReplaysTheJdk) {
  // Printed by `new java.util.Random(s).nextDouble()` on OpenJDK 17.
  EXPECT_EQ(JavaRandom(42)(), 0.7275636800328681);
  JavaRandom r(1000);
  EXPECT_EQ(r(), 0.7101849056320707);
  EXPECT_EQ(r(), 0.574836350385667);
  EXPECT_EQ(JavaRandom(1007)(), 0.7099161603154558);
}

TEST(Fleet, ArcProbabilityIsTheSpacingsLaw) {
  EXPECT_DOUBLE_EQ(arc_probability(2, 0.3), 0.6);  // 2w for two points
  EXPECT_NEAR(arc_probability(16, 0.1), 16 * std::pow(0.1, 15), 1e-26);
  EXPECT_DOUBLE_EQ(arc_probability(3, 0.6), 3 * 0.36 - 3 * 0.2 * 0.2);  // past 1/2
  EXPECT_EQ(arc_probability(3, 2.0 / 3.0), 1.0);  // some spacing is at least 1/3
  EXPECT_EQ(arc_probability(16, 0.0), 0.0);
  // Against simulation: 20000 fleets of 16; the counts are binomial, within
  // 6 standard deviations (a false alarm below 1e-8).
  std::mt19937_64 g(7);
  constexpr int kFleets = 20000;
  for (const double w : {0.55, 0.7, 0.8}) {
    int within = 0;
    for (int f = 0; f < kFleets; ++f) {
      std::vector<double> points(16);
      for (double& point : points) point = res53(g);
      std::sort(points.begin(), points.end());
      double widest = 1.0 - (points.back() - points.front());
      for (std::size_t i = 1; i < points.size(); ++i) {
        widest = std::max(widest, points[i] - points[i - 1]);
      }
      within += 1.0 - widest <= w ? 1 : 0;
    }
    const double p = arc_probability(16, w);
    const double sd = std::sqrt(kFleets * p * (1 - p));
    EXPECT_NEAR(within, kFleets * p, 6 * sd + 1) << "w " << w;
  }
}

TEST(Fleet, PoissonTail) {
  EXPECT_EQ(poisson_tail(0, 0.5), 1.0);
  EXPECT_NEAR(poisson_tail(1, 0.5), 1 - std::exp(-0.5), 1e-15);
  EXPECT_NEAR(poisson_tail(1, 1e-11), 1e-11, 1e-22);
  EXPECT_NEAR(poisson_tail(30, 2.0), boost::math::gamma_p(30.0, 2.0),
              1e-3 * boost::math::gamma_p(30.0, 2.0));
  EXPECT_EQ(poisson_tail(491520, 5e-11), 0.0);  // underflows, as it should
}

TEST(Fleet, IndependentStreamsPass) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const FleetResult r = analyze_fleet(independent_fleet(seed), 53);
    EXPECT_EQ(r.shared.statistic, 0.0);
    EXPECT_EQ(r.shared.p_value, 1.0);
    EXPECT_GT(r.clustered.p_value, kPerTest) << r.clustered_words;
    EXPECT_EQ(r.shared_words.rfind("no draw is shared", 0), 0U) << r.shared_words;
  }
}

// A port in whole milliseconds: 2000 values, so 16 processes of 64 draws
// share some by chance. At the contract's 53 bits that reads as a fleet
// sharing its streams; judged at the grid the exact cell measured (10.97
// bits, floored), it does not, and the resolution keeps the finding.
TEST(Fleet, AMillisecondGridIsJudgedAtItsOwnBits) {
  Fleet fleet(kFleetProcesses);
  for (std::size_t p = 0; p < fleet.size(); ++p) {
    std::mt19937_64 g(77 + p);
    for (std::size_t k = 0; k < kFleetDraws; ++k) {
      fleet[p].push_back(std::trunc(res53(g) * 2000.0) / 2000.0);
    }
  }
  EXPECT_LT(analyze_fleet(fleet, 53).shared.p_value, kPerTest);
  ResolutionResult millis;
  millis.bits = 10.97;
  millis.p_value = 0.0;
  const int bits = fleet_null_bits(millis, 53, kPerTest);
  EXPECT_EQ(bits, 10);
  const FleetResult r = analyze_fleet(fleet, bits);
  EXPECT_GT(r.shared.p_value, kPerTest) << r.shared_words;
  EXPECT_NE(r.shared_words.find("against the chance of equal draws of a 10-bit source"),
            std::string::npos)
      << r.shared_words;
  // Only a rejected, measured resolution moves the null; a stuck source is 1 bit.
  millis.p_value = 1.0;
  EXPECT_EQ(fleet_null_bits(millis, 53, kPerTest), 53);
  ResolutionResult fine;
  fine.lower_bound = true;
  fine.p_value = 0.0;
  fine.bits = 33.6;
  EXPECT_EQ(fleet_null_bits(fine, 53, kPerTest), 53);
  ResolutionResult stuck;
  stuck.bits = 0.0;
  stuck.p_value = 0.0;
  EXPECT_EQ(fleet_null_bits(stuck, 53, kPerTest), 1);
}

TEST(Fleet, OneStreamEverywhereIsRejectedByBoth) {
  // Go 1.19's package-level math/rand: seed 1 in every process.
  const FleetResult r = analyze_fleet(java_fleet([](std::size_t) { return std::uint64_t{1}; }), 53);
  EXPECT_LT(r.shared.p_value, kPerTest);
  EXPECT_EQ(r.clustered.p_value, 0.0);
  EXPECT_EQ(r.shared_words,
            "all 16 processes drew the same stream: their first 64 draws are equal");
}

TEST(Fleet, TwoProcessesSharingAStreamAreNamed) {
  Fleet fleet = independent_fleet(3);
  fleet[6] = fleet[2];  // processes 3 and 7, counted from 1
  const FleetResult r = analyze_fleet(fleet, 53);
  EXPECT_LT(r.shared.p_value, kPerTest);
  EXPECT_GT(r.clustered.p_value, kPerTest);
  EXPECT_EQ(r.shared_words,
            "1 of the 120 pairs of processes drew equal values; processes 3 and 7 share 64 of "
            "their first 64 draws (the same stream)");
  // One draw in common is enough at 53 bits; at 31 it takes 3.
  fleet = independent_fleet(4);
  fleet[9][40] = fleet[1][5];
  EXPECT_LT(analyze_fleet(fleet, 53).shared.p_value, kPerTest);
  EXPECT_GT(analyze_fleet(fleet, 31).shared.p_value, kPerTest);
  EXPECT_EQ(fleet_detectable_equal_pairs(kFleetProcesses, kFleetDraws, 53, kPerTest), 1U);
  EXPECT_EQ(fleet_detectable_equal_pairs(kFleetProcesses, kFleetDraws, 31, kPerTest), 3U);
}

TEST(Fleet, NeighbouringSeedsAreClustered) {
  // java.util.Random seeded by PIDs or milliseconds of a fleet started at
  // once: consecutive seeds, and seeds 3 and 20 apart. The seed is XORed
  // with the multiplier first, so the first draws are not evenly spaced.
  for (const std::uint64_t spacing : {std::uint64_t{1}, std::uint64_t{3}, std::uint64_t{20}}) {
    for (const std::uint64_t base : {std::uint64_t{1000}, std::uint64_t{4194304}}) {
      const FleetResult r =
          analyze_fleet(java_fleet([&](std::size_t p) { return base + spacing * p; }), 53);
      EXPECT_EQ(r.shared.statistic, 0.0) << spacing;
      EXPECT_LT(r.clustered.p_value, kPerTest) << spacing << ": " << r.clustered_words;
      EXPECT_EQ(r.arc_draw, 0U);  // the first draw shows it
      EXPECT_EQ(r.clustered_words.rfind("the draw-1 values of all 16 processes lie within ", 0),
                0U);
    }
  }
  // The widest arc the test sees at stats --impl's per-test alpha.
  EXPECT_NEAR(fleet_detectable_arc(kFleetProcesses, kFleetDraws, 1, kPerTest), 0.1563, 0.0005);
}

}  // namespace
}  // namespace acemq::stats
