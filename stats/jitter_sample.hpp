// JitterSample: n jittered delays, reduced to the quantity under test.
//
// Jitter promises j = d·(1 + u·f) with u uniform on [−1, 1) and independent
// from call to call, so the suite looks at u = (j/d − 1)/f. u is computed in
// binary64 and so carries rounding: |u − (2r − 1)| <= 8·2^-52/f for the
// contract's arithmetic (stats/README.md derives it), below 2^-44 at f = 0.05
// and far below anything a test here resolves.
//
// The range check is not done on u but on j itself, exactly: the contract's
// arithmetic is monotone in r (each operation is, rounding included), so every
// correct j lies in [fl(d·fl(1 − f)), fl(d·fl(1 + f))]. That interval is
// closed: in reals j < d(1 + f), but in binary64 the top draw r = 1 − 2^-53
// can round onto fl(d·fl(1 + f)) (f = 0.5 does), so a strict upper bound
// would reject the contract itself.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

namespace acemq::stats {

// The binary64 bounds of a correct jitter, in the contract's order of
// operations: the r = 0 end is exactly jitter_lower_bound.
inline double jitter_lower_bound(double delay, double factor) { return delay * (1 - factor); }
inline double jitter_upper_bound(double delay, double factor) { return delay * (1 + factor); }

struct RangeCheck {
  double lo = 0.0;
  double hi = 0.0;
  std::size_t outside = 0;  // below lo, above hi, or NaN
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  double first_outside = std::numeric_limits<double>::quiet_NaN();

  bool ok() const { return outside == 0; }
};

struct JitterSample {
  double delay = 0.0;
  double factor = 0.0;
  std::vector<double> u;
  RangeCheck range;
};

// Calls draw() n times; each call returns one jittered delay j for the
// unjittered delay `delay` under jitter factor `factor` (both > 0).
template <class Draw>
JitterSample collect(double delay, double factor, std::size_t n, Draw&& draw) {
  JitterSample sample{delay, factor, {}, {}};
  RangeCheck& range = sample.range;
  range.lo = jitter_lower_bound(delay, factor);
  range.hi = jitter_upper_bound(delay, factor);
  sample.u.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double j = static_cast<double>(draw());
    // Written so that NaN counts as outside.
    if (!(j >= range.lo && j <= range.hi)) {
      if (range.outside++ == 0) range.first_outside = j;
    }
    if (j < range.min) range.min = j;
    if (j > range.max) range.max = j;
    sample.u.push_back((j / delay - 1) / factor);
  }
  return sample;
}

}  // namespace acemq::stats
