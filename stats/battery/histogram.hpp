// histogram: u in fine bins by sign and magnitude, and what can be read off
// them (the binned KS, chi-square, the sign test, the mirrored KS, pictures).
//
// A bin's counts add, so histograms of any parts of a sample merge into the
// histogram of the whole. With H = 2^bits bins a side the layout, in
// increasing u, is:
//
//   [0]            u <= −1
//   [1 .. H]       −u in [m, m + 1)·2^-bits, m = H − 1 down to 0 (so u < 0)
//   [H + 1]        u = 0 (either sign)
//   [H + 2 .. 2H + 1]  u in [m, m + 1)·2^-bits, m = 0 up to H − 1 (u > 0)
//   [2H + 2]       u >= 1, and NaN
//
// Each bin is a run of the repeats test's cells (cell_key), which is how the
// battery fills the histogram from the keys it sorts anyway. Because the
// negative side is binned by −u, the count up to each edge is the ECDF there
// (at a negative edge) or just below it (at a positive one): both are values
// the ECDF takes, so the binned KS statistic never exceeds the exact one.
// stats/README.md bounds the other side: D_binned <= D <= D_binned + 1/(2H).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace acemq::stats {

// The repeats test's cells: 2^39 a side, each 2^-39 wide (2^40 over
// (−1, 1), as in its name), plus one for u = 0 and one each for u <= −1 and
// u >= 1 (or NaN). The key is monotone in u, and each region starts at a
// multiple of 2^39, so that a histogram bin, a run of 2^(39 − bits) cells, is
// a run of keys with the same top bits:
//
//   0                   u <= −1
//   2^39 + (2^39 − 1 − m)   −u in [m, m + 1)·2^-39 (u < 0)
//   2·2^39              u = 0
//   3·2^39 + m          u in [m, m + 1)·2^-39 (u > 0)
//   4·2^39              u >= 1, and NaN
inline constexpr int kCellBits = 39;
inline constexpr std::uint64_t kCellsPerSide = std::uint64_t{1} << static_cast<unsigned>(kCellBits);
inline constexpr std::uint64_t kBelowKey = 0;
inline constexpr std::uint64_t kZeroKey = 2 * kCellsPerSide;
inline constexpr std::uint64_t kPositiveKeys = 3 * kCellsPerSide;
inline constexpr std::uint64_t kAboveKey = 4 * kCellsPerSide;

// u's cell. Scaling by a power of two is exact, so the cell holds
// floor(|u|·2^39) exactly. The sign enters as arithmetic, not as a branch:
// for a uniform sample it is a coin toss the branch predictor always loses.
inline std::uint64_t cell_key(double u) {
  const double magnitude = std::abs(u);
  if (!(magnitude < 1.0)) return u <= -1.0 ? kBelowKey : kAboveKey;  // NaN counts as above
  const auto m = static_cast<std::uint64_t>(magnitude * 0x1.0p39);
  const std::uint64_t negative = u < 0.0;
  const std::uint64_t zero = u == 0.0;
  // kPositiveKeys + m above zero, 2^40 − 1 − m below, kZeroKey at ±0.
  return kPositiveKeys + m - negative * (kCellsPerSide + 1 + 2 * m) - zero * kCellsPerSide;
}

// The fewest bins a side that chi-square's equal bins (kChiSquareBins in
// battery.hpp) can be made of.
inline constexpr int kMinHistogramBits = 9;
// Enough bins a side that the binning costs the KS power row at most
// 1/(2H) <= 1/(kBinsPerRootN·sqrt(n)), below 1% of the row itself.
inline constexpr double kBinsPerRootN = 32.0;
int histogram_bits_for(std::uint64_t n);

class Histogram {
 public:
  // Where the ECDF is farthest from the uniform CDF, over the edges.
  struct Deviation {
    double d = 0.0;   // the largest |ECDF − CDF|
    double at = 0.0;  // the edge where it is reached
  };

  Histogram() = default;
  explicit Histogram(int bits);

  int bits() const { return bits_; }
  std::size_t half() const { return half_; }
  const std::vector<std::uint32_t>& counts() const { return counts_; }
  std::vector<std::uint32_t>& counts() { return counts_; }

  // The bin of a cell key: the first bin of its region (key >> 39) plus its
  // place in it, without a branch (as cell_key).
  std::size_t index_of(std::uint64_t key) const {
    const unsigned shift = static_cast<unsigned>(kCellBits - bits_);
    return region_start_[key >> static_cast<unsigned>(kCellBits)] +
           ((key & (kCellsPerSide - 1)) >> shift);
  }
  void add_key(std::uint64_t key) { ++counts_[index_of(key)]; }
  void add(double u) { add_key(cell_key(u)); }

  // Throws std::invalid_argument when the bins differ.
  void merge(const Histogram& other);

  std::uint64_t total() const;
  std::uint64_t below_zero() const;  // u < 0
  std::uint64_t zeros() const;
  std::uint64_t above_zero() const;  // u > 0, NaN included

  // The binned Kolmogorov–Smirnov statistic against the uniform CDF (x + 1)/2.
  Deviation ks() const;
  // The binned two-sample statistic between {u : u > 0} and {−u : u < 0},
  // at the edges of |u|.
  double mirror_ks() const;
  // The counts in `bins` equal bins over [−1, 1) (a power of two, at most
  // 2H), u <= −1 in the first and u >= 1 in the last.
  std::vector<std::uint64_t> coarse(std::size_t bins) const;
  // ECDF − CDF at the `points` + 1 edges of `points` equal bins over [−1, 1].
  std::vector<double> ecdf_minus_cdf(std::size_t points) const;

  bool operator==(const Histogram& other) const {
    return bits_ == other.bits_ && counts_ == other.counts_;
  }

 private:
  int bits_ = 0;
  std::size_t half_ = 0;
  std::vector<std::uint32_t> counts_;
  // The bins of the regions below −1, below 0, at 0, above 0 and above 1.
  std::size_t region_start_[5] = {};
};

}  // namespace acemq::stats
