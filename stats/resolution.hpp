// resolution: how many bits a source's draws carry, measured from the draws,
// and the test of the contract's rule (docs/contract.md §5, "The draw"): a
// port's default source gives draws of at least 53 bits of resolution.
//
// The draws are read back exactly from one cell, the exact cell: delay 1 and
// jitter factor 1, where the contract's jittered delay is y = 2r, bit for bit
// (recovered_draw). Two measurements, each with a test:
//
// - dyadic: K, the finest binary grid every draw sits on (the smallest K with
//   r·2^K an integer for every draw). A source of B bits on a binary grid
//   shows K = B unless every one of n draws lies on the grid twice as coarse:
//   at most ((1 + 2^-20)/2)^n, 0 in binary64 for any n the command allows.
//   Exact, at any n: it sees a 52-bit source as surely as a 24-bit one, and
//   a full-period generator (one that never repeats) as surely as any.
// - spacing: in each window of consecutive draws, sorted, the number of
//   adjacent distinct draws closer than 2^-T. A source on any grid of
//   spacing s >= 2^-T, binary or not (Mono's i/(2^31 − 1)), has none; a
//   source of B bits has about n²·2^-T (resolution.cc bounds the chance of
//   none). T is the largest threshold at which that chance is below the
//   test's alpha, at most B − 3: the spacing test sees every source of T bits
//   or fewer, on any grid, with certainty, and nothing between T and B that
//   is not on a binary grid (T = 33 at n = 2^19, 35 at 10^6, 45 at 10^9).
//
// The null of both, H0(B): the source is uniform on a grid of spacing
// s <= 2^-B·(1 + 2^-20), or finer (B = 53: the contract's 2^-53 grid). The
// slack admits i/(2^31 − 1), whose 2^31 − 1 values are 2^-31·(1 + 2^-31)
// apart, as a 31-bit source, which is what people call it.
//
// Like the battery, the state keeps no sample beyond one window (at most
// kSegmentSamples doubles, 8 MB), and states merge: counts add, the grid and
// the smallest gap take the finer.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "stats/range_check.hpp"
#include "stats/resolution_bits.hpp"

namespace acemq::stats {

inline constexpr const char* kResolution = "resolution";

// The exact cell. With d = 1 and f = 1 the contract computes, for a draw r
// in [0, 1) (docs/contract.md §5):
//   t1 = r·2      exact (a power of two);
//   t2 = t1 − 1   exact: for r >= 1/4 by Sterbenz (1/2 <= t1 < 2), and below
//                 it rounded to a multiple of 2^-53 (|t2| is in (1/2, 1]),
//                 which is exact for every r on the 2^-54 grid;
//   t3 = t2·1     exact;
//   t4 = 1 + t3   = t1 exactly: t2 = t1 − 1 exactly, and t1 is a double;
//   y  = 1·t4     = 2r.
// So y/2 is r itself for every r >= 1/4 and every r on the 2^-54 grid (all
// a 53-bit source draws), and r rounded to that grid otherwise: a finer
// source reads as 54 bits, never as fewer than it has.
// `ResolutionTest.ExactCellGivesTheDrawBack` checks it against the model.
inline constexpr double kExactDelay = 1.0;
inline constexpr double kExactFactor = 1.0;
inline double recovered_draw(double y) { return y / 2; }

// The thresholds of the spacing test: gaps below 2^-T are counted. T is 0
// when no threshold can be judged at this n (then only the dyadic test
// judges).
struct ResolutionPlan {
  int min_bits = kContractBits;     // B, the floor judged
  int threshold_bits = 0;           // T for B
  int contract_threshold_bits = 0;  // T for the contract's 53, so a run at a
                                    // lower floor still says whether it meets it
  // For n draws in windows of kSegmentSamples, each test at `alpha`.
  static ResolutionPlan for_samples(std::uint64_t n, int min_bits, double alpha);
  bool operator==(const ResolutionPlan&) const = default;
};

// The largest T <= B − 3 at which n draws of a B-bit source, in windows of
// kSegmentSamples, all distinct, put no gap below 2^-T with probability at
// most alpha/2 (the other half covers a source whose windows repeat up to
// 1.7% of their draws); 0 if none.
int spacing_threshold_bits(std::uint64_t n, int min_bits, double alpha);

// P(no gap below 2^-threshold_bits in any window) under H0(min_bits), bounded
// above, for windows whose distinct draws m give Σ m(m − 1) = pairs
// (resolution.cc derives it; resolution_test.cc checks it by simulation).
double null_zero_gap_bound(std::uint64_t pairs, int threshold_bits, int min_bits);

struct ResolutionState {
  ResolutionPlan plan;
  // The exact cell's delays must be in [0, 2 − 2^-52]: y = 2r for r in
  // [0, 1). y = 2 is r = 1, outside the draw's interval.
  RangeCheck range = exact_range();
  std::uint64_t measured = 0;             // draws in range, the ones the tests see
  int dyadic_bits = 0;                    // K; 0 when every draw is 0
  std::uint64_t gaps_below = 0;           // at plan.threshold_bits
  std::uint64_t gaps_below_contract = 0;  // at plan.contract_threshold_bits
  std::uint64_t distinct_pairs = 0;       // Σ m(m − 1), m the distinct draws of a window
  std::uint64_t windows = 0;
  double smallest_gap = std::numeric_limits<double>::infinity();  // nonzero

  ResolutionState() = default;
  explicit ResolutionState(const ResolutionPlan& p) : plan(p) {}

  std::uint64_t n() const { return measured + range.outside; }
  // Throws std::invalid_argument when the plans differ.
  void merge(const ResolutionState& other);

  static RangeCheck exact_range();
};

// Feeds the exact cell's delays into a state, one window (segment) at a time.
class ResolutionAccumulator {
 public:
  void begin(ResolutionState& state, std::uint64_t segment);
  // The exact cell's jittered delays, in call order; at most
  // kSegmentSamples between begin() and end().
  void add_jittered(std::span<const double> delays);
  // Closes the window: sorts it and counts its gaps.
  void end();

 private:
  ResolutionState* state_ = nullptr;
  std::uint64_t first_draw_ = 0;
  std::uint64_t in_window_ = 0;  // delays of the window so far, in range or not
  std::vector<double> window_;   // the draws of those in range
};

// What the data say about the source's resolution.
struct ResolutionResult {
  int min_bits = kContractBits;
  // The estimate, in bits: K when the draws sit on a binary grid coarser
  // than 2^-53 (exact); −log2 of the smallest gap when no gap fell below the
  // contract's threshold (on no binary grid: Mono's i/(2^31 − 1) reads 31.0);
  // 53 when every draw is on the contract's grid; otherwise (finer, or on no
  // binary grid) the contract's spacing threshold, as a lower bound: this n
  // cannot tell such a source from 53 bits.
  double bits = 0.0;
  bool exact = false;             // K, read off the grid
  bool lower_bound = false;       // `bits` is the most this n can see, not the source's
  bool on_binary_grid = false;    // K <= 53
  double p_value = 1.0;           // of H0(min_bits)
  double contract_p_value = 1.0;  // of H0(53)
  std::uint64_t measured = 0;
  int dyadic_bits = 0;
  int threshold_bits = 0;
  int contract_threshold_bits = 0;
  std::uint64_t gaps_below = 0;
  std::uint64_t gaps_below_contract = 0;
  double smallest_gap = std::numeric_limits<double>::infinity();
  // "31.0 bits (on no binary grid: no two draws closer than 2^-31.0, none
  // below 2^-33)", for reports.
  std::string estimate;

  // The estimate as people quote it: "32", "31.0", "more than 35".
  std::string bits_text() const;
};

// `alpha`: the level at which the spacing evidence is strong enough to
// estimate the bits from the smallest gap (the test's own).
ResolutionResult analyze_resolution(const ResolutionState& state, double alpha);

// The verdict in words, for the summary line and the report, given whether
// the run rejected the source's resolution (at `min_bits`; a delay out of
// range is the caller's to say) and whether a test at the contract's 53
// would, at `alpha`:
//   "resolution 31.0 bits, below the contract's 53 (docs/contract.md §5)"
//   "resolution 31.0 bits: accepted at --min-bits 31 (below the contract's 53)"
//   "resolution 53 bits: meets the contract's 53 (docs/contract.md §5)"
//   "resolution more than 35 bits: on no binary grid coarser than 2^-53, nor
//    any grid coarser than 2^-35 (docs/contract.md §5)"
std::string resolution_verdict(const ResolutionResult& result, bool rejected, double alpha);

}  // namespace acemq::stats
