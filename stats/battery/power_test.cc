// The power table's derivations, checked: an alternative placed exactly at
// the stated smallest deviation is rejected with probability at least 0.999,
// and one at 70% of it clearly less often, so the stated figure is neither
// wrong nor loose. The sign and runs tests count a binomial, so their power
// is computed exactly, at the per-commit and nightly n too; the KS and lag-1
// rows are checked by simulation at a small n, each replication feeding one
// of the battery's own states and running its test on it, as the grid does.
#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <stdexcept>

#include <gtest/gtest.h>
#include <pcg_random.hpp>

#include <boost/math/distributions/binomial.hpp>

#include "acemq/model/unit_interval.hpp"
#include "stats/battery/battery.hpp"
#include "stats/battery/family.hpp"
#include "stats/battery/jobs.hpp"
#include "stats/battery/power.hpp"
#include "stats/battery/runs.hpp"

namespace acemq::stats {
namespace {

constexpr std::size_t kN = 2500;
constexpr int kReplications = 4000;
constexpr std::uint64_t kPowerSeed = 99;

// pcg64: the simulations' cost is mostly their draws, and it is faster than
// std::mt19937_64.
using Engine = pcg64;

double alpha() { return per_test_alpha(family_size()); }

double smallest(const char* test) {
  for (const PowerRow& row : power_table(kN, alpha())) {
    if (row.test == test) return row.smallest;
  }
  throw std::out_of_range(test);
}

double uniform(Engine& engine) { return model::unit_interval_from_bits(engine()); }

// u with P(u < 0) = 1/2 + delta, uniform on each side: its CDF is off by
// delta at 0, where the ECDF's noise is largest, so it is the KS bound's
// worst case as well as the sign test's.
double two_piece(Engine& engine, double delta) {
  const double below = 0.5 + delta;
  const double r = uniform(engine);
  // Both sides computed and one kept by arithmetic: a branch on this coin
  // would cost more than the rest of the sample.
  const double low = -1.0 + r * (1.0 / below);
  const double high = (r - below) * (1.0 / (1.0 - below));
  const double is_low = r < below;
  return low * is_low + high * (1.0 - is_low);
}

// The share of kReplications samples whose test rejects at alpha():
// `replicate` draws one sample into its state and returns the test's result.
template <class Replicate>
double rejection_rate(Replicate replicate) {
  Engine engine(kPowerSeed);
  int rejected = 0;
  for (int i = 0; i < kReplications; ++i) rejected += replicate(engine).p_value < alpha();
  return static_cast<double>(rejected) / kReplications;
}

TestResult ks_of_two_piece(Engine& engine, double delta) {
  Histogram h(histogram_bits_for(kN));
  for (std::size_t i = 0; i < kN; ++i) h.add(two_piece(engine, delta));
  return ks_test(h);
}

// Uniform marginals and lag-1 correlation exactly rho: each u repeats the
// one before with probability rho, else is fresh.
TestResult lag1_of_sticky(Engine& engine, double rho) {
  Moments m;
  double u = 2.0 * uniform(engine) - 1.0;
  for (std::size_t i = 0; i < kN; ++i) {
    if (!(uniform(engine) < rho)) u = 2.0 * uniform(engine) - 1.0;
    m.add(u);
  }
  m.end_segment();
  return lag1_test(m);
}

// The exact power of a test that counts k of `trials` and rejects a two-sided
// tail, when k is Binomial(trials, p): the rejection region is found by
// asking the test itself (`rejects(k)`), by bisection on each side of the
// middle, where it is monotone.
double exact_binomial_power(std::uint64_t trials, double p,
                            const std::function<bool(std::uint64_t)>& rejects) {
  const std::uint64_t middle = trials / 2;
  std::uint64_t lo = 0;  // rejects(lo), !rejects(hi)
  std::uint64_t hi = middle;
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (rejects(mid) ? lo : hi) = mid;
  }
  const std::uint64_t low_edge = lo;  // the largest rejected k below the middle
  lo = middle;                        // !rejects(lo), rejects(hi)
  hi = trials;
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (rejects(mid) ? hi : lo) = mid;
  }
  const boost::math::binomial law(static_cast<double>(trials), p);
  return boost::math::cdf(law, static_cast<double>(low_edge)) +
         boost::math::cdf(boost::math::complement(law, static_cast<double>(hi) - 1.0));
}

// The sign test on a histogram holding k below zero and trials − k above.
bool sign_rejects(std::uint64_t k, std::uint64_t trials) {
  Histogram h(kMinHistogramBits);
  h.counts().front() = static_cast<std::uint32_t>(k);
  h.counts().back() = static_cast<std::uint32_t>(trials - k);
  return sign_test(h).p_value < alpha();
}

bool runs_rejects(std::uint64_t changes, std::uint64_t pairs) {
  return runs_test(SignRuns{pairs, changes, 0}).p_value < alpha();
}

// 4000 replications: a true power of 0.999 gives 4 misses on average, and
// more than 12 with probability 3e-4.
constexpr double kAtLeast = 1.0 - 12.0 / kReplications;

TEST(Power, KolmogorovSmirnovBound) {
  const double delta = smallest(kKolmogorovSmirnov);
  const double at = rejection_rate([&](Engine& e) { return ks_of_two_piece(e, delta); });
  const double below = rejection_rate([&](Engine& e) { return ks_of_two_piece(e, 0.7 * delta); });
  std::cout << "KS at n " << kN << ", alpha " << alpha() << ": delta " << delta
            << ", rejection rate " << at << ", at 0.7 delta " << below << "\n";
  EXPECT_GE(at, kAtLeast);
  EXPECT_LT(below, 0.9);
}

// The exact power at the row's deviation and at 70% of it, at three n.
void check_binomial_row(const char* test, double sign_of_shift,
                        const std::function<bool(std::uint64_t, std::uint64_t)>& rejects) {
  for (const std::uint64_t n : {std::uint64_t{kN}, kCommitSamples, kNightlySamples}) {
    double delta = 0.0;
    for (const PowerRow& row : power_table(n, alpha())) {
      if (row.test == test) delta = row.smallest;
    }
    const auto reject = [&](std::uint64_t k) { return rejects(k, n); };
    const double at = exact_binomial_power(n, 0.5 + sign_of_shift * delta, reject);
    const double below = exact_binomial_power(n, 0.5 + sign_of_shift * 0.7 * delta, reject);
    std::cout << test << " at n " << n << ", alpha " << alpha() << ": deviation " << delta
              << ", exact power " << at << ", at 0.7 of it " << below << "\n";
    EXPECT_GE(at, 0.9985) << n;
    EXPECT_LT(below, 0.9) << n;
  }
}

TEST(Power, SignBoundIsExact) { check_binomial_row(kSign, 1.0, sign_rejects); }

// Runs: signs that change side with probability 1/2 − epsilon.
TEST(Power, RunsBoundIsExact) { check_binomial_row(kRuns, -1.0, runs_rejects); }

TEST(Power, LagOneBound) {
  const double rho = smallest(kLag1);
  const double at = rejection_rate([&](Engine& e) { return lag1_of_sticky(e, rho); });
  const double below = rejection_rate([&](Engine& e) { return lag1_of_sticky(e, 0.7 * rho); });
  std::cout << "lag-1 at n " << kN << ", alpha " << alpha() << ": rho " << rho
            << ", rejection rate " << at << ", at 0.7 rho " << below << "\n";
  EXPECT_GE(at, kAtLeast);
  EXPECT_LT(below, 0.9);
}

TEST(Power, NoFalseAlarmsAtTheNull) {
  // The same machinery at delta = 0 must not reject at this alpha.
  const double rate = rejection_rate([&](Engine& e) { return ks_of_two_piece(e, 0.0); });
  std::cout << "KS at n " << kN << ", alpha " << alpha() << ", no deviation: rejection rate "
            << rate << " of " << kReplications << "\n";
  EXPECT_EQ(rate, 0.0);
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
