// The Kolmogorov distribution: the law of the Kolmogorov–Smirnov statistic.
//
// Boost 1.74 has no KS distribution, so it lives here. For n samples from a
// continuous F, sqrt(n)·D_n tends to K with
//
//   P(K > x) = 2 Σ_{k≥1} (−1)^(k−1) exp(−2k²x²),
//
// which is what the statistical suite uses (at the battery's n, at least
// kMinimumSamples, the limit is off by O(1/sqrt(n)) and errs towards larger
// p-values, i.e. fewer false alarms). kolmogorov_smirnov_cdf is the exact law of D_n for small n
// (Marsaglia, Tsang and Wang, J. Stat. Softw. 8(18), 2003), kept to check the
// limit against.
#pragma once

namespace acemq::stats {

// P(K <= x). Uses the theta-function form below x = 1, where the alternating
// series would need many terms.
double kolmogorov_cdf(double x);

// P(K > x), accurate to a few ulps relative far into the tail (1e-300), which
// the p-values of a large-n test reach.
double kolmogorov_sf(double x);

// The critical value: x with P(K > x) = alpha, for alpha in (0, 1).
double kolmogorov_critical_value(double alpha);

// Exact P(D_n < d) for n samples from a continuous distribution
// (Marsaglia–Tsang–Wang, full accuracy, no right-tail shortcut). Cost grows
// as (n·d)^3·log n: meant for n up to a few thousand.
double kolmogorov_smirnov_cdf(int n, double d);

}  // namespace acemq::stats
