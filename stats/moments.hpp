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
#include "range_check.hpp"

namespace acemq::stats {

// GCC and Clang's 128-bit integer: a cell's sums, up to kMaxSamples terms of
// at most 4 on a grid of 2^-kFixedPointBits, need more than 64 bits.
__extension__ using Int128 = __int128;
__extension__ using UInt128 = unsigned __int128;

inline constexpr int kFixedPointBits = 40;
inline constexpr std::uint64_t kMomentBlock = 4096;

class Moments {
 public:
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
    ++n_;
    min_ = smaller(min_, u);
    max_ = larger(max_, u);
    if (++in_block_ == kMomentBlock) fold();
  }

  // Closes the segment: the next add() starts an independent one.
  void end_segment() {
    if (!open_) return;
    fold();
    ends_ += fixed(first_);
    ends_ += fixed(previous_);
    ++segments_;
    open_ = false;
  }

  // Both must be between segments.
  void merge(const Moments& other) {
    if (open_ || other.open_) throw std::logic_error("Moments::merge: a segment is open");
    n_ += other.n_;
    segments_ += other.segments_;
    sum_ += other.sum_;
    squares_ += other.squares_;
    lag_ += other.lag_;
    ends_ += other.ends_;
    min_ = smaller(min_, other.min_);
    max_ = larger(max_, other.max_);
  }

  std::uint64_t n() const { return n_; }
  std::uint64_t segments() const { return segments_; }
  // The extremes of u as given (not clamped); equal for a constant sample.
  double min() const { return min_; }
  double max() const { return max_; }

  double mean() const { return real(sum_) / static_cast<double>(n_); }
  double sample_variance() const {
    const double n = static_cast<double>(n_);
    const double s = real(sum_);
    return (real(squares_) - s * s / n) / (n - 1.0);
  }
  // Σ (u_i − ū)(u_{i+1} − ū) over the pairs within segments, divided by
  // Σ (u_i − ū)²: pairs are n − segments, and their first and second terms
  // sum to everything but the segments' last and first u.
  double lag1_autocorrelation() const {
    const double n = static_cast<double>(n_);
    const double s = real(sum_);
    const double mean = s / n;
    const double pairs = n - static_cast<double>(segments_);
    const double centred_products =
        real(lag_) - mean * (2.0 * s - real(ends_)) + mean * mean * pairs;
    return centred_products / (real(squares_) - s * s / n);
  }

  // The raw sums, for the state file.
  struct Raw {
    std::uint64_t n = 0;
    std::uint64_t segments = 0;
    Int128 sum = 0;
    Int128 squares = 0;
    Int128 lag = 0;
    Int128 ends = 0;
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();
  };
  Raw raw() const {
    if (open_) throw std::logic_error("Moments::raw: a segment is open");
    return {n_, segments_, sum_, squares_, lag_, ends_, min_, max_};
  }
  static Moments from_raw(const Raw& r) {
    Moments m;
    m.n_ = r.n;
    m.segments_ = r.segments;
    m.sum_ = r.sum;
    m.squares_ = r.squares;
    m.lag_ = r.lag;
    m.ends_ = r.ends;
    m.min_ = r.min;
    m.max_ = r.max;
    return m;
  }

  friend bool operator==(const Moments& a, const Moments& b) {
    return a.n_ == b.n_ && a.segments_ == b.segments_ && a.sum_ == b.sum_ &&
           a.squares_ == b.squares_ && a.lag_ == b.lag_ && a.ends_ == b.ends_ &&
           model::same_bits(a.min_, b.min_) && model::same_bits(a.max_, b.max_) &&
           a.open_ == b.open_;
  }

 private:
  static Int128 fixed(double x) { return static_cast<Int128>(x * 0x1.0p40); }
  static double real(Int128 x) { return static_cast<double>(x) * 0x1.0p-40; }

  void fold() {
    sum_ += fixed(block_sum_);
    squares_ += fixed(block_squares_);
    lag_ += fixed(block_lag_);
    block_sum_ = block_squares_ = block_lag_ = 0.0;
    in_block_ = 0;
  }

  std::uint64_t n_ = 0;
  std::uint64_t segments_ = 0;
  Int128 sum_ = 0;
  Int128 squares_ = 0;
  Int128 lag_ = 0;
  Int128 ends_ = 0;
  double min_ = std::numeric_limits<double>::infinity();
  double max_ = -std::numeric_limits<double>::infinity();
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
