// range_check: the exact range check on jittered delays, and u, the quantity
// under test.
//
// Jitter promises j = d·(1 + u·f) with u uniform on [−1, 1) and independent
// from call to call, so the battery looks at u = (j/d − 1)/f. u is computed
// in binary64 and so carries rounding, at most u_rounding_bound(f) for the
// contract's arithmetic (stats/README.md derives it), far below anything a
// test here resolves.
//
// The range check is not done on u but on j itself, exactly: the contract's
// arithmetic is monotone in r (each operation is, rounding included), so every
// correct j lies in [d·scale(r = 0), d·scale(r = 1)], the model's jitter scale
// at the ends of the draw. That interval is closed: in reals j < d(1 + f), but
// in binary64 the top draw r = 1 − 2^-53 can round onto the upper bound
// (f = 0.5 does), so a strict upper bound would reject the contract itself.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "acemq/model/contract.hpp"

namespace acemq::stats {

// The binary64 bounds of a correct jitter: the r = 0 end is exactly the lower
// bound, and the upper one is the supremum of r.
inline double jitter_lower_bound(double delay, double factor) {
  return delay * model::jitter_scale(factor, 0.0);
}
inline double jitter_upper_bound(double delay, double factor) {
  return delay * model::jitter_scale(factor, 1.0);
}

// The quantity under test. Times 1/f rather than divided by f: one division
// a sample fewer (the compiler hoists 1/f out of a loop), for one more
// rounding, which the bound below has room for.
inline double u_of(double jittered, double delay, double factor) {
  return (jittered / delay - 1) * (1 / factor);
}

// |u − (2r − 1)| is at most this: the roundings of fl(s·f), of 1 + t, of d·m
// and of j/d, each at most an ulp of a number below 2, divided by f (4·2^-52/f),
// and of 1/f and the product, each at most half an ulp of a number below 1.
inline double u_rounding_bound(double factor) { return 8.0 * 0x1.0p-52 / factor; }

// The smaller and the larger of two doubles, with -0.0 below +0.0 and NaN
// ignored, so that a minimum or maximum does not depend on the order in which
// samples and states arrive.
inline double smaller(double a, double b) { return (b < a || (b == a && std::signbit(b))) ? b : a; }
inline double larger(double a, double b) { return (b > a || (b == a && !std::signbit(b))) ? b : a; }

// Which jittered delays fell outside [lo, hi] (NaN counts as outside), the
// extremes, and the first kShownOutside of them with their place in the
// cell's call order, so that a report can show the values themselves, not
// only their count. Mergeable: the shown ones are those of the lowest
// places, so the merged check shows the same delays however the segments
// were spread over threads and machines.
inline constexpr std::size_t kShownOutside = 4;

struct RangeCheck {
  struct Outside {
    std::uint64_t draw = kNoDraw;  // the place in the cell's call order, from 0
    double value = std::numeric_limits<double>::quiet_NaN();
  };
  static constexpr std::uint64_t kNoDraw = ~std::uint64_t{0};

  double lo = 0.0;
  double hi = 0.0;
  std::uint64_t outside = 0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  // The first min(outside, kShownOutside) delays outside, by draw; the rest
  // hold kNoDraw.
  std::array<Outside, kShownOutside> shown{};

  RangeCheck() = default;
  RangeCheck(double delay, double factor)
      : lo(jitter_lower_bound(delay, factor)), hi(jitter_upper_bound(delay, factor)) {}

  bool ok() const { return outside == 0; }
  std::size_t shown_count() const {
    return static_cast<std::size_t>(std::min<std::uint64_t>(outside, kShownOutside));
  }
  // The earliest delay outside, NaN when there is none.
  double first_outside() const { return shown[0].value; }

  // `draw` is the delay's place in the cell's call order.
  void add(double j, std::uint64_t draw) {
    // Written so that NaN counts as outside.
    if (!(j >= lo && j <= hi)) {
      ++outside;
      show(Outside{draw, j});
    }
    min = smaller(min, j);
    max = larger(max, j);
  }

  void merge(const RangeCheck& other) {
    outside += other.outside;
    for (const Outside& o : other.shown) {
      if (o.draw != kNoDraw) show(o);
    }
    min = smaller(min, other.min);
    max = larger(max, other.max);
  }

 private:
  // Keeps `shown` sorted by draw, the earliest kShownOutside.
  void show(Outside o) {
    for (Outside& slot : shown) {
      if (o.draw < slot.draw) std::swap(o, slot);
    }
  }
};

}  // namespace acemq::stats
