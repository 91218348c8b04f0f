// The battery: every statistical test the suite runs on one sample of u.
//
// The null hypothesis is the contract: u = (j/d − 1)/f are independent draws
// from Uniform[−1, 1), up to the rounding that jitter_sample.hpp bounds. Each
// test returns a p-value, exact or asymptotic as stated, and never NaN: a
// statistic that cannot be computed (a constant sample has no variance) means
// data that the null gives probability 0, so its p-value is 0.
//
// The decision (which alpha, how many tests share it) belongs to the caller;
// see family.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "jitter_sample.hpp"

namespace acemq::stats {

// The tests by name, in the order analyze() returns them.
inline constexpr const char* kKolmogorovSmirnov = "ks_uniform";
inline constexpr const char* kChiSquare = "chi_square_1024";
inline constexpr const char* kSign = "sign";
inline constexpr const char* kMirror = "mirror_ks";
inline constexpr const char* kMean = "mean_t";
inline constexpr const char* kVariance = "variance";
inline constexpr const char* kRuns = "runs_median";
inline constexpr const char* kLag1 = "lag1_ljung_box";
inline constexpr const char* kRepeats = "repeats_2^40";
inline constexpr std::size_t kTestsPerSample = 9;
// The range check, reported alongside the tests by rejected_by().
inline constexpr const char* kRange = "range";

// 1024 equal-probability bins: 97 expected per bin at n = 10^5, far above
// the 10 the chi-square approximation wants.
inline constexpr int kChiSquareBins = 1024;
// The repeats test counts u falling into an already-occupied cell of width
// 2^-39 (2^40 cells over [−1, 1)); see analyze() for the bound on chance.
inline constexpr int kRepeatCellBits = 40;
// The battery needs this many samples for its asymptotic p-values.
inline constexpr std::size_t kMinimumSamples = std::size_t{10} * std::size_t{kChiSquareBins};

struct TestResult {
  std::string name;
  double statistic = 0.0;
  double p_value = 1.0;
};

// What the pictures of a sample need, computed from the sorted sample.
struct PictureData {
  // ECDF − uniform CDF at kEcdfPoints evenly spaced x in [−1, 1].
  std::vector<double> ecdf_x;
  std::vector<double> ecdf_minus_cdf;
  // The KS statistic D and the x where |ECDF − CDF| reaches it.
  double ks_d = 0.0;
  double ks_at = 0.0;
  // Counts in kHistogramBins equal bins over [−1, 1).
  std::vector<std::uint64_t> histogram;
};
inline constexpr int kEcdfPoints = 801;
inline constexpr int kHistogramBins = 100;

struct Analysis {
  std::size_t n = 0;
  std::vector<TestResult> tests;  // kTestsPerSample of them
  PictureData picture;

  const TestResult& test(const std::string& name) const;
};

// Runs the battery on u (in call order) drawn with jitter factor `factor`;
// the factor sets the rounding allowance of the repeats test. Throws
// std::invalid_argument below kMinimumSamples.
Analysis analyze(std::vector<double> u, double factor);

// Single tests, for the power checks that run one test many times. sorted
// must be ascending; u in call order.
TestResult ks_test(const std::vector<double>& sorted);
TestResult sign_test(const std::vector<double>& u);
TestResult lag1_test(const std::vector<double>& u);

// The names of the tests whose p-value is below alpha, led by "range" when
// the range check failed: an empty list is a pass.
std::vector<std::string> rejected_by(const Analysis& analysis, const RangeCheck& range,
                                     double alpha);

// The Poisson mean that bounds the repeats count under the null, for n
// samples at jitter factor f (the derivation is at its definition).
double repeats_null_mean_bound(std::size_t n, double factor);

}  // namespace acemq::stats
