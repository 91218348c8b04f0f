// Prints the power table of stats/README.md for the per-commit and nightly
// sample sizes (or the n given), at the per-test alpha of the grid's family.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "family.hpp"
#include "night.hpp"
#include "power.hpp"
#include "runs.hpp"

int main(int argc, char** argv) {
  using namespace acemq::stats;
  std::vector<std::uint64_t> sizes = {kCommitSamples, kNightlySamples};
  if (argc > 1) {
    sizes.clear();
    for (int i = 1; i < argc; ++i) sizes.push_back(std::stoull(argv[i]));
  }
  std::vector<PowerRow> rows;
  for (const std::uint64_t n : sizes) {
    const std::vector<PowerRow> at_n = power_table(n, per_test_alpha(family_size()));
    rows.insert(rows.end(), at_n.begin(), at_n.end());
  }
  std::cout << power_table_markdown(rows);
  return EXIT_SUCCESS;
}
