// The per-commit grid: every cell of grid.hpp, kCommitSamples draws, fixed
// seeds. A cell passes when its jittered delays stay in range and none of
// the battery's p-values falls below the run's Bonferroni share of 1e-6.
#include <cctype>
#include <iostream>
#include <string>

#include <gtest/gtest.h>

#include "stats/battery/battery.hpp"
#include "stats/battery/family.hpp"
#include "stats/battery/grid.hpp"
#include "stats/battery/jobs.hpp"
#include "stats/battery/runner.hpp"
#include "stats/battery/runs.hpp"
#include "stats/battery/test_support.hpp"

namespace acemq::stats {
namespace {

class GridCell : public testing::TestWithParam<std::size_t> {};

TEST_P(GridCell, JitterIsUniformSymmetricAndIndependent) {
  const std::vector<Cell> cells = grid();
  const Job job = grid_job(cells.at(GetParam()), GetParam(), kCommitSeed, kCommitSamples);
  const double alpha = per_test_alpha(family_size());
  std::cout << "cell " << job.info.name << ": d = " << job.info.delay << ", seed " << job.info.seed
            << ", n " << job.info.n << ", alpha per test " << alpha << "\n";
  RecordProperty("seed", std::to_string(job.info.seed));

  Accumulator accumulator;
  const BatteryState state = run_slice(job, 0, job.info.segments(), accumulator);
  EXPECT_TRUE(state.range.ok()) << state.range.outside << " delays outside [" << state.range.lo
                                << ", " << state.range.hi << "], first "
                                << state.range.first_outside();
  const Analysis a = analyze(state);
  print_analysis(std::cout, a, state.range, alpha);
  for (const TestResult& t : a.tests) {
    EXPECT_GE(t.p_value, alpha) << t.name << " rejects uniform jitter (statistic " << t.statistic
                                << ")";
  }
}

std::string cell_name(const testing::TestParamInfo<std::size_t>& info) {
  std::string name = grid().at(info.param).name();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Stats, GridCell, testing::Range<std::size_t>(0, grid().size()), cell_name);

}  // namespace
}  // namespace acemq::stats
