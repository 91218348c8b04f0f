#include "battery.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <utility>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/complement.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/poisson.hpp>
#include <boost/math/statistics/ljung_box.hpp>
#include <boost/math/statistics/runs_test.hpp>
#include <boost/math/statistics/t_test.hpp>
#include <boost/math/statistics/univariate_statistics.hpp>

#include "kolmogorov.hpp"

namespace acemq::stats {
namespace {

// See battery.hpp: an incomputable statistic on >= 10^4 samples is a
// degenerate sample, which the null gives probability 0.
double sane(double p) { return std::isnan(p) ? 0.0 : std::clamp(p, 0.0, 1.0); }

double uniform_cdf(double x) { return std::clamp((x + 1.0) / 2.0, 0.0, 1.0); }

// Equal bins over [−1, 1); a value outside (which the range check reports)
// counts in the nearest end bin. Clamped before the cast, which is undefined
// for infinities.
std::size_t bin_of(double x, int bins) {
  const double position = std::floor((x + 1.0) / 2.0 * bins);
  return static_cast<std::size_t>(std::clamp(position, 0.0, static_cast<double>(bins - 1)));
}

double two_sided_normal_p(double z) {
  const boost::math::normal standard;
  return 2.0 * boost::math::cdf(boost::math::complement(standard, std::abs(z)));
}

// D = sup |ECDF − F| over the sorted sample, exact with ties: the last of a
// tied run gives D+, the first gives D−, the others never exceed them.
std::pair<double, double> ks_statistic(const std::vector<double>& sorted) {
  const double n = static_cast<double>(sorted.size());
  double d = 0.0;
  double at = 0.0;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const double f = uniform_cdf(sorted[i]);
    const double above = static_cast<double>(i + 1) / n - f;
    const double below = f - static_cast<double>(i) / n;
    if (above > d) d = above, at = sorted[i];
    if (below > d) d = below, at = sorted[i];
  }
  return {d, at};
}

TestResult kolmogorov_smirnov(const std::vector<double>& sorted, PictureData& picture) {
  const auto [d, at] = ks_statistic(sorted);
  picture.ks_d = d;
  picture.ks_at = at;
  const double x = std::sqrt(static_cast<double>(sorted.size())) * d;
  return {kKolmogorovSmirnov, d, kolmogorov_sf(x)};
}

TestResult chi_square(const std::vector<double>& u) {
  std::vector<std::uint64_t> counts(kChiSquareBins, 0);
  for (const double x : u) {
    ++counts[bin_of(x, kChiSquareBins)];
  }
  const double expected = static_cast<double>(u.size()) / kChiSquareBins;
  double statistic = 0.0;
  for (const std::uint64_t observed : counts) {
    const double diff = static_cast<double>(observed) - expected;
    statistic += diff * diff / expected;
  }
  const boost::math::chi_squared law(kChiSquareBins - 1);
  return {kChiSquare, statistic, boost::math::cdf(boost::math::complement(law, statistic))};
}

// Zeros are ties and drop out, as in any sign test: u = 0 needs a draw
// within ~2^-52/f of r = 1/2.
TestResult sign(const std::vector<double>& u) {
  std::uint64_t below = 0;
  std::uint64_t above = 0;
  for (const double x : u) {
    below += x < 0.0;
    above += x > 0.0;
  }
  const std::uint64_t trials = below + above;
  if (trials == 0) return {kSign, 0.0, 0.0};
  const boost::math::binomial law(static_cast<double>(trials), 0.5);
  const double k = static_cast<double>(below);
  const double lower_tail = boost::math::cdf(law, k);
  const double upper_tail =
      below == 0 ? 1.0 : boost::math::cdf(boost::math::complement(law, k - 1.0));
  const double share = k / static_cast<double>(trials) - 0.5;
  return {kSign, share, sane(2.0 * std::min(lower_tail, upper_tail))};
}

// The upper half against the mirrored lower half: both should be
// Uniform(0, 1], so a shape that differs between the sides shows here even
// when the two sides hold equal shares.
TestResult mirror(const std::vector<double>& sorted) {
  const auto first_positive = std::upper_bound(sorted.begin(), sorted.end(), 0.0);
  const auto first_zero = std::lower_bound(sorted.begin(), sorted.end(), 0.0);
  // Upper: ascending from first_positive. Mirrored lower: −u, ascending when
  // read backwards from first_zero.
  const std::size_t m = static_cast<std::size_t>(sorted.end() - first_positive);
  const std::size_t k = static_cast<std::size_t>(first_zero - sorted.begin());
  if (m == 0 || k == 0) {
    // All on one side: the null gives that 2^(1 − n), below any double here.
    return {kMirror, 1.0, 0.0};
  }
  auto a = first_positive;
  auto b = first_zero;  // reads sorted[b − 1], moving down
  std::size_t ia = 0;
  std::size_t ib = 0;
  double d = 0.0;
  while (ia < m && ib < k) {
    const double va = *a;
    const double vb = -*(b - 1);
    const double v = std::min(va, vb);
    while (ia < m && *a == v) ++a, ++ia;
    while (ib < k && -*(b - 1) == v) --b, ++ib;
    d = std::max(d, std::abs(static_cast<double>(ia) / static_cast<double>(m) -
                             static_cast<double>(ib) / static_cast<double>(k)));
  }
  const double effective =
      static_cast<double>(m) * static_cast<double>(k) / static_cast<double>(m + k);
  return {kMirror, d, kolmogorov_sf(std::sqrt(effective) * d)};
}

// A sample with a single value: Boost's t-test and Ljung–Box divide by its
// zero variance and throw on the NaN, so it is answered here (p = 0, as
// battery.hpp says).
bool constant(const std::vector<double>& u) {
  const auto [lo, hi] = std::minmax_element(u.begin(), u.end());
  return *lo == *hi;
}

TestResult mean(const std::vector<double>& u) {
  if (constant(u)) return {kMean, std::numeric_limits<double>::quiet_NaN(), 0.0};
  const auto [t, p] = boost::math::statistics::one_sample_t_test(u, 0.0);
  return {kMean, t, sane(p)};
}

// The sample variance is asymptotically normal with variance (mu4 − sigma^4)/n,
// and for Uniform[−1, 1) mu4 = 1/5 and sigma^4 = 1/9, so (4/45)/n. The
// chi-square variance test assumes normal data and would be wrong here.
TestResult variance(const std::vector<double>& u) {
  const auto [mu, s2] = boost::math::statistics::mean_and_sample_variance(u.begin(), u.end());
  static_cast<void>(mu);
  const double n = static_cast<double>(u.size());
  const double z = (s2 - 1.0 / 3.0) / std::sqrt(4.0 / 45.0 / n);
  return {kVariance, s2 * 3.0, sane(two_sided_normal_p(z))};
}

TestResult runs(const std::vector<double>& u) {
  const auto [z, p] = boost::math::statistics::runs_above_and_below_median(u);
  return {kRuns, z, sane(p)};
}

// Ljung–Box with one lag is the lag-1 serial correlation test:
// Q = n(n+2)·r1²/(n−1), chi-square with 1 degree of freedom.
TestResult lag1(const std::vector<double>& u) {
  if (constant(u)) return {kLag1, std::numeric_limits<double>::quiet_NaN(), 0.0};
  const auto [q, p] = boost::math::statistics::ljung_box(u.begin(), u.end(), 1);
  return {kLag1, q, sane(p)};
}

TestResult repeats(const std::vector<double>& sorted, double factor) {
  // The cell index is monotone in u (rounding is), so repeats in a sorted
  // sample are neighbours.
  const double cells_per_unit = std::ldexp(1.0, kRepeatCellBits - 1);
  std::uint64_t count = 0;
  double previous_cell = -1.0;
  for (const double x : sorted) {
    const double cell = std::floor((x + 1.0) * cells_per_unit);
    count += cell == previous_cell;
    previous_cell = cell;
  }
  const double lambda = repeats_null_mean_bound(sorted.size(), factor);
  const boost::math::poisson law(lambda);
  const double p =
      count == 0 ? 1.0
                 : boost::math::cdf(boost::math::complement(law, static_cast<double>(count) - 1.0));
  return {kRepeats, static_cast<double>(count), sane(p)};
}

void draw_pictures(const std::vector<double>& sorted, PictureData& picture) {
  const double n = static_cast<double>(sorted.size());
  picture.ecdf_x.resize(kEcdfPoints);
  picture.ecdf_minus_cdf.resize(kEcdfPoints);
  for (std::size_t i = 0; i < kEcdfPoints; ++i) {
    const double x = -1.0 + 2.0 * static_cast<double>(i) / (kEcdfPoints - 1);
    const auto below = std::upper_bound(sorted.begin(), sorted.end(), x) - sorted.begin();
    picture.ecdf_x[i] = x;
    picture.ecdf_minus_cdf[i] = static_cast<double>(below) / n - uniform_cdf(x);
  }
  picture.histogram.assign(kHistogramBins, 0);
  for (const double x : sorted) {
    ++picture.histogram[bin_of(x, kHistogramBins)];
  }
}

}  // namespace

double repeats_null_mean_bound(std::size_t n, double factor) {
  // Under the null the chance that two samples share a cell is at most the
  // largest cell probability. A cell is 2^-39 wide in u; a draw lands in it
  // when 2r − 1 lies within the cell widened by the rounding of u on each
  // side (at most 8·2^-52/f), and r has 2^53 equally likely values, which
  // adds at most one draw. So
  //   p_cell <= 2^-40 · (1 + 2·(8·2^-52/f)/2^-39 + 2^-12),
  // which is 1.04·2^-40 at f = 0.05, and the number of repeats is bounded by
  // a Poisson count of mean C(n, 2)·p_cell (the birthday bound; a larger
  // mean only makes the p-value larger, so the bound is conservative).
  const double cell = std::ldexp(1.0, -(kRepeatCellBits - 1));
  const double rounding = 8.0 * std::ldexp(1.0, -52) / factor;
  const double p_cell =
      std::ldexp(1.0, -kRepeatCellBits) * (1.0 + 2.0 * rounding / cell + std::ldexp(1.0, -12));
  const double pairs = static_cast<double>(n) * (static_cast<double>(n) - 1.0) / 2.0;
  return pairs * p_cell;
}

TestResult ks_test(const std::vector<double>& sorted) {
  PictureData unused;
  return kolmogorov_smirnov(sorted, unused);
}
TestResult sign_test(const std::vector<double>& u) { return sign(u); }
TestResult lag1_test(const std::vector<double>& u) { return lag1(u); }

const TestResult& Analysis::test(const std::string& name) const {
  for (const TestResult& t : tests) {
    if (t.name == name) return t;
  }
  throw std::out_of_range("Analysis::test: no test named " + name);
}

std::vector<std::string> rejected_by(const Analysis& analysis, const RangeCheck& range,
                                     double alpha) {
  std::vector<std::string> names;
  if (!range.ok()) names.emplace_back(kRange);
  for (const TestResult& t : analysis.tests) {
    if (t.p_value < alpha) names.push_back(t.name);
  }
  return names;
}

Analysis analyze(std::vector<double> u, double factor) {
  if (u.size() < kMinimumSamples) {
    throw std::invalid_argument("analyze: the battery needs at least " +
                                std::to_string(kMinimumSamples) + " samples");
  }
  // NaN is out of range (the range check says so) and would break sorting;
  // +inf is out of range too and sorts.
  for (double& x : u) {
    if (std::isnan(x)) x = std::numeric_limits<double>::infinity();
  }
  Analysis result;
  result.n = u.size();
  result.tests.reserve(kTestsPerSample);
  // The order-dependent tests first, while u is in call order.
  TestResult runs_result = runs(u);
  TestResult lag1_result = lag1(u);
  TestResult mean_result = mean(u);
  TestResult variance_result = variance(u);
  TestResult chi_result = chi_square(u);
  TestResult sign_result = sign(u);
  std::sort(u.begin(), u.end());
  result.tests.push_back(kolmogorov_smirnov(u, result.picture));
  result.tests.push_back(std::move(chi_result));
  result.tests.push_back(std::move(sign_result));
  result.tests.push_back(mirror(u));
  result.tests.push_back(std::move(mean_result));
  result.tests.push_back(std::move(variance_result));
  result.tests.push_back(std::move(runs_result));
  result.tests.push_back(std::move(lag1_result));
  result.tests.push_back(repeats(u, factor));
  draw_pictures(u, result.picture);
  return result;
}

}  // namespace acemq::stats
