// The per-commit grid: every cell of grid.hpp, 10^6 samples, fixed seeds.
// A cell passes when its jittered delays stay in range and none of the
// battery's nine p-values falls below the run's Bonferroni share of 1e-6.
#include <cctype>
#include <iostream>
#include <string>

#include <gtest/gtest.h>

#include "battery.hpp"
#include "family.hpp"
#include "grid.hpp"
#include "runs.hpp"

namespace acemq::stats {
namespace {

class GridCell : public testing::TestWithParam<std::size_t> {};

TEST_P(GridCell, JitterIsUniformSymmetricAndIndependent) {
  const std::vector<Cell> cells = grid();
  const Cell& cell = cells.at(GetParam());
  const std::uint64_t seed = cell_seed(kCommitSeed, GetParam());
  const double alpha = per_test_alpha(cells.size() * kTestsPerSample);
  std::cout << "cell " << cell.name() << ": d = " << cell.delay_seconds() << ", seed " << seed
            << ", n " << kCommitSamples << ", alpha per test " << alpha << "\n";
  RecordProperty("seed", std::to_string(seed));

  JitterSample s = sample(cell, kCommitSamples, seed);
  EXPECT_TRUE(s.range.ok()) << s.range.outside << " delays outside [" << s.range.lo << ", "
                            << s.range.hi << "], first " << s.range.first_outside;
  const Analysis a = analyze(std::move(s.u), cell.factor);
  for (const TestResult& t : a.tests) {
    std::cout << "  " << t.name << ": statistic " << t.statistic << ", p " << t.p_value << "\n";
    EXPECT_GE(t.p_value, alpha) << t.name << " rejects uniform jitter (statistic " << t.statistic
                                << ")";
  }
}

std::string test_name(const testing::TestParamInfo<std::size_t>& info) {
  std::string name = grid().at(info.param).name();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Stats, GridCell, testing::Range<std::size_t>(0, grid().size()), test_name);

}  // namespace
}  // namespace acemq::stats
