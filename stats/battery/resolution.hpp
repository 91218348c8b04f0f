// resolution: how many bits a source's draws carry, measured from the draws,
// and the test of the contract's rule (docs/contract.md §5, "The draw"): a
// port's default source gives draws of at least 53 bits of resolution.
//
// The draws are read back exactly from one cell, the exact cell: delay 1 and
// jitter factor 1, where the contract's jittered delay is y = 2r, bit for bit
// (recovered_draw). Three measurements, each with a test of H0(B) below:
//
// - dyadic: K, the finest binary grid every draw sits on (the smallest K with
//   r·2^K an integer for every draw). A source of B bits on a binary grid
//   shows K = B unless every one of n draws lies on the grid twice as coarse:
//   at most ((1 + 2^-20)/2)^n, 0 in binary64 for any n the command allows.
//   Certain, at any n: it sees a 52-bit source as surely as a 24-bit one.
// - spacing: G, the smallest gap between two distinct draws of one window
//   (sorted). Under H0(B), with P the pairs of distinct draws,
//   P(G >= g) <= exp(−P·(g − s)) (resolution.cc), so a grid of spacing
//   above s + ln(3/alpha)/P, binary or not (whole milliseconds,
//   Mono's i/(2^31 − 1)), is rejected with certainty, as G is never below its
//   spacing. P grows with n, so the test only gains power: 2^19 distinct
//   draws see every grid coarser than 2^-33.6, 10^6 than 2^-35.5.
// - repeats: R, the draws equal to an earlier draw of their window. Under
//   H0(B) two draws are equal with probability at most 2^-B·(1 + 2^-20) +
//   2^-54 (the recovery's rounding), so R is bounded by a Poisson count: a
//   source of few values, or one stuck, is seen by it.
//
// The null of all three, H0(B): the source is uniform on a grid of spacing
// s <= 2^-B·(1 + 2^-20), or finer (B = 53: the contract's 2^-53 grid). The
// slack admits i/(2^31 − 1), whose 2^31 − 1 values are 2^-31·(1 + 2^-31)
// apart, as a 31-bit source, which is what people call it.
//
// Where a source falls short on no binary grid, the state also knows which
// decimal time units every draw is a whole number of (1 s to 1 ns): a port
// that converts delays to whole milliseconds or nanoseconds is named as one.
//
// Like the battery, the state keeps no sample beyond one window (at most
// kSegmentSamples doubles, 8 MB), and states merge: counts add, the grid and
// the smallest gap take the finer, the units the ones both share.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "stats/battery/range_check.hpp"
#include "stats/battery/resolution_bits.hpp"

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

// The decimal time units a port may convert delays to, coarsest first:
// 10^-k seconds for k in [0, kDecimalUnits).
inline constexpr int kDecimalUnits = 10;
inline constexpr std::uint32_t kEveryDecimalUnit = (1U << static_cast<unsigned>(kDecimalUnits)) - 1;
// "1 ms", "100 µs", for 10^-k seconds.
std::string decimal_unit_name(int k);

// P(G >= gap) under H0(min_bits), bounded above, for windows whose distinct
// draws m give Σ m(m − 1) = pairs (resolution.cc derives it;
// resolution_test.cc checks it by simulation). 1 when pairs is 0.
double null_gap_bound(std::uint64_t pairs, double gap, int min_bits);

// −log2 of the finest grid the spacing test rejects with certainty at
// `alpha` given `pairs`: every grid of spacing 2^-bits or coarser. Grows
// with pairs. (A grid drawn at random is also seen by its repeats, with a
// probability: power.hpp's resolution row has both.)
double spacing_certain_bits(std::uint64_t pairs, int min_bits, double alpha);
// The Poisson mean that bounds R, the draws equal to an earlier one of their
// window, under H0(min_bits), for windows holding Σ C(w, 2) = window_pairs.
double null_repeats_mean(std::uint64_t window_pairs, int min_bits);

// The pairs of n draws in windows of kSegmentSamples, all distinct: what a
// fine source gives, for planning (a source of few values gives fewer).
std::uint64_t distinct_draw_pairs(std::uint64_t n);

struct ResolutionState {
  int min_bits = kContractBits;  // B, the floor judged
  // The exact cell's delays must be in [0, 2 − 2^-52]: y = 2r for r in
  // [0, 1). y = 2 is r = 1, outside the draw's interval.
  RangeCheck range = exact_range();
  std::uint64_t measured = 0;        // draws in range, the ones the tests see
  int dyadic_bits = 0;               // K; 0 when every draw is 0
  std::uint64_t distinct_pairs = 0;  // Σ m(m − 1), m the distinct draws of a window
  std::uint64_t most_distinct = 0;   // the largest m
  std::uint64_t repeats = 0;         // Σ (w − m), w the draws of a window in range
  std::uint64_t window_pairs = 0;    // Σ C(w, 2), for the repeats' null
  std::uint64_t windows = 0;
  double smallest_gap = std::numeric_limits<double>::infinity();  // G, nonzero
  // Bit k: every draw so far a whole number of 10^-k seconds.
  std::uint32_t decimal_units = kEveryDecimalUnit;

  ResolutionState() = default;
  explicit ResolutionState(int floor_bits);

  std::uint64_t n() const { return measured + range.outside; }
  // Every draw, in range or not, one value (and more than one draw).
  bool stuck() const { return n() > 1 && range.min == range.max; }
  // Throws std::invalid_argument when the floors differ.
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
  // than 2^-53 (exact); −log2 G when the spacing test rejects the contract
  // on no binary grid (whole milliseconds read 11.0, Mono's i/(2^31 − 1)
  // 31.0); 53 when every draw is on the contract's grid; log2 of the most
  // distinct draws of a window when only the repeats test rejects; 0 for a
  // stuck source; otherwise (finer, or on no binary grid) spacing_certain_bits,
  // as a lower bound: this n cannot tell such a source from 53 bits.
  double bits = 0.0;
  bool exact = false;           // K, read off the grid
  bool lower_bound = false;     // `bits` is the most this n can see, not the source's
  bool on_binary_grid = false;  // K <= 53
  bool stuck = false;           // every draw one value
  std::uint64_t measured = 0;
  int dyadic_bits = 0;
  std::uint64_t repeats = 0;
  double smallest_gap = std::numeric_limits<double>::infinity();
  double p_value = 1.0;           // of H0(min_bits)
  double contract_p_value = 1.0;  // of H0(53)
  double dyadic_p = 1.0;          // the three tests at min_bits, before Bonferroni
  double spacing_p = 1.0;
  double repeats_p = 1.0;
  double repeats_expected = 0.0;  // the Poisson mean bounding R under H0(min_bits)
  double certain_bits = 0.0;      // spacing_certain_bits at this run's pairs
  // The decimal time unit every draw is a whole number of (10^-k s), when
  // the draws' own spacing is that unit: -1 when none is.
  int decimal_unit = -1;
  // "31.0 bits (on no binary grid: no two distinct draws closer than 2^-31.0)",
  // for reports.
  std::string estimate;

  // The estimate as people quote it: "32", "31.0", "more than 35.5".
  std::string bits_text() const;
};

// `alpha`: the level at which a test's evidence is strong enough to estimate
// the bits from what it saw (the test's own).
ResolutionResult analyze_resolution(const ResolutionState& state, double alpha);

// The verdict in words, for the summary line and the report, given whether
// the run rejected the source's resolution (at `min_bits`; a delay out of
// range is the caller's to say) and whether a test at the contract's 53
// would, at `alpha`:
//   "resolution 31.0 bits, below the contract's 53 (docs/contract.md §5)"
//   "resolution 11.0 bits, below the contract's 53: the draws sit on a 1 ms
//    grid, so the port converts delays to whole milliseconds; a delay is
//    seconds as a binary64, converted only where it is used (docs/contract.md
//    §1, §5)"
//   "resolution 31.0 bits: accepted at --min-bits 31 (below the contract's 53)"
//   "resolution 53 bits: meets the contract's 53 (docs/contract.md §5)"
//   "resolution more than 33.6 bits: on no binary grid coarser than 2^-53,
//    nor any grid coarser than 2^-33.6 (docs/contract.md §5)"
std::string resolution_verdict(const ResolutionResult& result, bool rejected, double alpha);

}  // namespace acemq::stats
