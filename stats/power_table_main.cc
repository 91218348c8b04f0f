// Prints the power table of stats/README.md for the per-commit and nightly
// sample sizes, at the alpha each run uses.
#include <cmath>
#include <cstdio>

#include "battery.hpp"
#include "family.hpp"
#include "grid.hpp"
#include "power.hpp"
#include "runs.hpp"

namespace {

// Deviations round up and bit counts down, so the printed figure is still
// detected with power >= 0.999.
double conservative(const acemq::stats::PowerRow& row) {
  if (row.test == acemq::stats::kRepeats) return std::floor(row.smallest * 10.0) / 10.0;
  const double scale = std::pow(10.0, std::floor(std::log10(row.smallest)) - 2.0);
  return std::ceil(row.smallest / scale) * scale;
}

}  // namespace

int main() {
  using namespace acemq::stats;
  const double alpha = per_test_alpha(grid().size() * kTestsPerSample);
  std::printf("| test | alpha | n | smallest deviation (power 0.999) | measured as |\n");
  std::printf("| --- | --- | --- | --- | --- |\n");
  for (const std::size_t n : {kCommitSamples, kNightlySamples}) {
    for (const PowerRow& row : power_table(n, alpha)) {
      std::printf("| %s | %.3g | %s | %.3g | %s |\n", row.test.c_str(), row.alpha,
                  n == kCommitSamples ? "10^6" : "3·10^7", conservative(row), row.measure.c_str());
    }
  }
}
