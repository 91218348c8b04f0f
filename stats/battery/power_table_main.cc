// Prints the power table of stats/README.md for the per-commit and nightly
// sample sizes (or for each n given), at the per-test alpha of the grid's
// family:  stats_power_table [n ...]
// With --port, the table `retry-policy stats --impl` prints: the port grid's
// family (port_family_size: its cells' tests, the resolution and the fleet's), its resolution row,
// at --min-bits B if given:  stats_power_table --port [--min-bits B] [n ...]
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "stats/battery/battery.hpp"
#include "stats/battery/family.hpp"
#include "stats/battery/grid.hpp"
#include "stats/battery/jobs.hpp"
#include "stats/battery/power.hpp"
#include "stats/battery/resolution_bits.hpp"
#include "stats/battery/runs.hpp"

namespace {

bool whole_number(const char* text, unsigned long long& n) {
  char* end = nullptr;
  n = std::strtoull(text, &end, 10);
  return end != text && *end == '\0';
}

}  // namespace

int main(int argc, char** argv) {
  using namespace acemq::stats;
  std::vector<std::uint64_t> sizes;
  bool port = false;
  int min_bits = kContractBits;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    unsigned long long n = 0;
    if (arg == "--port") {
      port = true;
    } else if (arg == "--min-bits" && i + 1 < argc && whole_number(argv[i + 1], n) &&
               n >= static_cast<unsigned long long>(kLeastMinBits) &&
               n <= static_cast<unsigned long long>(kContractBits)) {
      min_bits = static_cast<int>(n);
      ++i;
    } else if (whole_number(argv[i], n) && n >= 2) {
      sizes.push_back(n);
    } else {
      std::cerr << "stats_power_table: usage: stats_power_table [--port [--min-bits B]] [n ...]; "
                   "got '"
                << arg << "'\n";
      return 2;
    }
  }
  if (sizes.empty()) sizes = {kCommitSamples, kNightlySamples};
  const double alpha = port ? per_test_alpha(port_family_size()) : per_test_alpha(family_size());
  std::vector<PowerRow> rows;
  for (const std::uint64_t n : sizes) {
    const std::vector<PowerRow> at_n = power_table(n, alpha, 0.05, min_bits);
    rows.insert(rows.end(), at_n.begin(), at_n.end());
    if (port) rows.push_back(resolution_power_row(n, alpha, min_bits));
  }
  std::cout << power_table_markdown(rows);
  return EXIT_SUCCESS;
}
