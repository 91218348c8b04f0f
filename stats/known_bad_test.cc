// Power, proved: every known-bad double is rejected at the per-commit n, by
// each of the tests its row in known_bad.cc names, at every jitter factor.
// The alpha is the grid's own per-test share, so a double caught here would
// also fail the grid.
#include <algorithm>
#include <iostream>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "stats/battery.hpp"
#include "stats/family.hpp"
#include "stats/grid.hpp"
#include "stats/known_bad.hpp"
#include "stats/night.hpp"
#include "stats/runs.hpp"
#include "stats/test_support.hpp"

namespace acemq::stats {
namespace {

constexpr std::uint64_t kSeed = 20240004;

class KnownBadDouble : public testing::TestWithParam<std::tuple<std::size_t, double>> {};

TEST_P(KnownBadDouble, IsRejected) {
  const KnownBad bad = known_bad().at(std::get<0>(GetParam()));
  const double factor = std::get<1>(GetParam());
  const Job job = known_bad_job(bad, factor, kSeed, kCommitSamples);
  const double alpha = per_test_alpha(family_size());
  std::cout << bad.name << " (" << bad.bug << "): d = " << job.info.delay << ", f = " << factor
            << ", seed " << kSeed << ", n " << job.info.n << ", alpha " << alpha << "\n";

  Accumulator accumulator;
  const BatteryState state = run_slice(job, 0, job.info.segments(), accumulator);
  const Analysis a = analyze(state);
  print_analysis(std::cout, a, state.range, alpha);
  const std::vector<std::string> rejected = rejected_by(a, state.range, alpha);
  for (const std::string& expected : bad.caught_by) {
    EXPECT_NE(std::find(rejected.begin(), rejected.end(), expected), rejected.end())
        << expected << " does not reject " << bad.name;
  }
}

std::string test_name(const testing::TestParamInfo<std::tuple<std::size_t, double>>& info) {
  std::string name = known_bad().at(std::get<0>(info.param)).name + "_f" +
                     std::to_string(static_cast<int>(std::get<1>(info.param) * 100));
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Stats, KnownBadDouble,
                         testing::Combine(testing::Range<std::size_t>(0, known_bad().size()),
                                          testing::ValuesIn(kFactors)),
                         test_name);

}  // namespace
}  // namespace acemq::stats
