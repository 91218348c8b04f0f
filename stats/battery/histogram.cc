#include "stats/battery/histogram.hpp"

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace acemq::stats {

int histogram_bits_for(std::uint64_t n) {
  const double wanted = kBinsPerRootN * std::sqrt(static_cast<double>(n));
  int bits = kMinHistogramBits;
  while (std::ldexp(2.0, bits) < wanted && bits < kCellBits) ++bits;
  return bits;
}

Histogram::Histogram(int bits)
    : bits_(bits),
      half_(std::size_t{1} << static_cast<unsigned>(bits)),
      counts_(2 * half_ + 3, 0),
      region_start_{0, 1, half_ + 1, half_ + 2, 2 * half_ + 2} {
  if (bits < kMinHistogramBits || bits > kCellBits) {
    throw std::invalid_argument("Histogram: bits must be in [" + std::to_string(kMinHistogramBits) +
                                ", " + std::to_string(kCellBits) + "], got " +
                                std::to_string(bits));
  }
}

void Histogram::merge(const Histogram& other) {
  if (other.bits_ != bits_) {
    throw std::invalid_argument("Histogram::merge: " + std::to_string(bits_) + " bits against " +
                                std::to_string(other.bits_));
  }
  for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
}

std::uint64_t Histogram::total() const {
  return std::accumulate(counts_.begin(), counts_.end(), std::uint64_t{0});
}

std::uint64_t Histogram::below_zero() const {
  return std::accumulate(counts_.begin(), counts_.begin() + static_cast<std::ptrdiff_t>(half_ + 1),
                         std::uint64_t{0});
}

std::uint64_t Histogram::zeros() const { return counts_[half_ + 1]; }

std::uint64_t Histogram::above_zero() const {
  return std::accumulate(counts_.begin() + static_cast<std::ptrdiff_t>(half_ + 2), counts_.end(),
                         std::uint64_t{0});
}

Histogram::Deviation Histogram::ks() const {
  const double n = static_cast<double>(total());
  const double two_h = 2.0 * static_cast<double>(half_);
  Deviation worst;
  std::uint64_t cumulative = 0;
  // After bin i the count is the ECDF at the edge whose uniform CDF is
  // i/(2H) on the negative side, 1/2 after the zero bin, and (i − 1)/(2H)
  // (just below the edge) on the positive side. The last bin, u >= 1, ends
  // where both CDFs are 1.
  for (std::size_t i = 0; i + 1 < counts_.size(); ++i) {
    cumulative += counts_[i];
    const double f0 = i <= half_       ? static_cast<double>(i) / two_h
                      : i == half_ + 1 ? 0.5
                                       : static_cast<double>(i - 1) / two_h;
    const double d = std::abs(static_cast<double>(cumulative) / n - f0);
    if (d > worst.d) worst = {d, 2.0 * f0 - 1.0};
  }
  return worst;
}

double Histogram::mirror_ks() const {
  // Positive side: bins H + 2 + m hold u in [m, m + 1)·2^-bits; negative
  // side: bins H − m hold −u in the same range. The counts up to edge m are
  // both the ECDF just below it, so they compare at the same point.
  const double positive = static_cast<double>(above_zero());
  const double negative = static_cast<double>(below_zero());
  if (positive == 0.0 || negative == 0.0) return 1.0;
  std::uint64_t up = 0;
  std::uint64_t down = 0;
  double d = 0.0;
  for (std::size_t m = 0; m < half_; ++m) {
    up += counts_[half_ + 2 + m];
    down += counts_[half_ - m];
    d = std::max(
        d, std::abs(static_cast<double>(up) / positive - static_cast<double>(down) / negative));
  }
  return d;
}

std::vector<std::uint64_t> Histogram::coarse(std::size_t bins) const {
  if (bins < 2 || bins > 2 * half_ || (bins & (bins - 1)) != 0) {
    throw std::invalid_argument("Histogram::coarse: " + std::to_string(bins) + " bins from " +
                                std::to_string(2 * half_));
  }
  const std::size_t per = 2 * half_ / bins;
  std::vector<std::uint64_t> out(bins, 0);
  out.front() += counts_.front();
  for (std::size_t m = 0; m < half_; ++m) out[(half_ - 1 - m) / per] += counts_[half_ - m];
  out[bins / 2] += counts_[half_ + 1];
  for (std::size_t m = 0; m < half_; ++m) out[bins / 2 + m / per] += counts_[half_ + 2 + m];
  out.back() += counts_.back();
  return out;
}

std::vector<double> Histogram::ecdf_minus_cdf(std::size_t points) const {
  const std::vector<std::uint64_t> bins = coarse(points);
  const double n = static_cast<double>(total());
  std::vector<double> out(points + 1);
  // Edge p is −1 + 2p/points. The coarse bins before it hold the ECDF there
  // on the negative side and just below it on the positive side (as in
  // ks()), except at the three edges whose bins hold more: −1 (only u <= −1),
  // 0 (u = 0 too, which the bin after it holds) and 1 (not u >= 1).
  std::uint64_t before = 0;
  for (std::size_t p = 0; p <= points; ++p) {
    std::uint64_t at = before;
    if (p == 0) {
      at = counts_.front();
    } else if (p == points / 2) {
      at += zeros();
    } else if (p == points) {
      at -= counts_.back();
    }
    out[p] = static_cast<double>(at) / n - static_cast<double>(p) / static_cast<double>(points);
    if (p < points) before += bins[p];
  }
  return out;
}

}  // namespace acemq::stats
