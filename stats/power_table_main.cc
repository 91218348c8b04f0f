// Prints the power table of stats/README.md for the per-commit and nightly
// sample sizes, at the alpha each run uses.
#include <cstdio>

#include "battery.hpp"
#include "family.hpp"
#include "grid.hpp"
#include "power.hpp"
#include "runs.hpp"

int main() {
  using namespace acemq::stats;
  const double alpha = per_test_alpha(grid().size() * kTestsPerSample);
  std::printf("| test | alpha | n | smallest deviation (power 0.999) | measured as |\n");
  std::printf("| --- | --- | --- | --- | --- |\n");
  for (const std::size_t n : {kCommitSamples, kNightlySamples}) {
    for (const PowerRow& row : power_table(n, alpha)) {
      std::printf("| %s | %.3g | 10^%d | %.3g | %s |\n", row.test.c_str(), row.alpha,
                  n == kCommitSamples ? 6 : 7, row.smallest, row.measure.c_str());
    }
  }
}
