// verdict.hpp: which cells a port's time unit cannot represent, and that
// judge() finds the unit only when the resolution test names one.
#include "stats/battery/verdict.hpp"

#include <gtest/gtest.h>

#include "stats/battery/family.hpp"

namespace acemq::stats {
namespace {

TEST(Unrepresentable, TheGridsCellsAgainstAMillisecond) {
  constexpr double kMillisecond = 1e-3;
  struct Row {
    double delay;
    double factor;
    Unrepresentable expected;
  };
  // The port grid's delays: tiny (2^-1021·1.25), ordinary (2.505), huge
  // (2^1023) and a cap of 30 s, at the factors that matter for each edge.
  const Row rows[] = {
      {0x1.4p-1021, 0.05, Unrepresentable::below_unit},
      {0x1.4p-1021, 1.0, Unrepresentable::below_unit},  // [0, 2d]: all of it below 1 ms
      {2.50563, 0.05, Unrepresentable::no},
      {2.50563, 1.0, Unrepresentable::no},
      {0x1.0p1023, 0.05, Unrepresentable::beyond_long},
      {0x1.0p1023, 1.0, Unrepresentable::beyond_long},  // [0, 2d]: a sliver below 2^63 ms
      {30.0, 1.0, Unrepresentable::no},
      {1e-4, 0.5, Unrepresentable::below_unit},
      {5e-4, 1.0, Unrepresentable::below_unit},  // [0, 1 ms]: 0 or 1 unit
      {1e-3, 1.0, Unrepresentable::no},          // [0, 2 ms]: half of it a unit or more
  };
  for (const Row& row : rows) {
    EXPECT_EQ(unrepresentable(RangeCheck(row.delay, row.factor), kMillisecond), row.expected)
        << row.delay << " at f " << row.factor;
  }
  // No unit measured, nothing set apart.
  EXPECT_EQ(unrepresentable(RangeCheck(0x1.4p-1021, 0.05), 0.0), Unrepresentable::no);
}

TEST(Unrepresentable, JudgeSetsTheUnitOnlyWhenTheResolutionNamesOne) {
  const std::size_t family = 3;
  const auto run_with = [&](int decimal_unit, double p) {
    ResolutionOutcome resolution;
    resolution.result.decimal_unit = decimal_unit;
    resolution.result.p_value = p;
    resolution.result.bits = 11.0;
    Outcome tiny;
    tiny.job = JobInfo{"tiny", "", 0x1.4p-1021, 0.05, 0, 10240, /*in_family=*/true};
    tiny.range = RangeCheck(tiny.job.delay, tiny.job.factor);
    tiny.range.outside = 1;  // failed
    return judge({tiny}, family, resolution);
  };
  const RunReport named = run_with(3, 0.0);
  ASSERT_TRUE(named.time_unit.has_value());
  EXPECT_EQ(*named.time_unit, 1e-3);
  EXPECT_EQ(named.time_unit_name, "1 ms");
  EXPECT_EQ(named.cells.front().unrepresentable, Unrepresentable::below_unit);
  EXPECT_EQ(named.unrepresentable_cells(), 1U);
  // A unit the resolution test did not reject on is no finding.
  EXPECT_FALSE(run_with(3, 1.0).time_unit.has_value());
  EXPECT_FALSE(run_with(-1, 0.0).time_unit.has_value());
}

}  // namespace
}  // namespace acemq::stats
