#include "stats/battery/battery.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/complement.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/poisson.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/policies/policy.hpp>

#include "acemq/model/bits.hpp"
#include "stats/battery/kolmogorov.hpp"
#include "stats/battery/runs.hpp"

namespace acemq::stats {
namespace {

// Every distribution here answers an argument outside its domain (a NaN or
// infinite statistic, a sample with no variance, no degrees of freedom) with
// NaN instead of throwing: the samples may be an untrusted adapter's
// (`retry-policy stats --impl`), and a library exception must never stand in
// for a verdict. sane() then makes the NaN p = 0 (battery.hpp: an
// incomputable statistic is data the null gives probability 0).
// degenerate_test.cc drives each distribution with such data.
namespace policies = boost::math::policies;
using Quiet = policies::policy<policies::domain_error<policies::ignore_error>,
                               policies::pole_error<policies::ignore_error>,
                               policies::overflow_error<policies::ignore_error>,
                               policies::evaluation_error<policies::ignore_error>,
                               policies::rounding_error<policies::ignore_error>,
                               policies::indeterminate_result_error<policies::ignore_error>>;
using ChiSquared = boost::math::chi_squared_distribution<double, Quiet>;
using Normal = boost::math::normal_distribution<double, Quiet>;
using Binomial = boost::math::binomial_distribution<double, Quiet>;
using Poisson = boost::math::poisson_distribution<double, Quiet>;
using StudentsT = boost::math::students_t_distribution<double, Quiet>;

// See battery.hpp: an incomputable statistic on kMinimumSamples or more is a
// degenerate sample, which the null gives probability 0.
double sane(double p) { return std::isnan(p) ? 0.0 : std::clamp(p, 0.0, 1.0); }

// P(X > x) for a continuous law; a NaN or infinite statistic is p = 0 without
// asking the law (Boost refuses a non-finite x even quietly, as NaN).
template <class Law>
double upper_tail(const Law& law, double x) {
  if (!std::isfinite(x)) return 0.0;
  return sane(boost::math::cdf(boost::math::complement(law, x)));
}

double two_sided_normal_p(double z) { return sane(2.0 * upper_tail(Normal(), std::abs(z))); }

// P(X <= k or X >= the mirror of k) for X ~ Binomial(trials, 1/2): twice the
// smaller tail, exact.
double two_sided_binomial_p(std::uint64_t k, std::uint64_t trials) {
  const Binomial law(static_cast<double>(trials), 0.5);
  const double x = static_cast<double>(k);
  const double lower_tail = boost::math::cdf(law, x);
  const double upper_tail = k == 0 ? 1.0 : boost::math::cdf(boost::math::complement(law, x - 1.0));
  return sane(2.0 * std::min(lower_tail, upper_tail));
}

double kolmogorov_p(double effective_n, double d) {
  return kolmogorov_sf(std::sqrt(effective_n) * d);
}

}  // namespace

TestResult chi_square_test(const Histogram& histogram) {
  const std::vector<std::uint64_t> counts = histogram.coarse(kChiSquareBins);
  const double expected =
      static_cast<double>(histogram.total()) / static_cast<double>(kChiSquareBins);
  double statistic = 0.0;
  for (const std::uint64_t observed : counts) {
    const double diff = static_cast<double>(observed) - expected;
    statistic += diff * diff / expected;
  }
  const ChiSquared law(static_cast<double>(kChiSquareBins - 1));
  return {kChiSquare, statistic, upper_tail(law, statistic)};
}

// The upper half against the mirrored lower half: both should be
// Uniform(0, 1], so a shape that differs between the sides shows here even
// when the two sides hold equal shares.
TestResult mirror_test(const Histogram& histogram) {
  const double m = static_cast<double>(histogram.above_zero());
  const double k = static_cast<double>(histogram.below_zero());
  // All on one side: the null gives that 2^(1 − n), below any double here.
  if (m == 0.0 || k == 0.0) return {kMirror, 1.0, 0.0};
  const double d = histogram.mirror_ks();
  return {kMirror, d, kolmogorov_p(m * k / (m + k), d)};
}

namespace {

// A sample with a single value has no variance, so the t and lag-1
// statistics divide by zero; answered here (p = 0, as battery.hpp says).
// Values that differ but clamp to the same moment (all beyond ±2) have no
// variance either; those reach the laws as NaN statistics, which
// upper_tail() answers with p = 0.
bool constant(const Moments& moments) { return moments.min() == moments.max(); }

}  // namespace

// Student's t on the mean, computed as boost::math::statistics::
// one_sample_t_test computes it (t = mean/sqrt(s²/n), p = 2·cdf(t_{n−1}, −|t|)),
// with the quiet law: that function's own throws for n < 2.
TestResult mean_test(const Moments& moments) {
  if (constant(moments)) return {kMean, std::numeric_limits<double>::quiet_NaN(), 0.0};
  const double n = static_cast<double>(moments.n());
  const double t = moments.mean() / std::sqrt(moments.sample_variance() / n);
  if (!(n > 1.0) || !std::isfinite(t)) return {kMean, t, 0.0};
  return {kMean, t, sane(2.0 * boost::math::cdf(StudentsT(n - 1.0), -std::abs(t)))};
}

TestResult variance_test(const Moments& moments) {
  const double s2 = moments.sample_variance();
  const double n = static_cast<double>(moments.n());
  const double z = (s2 - 1.0 / 3.0) / std::sqrt(4.0 / 45.0 / n);
  return {kVariance, s2 * 3.0, sane(two_sided_normal_p(z))};
}

TestResult repeats_test(const RepeatCounts& counts, double factor, int min_bits) {
  const double lambda = repeats_null_mean_bound(counts.pairs, factor, min_bits);
  const double c = static_cast<double>(counts.count);
  double p = 1.0;
  // A repeat with no pairs to make it cannot happen; the law needs a mean > 0.
  if (counts.count > 0) p = lambda > 0.0 ? upper_tail(Poisson(lambda), c - 1.0) : 0.0;
  return {kRepeats, c, p};
}

namespace {

PictureData pictures(const Histogram& histogram) {
  PictureData picture;
  picture.ecdf_minus_cdf = histogram.ecdf_minus_cdf(kEcdfPoints);
  picture.ecdf_x.resize(kEcdfPoints + 1);
  for (std::size_t p = 0; p <= kEcdfPoints; ++p) {
    picture.ecdf_x[p] = -1.0 + 2.0 * static_cast<double>(p) / static_cast<double>(kEcdfPoints);
  }
  const Histogram::Deviation ks = histogram.ks();
  picture.ks_d = ks.d;
  picture.ks_at = ks.at;
  picture.histogram_bits = histogram.bits();
  picture.histogram = histogram.coarse(kHistogramBins);
  return picture;
}

bool same(const RangeCheck& a, const RangeCheck& b) {
  using model::same_bits;
  if (!(same_bits(a.lo, b.lo) && same_bits(a.hi, b.hi) && a.outside == b.outside &&
        same_bits(a.min, b.min) && same_bits(a.max, b.max))) {
    return false;
  }
  for (std::size_t i = 0; i < kShownOutside; ++i) {
    if (a.shown[i].draw != b.shown[i].draw || !same_bits(a.shown[i].value, b.shown[i].value)) {
      return false;
    }
  }
  return true;
}

}  // namespace

BatteryConfig BatteryConfig::for_samples(double delay, double factor, std::uint64_t n,
                                         int min_bits) {
  return {delay, factor, histogram_bits_for(n), min_bits};
}

BatteryState::BatteryState(const BatteryConfig& c)
    : config(c), range(c.delay, c.factor), histogram(c.histogram_bits) {}

void BatteryState::merge(const BatteryState& other) {
  if (!(other.config == config)) {
    throw std::invalid_argument("BatteryState::merge: the states are of different cells");
  }
  if (n() + other.n() > kMaxSamples) {
    throw std::length_error("BatteryState::merge: more than 2^32 - 1 samples in one cell");
  }
  range.merge(other.range);
  histogram.merge(other.histogram);
  moments.merge(other.moments);
  runs.merge(other.runs);
  repeats.merge(other.repeats);
}

bool operator==(const BatteryState& a, const BatteryState& b) {
  return a.config == b.config && same(a.range, b.range) && a.histogram == b.histogram &&
         a.moments == b.moments && a.runs == b.runs && a.repeats == b.repeats;
}

void Accumulator::begin(BatteryState& state, std::uint64_t segment) {
  state_ = &state;
  segment_ = segment;
  in_segment_ = 0;
}

template <bool kJittered>
void Accumulator::add(std::span<const double> values) {
  BatteryState& state = *state_;
  if (state.n() + values.size() > kMaxSamples) {
    throw std::length_error("Accumulator: more than 2^32 - 1 samples in one cell");
  }
  const double d = state.config.delay;
  const double f = state.config.factor;
  // Local copies, so the compiler keeps the sums in registers instead of
  // storing them back at every sample (they could alias the doubles read).
  RangeCheck range = state.range;
  Moments moments = state.moments;
  SignRuns runs = state.runs;
  // The place of values[0] in the cell's call order: segments are whole
  // windows of kSegmentSamples but the last.
  const std::uint64_t first_draw = segment_ * kSegmentSamples + in_segment_;
  std::size_t i = 0;
  while (i < values.size()) {
    const std::size_t end =
        std::min<std::size_t>(values.size(), i + (kSegmentSamples - window_.size()));
    for (; i < end; ++i) {
      double u = values[i];
      if constexpr (kJittered) {
        range.add(u, first_draw + i);
        u = u_of(u, d, f);
      }
      // NaN fails the range check; here it counts as above every bin, as +inf.
      if (std::isnan(u)) u = std::numeric_limits<double>::infinity();
      moments.add(u);
      runs.add(u);
      const std::uint64_t key = cell_key(u);
      window_.add(key);
      if (key == kBelowKey || key == kAboveKey) [[unlikely]]
        window_.add_outside(u);
    }
    if (window_.size() == kSegmentSamples) window_.flush(state.repeats, state.histogram);
  }
  state.range = range;
  state.moments = moments;
  state.runs = runs;
  in_segment_ += values.size();
}

void Accumulator::add_jittered(std::span<const double> jittered) { add<true>(jittered); }

void Accumulator::add_u(std::span<const double> u) { add<false>(u); }

void Accumulator::end() {
  window_.flush(state_->repeats, state_->histogram);
  state_->moments.end_segment();
  state_->runs.end_segment();
  state_ = nullptr;
}

double repeats_null_mean_bound(std::uint64_t pairs, double factor, int min_bits) {
  // Under the null the chance that two samples share a cell is at most the
  // largest cell probability. A cell is 2^-39 wide in u; a draw lands in it
  // when 2r − 1 lies within the cell widened by the rounding of u on each
  // side (u_rounding_bound), a width W = 2^-40·(1 + 2·(8·2^-52/f)/2^-39) in
  // r. The null source is uniform on a grid of spacing s < 2^(1 − B), B the
  // bits it must have (the contract's 53, or --min-bits): a window of width
  // W holds at most W/s + 1 of its values, each of mass s, so
  //   p_cell <= W + s < W + 2^(1 − B),
  // which at B = 53 is 2^-40·(1 + 2·(8·2^-52/f)/2^-39 + 2^-12), 1.04·2^-40
  // at f = 0.05, and at B = 31 is about 2^-30: a 31-bit source (Mono's
  // i/(2^31 − 1) among them) repeats by the birthday bound, and that is its
  // null then. The number of repeats in a window of w is bounded by a
  // Poisson count of mean C(w, 2)·p_cell (the birthday bound; a larger mean
  // only makes the p-value larger, so the bound is conservative).
  // Independent windows add their means.
  const double cell = std::ldexp(1.0, -kCellBits);
  const double p_cell =
      std::ldexp(1.0, -(kCellBits + 1)) * (1.0 + 2.0 * u_rounding_bound(factor) / cell) +
      std::ldexp(1.0, 1 - min_bits);
  return static_cast<double>(pairs) * p_cell;
}

std::uint64_t window_pairs(std::uint64_t n) {
  const auto pairs = [](std::uint64_t w) { return w < 2 ? 0 : w * (w - 1) / 2; };
  return (n / kSegmentSamples) * pairs(kSegmentSamples) + pairs(n % kSegmentSamples);
}

TestResult ks_test(const Histogram& histogram) {
  const Histogram::Deviation ks = histogram.ks();
  return {kKolmogorovSmirnov, ks.d, kolmogorov_p(static_cast<double>(histogram.total()), ks.d)};
}

// Zeros are ties and drop out, as in any sign test: u = 0 needs a draw
// within ~2^-52/f of r = 1/2.
TestResult sign_test(const Histogram& histogram) {
  const std::uint64_t below = histogram.below_zero();
  const std::uint64_t trials = below + histogram.above_zero();
  if (trials == 0) return {kSign, 0.0, 0.0};
  const double share = static_cast<double>(below) / static_cast<double>(trials) - 0.5;
  return {kSign, share, two_sided_binomial_p(below, trials)};
}

TestResult runs_test(const SignRuns& runs) {
  if (runs.pairs == 0) return {kRuns, 0.0, 0.0};
  const double share = static_cast<double>(runs.changes) / static_cast<double>(runs.pairs) - 0.5;
  return {kRuns, share, two_sided_binomial_p(runs.changes, runs.pairs)};
}

// Ljung–Box with one lag is the lag-1 serial correlation test:
// Q = n(n+2)·r1²/(n−1), chi-square with 1 degree of freedom.
TestResult lag1_test(const Moments& moments) {
  if (constant(moments)) return {kLag1, std::numeric_limits<double>::quiet_NaN(), 0.0};
  const double n = static_cast<double>(moments.n());
  const double r1 = moments.lag1_autocorrelation();
  const double q = n * (n + 2.0) * r1 * r1 / (n - 1.0);
  return {kLag1, q, upper_tail(ChiSquared(1.0), q)};
}

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

Analysis analyze(const BatteryState& state) {
  if (state.n() < kMinimumSamples) {
    throw std::invalid_argument("analyze: the battery needs at least " +
                                std::to_string(kMinimumSamples) + " samples, got " +
                                std::to_string(state.n()));
  }
  Analysis result;
  result.n = state.n();
  result.tests.reserve(kTestsPerSample);
  for (const BatteryTest& test : kBatteryTests) result.tests.push_back(test.run(state));
  result.picture = pictures(state.histogram);
  return result;
}

}  // namespace acemq::stats
