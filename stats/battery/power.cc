#include "stats/battery/power.hpp"

#include <cmath>
#include <cstdio>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/complement.hpp>
#include <boost/math/distributions/non_central_chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/poisson.hpp>

#include "stats/battery/battery.hpp"
#include "stats/battery/kolmogorov.hpp"
#include "stats/battery/resolution.hpp"
#include "stats/battery/runs.hpp"

namespace acemq::stats {
namespace {

// P(X >= c) for X Poisson with mean lambda.
double poisson_at_least(double lambda, double c) {
  if (c <= 0.0) return 1.0;
  if (!(lambda > 0.0)) return 0.0;  // no pairs, no repeats
  return boost::math::cdf(boost::math::complement(boost::math::poisson(lambda), c - 1.0));
}

// The smallest count of repeats that rejects a null of mean `null_mean` at
// `alpha`.
double critical_count(double null_mean, double alpha) {
  double c = 0.0;
  while (poisson_at_least(null_mean, c) > alpha) c += 1.0;
  return c;
}

// The Poisson mean that reaches `c` with probability kPower.
double detectable_mean(double c) {
  double lo = 0.0;
  double hi = 10.0 * c + 100.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (poisson_at_least(mid, c) >= kPower ? hi : lo) = mid;
  }
  return hi;
}

std::string g3(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

}  // namespace

double normal_upper_quantile(double p) {
  return boost::math::quantile(boost::math::complement(boost::math::normal(), p));
}

std::vector<PowerRow> power_table(std::uint64_t n, double alpha, double factor, int min_bits) {
  const double root_n = std::sqrt(static_cast<double>(n));
  // One-sided: an alternative that pushes the statistic one way.
  const double z_power = normal_upper_quantile(1.0 - kPower);
  const double z_two_sided = normal_upper_quantile(alpha / 2.0);
  const double k_alpha = kolmogorov_critical_value(alpha);
  // The histogram's bins a side, and so the largest null mass of a bin of u
  // (1/2H) and of |u| (1/H): the most the binning can hide of a deviation.
  const double half = std::ldexp(1.0, histogram_bits_for(n));
  std::vector<PowerRow> rows;
  const auto add = [&](const char* test, double smallest, std::string measure) {
    rows.push_back(PowerRow{test, alpha, n, smallest, std::move(measure)});
  };

  // At the point where |F − F0| = delta the ECDF is off by delta plus noise
  // of standard deviation sqrt(p(1 − p)/n) <= 0.5/sqrt(n), and D is at least
  // that: so D > K_alpha/sqrt(n) with probability >= 0.999 once
  // delta >= (K_alpha + 0.5·z_0.999)/sqrt(n). The nearest edge sees all but
  // one bin's null mass of it.
  add(kKolmogorovSmirnov, (k_alpha + 0.5 * z_power) / root_n + 1.0 / (2.0 * half),
      "sup|F − F0| of u");

  const double bins = kChiSquareBins;
  const double critical =
      boost::math::quantile(boost::math::complement(boost::math::chi_squared(bins - 1), alpha));
  const double lambda =
      boost::math::non_central_chi_squared::find_non_centrality(bins - 1, critical, 1.0 - kPower);
  add(kChiSquare, std::sqrt(lambda / static_cast<double>(n)),
      "Cohen's w = sqrt(k·Σ(p_i − 1/k)²), k = " + std::to_string(kChiSquareBins) + " bins");

  add(kSign, (z_two_sided + z_power) * 0.5 / root_n, "|P(u < 0) − 1/2|");

  // Each half holds ~n/2, so the effective two-sample size is n/4.
  add(kMirror, (k_alpha + 0.5 * z_power) / (root_n / 2.0) + 1.0 / half,
      "sup|F − G|, F of u > 0, G of −u for u < 0");

  add(kMean, (z_two_sided + z_power) / std::sqrt(3.0) / root_n,
      "|E u|, i.e. the mean delay off by this × f·d");

  add(kVariance, (z_two_sided + z_power) * std::sqrt(4.0 / 45.0) / root_n * 3.0,
      "|Var u ÷ (1/3) − 1|");

  add(kRuns, (z_two_sided + z_power) * 0.5 / root_n, "|P(next u on the other side of 0) − 1/2|");

  add(kLag1, (z_two_sided + z_power) / root_n, "|lag-1 autocorrelation of u|");

  // The critical count c, then the Poisson mean of repeats that reaches c
  // with probability 0.999, as a source's bit count: a b-bit source that
  // draws its values at random (so repeats them by the birthday bound)
  // repeats about pairs·2^-b times, pairs = Σ C(w, 2) over the windows. A
  // cycle of period P < w repeats w − P times in each window of w. A
  // full-period generator repeats nothing at any bit count: that is the
  // resolution test's (resolution_power_row).
  const std::uint64_t pairs = window_pairs(n);
  const double null_mean = repeats_null_mean_bound(pairs, factor, min_bits);
  const double c = critical_count(null_mean, alpha);
  const double hi = detectable_mean(c);
  const double windows = std::ceil(static_cast<double>(n) / static_cast<double>(kSegmentSamples));
  const double window = std::min<double>(static_cast<double>(n), kSegmentSamples);
  const double longest_cycle = window - std::ceil(c / windows);
  rows.push_back(PowerRow{kRepeats, alpha, n, std::log2(static_cast<double>(pairs) / hi),
                          "bits of a source that repeats its values at random (one with fewer "
                          "is caught), or a cycle shorter than " +
                              std::to_string(static_cast<long long>(longest_cycle)) + " draws"});
  return rows;
}

PowerRow resolution_power_row(std::uint64_t n, double alpha, int min_bits) {
  // The resolution test's three share its alpha (Bonferroni, resolution.cc).
  const double share = alpha / 3.0;
  const double certain = spacing_certain_bits(distinct_draw_pairs(n), min_bits, alpha);
  // A grid of 2^b points drawn at random repeats about pairs·2^-b times.
  const std::uint64_t pairs = window_pairs(n);
  const double c = critical_count(null_repeats_mean(pairs, min_bits), share);
  const double probable =
      pairs == 0 ? 0.0 : std::log2(static_cast<double>(pairs) / detectable_mean(c));
  const auto tenth = [](double bits) {
    char text[16];
    std::snprintf(text, sizeof text, "%.1f", std::floor(bits * 10) / 10);
    return std::string(text);
  };
  return PowerRow{kResolution, alpha, n, std::max(certain, probable),
                  "bits of resolution: below " + std::to_string(min_bits) +
                      " on a binary grid at any n (certain); on any grid, " + tenth(certain) +
                      " or fewer with certainty (no two draws closer than its step) and " +
                      tenth(probable) +
                      " or fewer with probability 0.999 for a source that draws its grid at "
                      "random (its repeats); a stuck source always; from " +
                      std::to_string(n) + " draws of the exact cell"};
}

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

double conservative(const PowerRow& row) {
  if (row.test == kResolution) return std::floor(row.smallest * 10.0) / 10.0;
  if (row.test == kRepeats) return std::floor(row.smallest * 10.0) / 10.0;
  const double scale = std::pow(10.0, std::floor(std::log10(row.smallest)) - 2.0);
  return std::ceil(row.smallest / scale) * scale;
}

std::string power_table_markdown(const std::vector<PowerRow>& rows) {
  std::string out = "| test | alpha | n | smallest deviation (power " + g3(kPower) +
                    ") | measured as |\n| --- | --- | --- | --- | --- |\n";
  for (const PowerRow& row : rows) {
    out += "| " + row.test + " | " + g3(row.alpha) + " | " + std::to_string(row.n) + " | " +
           g3(conservative(row)) + " | " + markdown_cell(row.measure) + " |\n";
  }
  return out;
}

}  // namespace acemq::stats
