// The power table's derivations, checked by simulation at a small n: an
// alternative placed exactly at the stated smallest deviation is rejected
// in at least 99.9% of replications (up to binomial noise), and one at 70%
// of it clearly less often, so the stated figure is neither wrong nor loose.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "acemq/model/unit_interval.hpp"
#include "battery.hpp"
#include "family.hpp"
#include "grid.hpp"
#include "power.hpp"

namespace acemq::stats {
namespace {

constexpr std::size_t kN = 10000;
constexpr int kReplications = 4000;
constexpr std::uint64_t kSeed = 99;

double alpha() { return per_test_alpha(grid().size() * kTestsPerSample); }

double smallest(const char* test) {
  for (const PowerRow& row : power_table(kN, alpha())) {
    if (row.test == test) return row.smallest;
  }
  throw std::out_of_range(test);
}

double uniform(std::mt19937_64& engine) { return model::unit_interval_from_bits(engine()); }

// u with P(u < 0) = 1/2 + delta, uniform on each side: its CDF is off by
// delta at 0, where the ECDF's noise is largest, so it is the KS bound's
// worst case as well as the sign test's.
std::vector<double> two_piece(std::mt19937_64& engine, double delta) {
  std::vector<double> u(kN);
  const double below = 0.5 + delta;
  for (double& x : u) {
    const double r = uniform(engine);
    x = r < below ? -1.0 + r / below : (r - below) / (1.0 - below);
  }
  return u;
}

// An AR(1)-like sequence with lag-1 correlation rho and uniform-ish
// marginals (a Gaussian copula would be exact; the test reads only rho).
std::vector<double> correlated(std::mt19937_64& engine, double rho) {
  std::normal_distribution<double> normal;
  std::vector<double> u(kN);
  double z = normal(engine);
  for (double& x : u) {
    z = rho * z + std::sqrt(1.0 - rho * rho) * normal(engine);
    x = std::erf(z / std::sqrt(2.0));
  }
  return u;
}

template <class Make, class Test>
double rejection_rate(Make make, Test test) {
  std::mt19937_64 engine(kSeed);
  int rejected = 0;
  for (int i = 0; i < kReplications; ++i) {
    rejected += test(make(engine)).p_value < alpha();
  }
  return static_cast<double>(rejected) / kReplications;
}

// 4000 replications: a true power of 0.999 gives 4 misses on average, and
// more than 12 with probability 3e-4.
constexpr double kAtLeast = 1.0 - 12.0 / kReplications;

TEST(Power, KolmogorovSmirnovBound) {
  const double delta = smallest(kKolmogorovSmirnov);
  std::cout << "KS smallest deviation at n " << kN << ": " << delta << "\n";
  const auto ks = [](std::vector<double> u) {
    std::sort(u.begin(), u.end());
    return ks_test(u);
  };
  const double at = rejection_rate([&](auto& e) { return two_piece(e, delta); }, ks);
  const double below = rejection_rate([&](auto& e) { return two_piece(e, 0.7 * delta); }, ks);
  std::cout << "rejection rate at delta " << at << ", at 0.7 delta " << below << "\n";
  EXPECT_GE(at, kAtLeast);
  EXPECT_LT(below, 0.9);
}

TEST(Power, SignBound) {
  const double delta = smallest(kSign);
  const double at = rejection_rate([&](auto& e) { return two_piece(e, delta); }, sign_test);
  const double below =
      rejection_rate([&](auto& e) { return two_piece(e, 0.7 * delta); }, sign_test);
  std::cout << "sign: delta " << delta << ", rejection rate " << at << ", at 0.7 delta " << below
            << "\n";
  EXPECT_GE(at, kAtLeast);
  EXPECT_LT(below, 0.9);
}

TEST(Power, LagOneBound) {
  const double rho = smallest(kLag1);
  const double at = rejection_rate([&](auto& e) { return correlated(e, rho); }, lag1_test);
  const double below = rejection_rate([&](auto& e) { return correlated(e, 0.7 * rho); }, lag1_test);
  std::cout << "lag-1: rho " << rho << ", rejection rate " << at << ", at 0.7 rho " << below
            << "\n";
  // The bound is for the correlation of u; erf of an AR(1) Gaussian has a
  // slightly smaller one (6/pi·asin(rho/2) ~ 0.955·rho), so allow that.
  EXPECT_GE(rejection_rate([&](auto& e) { return correlated(e, rho / 0.95); }, lag1_test),
            kAtLeast);
  EXPECT_LT(below, 0.9);
}

TEST(Power, NoFalseAlarmsAtTheNull) {
  // The same machinery at delta = 0 must not reject at this alpha.
  const auto ks = [](std::vector<double> u) {
    std::sort(u.begin(), u.end());
    return ks_test(u);
  };
  EXPECT_EQ(rejection_rate([&](auto& e) { return two_piece(e, 0.0); }, ks), 0.0);
}

TEST(Holm, StepsDownAndStopsAtTheFirstAcceptance) {
  const std::vector<double> p = {0.01, 1e-9, 0.5, 2e-7, 3e-7};
  // m = 5: 1e-9 <= 1e-6/5; 2e-7 <= 1e-6/4; 3e-7 > 1e-6/3? No: 3.3e-7 > 3e-7.
  const std::vector<bool> rejected = holm_rejections(p, 1e-6);
  EXPECT_EQ(rejected, (std::vector<bool>{false, true, false, true, true}));
  EXPECT_EQ(holm_rejections({2.1e-7, 1.0}, 1e-6), (std::vector<bool>{true, false}));
  EXPECT_EQ(holm_rejections({5.1e-7, 5.1e-7}, 1e-6), (std::vector<bool>{false, false}));
}

}  // namespace
}  // namespace acemq::stats
