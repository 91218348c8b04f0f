// moments: the sums the mean, variance and lag-1 tests need, exact and
// mergeable.
//
// Each u is clamped to [−2, 2] (a u outside [−1, 1] already fails the range
// check), and u, u² and u·u_previous are summed in binary64 over blocks of
// kMomentBlock consecutive samples of a segment; each block's sums are then
// cut to a multiple of 2^-kFixedPointBits, toward zero, and added as
// integers. A block is the same samples in the same order wherever its
// segment is drawn, and integers add in any order, so the moments of a cell
// do not depend on how its segments were spread over threads or machines.
// A block's sums are at most 4·kMomentBlock, so their rounding moves them by
// at most 2^-26 and the cut by 2^-40: 2^-38 a sample, below 10^-7 of the
// smallest deviation the mean, variance or lag-1 test resolves at any n a
// cell can hold (power.hpp).
//
// The lag-1 products are taken within a segment only (segments are
// independent streams), and each segment's first and last u are kept so the
// autocorrelation can be centred on the overall mean.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "acemq/model/bits.hpp"
#include "stats/battery/range_check.hpp"

namespace acemq::stats {

// GCC and Clang's 128-bit integer: a cell's sums, up to kMaxSamples terms of
// at most 4 on a grid of 2^-kFixedPointBits, need more than 64 bits.
__extension__ using Int128 = __int128;
__extension__ using UInt128 = unsigned __int128;

inline constexpr int kFixedPointBits = 40;
inline constexpr std::uint64_t kMomentBlock = 4096;

class Moments {
 public:
  // The sums, all a closed Moments is: what a state file records.
  struct Sums {
    std::uint64_t n = 0;
    std::uint64_t segments = 0;
    Int128 sum = 0;      // of u
    Int128 squares = 0;  // of u²
    Int128 lag = 0;      // of u_i·u_{i+1} within segments
    Int128 ends = 0;     // of each segment's first and last u
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();

    friend bool operator==(const Sums& a, const Sums& b) {
      return a.n == b.n && a.segments == b.segments && a.sum == b.sum && a.squares == b.squares &&
             a.lag == b.lag && a.ends == b.ends && model::same_bits(a.min, b.min) &&
             model::same_bits(a.max, b.max);
    }
  };

  Moments() = default;
  explicit Moments(const Sums& sums) : sums_(sums) {}

  // u must not be NaN (the battery counts NaN as +inf).
  void add(double u) {
    const double c = std::max(-2.0, std::min(u, 2.0));
    block_sum_ += c;
    block_squares_ += c * c;
    if (open_) {
      block_lag_ += previous_ * c;
    } else {
      first_ = c;
      open_ = true;
    }
    previous_ = c;
    ++sums_.n;
    sums_.min = smaller(sums_.min, u);
    sums_.max = larger(sums_.max, u);
    if (++in_block_ == kMomentBlock) fold();
  }

  // Closes the segment: the next add() starts an independent one.
  void end_segment() {
    if (!open_) return;
    fold();
    sums_.ends += fixed(first_);
    sums_.ends += fixed(previous_);
    ++sums_.segments;
    open_ = false;
  }

  // Both must be between segments.
  void merge(const Moments& other) {
    if (open_ || other.open_) throw std::logic_error("Moments::merge: a segment is open");
    const Sums& o = other.sums_;
    sums_.n += o.n;
    sums_.segments += o.segments;
    sums_.sum += o.sum;
    sums_.squares += o.squares;
    sums_.lag += o.lag;
    sums_.ends += o.ends;
    sums_.min = smaller(sums_.min, o.min);
    sums_.max = larger(sums_.max, o.max);
  }

  std::uint64_t n() const { return sums_.n; }
  std::uint64_t segments() const { return sums_.segments; }
  // The extremes of u as given (not clamped); equal for a constant sample.
  double min() const { return sums_.min; }
  double max() const { return sums_.max; }

  double mean() const { return real(sums_.sum) / static_cast<double>(sums_.n); }
  double sample_variance() const {
    const double n = static_cast<double>(sums_.n);
    const double s = real(sums_.sum);
    return (real(sums_.squares) - s * s / n) / (n - 1.0);
  }
  // Σ (u_i − ū)(u_{i+1} − ū) over the pairs within segments, divided by
  // Σ (u_i − ū)²: pairs are n − segments, and their first and second terms
  // sum to everything but the segments' last and first u.
  double lag1_autocorrelation() const {
    const double n = static_cast<double>(sums_.n);
    const double s = real(sums_.sum);
    const double mean = s / n;
    const double pairs = n - static_cast<double>(sums_.segments);
    const double centred_products =
        real(sums_.lag) - mean * (2.0 * s - real(sums_.ends)) + mean * mean * pairs;
    return centred_products / (real(sums_.squares) - s * s / n);
  }

  const Sums& sums() const {
    if (open_) throw std::logic_error("Moments::sums: a segment is open");
    return sums_;
  }

  friend bool operator==(const Moments& a, const Moments& b) {
    return a.sums_ == b.sums_ && a.open_ == b.open_;
  }

 private:
  static Int128 fixed(double x) { return static_cast<Int128>(x * 0x1.0p40); }
  static double real(Int128 x) { return static_cast<double>(x) * 0x1.0p-40; }

  void fold() {
    sums_.sum += fixed(block_sum_);
    sums_.squares += fixed(block_squares_);
    sums_.lag += fixed(block_lag_);
    block_sum_ = block_squares_ = block_lag_ = 0.0;
    in_block_ = 0;
  }

  Sums sums_;
  // The open segment and its open block.
  bool open_ = false;
  double first_ = 0.0;
  double previous_ = 0.0;
  double block_sum_ = 0.0;
  double block_squares_ = 0.0;
  double block_lag_ = 0.0;
  std::uint64_t in_block_ = 0;
};

}  // namespace acemq::stats
