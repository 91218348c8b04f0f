// The false-alarm budget shared by every test of a run.
//
// A run (the per-commit grid, or one nightly) makes m = cells ×
// kTestsPerSample tests (battery.hpp). The family-wise false-alarm rate is
// held at kFamilyAlpha = 1e-6 by Holm's step-down correction: sort the
// p-values, reject p_(i) <= alpha/(m − i + 1) until the first that is not.
// Holm never rejects less than Bonferroni and holds the same bound without
// assuming independence; whether a run fails at all is the same under both
// (its smallest p against alpha/m), so a single test can be judged alone
// against per_test_alpha(m).
#pragma once

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

namespace acemq::stats {

inline constexpr double kFamilyAlpha = 1e-6;

// Bonferroni's share, which is also Holm's first (strictest) threshold.
inline double per_test_alpha(std::size_t tests) {
  return kFamilyAlpha / static_cast<double>(tests);
}

// Holm's step-down: which of the p-values are rejected at family-wise alpha.
inline std::vector<bool> holm_rejections(const std::vector<double>& p, double alpha) {
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  std::vector<bool> rejected(p.size(), false);
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (!(p[order[i]] <= alpha / static_cast<double>(p.size() - i))) break;
    rejected[order[i]] = true;
  }
  return rejected;
}

}  // namespace acemq::stats
