// verdict: a run's analyses judged together.
//
// The grid's tests share the family-wise false-alarm budget by Holm's
// step-down (family.hpp), padded to the full grid's family; each known-bad
// double is judged alone, each test at the Bonferroni share, and must be
// rejected. A run passes when every cell passes and every double fails.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stats/battery/battery.hpp"
#include "stats/battery/fleet.hpp"
#include "stats/battery/power.hpp"
#include "stats/battery/resolution.hpp"
#include "stats/battery/runner.hpp"

namespace acemq::stats {

// Why a port that counts delays in whole units of `unit` seconds cannot hold
// a cell at all, whatever its jitter: all of the band but a 2^-20 share is
// below one unit (it rounds to 0 or 1 unit), or beyond 2^63 units (a signed
// 64-bit count overflows). Such a cell fails, and says nothing about the
// jitter.
enum class Unrepresentable { no, below_unit, beyond_long };

// Which, for the band [range.lo, range.hi].
Unrepresentable unrepresentable(const RangeCheck& range, double unit);

struct Outcome {
  JobInfo job;
  RangeCheck range;
  Analysis analysis;
  std::vector<bool> rejected;  // one per test of analysis, by Holm (cells) or alone (doubles)
  double seconds = 0.0;
  // The file names of the pictures, relative to the report directory.
  std::string ecdf_svg;
  std::string histogram_svg;
  // The port's first delays of the cell, so that a rejected cell shows some
  // of its values whatever rejected it (stats --impl fills it).
  std::vector<double> first_values;
  // Set by judge() when the run measured the port's time unit.
  Unrepresentable unrepresentable = Unrepresentable::no;

  bool failed() const;  // out of range, or any test rejected
  double smallest_p() const;
  // "range" when out of range, then the rejected tests' names.
  std::vector<std::string> rejected_names() const;
  // "<cell>: 1.2 s, range ok, smallest p 0.0123", for progress lines.
  std::string one_line() const;
};

// The resolution test of a port's source (resolution.hpp), one test of the
// run's family.
struct ResolutionOutcome {
  ResolutionState state;
  ResolutionResult result;
  bool rejected = false;  // by Holm with the cells' tests, or a delay out of range
  std::string verdict;    // resolution_verdict(), or what was out of range
  double seconds = 0.0;
};

// The fleet's tests of a port's source (fleet.hpp), two tests of the run's
// family, and the fleet's draws outside [0, 1).
struct FleetOutcome {
  std::vector<std::vector<double>> draws;  // each process's first draws r
  FleetResult result;
  std::size_t outside = 0;       // draws not in [0, 1), a rejection of their own
  std::string outside_shown;     // the first few, with their process and draw
  bool shared_rejected = false;  // by Holm with the cells' tests
  bool clustered_rejected = false;
  double seconds = 0.0;

  bool failed() const { return shared_rejected || clustered_rejected || outside > 0; }
};

// "below 1 ms", "beyond 2^63 × 1 ms", for a cell the unit cannot hold.
std::string unrepresentable_words(Unrepresentable why, const std::string& unit_name);

// "0, 0, 0.001, 0": the first values, shortest round trip.
std::string values_text(const std::vector<double>& values);

// "5 outside [2, 3]: 7.5 (draw 0), NaN (draw 3), ...": the count and the
// first kShownOutside delays, exact (shortest round trip), with their place
// in the cell's calls; "ok" when none is outside.
std::string outside_text(const RangeCheck& range);

// Where a run's drawing stopped before its last cell: the adapter answered
// an error in `cell` (a port that throws on a huge delay), so it and the
// `cells_after` cells after it were not drawn; the cells before are judged.
struct Stop {
  std::string cell;
  std::size_t cells_after = 0;
  std::string adapter_error;  // the error's first line, clipped
};
// The sentence a person reads.
std::string stop_text(const Stop& stop);

// How a run ended, and so its exit code (exit_code): every test passes (0),
// one rejects (1), or the drawing stopped before the last cell and what was
// drawn passes, or nothing could be judged (2).
enum class RunEnd { passed, failed, not_all_tested, failed_to_test };
// "passed", "failed", "not_all_tested", "failed_to_test": results.json's words.
std::string_view run_end_name(RunEnd end);
int exit_code(RunEnd end);
// "PASS", "FAIL", "NOT ALL TESTED", "FAILED TO TEST": the console's and the summary's.
std::string_view verdict_word(RunEnd end);

struct RunReport {
  std::uint64_t seed = 0;
  // Non-empty for draws that no seed reaches (a port's own default source,
  // `retry-policy stats --impl`): what drew them. The report then says the
  // run cannot be replayed, and shows no seed.
  std::string unseeded_source;
  std::string plan;             // NightPlan::describe()
  std::string replay;           // the stats_nightly options that draw it again
  std::size_t shards = 1;       // how many processes drew it
  std::uint64_t n = 0;          // samples a cell (the largest n of the run)
  std::size_t family_size = 0;  // tests sharing the 1e-6 budget
  double ks_critical = 0.0;     // c at the per-test alpha
  double seconds = 0.0;         // each cell's wall time, summed over the cells
  std::vector<Outcome> cells;
  std::vector<Outcome> known_bad;  // each must fail; not in the family
  std::vector<PowerRow> power;     // at n and the per-test alpha
  // The port's source's resolution, when the run measured it (stats --impl).
  std::optional<ResolutionOutcome> resolution;
  // The fleet's first draws, when the run read them (stats --impl).
  std::optional<FleetOutcome> fleet;
  // The time unit the port's delays are whole numbers of, in seconds, when
  // the resolution test found one (resolution.hpp); each cell's
  // `unrepresentable` is judged against it.
  std::optional<double> time_unit;
  std::string time_unit_name;  // "1 ms"
  // When the drawing stopped before the last cell.
  std::optional<Stop> stopped;
  // The whole run's wall time, start-up included, when one process ran it
  // (`seconds` sums the cells').
  std::optional<double> wall_seconds;
  // What a reader must know to trust the verdict (an n too small for a
  // test to see what it exists to see), each a sentence.
  std::vector<std::string> warnings;

  // The failing cells the port's time unit cannot represent, and the rest.
  std::size_t unrepresentable_cells() const;

  // every cell passes, every double fails, the resolution is met, the fleet draws apart
  bool passed() const;
  // failed unless passed(); else not_all_tested when the drawing stopped.
  RunEnd end() const;
};

// The battery on one job's merged state.
Outcome outcome_of(const JobInfo& job, const BatteryState& state, double seconds);

// Holm over the cells (and the resolution test and the fleet's, when given:
// more tests of the family), the Bonferroni share for each double.
RunReport judge(std::vector<Outcome> outcomes, std::size_t family_size,
                std::optional<ResolutionOutcome> resolution = std::nullopt,
                std::optional<FleetOutcome> fleet = std::nullopt);

}  // namespace acemq::stats
