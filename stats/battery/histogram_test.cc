// The fine histogram against the exact statistics it stands in for: the
// binned KS and mirrored KS within the bounds stats/README.md states, the
// cells and bins monotone in u, and chi-square's bins the old equal bins.
#include "stats/battery/histogram.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "acemq/model/unit_interval.hpp"
#include "stats/battery/battery.hpp"

namespace acemq::stats {
namespace {

constexpr int kBits = kMinHistogramBits;  // coarse, so the bounds bite

// sup_x |ECDF(x) − (x + 1)/2| over the sorted sample, exact with ties (the
// statistic the battery computed before it streamed): the last of a tied run
// gives D+, the first gives D−. NaN sorts as +inf.
double exact_ks(std::vector<double> u) {
  for (double& x : u) {
    if (std::isnan(x)) x = std::numeric_limits<double>::infinity();
  }
  std::sort(u.begin(), u.end());
  const double n = static_cast<double>(u.size());
  double d = 0.0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    const double f = std::clamp((u[i] + 1.0) / 2.0, 0.0, 1.0);
    d = std::max({d, static_cast<double>(i + 1) / n - f, f - static_cast<double>(i) / n});
  }
  return d;
}

// sup_t |F(t) − G(t)| for F of {u > 0} and G of {−u : u < 0}, exact.
double exact_mirror(const std::vector<double>& u) {
  std::vector<double> a;
  std::vector<double> b;
  for (const double x : u) {
    if (x > 0.0 || std::isnan(x)) a.push_back(std::isnan(x) ? 2.0 : x);
    if (x < 0.0) b.push_back(-x);
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::size_t i = 0;
  std::size_t j = 0;
  double d = 0.0;
  while (i < a.size() && j < b.size()) {
    const double t = std::min(a[i], b[j]);
    while (i < a.size() && a[i] == t) ++i;
    while (j < b.size() && b[j] == t) ++j;
    d = std::max(d, std::abs(static_cast<double>(i) / static_cast<double>(a.size()) -
                             static_cast<double>(j) / static_cast<double>(b.size())));
  }
  return d;
}

// Samples that probe the bins: smooth, skewed, on a grid that hits the bin
// edges, with atoms inside bins, with zeros of both signs, and with values
// outside [−1, 1) and NaN.
std::vector<std::vector<double>> samples() {
  std::mt19937_64 engine(5);
  const auto r = [&] { return model::unit_interval_from_bits(engine()); };
  std::vector<std::vector<double>> out(6);
  for (int i = 0; i < 20000; ++i) {
    out[0].push_back(2.0 * r() - 1.0);
    const double s = r();
    out[1].push_back(s < 0.55 ? -1.0 + s / 0.55 : (s - 0.55) / 0.45);
    out[2].push_back(std::floor((2.0 * r() - 1.0) * 256.0) / 256.0);
    out[3].push_back(i % 3 == 0 ? 0.3001 : 2.0 * r() - 1.0);
    out[4].push_back(i % 4 == 0 ? 0.0 : (i % 4 == 1 ? -0.0 : 2.0 * r() - 1.0));
    out[5].push_back(i % 50 == 0   ? 1.5
                     : i % 51 == 0 ? -3.0
                     : i % 97 == 0 ? std::numeric_limits<double>::quiet_NaN()
                                   : 2.04 * r() - 1.02);
  }
  return out;
}

TEST(Histogram, BinnedKsIsWithinOneBinOfTheExact) {
  for (const std::vector<double>& u : samples()) {
    Histogram h(kBits);
    for (const double x : u) h.add(x);
    const double binned = h.ks().d;
    const double exact = exact_ks(u);
    const double bin_mass = 1.0 / (2.0 * static_cast<double>(h.half()));
    EXPECT_LE(binned, exact + 1e-12);
    EXPECT_LE(exact, binned + bin_mass + 1e-12);
  }
}

TEST(Histogram, BinnedMirrorIsWithinTheLargestBinOfTheExact) {
  for (const std::vector<double>& u : samples()) {
    Histogram h(kBits);
    for (const double x : u) h.add(x);
    // The largest share of either side that one bin of |u| holds.
    const auto& c = h.counts();
    const double up = static_cast<double>(h.above_zero());
    const double down = static_cast<double>(h.below_zero());
    double largest = 0.0;
    for (std::size_t m = 0; m < h.half(); ++m) {
      largest = std::max({largest, c[h.half() + 2 + m] / up, c[h.half() - m] / down});
    }
    largest = std::max({largest, c.back() / up, c.front() / down});
    const double binned = h.mirror_ks();
    const double exact = exact_mirror(u);
    EXPECT_LE(binned, exact + 1e-12);
    EXPECT_LE(exact, binned + largest + 1e-12);
  }
}

TEST(Histogram, CellsAndBinsAreMonotoneInU) {
  std::vector<double> u = samples()[0];
  for (const double edge : {-1.0, -0.5, -0x1.0p-9, -0x1.0p-60, -0.0, 0.0, 0x1.0p-1074, 0x1.0p-9,
                            0.5, std::nextafter(1.0, 0.0), 1.0, -std::nextafter(1.0, 0.0)}) {
    u.push_back(edge);
  }
  std::sort(u.begin(), u.end());
  for (const int bits : {kMinHistogramBits, 14, 19}) {
    const Histogram h(bits);
    const double half = static_cast<double>(h.half());
    for (std::size_t i = 0; i < u.size(); ++i) {
      const std::uint64_t key = cell_key(u[i]);
      // The bin straight from u, by the layout in histogram.hpp.
      std::size_t direct = 0;
      if (u[i] <= -1.0) {
        direct = 0;
      } else if (u[i] < 0.0) {
        direct = h.half() - static_cast<std::size_t>(std::floor(-u[i] * half));
      } else if (u[i] == 0.0) {
        direct = h.half() + 1;
      } else if (u[i] < 1.0) {
        direct = h.half() + 2 + static_cast<std::size_t>(std::floor(u[i] * half));
      } else {
        direct = 2 * h.half() + 2;
      }
      EXPECT_EQ(h.index_of(key), direct) << u[i] << " at " << bits << " bits";
      if (i > 0) {
        EXPECT_LE(cell_key(u[i - 1]), key) << u[i - 1] << " then " << u[i];
      }
    }
  }
  EXPECT_EQ(cell_key(std::numeric_limits<double>::quiet_NaN()), kAboveKey);
  EXPECT_EQ(cell_key(-0.0), kZeroKey);
}

TEST(Histogram, ChiSquareBinsAreEqualBinsOfU) {
  const std::vector<double> u = samples()[1];
  Histogram h(14);
  std::vector<std::uint64_t> direct(kChiSquareBins, 0);
  for (const double x : u) {
    h.add(x);
    const double bin = std::floor((x + 1.0) / 2.0 * static_cast<double>(kChiSquareBins));
    ++direct[static_cast<std::size_t>(bin)];
  }
  EXPECT_EQ(h.coarse(kChiSquareBins), direct);
}

TEST(Histogram, TheEcdfPictureIsTheEcdfAtItsEdges) {
  const std::vector<double> u = samples()[4];
  Histogram h(12);
  for (const double x : u) h.add(x);
  const std::size_t points = 64;
  const std::vector<double> picture = h.ecdf_minus_cdf(points);
  for (std::size_t p = 0; p <= points; ++p) {
    const double x = -1.0 + 2.0 * static_cast<double>(p) / static_cast<double>(points);
    // At or below zero the ECDF at x; above it the ECDF just below x.
    const auto below =
        std::count_if(u.begin(), u.end(), [&](double v) { return x <= 0.0 ? v <= x : v < x; });
    EXPECT_DOUBLE_EQ(picture[p],
                     static_cast<double>(below) / static_cast<double>(u.size()) - (x + 1.0) / 2.0)
        << x;
  }
}

TEST(Histogram, BinsGrowWithTheRootOfN) {
  EXPECT_EQ(histogram_bits_for(10'000), 11);
  EXPECT_EQ(histogram_bits_for(1'000'000), 14);
  EXPECT_EQ(histogram_bits_for(1'000'000'000), 19);
  EXPECT_EQ(histogram_bits_for(10), kMinHistogramBits);
  for (const std::uint64_t n : {10'000ULL, 1'000'000ULL, 1'000'000'000ULL, 0xFFFF'FFFFULL}) {
    const double bin_mass = std::ldexp(0.5, -histogram_bits_for(n));
    EXPECT_LE(bin_mass, 1.0 / (kBinsPerRootN * std::sqrt(static_cast<double>(n)))) << n;
  }
}

}  // namespace
}  // namespace acemq::stats
