#include "stats/battery/resolution.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include <boost/math/distributions/complement.hpp>
#include <boost/math/distributions/poisson.hpp>

#include "stats/battery/number_text.hpp"
#include "stats/battery/runs.hpp"

namespace acemq::stats {
namespace {

// H0(B)'s slack on the spacing (resolution.hpp): 2^-B·(1 + 2^-20).
constexpr double kSpacingSlack = 0x1.0p-20;
// The recovery rounds draws below 1/4 to the 2^-54 grid (resolution.hpp),
// which moves a gap, or merges two draws, by at most this.
constexpr double kRecoveryRounding = 0x1.0p-54;
// Three tests of one hypothesis: Bonferroni among them.
constexpr double kTests = 3.0;

double largest_spacing(int min_bits) { return std::ldexp(1.0 + kSpacingSlack, -min_bits); }

// 10^k for the decimal units, exact (every one is below 2^53).
constexpr std::array<double, kDecimalUnits> kPowersOfTen = {1e0, 1e1, 1e2, 1e3, 1e4,
                                                            1e5, 1e6, 1e7, 1e8, 1e9};

// Whether y is a whole number of 10^-k seconds, as a port that counts in that
// unit answers it: count/10^k (or sec + ns/1e9, as Go's Duration.Seconds
// does) is within a few ulps of y·10^k's integer, 2^-44 relative is 2^8 of
// them; a 53-bit draw lands that close to an integer of up to 2·10^9 with
// probability about 2^-13 at the finest unit, so a window never does.
bool whole_units(double y, int k) {
  const double count = y * kPowersOfTen[static_cast<std::size_t>(k)];
  return std::abs(count - std::nearbyint(count)) <= std::max(1.0, count) * 0x1.0p-44;
}

}  // namespace

std::string decimal_unit_name(int k) {
  static constexpr std::array<const char*, kDecimalUnits> kNames = {
      "1 s", "100 ms", "10 ms", "1 ms", "100 µs", "10 µs", "1 µs", "100 ns", "10 ns", "1 ns"};
  return kNames.at(static_cast<std::size_t>(k));
}

namespace {

// What a port that counts in 10^-k seconds does, in the words its team uses.
std::string whole_unit_words(int k) {
  switch (k) {
    case 0: return "whole seconds";
    case 3: return "whole milliseconds";
    case 6: return "whole microseconds";
    case 9: return "whole nanoseconds (a time.Duration, a long of nanos)";
    default: return "whole multiples of " + decimal_unit_name(k);
  }
}

}  // namespace

// P(G >= g) under H0(B), for windows whose distinct draws m give
// Σ m(m − 1) = pairs. For one window: given m, the set of distinct values of
// a source uniform on N grid points is a uniform m-subset (the points are
// exchangeable), and m points of N with no two within k − 1 steps number
// C(N − (k − 1)(m − 1), m), so
//   P = C(N − (k − 1)(m − 1), m) / C(N, m) <= (1 − (k − 1)(m − 1)/N)^m
//     <= exp(−m(m − 1)·(k − 1)·s),
// with s = 1/N the spacing and k = ceil(g/s), so (k − 1)·s >= g − s. The
// continuous uniform is the limit s → 0 (the classical (1 − (m − 1)g)^m).
// The recovery's rounding moves a gap by at most 2^-54. Windows are
// independent given their m, so the bound is exp(−pairs·(g − s_max − 2^-54)),
// and it holds at the observed G as at any fixed g: it is G's p-value.
double null_gap_bound(std::uint64_t pairs, double gap, int min_bits) {
  const double margin = gap - largest_spacing(min_bits) - kRecoveryRounding;
  if (pairs == 0 || !(margin > 0.0)) return 1.0;
  if (std::isinf(margin)) return 0.0;
  return std::exp(-static_cast<double>(pairs) * margin);
}

double spacing_certain_bits(std::uint64_t pairs, int min_bits, double alpha) {
  if (pairs == 0) return 0.0;
  // The smallest G that rejects: exp(−pairs·(G − s − 2^-54)) = alpha/3.
  const double gap = std::log(kTests / alpha) / static_cast<double>(pairs) +
                     largest_spacing(min_bits) + kRecoveryRounding;
  return std::max(0.0, -std::log2(gap));
}

double null_repeats_mean(std::uint64_t window_pairs, int min_bits) {
  // Two draws of H0(B) are equal with probability at most s_max + 2^-54 (the
  // recovery can merge two draws a 2^-54 step apart below 1/4), so R is below
  // a Poisson count of this mean (the birthday bound, as the battery's
  // repeats test argues).
  return static_cast<double>(window_pairs) * (largest_spacing(min_bits) + kRecoveryRounding);
}

std::uint64_t distinct_draw_pairs(std::uint64_t n) {
  const auto ordered = [](std::uint64_t w) { return w < 2 ? 0 : w * (w - 1); };
  return (n / kSegmentSamples) * ordered(kSegmentSamples) + ordered(n % kSegmentSamples);
}

namespace {

// The smallest k with x·2^k an integer, for finite x > 0 (negative for
// x >= 2 with trailing zeros; the callers' x are below 2).
int fraction_bits(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const auto exponent_field = static_cast<int>(bits >> 52U);
  std::uint64_t significand = bits & ((std::uint64_t{1} << 52U) - 1);
  int exponent = -1074;  // of the significand's last bit, for a subnormal
  if (exponent_field != 0) {
    significand |= std::uint64_t{1} << 52U;
    exponent = exponent_field - 1075;
  }
  return -(exponent + std::countr_zero(significand));
}

std::string decimal1(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", x);
  return text;
}

}  // namespace

ResolutionState::ResolutionState(int floor_bits) : min_bits(floor_bits) {
  if (floor_bits < kLeastMinBits || floor_bits > kContractBits) {
    throw std::invalid_argument(
        "ResolutionState: min_bits must be in [" + std::to_string(kLeastMinBits) + ", " +
        std::to_string(kContractBits) + "], not " + std::to_string(floor_bits));
  }
}

RangeCheck ResolutionState::exact_range() {
  RangeCheck range(kExactDelay, kExactFactor);
  // y = 2 would be r = 1, outside the draw's [0, 1): the largest y of a
  // draw is 2·(1 − 2^-53).
  range.hi = std::nextafter(range.hi, 0.0);
  return range;
}

void ResolutionState::merge(const ResolutionState& other) {
  if (other.min_bits != min_bits) {
    throw std::invalid_argument("ResolutionState::merge: the states judge different floors");
  }
  range.merge(other.range);
  measured += other.measured;
  dyadic_bits = std::max(dyadic_bits, other.dyadic_bits);
  distinct_pairs += other.distinct_pairs;
  most_distinct = std::max(most_distinct, other.most_distinct);
  repeats += other.repeats;
  window_pairs += other.window_pairs;
  windows += other.windows;
  smallest_gap = std::min(smallest_gap, other.smallest_gap);
  decimal_units &= other.decimal_units;
}

void ResolutionAccumulator::begin(ResolutionState& state, std::uint64_t segment) {
  state_ = &state;
  first_draw_ = segment * kSegmentSamples;
  in_window_ = 0;
  window_.clear();
  window_.reserve(kSegmentSamples);
}

void ResolutionAccumulator::add_jittered(std::span<const double> delays) {
  ResolutionState& s = *state_;
  if (in_window_ + delays.size() > kSegmentSamples) {
    throw std::length_error("ResolutionAccumulator: a window holds at most 2^20 draws");
  }
  for (const double y : delays) {
    const std::uint64_t before = s.range.outside;
    s.range.add(y, first_draw_ + in_window_++);
    if (s.range.outside != before) continue;  // out of range, NaN included
    // r = y/2; its fraction bits are y's plus one (y/2 itself would round
    // for a subnormal y, which no correct arithmetic gives but an adapter can).
    if (y > 0.0) s.dyadic_bits = std::max(s.dyadic_bits, fraction_bits(y) + 1);
    // A fine source clears every unit within a few draws, so this costs
    // nothing after them.
    for (std::uint32_t units = s.decimal_units; units != 0; units &= units - 1) {
      const int k = std::countr_zero(units);
      if (!whole_units(y, k)) s.decimal_units &= ~(1U << static_cast<unsigned>(k));
    }
    window_.push_back(recovered_draw(y));
    ++s.measured;
  }
}

void ResolutionAccumulator::end() {
  ResolutionState& s = *state_;
  std::sort(window_.begin(), window_.end());
  std::uint64_t distinct = 0;
  for (std::size_t i = 0; i < window_.size(); ++i) {
    if (i > 0 && window_[i] == window_[i - 1]) continue;  // a repeat
    if (i > 0) {
      // Exact by Sterbenz when the draws are within a factor 2 of each other,
      // which every gap near the grids judged is unless the lower draw is 0.
      s.smallest_gap = std::min(s.smallest_gap, window_[i] - window_[i - 1]);
    }
    ++distinct;
  }
  if (!window_.empty()) {
    const std::uint64_t w = window_.size();
    s.distinct_pairs += distinct * (distinct - 1);
    s.most_distinct = std::max(s.most_distinct, distinct);
    s.repeats += w - distinct;
    s.window_pairs += w * (w - 1) / 2;
    ++s.windows;
  }
  window_.clear();
  state_ = nullptr;
}

std::string ResolutionResult::bits_text() const {
  if (std::isnan(bits)) return "?";
  if (lower_bound) return "more than " + decimal1(std::floor(bits * 10) / 10);
  return exact ? std::to_string(static_cast<int>(bits)) : decimal1(bits);
}

ResolutionResult analyze_resolution(const ResolutionState& s, double alpha) {
  ResolutionResult r;
  r.min_bits = s.min_bits;
  r.dyadic_bits = s.dyadic_bits;
  r.on_binary_grid = s.dyadic_bits <= kContractBits;
  r.measured = s.measured;
  r.repeats = s.repeats;
  r.smallest_gap = s.smallest_gap;
  r.certain_bits = spacing_certain_bits(s.distinct_pairs, kContractBits, alpha);

  // P(K < B) under H0(B): each draw of a grid of spacing <= 2^-B·(1 + 2^-20)
  // lies on the 2^(1 − B) grid with probability at most (1 + 2^-20)/2 (that
  // grid has 2^(B − 1) points in [0, 1), the source at least
  // 2^B/(1 + 2^-20)).
  const auto dyadic_p = [&](int bits) {
    if (s.measured == 0) return 0.0;  // nothing to measure is no source at all
    if (s.dyadic_bits >= bits) return 1.0;
    return std::exp(static_cast<double>(s.measured) * std::log((1.0 + kSpacingSlack) / 2.0));
  };
  const auto repeats_mean = [&](int bits) { return null_repeats_mean(s.window_pairs, bits); };
  const auto repeats_p = [&](int bits) {
    if (s.repeats == 0) return 1.0;
    const double mean = repeats_mean(bits);
    if (!(mean > 0.0)) return 0.0;
    const boost::math::poisson_distribution<double> law(mean);
    return std::clamp(
        boost::math::cdf(boost::math::complement(law, static_cast<double>(s.repeats) - 1.0)), 0.0,
        1.0);
  };
  const auto spacing_p = [&](int bits) {
    return null_gap_bound(s.distinct_pairs, s.smallest_gap, bits);
  };
  const auto combined = [](double a, double b, double c) {
    return std::min(1.0, kTests * std::min({a, b, c}));
  };
  r.dyadic_p = dyadic_p(s.min_bits);
  r.spacing_p = spacing_p(s.min_bits);
  r.repeats_p = repeats_p(s.min_bits);
  r.repeats_expected = repeats_mean(s.min_bits);
  r.p_value = combined(r.dyadic_p, r.spacing_p, r.repeats_p);
  r.contract_p_value =
      combined(dyadic_p(kContractBits), spacing_p(kContractBits), repeats_p(kContractBits));

  const bool spaced_out = spacing_p(kContractBits) * kTests < alpha;
  const bool repeated = repeats_p(kContractBits) * kTests < alpha;
  if (spaced_out && s.decimal_units != 0) {
    // The coarsest unit every draw is whole in, if the draws are that far
    // apart: a 1 ms grid is also a 1 µs one, and a coarse binary grid may be
    // a decimal one by chance (0.5 is 5 tenths).
    const int k = std::countr_zero(s.decimal_units);
    const double step = 2.0 * s.smallest_gap * kPowersOfTen[static_cast<std::size_t>(k)];
    if (step > 0.99 && step < 1.01) r.decimal_unit = k;
  }
  const std::string unit_words =
      r.decimal_unit < 0 ? std::string()
                         : "; every delay a whole number of " + decimal_unit_name(r.decimal_unit);
  const std::string gap_text =
      std::isfinite(s.smallest_gap) ? decimal1(-std::log2(s.smallest_gap)) : std::string("inf");
  if (s.measured == 0) {
    r.bits = std::nan("");
    r.estimate = "unknown: no draw of the exact cell was in range";
  } else if (s.stuck()) {
    r.bits = 0;
    r.exact = true;
    r.stuck = true;
    r.estimate = "0 bits (every one of the " + std::to_string(s.n()) + " draws is " +
                 number_text(recovered_draw(s.range.min)) + ": the source is stuck)";
  } else if (s.dyadic_bits < kContractBits) {
    r.bits = s.dyadic_bits;
    r.exact = true;
    r.estimate = std::to_string(s.dyadic_bits) + " bits (every draw a multiple of 2^-" +
                 std::to_string(s.dyadic_bits) + ", exact)";
  } else if (spaced_out) {
    // No grid coarser than 2^-53 holds the draws, yet none is near another:
    // the source's own grid is the smallest gap (a grid of spacing s has no
    // gap below it, and a sample this dense has many gaps of s).
    r.bits = -std::log2(s.smallest_gap);
    r.estimate = gap_text +
                 " bits (on no binary grid coarser than 2^-53: no two distinct draws closer "
                 "than 2^-" +
                 gap_text + unit_words + ")";
  } else if (repeated) {
    // Few values, or a short cycle: the values a window holds are the bits.
    r.bits = std::log2(static_cast<double>(s.most_distinct));
    r.estimate = decimal1(r.bits) + " bits (" + std::to_string(s.repeats) + " of the " +
                 std::to_string(s.measured) +
                 " draws repeat an earlier one of their window, where a 53-bit source repeats " +
                 number_text(repeats_mean(kContractBits)) + " on average; at most " +
                 std::to_string(s.most_distinct) + " distinct values a window)";
  } else if (s.dyadic_bits == kContractBits) {
    r.bits = kContractBits;
    r.exact = true;
    r.estimate = "53 bits (every draw a multiple of 2^-53, the contract's grid, exact)";
  } else {
    // Finer than the contract's grid, or on no binary grid: the spacing
    // test sees every grid coarser than certain_bits, and no further.
    r.bits = r.certain_bits;
    r.lower_bound = true;
    r.estimate = "more than " + decimal1(std::floor(r.certain_bits * 10) / 10) +
                 " bits (draws finer than the 2^-53 grid, as Go's Float64 gives below 1/2, or "
                 "on no binary grid; smallest gap 2^-" +
                 gap_text + ", as a fine source puts there: every grid coarser than 2^-" +
                 decimal1(std::floor(r.certain_bits * 10) / 10) +
                 " is rejected at this n, a finer one that is not binary is not seen)";
  }
  return r;
}

std::string resolution_verdict(const ResolutionResult& r, bool rejected, double alpha) {
  const std::string bits = "resolution " + r.bits_text() + " bits";
  const std::string contract = std::to_string(kContractBits);
  const std::string section = " (docs/contract.md §5)";
  if (std::isnan(r.bits)) return "resolution unknown: no draw of the exact cell was in range";
  // The cause, where the draws name it: a stuck source, or a time unit.
  std::string cause;
  if (r.stuck) {
    cause = ": every draw is one value, the source is stuck";
  } else if (r.decimal_unit >= 0) {
    cause = ": the draws sit on a " + decimal_unit_name(r.decimal_unit) +
            " grid, so the port converts delays to " + whole_unit_words(r.decimal_unit) +
            "; a delay is seconds as a binary64, converted to a unit only where it is used "
            "(docs/contract.md §1, §5)";
  }
  // What "not rejected" may claim: 53 when the grid shows it, else only that
  // this n saw nothing coarser.
  const std::string meets =
      r.lower_bound ? ": on no binary grid coarser than 2^-53, nor any grid coarser than 2^-" +
                          decimal1(std::floor(r.certain_bits * 10) / 10) + section
                    : ": meets the contract's " + contract + section;
  if (r.min_bits == kContractBits) {
    if (!rejected) return bits + meets;
    return bits + ", below the contract's " + contract + (cause.empty() ? section : cause);
  }
  const std::string floor = "--min-bits " + std::to_string(r.min_bits);
  if (rejected) {
    return bits + ", below " + floor +
           (cause.empty() ? " (the contract's is " + contract + ", docs/contract.md §5)" : cause);
  }
  const bool below_contract = r.contract_p_value < alpha;
  return below_contract
             ? bits + ": accepted at " + floor + " (below the contract's " + contract + ")"
             : bits + meets + ", above " + floor;
}

}  // namespace acemq::stats
