#include "stats/battery/kolmogorov.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

namespace acemq::stats {
namespace {

// Below x = 1 the alternating series needs ~ 1/x terms and cancels; the
// Jacobi theta form needs three terms there, so the crossover sits at 1.
constexpr double kCrossover = 1.0;

double theta_cdf(double x) {
  const double pi2_8x2 = std::numbers::pi * std::numbers::pi / (8.0 * x * x);
  double sum = 0.0;
  for (int k = 1; k <= 100; ++k) {
    const double odd = 2.0 * k - 1.0;
    const double term = std::exp(-odd * odd * pi2_8x2);
    sum += term;
    if (term <= sum * 1e-17) break;
  }
  return std::sqrt(2.0 * std::numbers::pi) / x * sum;
}

double alternating_sf(double x) {
  double sum = 0.0;
  for (int k = 1; k <= 100; ++k) {
    const double term = std::exp(-2.0 * k * k * x * x);
    sum += (k % 2 == 1) ? term : -term;
    if (term <= sum * 1e-17) break;
  }
  return 2.0 * sum;
}

// Marsaglia–Tsang–Wang keep the matrix entries in range with a decimal
// exponent carried alongside, stepping by 10^140.
struct ScaledMatrix {
  int m = 0;
  std::vector<double> v;
  int exponent = 0;

  // Indices stay int, as in the paper's C, because i - j + 1 goes negative.
  double& at(int i, int j) { return v[index(i, j)]; }
  double at(int i, int j) const { return v[index(i, j)]; }
  std::size_t index(int i, int j) const {
    return static_cast<std::size_t>(i) * static_cast<std::size_t>(m) + static_cast<std::size_t>(j);
  }
};

ScaledMatrix multiply(const ScaledMatrix& a, const ScaledMatrix& b) {
  ScaledMatrix c{a.m, std::vector<double>(a.v.size(), 0.0), a.exponent + b.exponent};
  const int m = a.m;
  for (int i = 0; i < m; ++i) {
    for (int k = 0; k < m; ++k) {
      const double aik = a.at(i, k);
      if (aik == 0.0) continue;
      for (int j = 0; j < m; ++j) c.at(i, j) += aik * b.at(k, j);
    }
  }
  return c;
}

void rescale(ScaledMatrix& a) {
  if (a.at(a.m / 2, a.m / 2) > 1e140) {
    for (double& x : a.v) x *= 1e-140;
    a.exponent += 140;
  }
}

ScaledMatrix power(const ScaledMatrix& a, int n) {
  if (n == 1) return a;
  ScaledMatrix half = power(a, n / 2);
  ScaledMatrix result = multiply(half, half);
  if (n % 2 == 1) result = multiply(a, result);
  rescale(result);
  return result;
}

}  // namespace

double kolmogorov_cdf(double x) {
  if (!(x > 0.0)) return 0.0;
  if (x < kCrossover) return theta_cdf(x);
  return 1.0 - alternating_sf(x);
}

double kolmogorov_sf(double x) {
  if (!(x > 0.0)) return 1.0;
  if (x < kCrossover) return 1.0 - theta_cdf(x);
  return alternating_sf(x);
}

double kolmogorov_critical_value(double alpha) {
  if (!(alpha > 0.0 && alpha < 1.0)) {
    throw std::domain_error("kolmogorov_critical_value: alpha must be in (0, 1)");
  }
  // sf falls from 1 at 0 to below 1e-300 at 20; bisection to the last bit.
  double lo = 0.0;
  double hi = 20.0;
  for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (kolmogorov_sf(mid) > alpha ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

double kolmogorov_smirnov_cdf(int n, double d) {
  if (n < 1) throw std::domain_error("kolmogorov_smirnov_cdf: n must be >= 1");
  if (!(d > 0.0)) return 0.0;
  if (d >= 1.0) return 1.0;
  const int k = static_cast<int>(n * d) + 1;
  const int m = 2 * k - 1;
  const double h = k - n * d;
  ScaledMatrix hm{m, std::vector<double>(static_cast<std::size_t>(m) * static_cast<std::size_t>(m)),
                  0};
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) hm.at(i, j) = (i - j + 1 < 0) ? 0.0 : 1.0;
  }
  for (int i = 0; i < m; ++i) {
    hm.at(i, 0) -= std::pow(h, i + 1);
    hm.at(m - 1, i) -= std::pow(h, m - i);
  }
  hm.at(m - 1, 0) += (2 * h - 1 > 0 ? std::pow(2 * h - 1, m) : 0.0);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) {
      if (i - j + 1 > 0) {
        for (int g = 1; g <= i - j + 1; ++g) hm.at(i, j) /= g;
      }
    }
  }
  const ScaledMatrix q = power(hm, n);
  double s = q.at(k - 1, k - 1);
  int exponent = q.exponent;
  for (int i = 1; i <= n; ++i) {
    s = s * i / n;
    if (s < 1e-140) {
      s *= 1e140;
      exponent -= 140;
    }
  }
  return s * std::pow(10.0, exponent);
}

}  // namespace acemq::stats
