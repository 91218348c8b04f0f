// The Kolmogorov distribution against published values and against the
// exact finite-n law it is the limit of.
#include "stats/battery/kolmogorov.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace acemq::stats {
namespace {

TEST(Kolmogorov, CriticalValuesMatchPublishedTables) {
  // Smirnov (1948) / Massey (1951): sqrt(n)·D at alpha 0.10, 0.05, 0.01,
  // 0.001 is 1.2238, 1.3581, 1.6276, 1.9495.
  EXPECT_NEAR(kolmogorov_critical_value(0.10), 1.2238, 5e-5);
  EXPECT_NEAR(kolmogorov_critical_value(0.05), 1.3581, 5e-5);
  EXPECT_NEAR(kolmogorov_critical_value(0.01), 1.6276, 5e-5);
  EXPECT_NEAR(kolmogorov_critical_value(0.001), 1.9495, 5e-5);
}

TEST(Kolmogorov, CriticalValueAtOneInAMillion) {
  // Out there only the first term counts (the second is e^-6x² ~ 1e-19 of
  // it), so x = sqrt(ln(2/alpha)/2) = 2.69340 to five digits.
  const double x = kolmogorov_critical_value(1e-6);
  EXPECT_NEAR(x, std::sqrt(std::log(2e6) / 2.0), 1e-12);
  EXPECT_NEAR(x, 2.6934, 5e-5);
}

TEST(Kolmogorov, TailIsAccurateFarOut) {
  // The suite compares p-values near 1e-9 and reports ones near 1e-300.
  for (const double alpha : {1e-3, 1e-9, 1e-12, 1e-100, 1e-300}) {
    const double x = kolmogorov_critical_value(alpha);
    EXPECT_NEAR(kolmogorov_sf(x) / alpha, 1.0, 1e-9) << alpha;
  }
}

TEST(Kolmogorov, BothFormsAgreeAcrossTheCrossover) {
  for (const double x : {0.3, 0.6, 0.9, 0.999, 1.0, 1.001, 1.2, 2.0}) {
    EXPECT_NEAR(kolmogorov_cdf(x) + kolmogorov_sf(x), 1.0, 1e-15) << x;
  }
  // The theta form and the alternating series, each past its own side.
  EXPECT_NEAR(kolmogorov_cdf(1.0 - 1e-12), kolmogorov_cdf(1.0), 1e-11);
  EXPECT_NEAR(kolmogorov_cdf(0.5), 0.036055, 5e-7);
  EXPECT_NEAR(kolmogorov_cdf(1.0), 0.730000, 5e-7);
}

TEST(KolmogorovSmirnovExact, MatchesMarsagliaTsangWang) {
  // Their paper's example: K(10, 0.274) = 0.6284796154565043.
  EXPECT_NEAR(kolmogorov_smirnov_cdf(10, 0.274), 0.6284796154565043, 1e-14);
}

TEST(KolmogorovSmirnovExact, TendsToTheLimitAndTheLimitIsConservative) {
  // The suite uses the limit for its p-values. At the critical values the
  // exact tail P(sqrt(n)·D_n > x) is below the limit's, so the limit's
  // p-values are a little too large: false alarms only get rarer.
  for (const double alpha : {0.05, 0.01, 1e-3}) {
    const double x = kolmogorov_critical_value(alpha);
    double previous_gap = 1.0;
    for (const int n : {100, 400, 1600}) {
      const double exact_tail = 1.0 - kolmogorov_smirnov_cdf(n, x / std::sqrt(n));
      EXPECT_LT(exact_tail, alpha) << "n " << n << " alpha " << alpha;
      const double gap = alpha - exact_tail;
      EXPECT_LT(gap, previous_gap) << "n " << n << " alpha " << alpha;
      previous_gap = gap;
    }
    EXPECT_LT(previous_gap, 0.05 * alpha) << alpha;
  }
}

}  // namespace
}  // namespace acemq::stats
