#include "conformance/port_stats/verdict_lines.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "stats/battery/battery.hpp"
#include "stats/battery/fleet.hpp"
#include "stats/battery/power.hpp"
#include "stats/battery/resolution.hpp"

namespace acemq::conformance {

namespace stats = acemq::stats;

std::string plan_text(const PortStatsOptions& o, std::size_t cells) {
  std::string out = "n " + std::to_string(o.n) + " a cell" + (o.quick ? " (--quick)" : "") + ", " +
                    std::to_string(cells) +
                    " cells (jittered and next_delay, f 0.05 0.2 0.5 1, d tiny ordinary huge "
                    "cap) and the exact cell (delay 1, f 1) for the resolution";
  if (o.threads > 1) {
    out += "; the exact cell drawn by " + std::to_string(o.threads) + " threads at once";
  }
  if (o.processes > 1) {
    out += "; the first " + std::to_string(stats::kFleetDraws) + " draws of " +
           std::to_string(o.processes) + " processes started at once";
  }
  return out;
}

std::string rule_text(int min_bits) {
  const std::string contract = std::to_string(stats::kContractBits);
  if (min_bits == stats::kContractBits) {
    return "the rule: a default source's draws have at least " + contract +
           " bits of resolution (docs/contract.md §5)";
  }
  return "--min-bits " + std::to_string(min_bits) + ": a source of " + std::to_string(min_bits) +
         " bits or more is accepted, knowingly below the contract's " + contract +
         " (docs/contract.md §5)";
}

// Which tests rejected how many cells, in the battery's order (empty when
// none did): one line for a run that failed, so 32 FAIL lines end in what
// they add up to.
std::string tally(const stats::RunReport& run) {
  std::map<std::string, std::size_t> count;
  for (const stats::Outcome& o : run.cells) {
    if (o.unrepresentable != stats::Unrepresentable::no) continue;
    for (const std::string& name : o.rejected_names()) ++count[name];
  }
  std::vector<std::string> order = {stats::kRange};
  if (!run.cells.empty()) {
    for (const stats::TestResult& t : run.cells.front().analysis.tests) order.push_back(t.name);
  }
  std::string out;
  for (const std::string& name : order) {
    const auto it = count.find(name);
    if (it == count.end()) continue;
    out += (out.empty() ? "" : ", ") + name + " in " + std::to_string(it->second) + " of " +
           std::to_string(run.cells.size()) + " cells";
  }
  if (const std::size_t apart = run.unrepresentable_cells(); apart > 0) {
    out += (out.empty() ? "" : "; ") + std::to_string(apart) + (apart == 1 ? " cell" : " cells") +
           " a port on a " + run.time_unit_name + " grid cannot represent";
  }
  return out;
}

// The failing cells, worst first (the smallest p-value, a range failure
// before any), each with its first values; then the cells the port's time
// unit cannot represent, on one line, since they say nothing of its jitter.
void print_failing_cells(std::ostream& out, const stats::RunReport& run) {
  std::vector<const stats::Outcome*> judged;
  std::vector<const stats::Outcome*> apart;
  for (const stats::Outcome& o : run.cells) {
    if (!o.failed()) continue;
    (o.unrepresentable == stats::Unrepresentable::no ? judged : apart).push_back(&o);
  }
  std::stable_sort(judged.begin(), judged.end(),
                   [](const stats::Outcome* a, const stats::Outcome* b) {
                     return std::pair(a->range.ok(), a->smallest_p()) <
                            std::pair(b->range.ok(), b->smallest_p());
                   });
  for (const stats::Outcome* o : judged) {
    std::string names;
    for (const std::string& name : o->rejected_names()) names += (names.empty() ? "" : ", ") + name;
    out << "FAIL " << o->job.name << ": rejected by " << names;
    if (!o->range.ok()) {
      out << "; " << stats::outside_text(o->range);
    } else if (!o->first_values.empty()) {
      out << "; first delays " << stats::values_text(o->first_values);
    }
    out << "\n";
  }
  if (apart.empty()) return;
  out << "FAIL " << apart.size() << (apart.size() == 1 ? " cell" : " cells") << " a port on a "
      << run.time_unit_name << " grid cannot represent, whatever its jitter:";
  for (const stats::Unrepresentable why :
       {stats::Unrepresentable::below_unit, stats::Unrepresentable::beyond_long}) {
    std::string names;
    std::size_t count = 0;
    for (const stats::Outcome* o : apart) {
      if (o->unrepresentable != why) continue;
      names += (names.empty() ? "" : ", ") + o->job.name;
      ++count;
    }
    if (count == 0) continue;
    out << "\n  " << count << " with " << stats::unrepresentable_words(why, run.time_unit_name)
        << ": " << names;
  }
  out << "\n";
}

std::optional<std::string> low_resolution_warning(const PortStatsOptions& options,
                                                  double per_test) {
  // The spacing test is what sees a source on no binary grid.
  const double certain = stats::spacing_certain_bits(stats::distinct_draw_pairs(options.n),
                                                     stats::kContractBits, per_test);
  if (certain >= kLowResolutionBits) return std::nullopt;
  char bits[16];
  std::snprintf(bits, sizeof bits, "%.1f", certain);
  return "at n " + std::to_string(options.n) +
         " the resolution test sees a source on no binary grid only up to " + bits +
         " bits, so a 31-bit one like Mono's i/(2^31 - 1) may pass; --quick is n " +
         std::to_string(kPortStatsQuickSamples);
}

void print_power(std::ostream& out, const PortStatsOptions& options, double per_test) {
  std::vector<stats::PowerRow> power =
      stats::power_table(options.n, per_test, 0.05, options.min_bits);
  power.push_back(stats::resolution_power_row(options.n, per_test, options.min_bits));
  out << "Power at this n: each test detects the deviation below with probability " << stats::kPower
      << " in each cell (resolution: in the exact cell):\n\n"
      << stats::power_table_markdown(power) << "\n";
  if (options.processes > 1) {
    const auto processes = static_cast<std::size_t>(options.processes);
    char arc[32];
    std::snprintf(arc, sizeof arc, "%.3g",
                  stats::fleet_detectable_arc(processes, stats::kFleetDraws, 1, per_test));
    out << "The fleet (" << processes << " processes started at once, the first "
        << stats::kFleetDraws
        << " draws of each), with probability 1 when it is there: " << stats::kFleetShared
        << " rejects "
        << stats::fleet_detectable_equal_pairs(processes, stats::kFleetDraws, options.min_bits,
                                               per_test)
        << " or more equal draws between processes (one stream shared, or shifted); "
        << stats::kFleetClustered << " rejects the k-th draws of all " << processes
        << " within one arc of " << arc
        << " (or a few arcs; java.util.Random seeded by neighbouring PIDs or clocks)\n\n";
  }
  if (const std::optional<std::string> warning = low_resolution_warning(options, per_test)) {
    out << "WARNING: " << *warning << "\n\n";
  }
  out << std::flush;
}

}  // namespace acemq::conformance
