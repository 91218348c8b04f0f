// verdict_lines: what a `stats --impl` run prints around its numbers: the
// plan and the rule at the start, the power table once the adapter has
// answered, and at the end the failing cells (worst first, each with its
// first delays; the cells a port's time unit cannot represent on one line)
// and a tally of what rejected them.
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>

#include "conformance/port_stats/port_stats.hpp"
#include "stats/battery/verdict.hpp"

namespace acemq::conformance {

// "n 524288 a cell (--quick), 32 cells (...) and the exact cell ...".
std::string plan_text(const PortStatsOptions& o, std::size_t cells);
// The resolution rule judged: the contract's 53 bits, or --min-bits.
std::string rule_text(int min_bits);
// Which tests rejected how many cells, in the battery's order (empty when
// none did), and the cells set apart as ones the port's unit cannot hold.
std::string tally(const stats::RunReport& run);
void print_failing_cells(std::ostream& out, const stats::RunReport& run);
// The power table at the run's n, the fleet's power, and a warning when n is
// too small for the spacing test to see a 31-bit source.
void print_power(std::ostream& out, const PortStatsOptions& options, double per_test);
// The warning, when n is too small for the spacing test to see a source on
// no binary grid of 31 bits (Mono's): the console's and the report's.
std::optional<std::string> low_resolution_warning(const PortStatsOptions& options, double per_test);

}  // namespace acemq::conformance
