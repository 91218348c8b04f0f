// sign_runs: how often consecutive u cross zero, for the runs test.
//
// Under the null each u is on either side of 0 with probability 1/2,
// independently, so whether the next nonzero u is on the other side is a fair
// coin, independent of everything before: the number of changes among the
// pairs of consecutive nonzero u is Binomial(pairs, 1/2), exactly. That is
// the runs test about the null median 0, and its counts add. Zeros (a draw
// within about 2^-52/f of r = 1/2) are skipped, as the sign test skips them;
// pairs are taken within a segment only.
#pragma once

#include <cstdint>

namespace acemq::stats {

struct SignRuns {
  std::uint64_t pairs = 0;
  std::uint64_t changes = 0;
  int last = 0;  // the open segment's last nonzero sign, 0 if none

  void add(double u) {
    const int sign = (u > 0.0) - (u < 0.0);
    const bool paired = sign != 0 && last != 0;
    pairs += paired;
    changes += paired && sign != last;
    if (sign != 0) last = sign;
  }
  void end_segment() { last = 0; }
  void merge(const SignRuns& other) {
    pairs += other.pairs;
    changes += other.changes;
  }
  bool operator==(const SignRuns&) const = default;
};

}  // namespace acemq::stats
