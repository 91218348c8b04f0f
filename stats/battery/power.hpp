// Power: the smallest deviation each test detects with probability 0.999.
//
// For a test at level alpha on n samples, the smallest departure from the
// contract that it rejects with probability kPower, in the test's own
// measure (stats/README.md derives each row; power_test.cc checks the KS,
// sign, runs and lag-1 rows by simulation). The KS rows include what the
// binning costs (histogram.hpp) and the repeats row the windows (repeats.hpp).
// The README's table is this function's output, printed by stats_power_table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace acemq::stats {

inline constexpr double kPower = 0.999;

struct PowerRow {
  std::string test;
  double alpha = 0.0;
  std::uint64_t n = 0;
  double smallest = 0.0;  // in the unit `measure` names
  std::string measure;
};

// The rows for a run of n samples per cell, each test at level alpha.
// `factor` is the jitter factor whose rounding allowance the repeats test
// uses (the smallest, 0.05, is the least powerful); `min_bits` the source's
// floor, whose birthday repeats are the repeats test's null.
std::vector<PowerRow> power_table(std::uint64_t n, double alpha, double factor = 0.05,
                                  int min_bits = 53);

// The resolution test's row (resolution.hpp) for n draws of the exact cell:
// a source below `min_bits` on a binary grid is caught at any n, and on any
// grid one of the row's figure in bits or fewer.
PowerRow resolution_power_row(std::uint64_t n, double alpha, int min_bits = 53);

// The figure a table prints: deviations rounded up to three digits and bit
// counts down to one decimal, so the printed figure is still detected with
// power >= kPower.
double conservative(const PowerRow& row);

// The table as Markdown, one row a test: | test | alpha | n | smallest | measured as |.
std::string power_table_markdown(const std::vector<PowerRow>& rows);

// Text for a Markdown table cell: '|' escaped, which would end it.
std::string markdown_cell(const std::string& text);

// z with P(Z > z) = p for a standard normal.
double normal_upper_quantile(double p);

}  // namespace acemq::stats
