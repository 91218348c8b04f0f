#include "stats/resolution.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "stats/runs.hpp"

namespace acemq::stats {
namespace {

// H0(B)'s slack on the spacing (resolution.hpp): 2^-B·(1 + 2^-20).
constexpr double kSpacingSlack = 0x1.0p-20;
// The spacing test counts gaps below 2^-T with T <= B − kSpacingMargin: eight
// steps of the coarsest grid H0(B) allows, so that grid itself puts 7/8 of a
// fine source's gaps below the threshold (see null_zero_gap_bound).
constexpr int kSpacingMargin = 3;

double largest_spacing(int min_bits) { return std::ldexp(1.0 + kSpacingSlack, -min_bits); }

// The threshold, less what a grid source and the recovery can lose of it:
// see null_zero_gap_bound.
double effective_gap(int threshold_bits, int min_bits) {
  return std::ldexp(1.0, -threshold_bits) - largest_spacing(min_bits) - 0x1.0p-54;
}

}  // namespace

// P(no gap below 2^-T in any window) under H0(B), for windows whose
// distinct draws m give Σ m(m − 1) = pairs. For one window: given m, the
// set of distinct values of a source uniform on N grid points is a uniform
// m-subset (the points are exchangeable), and m points of N with no two
// within k − 1 steps number C(N − (k − 1)(m − 1), m), so
//   P = C(N − (k − 1)(m − 1), m) / C(N, m) <= (1 − (k − 1)(m − 1)/N)^m
//     <= exp(−m(m − 1)·(k − 1)·s),
// with s = 1/N the spacing and k = ceil(2^-T/s), so (k − 1)·s >= 2^-T − s.
// The continuous uniform is the limit s → 0 (the classical
// (1 − (m − 1)g)^m). The recovery rounds draws below 1/4 to the 2^-54 grid
// (resolution.hpp), which moves a gap by at most 2^-54. Windows are
// independent, so the bound is exp(−pairs·(2^-T − s_max − 2^-54)).
double null_zero_gap_bound(std::uint64_t pairs, int threshold_bits, int min_bits) {
  if (threshold_bits <= 0) return 1.0;
  return std::exp(-static_cast<double>(pairs) * effective_gap(threshold_bits, min_bits));
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

int spacing_threshold_bits(std::uint64_t n, int min_bits, double alpha) {
  // Every window's draws distinct: Σ w(w − 1) = 2·Σ C(w, 2).
  const std::uint64_t full = n / kSegmentSamples;
  const std::uint64_t rest = n % kSegmentSamples;
  const auto ordered = [](std::uint64_t w) { return w < 2 ? 0 : w * (w - 1); };
  const std::uint64_t pairs = full * ordered(kSegmentSamples) + ordered(rest);
  for (int t = min_bits - kSpacingMargin; t >= 1; --t) {
    if (effective_gap(t, min_bits) > 0.0 && null_zero_gap_bound(pairs, t, min_bits) <= alpha / 2) {
      return t;
    }
  }
  return 0;
}

ResolutionPlan ResolutionPlan::for_samples(std::uint64_t n, int min_bits, double alpha) {
  if (min_bits < kLeastMinBits || min_bits > kContractBits) {
    throw std::invalid_argument("ResolutionPlan: min_bits must be in [" +
                                std::to_string(kLeastMinBits) + ", " +
                                std::to_string(kContractBits) + "]");
  }
  return {min_bits, spacing_threshold_bits(n, min_bits, alpha),
          spacing_threshold_bits(n, kContractBits, alpha)};
}

RangeCheck ResolutionState::exact_range() {
  RangeCheck range(kExactDelay, kExactFactor);
  // y = 2 would be r = 1, outside the draw's [0, 1): the largest y of a
  // draw is 2·(1 − 2^-53).
  range.hi = std::nextafter(range.hi, 0.0);
  return range;
}

void ResolutionState::merge(const ResolutionState& other) {
  if (!(other.plan == plan)) {
    throw std::invalid_argument("ResolutionState::merge: the states have different plans");
  }
  range.merge(other.range);
  measured += other.measured;
  dyadic_bits = std::max(dyadic_bits, other.dyadic_bits);
  gaps_below += other.gaps_below;
  gaps_below_contract += other.gaps_below_contract;
  distinct_pairs += other.distinct_pairs;
  windows += other.windows;
  smallest_gap = std::min(smallest_gap, other.smallest_gap);
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
    window_.push_back(recovered_draw(y));
    ++s.measured;
  }
}

void ResolutionAccumulator::end() {
  ResolutionState& s = *state_;
  std::sort(window_.begin(), window_.end());
  const double below = s.plan.threshold_bits > 0 ? std::ldexp(1.0, -s.plan.threshold_bits) : 0.0;
  const double below_contract =
      s.plan.contract_threshold_bits > 0 ? std::ldexp(1.0, -s.plan.contract_threshold_bits) : 0.0;
  std::uint64_t distinct = 0;
  for (std::size_t i = 0; i < window_.size(); ++i) {
    if (i > 0 && window_[i] == window_[i - 1]) continue;  // a repeat: the battery's business
    if (i > 0) {
      // Exact by Sterbenz when the draws are within a factor 2 of each other,
      // which every gap near a threshold is unless the lower draw is 0.
      const double gap = window_[i] - window_[i - 1];
      s.gaps_below += gap < below;
      s.gaps_below_contract += gap < below_contract;
      s.smallest_gap = std::min(s.smallest_gap, gap);
    }
    ++distinct;
  }
  if (!window_.empty()) {
    s.distinct_pairs += distinct * (distinct - 1);
    ++s.windows;
  }
  window_.clear();
  state_ = nullptr;
}

std::string ResolutionResult::bits_text() const {
  if (std::isnan(bits)) return "?";
  if (lower_bound) return "more than " + std::to_string(static_cast<int>(bits));
  return exact ? std::to_string(static_cast<int>(bits)) : decimal1(bits);
}

ResolutionResult analyze_resolution(const ResolutionState& s, double alpha) {
  ResolutionResult r;
  r.min_bits = s.plan.min_bits;
  r.measured = s.measured;
  r.dyadic_bits = s.dyadic_bits;
  r.threshold_bits = s.plan.threshold_bits;
  r.contract_threshold_bits = s.plan.contract_threshold_bits;
  r.gaps_below = s.gaps_below;
  r.gaps_below_contract = s.gaps_below_contract;
  r.smallest_gap = s.smallest_gap;
  r.on_binary_grid = s.dyadic_bits <= kContractBits;

  // P(K < B) under H0(B): each draw of a grid of spacing <= 2^-B·(1 + 2^-20)
  // lies on the 2^(1 − B) grid with probability at most (1 + 2^-20)/2 (that
  // grid has 2^(B − 1) points in [0, 1), the source at least
  // 2^B/(1 + 2^-20)).
  const auto dyadic_p = [&](int bits) {
    if (s.measured == 0) return 0.0;  // nothing to measure is no source at all
    if (s.dyadic_bits >= bits) return 1.0;
    return std::exp(static_cast<double>(s.measured) * std::log((1.0 + kSpacingSlack) / 2.0));
  };
  const auto spacing_p = [&](int threshold, std::uint64_t gaps, int bits) {
    if (threshold <= 0 || gaps > 0) return 1.0;
    return null_zero_gap_bound(s.distinct_pairs, threshold, bits);
  };
  // Two tests of one hypothesis: Bonferroni between them.
  const auto combined = [](double a, double b) { return std::min(1.0, 2.0 * std::min(a, b)); };
  r.p_value = combined(dyadic_p(s.plan.min_bits),
                       spacing_p(s.plan.threshold_bits, s.gaps_below, s.plan.min_bits));
  r.contract_p_value =
      combined(dyadic_p(kContractBits),
               spacing_p(s.plan.contract_threshold_bits, s.gaps_below_contract, kContractBits));

  const std::string threshold = "2^-" + std::to_string(s.plan.contract_threshold_bits);
  const bool spaced_out =
      s.plan.contract_threshold_bits > 0 && s.gaps_below_contract == 0 &&
      std::isfinite(s.smallest_gap) &&
      null_zero_gap_bound(s.distinct_pairs, s.plan.contract_threshold_bits, kContractBits) < alpha;
  if (s.measured == 0) {
    r.bits = std::nan("");
    r.estimate = "unknown: no draw of the exact cell was in range";
  } else if (s.dyadic_bits < kContractBits) {
    r.bits = s.dyadic_bits;
    r.exact = true;
    r.estimate = std::to_string(s.dyadic_bits) + " bits (every draw a multiple of 2^-" +
                 std::to_string(s.dyadic_bits) + ", exact)";
  } else if (spaced_out) {
    // No grid coarser than 2^-53 holds the draws, yet none is near another:
    // the source's own grid is about the smallest gap (a grid of spacing s
    // has no gap below it, and a sample this dense has many gaps of s).
    r.bits = -std::log2(s.smallest_gap);
    r.estimate = decimal1(r.bits) +
                 " bits (on no binary grid coarser than 2^-53: no two distinct draws closer "
                 "than 2^-" +
                 decimal1(r.bits) + ", none below " + threshold + ")";
  } else if (s.dyadic_bits == kContractBits) {
    r.bits = kContractBits;
    r.exact = true;
    r.estimate = "53 bits (every draw a multiple of 2^-53, the contract's grid, exact)";
  } else {
    // Finer than the contract's grid, or on no binary grid: the spacing
    // test sees no further than its threshold.
    r.bits = s.plan.contract_threshold_bits;
    r.lower_bound = true;
    r.estimate = "more than " + std::to_string(s.plan.contract_threshold_bits) +
                 " bits (draws finer than the 2^-53 grid, as Go's Float64 gives below 1/2, or "
                 "on no binary grid; " +
                 std::to_string(s.gaps_below_contract) + " gaps below " + threshold +
                 ", as a fine source puts there: a grid between 2^-" +
                 std::to_string(s.plan.contract_threshold_bits) +
                 " and 2^-53 that is not binary cannot be seen at this n)";
  }
  return r;
}

std::string resolution_verdict(const ResolutionResult& r, bool rejected, double alpha) {
  const std::string bits = "resolution " + r.bits_text() + " bits";
  const std::string contract = std::to_string(kContractBits);
  const std::string section = " (docs/contract.md §5)";
  if (r.measured == 0) return "resolution unknown: no draw of the exact cell was in range";
  // What "not rejected" may claim: 53 when the grid shows it, else only that
  // this n saw nothing below.
  const std::string meets =
      r.lower_bound ? ": on no binary grid coarser than 2^-53, nor any grid coarser than 2^-" +
                          std::to_string(r.contract_threshold_bits) + section
                    : ": meets the contract's " + contract + section;
  if (r.min_bits == kContractBits) {
    return rejected ? bits + ", below the contract's " + contract + section : bits + meets;
  }
  const std::string floor = "--min-bits " + std::to_string(r.min_bits);
  if (rejected) {
    return bits + ", below " + floor + " (the contract's is " + contract + ", docs/contract.md §5)";
  }
  const bool below_contract = r.contract_p_value < alpha;
  return below_contract
             ? bits + ": accepted at " + floor + " (below the contract's " + contract + ")"
             : bits + meets + ", above " + floor;
}

}  // namespace acemq::stats
