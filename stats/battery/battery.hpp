// The battery: every statistical test the suite runs on one cell's draws,
// computed from a small state that streams and merges.
//
// The null hypothesis is the contract: u = (j/d − 1)/f are independent draws
// from Uniform[−1, 1), up to the rounding that range_check.hpp bounds. Draws
// flow through an Accumulator, in segments of consecutive calls and spans of
// any length, into a BatteryState that keeps no sample: a fine histogram of u
// (histogram.hpp), exact moment sums (moments.hpp), zero-crossing counts
// (sign_runs.hpp), per-window repeats (repeats.hpp) and the range check.
// States of any parts of a cell merge, in any order, into the state of the
// whole, bit for bit, so one process, two threads or N machines give the same
// verdict.
//
// analyze() turns a state into a p-value per test, exact or asymptotic as
// stated, and never NaN: a statistic that cannot be computed (a constant
// sample has no variance) means data that the null gives probability 0, so
// its p-value is 0. The decision (which alpha, how many tests share it)
// belongs to the caller; see family.hpp.
//
// The samples may come from anywhere: this C++ core (grid.hpp), a known-bad
// double (known_bad.hpp), or another language's port, as jittered delays with
// their d and f (add_jittered) or as u directly (add_u).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "stats/battery/histogram.hpp"
#include "stats/battery/moments.hpp"
#include "stats/battery/range_check.hpp"
#include "stats/battery/repeats.hpp"
#include "stats/battery/resolution_bits.hpp"
#include "stats/battery/sign_runs.hpp"

namespace acemq::stats {

// The tests' names; kBatteryTests, below, holds them in the order analyze()
// returns them.
inline constexpr const char* kKolmogorovSmirnov = "ks_uniform";
inline constexpr const char* kChiSquare = "chi_square_1024";
inline constexpr const char* kSign = "sign";
inline constexpr const char* kMirror = "mirror_ks";
inline constexpr const char* kMean = "mean_t";
inline constexpr const char* kVariance = "variance";
inline constexpr const char* kRuns = "runs_about_0";
inline constexpr const char* kLag1 = "lag1_ljung_box";
inline constexpr const char* kRepeats = "repeats_2^40";
// The range check, reported alongside the tests by rejected_by().
inline constexpr const char* kRange = "range";

// Equal-probability bins for chi-square, made from the fine histogram.
inline constexpr std::size_t kChiSquareBins = 1024;
// The battery needs this many samples for its asymptotic p-values: ten
// expected in each chi-square bin.
inline constexpr std::uint64_t kMinimumSamples = std::uint64_t{10} * kChiSquareBins;

// What a cell's state is about: the delay and factor its u is computed from
// (and its range checked against), and the histogram's resolution.
struct BatteryConfig {
  double delay = 0.0;
  double factor = 0.0;
  int histogram_bits = kMinHistogramBits;
  // The bits of resolution the source must have (resolution.hpp): the
  // repeats test's null is a source of this many, which repeats by the
  // birthday bound. The contract's 53, or less by `stats --min-bits`.
  int min_bits = kContractBits;

  // For a cell of n samples: the bins histogram_bits_for(n) gives.
  static BatteryConfig for_samples(double delay, double factor, std::uint64_t n,
                                   int min_bits = kContractBits);
  bool operator==(const BatteryConfig&) const = default;
};

struct BatteryState {
  BatteryConfig config;
  RangeCheck range;
  Histogram histogram;
  Moments moments;
  SignRuns runs;
  RepeatCounts repeats;

  BatteryState() = default;
  explicit BatteryState(const BatteryConfig& config);

  std::uint64_t n() const { return moments.n(); }
  // Adds another part of the same cell. Throws std::invalid_argument when
  // the configs differ and std::length_error past kMaxSamples.
  void merge(const BatteryState& other);

  friend bool operator==(const BatteryState& a, const BatteryState& b);
};

// Feeds draws into states. Holds the repeats window's scratch (a few MB), so
// keep one per thread and reuse it.
class Accumulator {
 public:
  // Opens a segment of consecutive draws of `state`'s cell. Segments are
  // numbered in draw order (the range check reports the first delay outside
  // by that order); draws of different segments are independent streams.
  void begin(BatteryState& state, std::uint64_t segment);
  // Jittered delays of the state's d and f, in call order.
  void add_jittered(std::span<const double> jittered);
  // u directly, in call order (no range check: there is no delay to check).
  void add_u(std::span<const double> u);
  // Closes the segment: flushes the repeats window into the state.
  void end();

 private:
  template <bool kJittered>
  void add(std::span<const double> values);

  BatteryState* state_ = nullptr;
  std::uint64_t segment_ = 0;
  std::uint64_t in_segment_ = 0;  // draws of the open segment so far
  RepeatWindow window_;
};

struct TestResult {
  std::string name;
  double statistic = 0.0;
  double p_value = 1.0;
};

// What the pictures of a cell need, from its histogram.
inline constexpr std::size_t kEcdfPoints = 1024;
inline constexpr std::size_t kHistogramBins = 128;
struct PictureData {
  // ECDF − uniform CDF at kEcdfPoints + 1 evenly spaced x in [−1, 1].
  std::vector<double> ecdf_x;
  std::vector<double> ecdf_minus_cdf;
  // The binned KS statistic D and the edge where |ECDF − CDF| reaches it.
  double ks_d = 0.0;
  double ks_at = 0.0;
  int histogram_bits = 0;
  // Counts in kHistogramBins equal bins over [−1, 1).
  std::vector<std::uint64_t> histogram;
};

// Single tests, for the power checks that run one test many times and for
// degenerate_test.cc, which drives each with data no source should make. None
// throws, whatever the data: a statistic no law can take is p = 0.
TestResult ks_test(const Histogram& histogram);
TestResult chi_square_test(const Histogram& histogram);
TestResult sign_test(const Histogram& histogram);
TestResult mirror_test(const Histogram& histogram);
TestResult mean_test(const Moments& moments);
TestResult variance_test(const Moments& moments);
TestResult runs_test(const SignRuns& runs);
TestResult lag1_test(const Moments& moments);
TestResult repeats_test(const RepeatCounts& counts, double factor, int min_bits = kContractBits);

// One row of the battery: a test, the part of the state it reads (for a
// person: which stream of the cell's draws it sees), and how it runs.
struct BatteryTest {
  const char* name;
  const char* reads;
  TestResult (*run)(const BatteryState& state);
};
// Every test analyze() runs, in its order: the family's size (family.hpp)
// and every report's count of tests follow from this table.
inline constexpr BatteryTest kBatteryTests[] = {
    {kKolmogorovSmirnov, "histogram", [](const BatteryState& s) { return ks_test(s.histogram); }},
    {kChiSquare, "histogram", [](const BatteryState& s) { return chi_square_test(s.histogram); }},
    {kSign, "histogram", [](const BatteryState& s) { return sign_test(s.histogram); }},
    {kMirror, "histogram", [](const BatteryState& s) { return mirror_test(s.histogram); }},
    {kMean, "moments", [](const BatteryState& s) { return mean_test(s.moments); }},
    {kVariance, "moments", [](const BatteryState& s) { return variance_test(s.moments); }},
    {kRuns, "sign runs", [](const BatteryState& s) { return runs_test(s.runs); }},
    {kLag1, "moments", [](const BatteryState& s) { return lag1_test(s.moments); }},
    {kRepeats, "repeats",
     [](const BatteryState& s) {
       return repeats_test(s.repeats, s.config.factor, s.config.min_bits);
     }},
};
inline constexpr std::size_t kTestsPerSample = std::size(kBatteryTests);

struct Analysis {
  std::uint64_t n = 0;
  std::vector<TestResult> tests;  // one for each row of kBatteryTests, in its order
  PictureData picture;

  const TestResult& test(const std::string& name) const;
};

// Runs the battery on a state. Throws std::invalid_argument below
// kMinimumSamples.
Analysis analyze(const BatteryState& state);

// The names of the tests whose p-value is below alpha, led by "range" when
// the range check failed: an empty list is a pass.
std::vector<std::string> rejected_by(const Analysis& analysis, const RangeCheck& range,
                                     double alpha);

// The Poisson mean that bounds the repeats count under the null, for windows
// holding `pairs` = Σ C(w, 2) pairs of samples at jitter factor f, from a
// source of `min_bits` bits (the derivation is at its definition).
double repeats_null_mean_bound(std::uint64_t pairs, double factor, int min_bits = kContractBits);
// Σ C(w, 2) for n samples cut into windows of kSegmentSamples.
std::uint64_t window_pairs(std::uint64_t n);

}  // namespace acemq::stats
