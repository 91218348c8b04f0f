// matrix: every property against every mutant, under several seeds, to see
// which properties catch which slip and how quickly. A tool for whoever
// edits mutants_test.cc's table or adds a property; not a test.
//
//   acemq_properties_matrix [--cases N] [--seeds K] [--seed S] [Mutant...]
//
// For each mutant, prints the properties that rejected it under all K seeds
// with the most cases any seed needed ("ScheduleMatchesModel<=3"), and those
// that rejected it under only some ("JitterStaysInBand 2/5").
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "mutants.hpp"
#include "properties.hpp"
#include "runner.hpp"

namespace props = acemq::props;

int main(int argc, char** argv) {
  int cases = 1000;
  int seeds = 3;
  std::uint64_t first_seed = std::random_device{}();
  std::vector<std::string_view> only;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--cases" && has_value) {
      cases = std::atoi(argv[++i]);
    } else if (arg == "--seeds" && has_value) {
      seeds = std::atoi(argv[++i]);
    } else if (arg == "--seed" && has_value) {
      first_seed = std::strtoull(argv[++i], nullptr, 10);
    } else {
      only.push_back(arg);
    }
  }
  std::cout << "cases=" << cases << " seeds=" << seeds << " first seed=" << first_seed << "\n";
  for (const props::MutationInfo& info : props::all_mutations()) {
    if (!only.empty() && std::find(only.begin(), only.end(), info.name) == only.end()) continue;
    const props::Core core = props::mutant(info.mutation);
    std::cout << info.name << ":";
    for (const props::Property& property : props::all_properties()) {
      int caught = 0;
      int worst = 0;
      for (int s = 0; s < seeds; ++s) {
        const props::RunParams params{.seed = first_seed + static_cast<std::uint64_t>(s),
                                      .max_success = cases,
                                      .shrink = false};
        const props::RunResult result = props::run(property, core, params, "matrix");
        if (result.failed) {
          ++caught;
          worst = std::max(worst, result.cases);
        }
      }
      if (caught == seeds) {
        std::cout << " " << property.name << "<=" << worst;
      } else if (caught > 0) {
        std::cout << " " << property.name << " " << caught << "/" << seeds;
      }
    }
    std::cout << std::endl;
  }
}
