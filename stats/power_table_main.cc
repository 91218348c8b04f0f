// Prints the power table of stats/README.md for the per-commit and nightly
// sample sizes (or for each n given), at the per-test alpha of the grid's
// family:  stats_power_table [n ...]
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "stats/family.hpp"
#include "stats/night.hpp"
#include "stats/power.hpp"
#include "stats/runs.hpp"

int main(int argc, char** argv) {
  using namespace acemq::stats;
  std::vector<std::uint64_t> sizes = {kCommitSamples, kNightlySamples};
  if (argc > 1) {
    sizes.clear();
    for (int i = 1; i < argc; ++i) {
      char* end = nullptr;
      const unsigned long long n = std::strtoull(argv[i], &end, 10);
      if (end == argv[i] || *end != '\0' || n < 2) {
        std::cerr << "stats_power_table: n must be a whole number of samples, got '" << argv[i]
                  << "'\n";
        return 2;
      }
      sizes.push_back(n);
    }
  }
  std::vector<PowerRow> rows;
  for (const std::uint64_t n : sizes) {
    const std::vector<PowerRow> at_n = power_table(n, per_test_alpha(family_size()));
    rows.insert(rows.end(), at_n.begin(), at_n.end());
  }
  std::cout << power_table_markdown(rows);
  return EXIT_SUCCESS;
}
