// runner: one property against one core, outside RC_GTEST_PROP, for the test
// of the test (mutants_test.cc) and the catch matrix (matrix.cc).
//
// Also the suites' shared setup: RapidCheck's case count defaults to the
// suite's own unless RC_PARAMS sets max_success, and every test prints the
// seed that replays it.
#pragma once

#include <cstdint>
#include <string>

#include "core.hpp"
#include "properties.hpp"

namespace acemq::props {

struct RunParams {
  std::uint64_t seed = 0;
  int max_success = 100;
  bool shrink = true;
};

struct RunResult {
  bool failed = false;   // the property rejected the core
  bool skipped = false;  // RC_PARAMS reproduces some other test
  int cases = 0;         // cases run, the failing one included
  std::string report;    // RapidCheck's own account: counterexample and message
};

// The seed and case count RapidCheck is configured with (RC_PARAMS, with the
// suite's default case count when it names none).
RunParams configured_params();

// Checks `property` against `core`. `id` names the run for RC_PARAMS
// reproduce strings.
RunResult run(const Property& property, const Core& core, const RunParams& params,
              const std::string& id);

// Sets RC_PARAMS so RapidCheck runs `cases` cases a property, unless the user
// already chose max_success. Call before the first property runs.
void default_max_success(int cases);

// Prints, before each test, the seed that replays it.
void print_seed_before_each_test();

}  // namespace acemq::props
