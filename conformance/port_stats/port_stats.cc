#include "conformance/port_stats/port_stats.hpp"

#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <system_error>
#include <vector>

#include "conformance/port_stats/echo.hpp"
#include "conformance/port_stats/fleet_start.hpp"
#include "conformance/port_stats/requests.hpp"
#include "conformance/port_stats/sampler.hpp"
#include "conformance/port_stats/verdict_lines.hpp"
#include "conformance/process/adapter_process.hpp"
#include "stats/battery/battery.hpp"
#include "stats/battery/family.hpp"
#include "stats/battery/fleet.hpp"
#include "stats/battery/grid.hpp"
#include "stats/battery/progress.hpp"
#include "stats/battery/resolution.hpp"
#include "stats/battery/runner.hpp"
#include "stats/battery/verdict.hpp"
#include "stats/report/report.hpp"

namespace acemq::conformance {
namespace {

namespace stats = acemq::stats;

constexpr int kFailedToTest = 2;

// A run that judged nothing still leaves its report, so that a tool reads
// the failure as data; a directory that cannot be written was refused
// before the run, so a failure here is only said.
int failed_to_test(const PortStatsOptions& options, std::ostream& out, std::string stage,
                   const std::string& failure, double seconds) {
  stats::FailedToTest report{"`" + options.command + "`, through the sample op", std::move(stage),
                             clip(failure.substr(0, failure.find('\n'))), seconds};
  try {
    out << "report " << stats::write_failure_report(options.report_dir, report).string() << "\n";
  } catch (const std::exception& e) {
    out << "report NOT WRITTEN (" << e.what() << ")\n";
  }
  return kFailedToTest;
}

int run(const PortStatsOptions& options, std::ostream& out, std::ostream& progress_out) {
  const std::vector<stats::Cell> cells = stats::port_grid();
  const bool threaded = options.threads > 1;
  const bool fleet_judged = options.processes > 1;
  // The grid's tests, the threads cell's, the resolution test and the
  // fleet's share the budget.
  const std::size_t family = stats::port_family_size(threaded, fleet_judged);
  const double per_test = stats::per_test_alpha(family);

  out << "retry-policy stats: the battery on `" << options.command
      << "`'s own default source, through the sample op\n"
      << "  " << plan_text(options, cells.size()) << "; "
      << options.n * (cells.size() + 1 + (threaded ? 1 : 0)) +
             (fleet_judged ? static_cast<std::uint64_t>(options.processes) * stats::kFleetDraws : 0)
      << " draws\n"
      << "  " << rule_text(options.min_bits) << "\n";
  if (fleet_judged) {
    out << "  the rule: each process of a fleet draws its own stream, seeded from the operating "
           "system's entropy, and the source is safe to draw from many threads at once "
           "(docs/contract.md §5)\n";
  }
  out << "  family-wise alpha " << stats::kFamilyAlpha << " over " << family
      << " tests (Holm's step-down; its first step, Bonferroni, is p < " << per_test << ")\n"
      << "  no seed: the draws come from the port's own source, so this run cannot be "
         "replayed\n\n"
      << std::flush;

  const auto started = std::chrono::steady_clock::now();
  const auto since_start = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  std::unique_ptr<AdapterProcess> adapter;
  std::optional<stats::FleetOutcome> fleet_outcome;
  if (fleet_judged) {
    Fleet fleet;
    if (const std::string wrong = start_fleet(options, fleet); !wrong.empty()) {
      out << "ADAPTER FAILED: " << wrong << "\nFAILED TO TEST: the fleet\n";
      return failed_to_test(options, out, "the fleet", wrong, since_start());
    }
    adapter = std::move(fleet.first);
    fleet_outcome = std::move(fleet.outcome);
  } else {
    std::string error;
    adapter = AdapterProcess::start(options.command, error);
    if (!adapter) {
      out << "ADAPTER FAILED: cannot start `" << options.command << "`: " << error << "\n";
      return failed_to_test(options, out, "the start", "cannot start: " + error, since_start());
    }
  }
  ChunkPlan plan{{exact_cell_prefix()}, options.n};
  if (threaded) plan.prefixes.push_back(exact_cell_prefix(options.threads));
  for (const stats::Cell& cell : cells) plan.prefixes.push_back(request_prefix(cell));
  Sampler sampler(*adapter, options.timeout, plan);
  const std::size_t drawn_cells = plan.prefixes.size();
  stats::Progress progress(progress_out, drawn_cells, options.n * drawn_cells,
                           options.progress_interval, stats::Progress::Lines::on_interval);
  std::vector<double> buffer(static_cast<std::size_t>(kMaxSampleCount));
  // The power table, once the adapter has answered: a run that fails at its
  // first request has no use for it.
  bool power_printed = false;
  const std::function<void()> first_answer = [&] {
    if (power_printed) return;
    print_power(out, options, per_test);
    power_printed = true;
  };
  const std::string threads_name = threads_cell_name(options.threads);
  const auto failed = [&](const std::string& cell) {
    out << "ADAPTER FAILED: " << sampler.failure() << "\nFAILED TO TEST: in cell " << cell
        << " after " << stats::duration_text(progress.elapsed_seconds()) << "\n";
    if (cell == threads_name) {
      out << "  (does the adapter implement sample's \"threads\"? docs/protocol.md, "
             "Ops; --threads 1 leaves the threads cell out)\n";
    }
    return failed_to_test(options, out, "cell " + cell, sampler.failure(), since_start());
  };

  stats::ResolutionOutcome resolution;
  resolution.state = stats::ResolutionState(options.min_bits);
  {
    const auto begun = std::chrono::steady_clock::now();
    stats::ResolutionAccumulator accumulator;
    if (!sample_cell(sampler, options.n, progress, buffer,
                     ResolutionFeed{accumulator, resolution.state}, first_answer)) {
      return failed(kExactCellName);
    }
    resolution.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
    resolution.result = stats::analyze_resolution(resolution.state, per_test);
    progress.cell_done(kExactCellName);
  }
  if (fleet_outcome) {
    // Judged against the grid the exact cell measured, when coarser than the
    // rule's: equal draws that grid explains are the resolution's finding.
    const int bits = stats::fleet_null_bits(resolution.result, options.min_bits, per_test);
    if (bits != fleet_outcome->result.min_bits) {
      fleet_outcome->result = stats::analyze_fleet(fleet_outcome->draws, bits);
    }
  }

  stats::Accumulator accumulator;
  std::vector<stats::Outcome> outcomes;
  if (threaded) {
    // The exact cell again, drawn by threads at once: a source shared
    // without its lock repeats or sticks, and threads seeded alike repeat
    // one another; the battery's repeats test sees both.
    const stats::JobInfo info{threads_name,        "", stats::kExactDelay,
                              stats::kExactFactor, 0,  options.n,
                              /*in_family=*/true};
    stats::BatteryConfig config = info.config();
    config.min_bits = options.min_bits;
    stats::BatteryState state(config);
    const auto begun = std::chrono::steady_clock::now();
    std::vector<double> first_values;
    sampler.set_in_flight(1);
    if (!sample_cell(sampler, options.n, progress, buffer,
                     BatteryFeed{accumulator, state, first_values}, first_answer)) {
      return failed(info.name);
    }
    sampler.set_in_flight(2);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
    outcomes.push_back(stats::outcome_of(info, state, seconds));
    outcomes.back().first_values = std::move(first_values);
    progress.cell_done(outcomes.back().one_line());
  }
  // A cell the adapter answers with an error (a port that throws on a huge
  // delay) ends the drawing, but not the run: the cells drawn so far are
  // judged and reported, and the verdict names the cell that stopped it.
  std::string stopped_in;
  for (const stats::Cell& cell : cells) {
    const stats::JobInfo info{cell.name(), "",        cell.delay_seconds(), cell.factor,
                              0,           options.n, /*in_family=*/true};
    stats::BatteryConfig config = info.config();
    config.min_bits = options.min_bits;
    stats::BatteryState state(config);
    const auto begun = std::chrono::steady_clock::now();
    std::vector<double> first_values;
    if (!sample_cell(sampler, options.n, progress, buffer,
                     BatteryFeed{accumulator, state, first_values}, first_answer)) {
      stopped_in = info.name;
      break;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
    outcomes.push_back(stats::outcome_of(info, state, seconds));
    outcomes.back().first_values = std::move(first_values);
    progress.cell_done(outcomes.back().one_line());
  }
  const std::size_t cells_drawn = outcomes.size() - (threaded ? 1 : 0);
  if (!stopped_in.empty()) {
    progress.finish(std::to_string(cells_drawn) + " of " + std::to_string(cells.size()) +
                    " cells drawn");
    (void)adapter->finish(std::chrono::milliseconds(5000));
    out << "ADAPTER FAILED: " << sampler.failure() << "\nFAILED TO TEST: cell " << stopped_in
        << " and the " << cells.size() - cells_drawn - 1 << " after it (of " << cells.size()
        << "), after " << stats::duration_text(progress.elapsed_seconds()) << "; the "
        << cells_drawn << " cells drawn before it are judged below\n";
  } else {
    progress.finish("all " + std::to_string(drawn_cells) + " cells drawn");
    const ProcessEnding ending = adapter->finish(std::chrono::milliseconds(5000));
    if (!ending.clean()) {
      const std::string failure =
          "at the end of its input it ended with " + ending.text() + ", not exit status 0";
      out << "ADAPTER FAILED: " << failure << "\nFAILED TO TEST\n";
      return failed_to_test(options, out, "the end of its input", failure, since_start());
    }
  }

  stats::RunReport run =
      stats::judge(std::move(outcomes), family, std::move(resolution), std::move(fleet_outcome));
  run.unseeded_source = "`" + options.command + "`, through the sample op";
  if (!stopped_in.empty()) {
    run.stopped = stats::Stop{stopped_in, cells.size() - cells_drawn - 1,
                              clip(sampler.failure().substr(0, sampler.failure().find('\n')))};
  }
  if (auto warning = low_resolution_warning(options, per_test)) {
    run.warnings.push_back(std::move(*warning));
  }
  run.plan = plan_text(options, cells.size());
  // The whole run, the fleet's start-up included (processes of a JVM take
  // seconds to start, which a port's CI pays).
  const double elapsed = progress.elapsed_seconds() + (run.fleet ? run.fleet->seconds : 0.0);
  run.wall_seconds = since_start();
  const auto failing = static_cast<std::size_t>(std::count_if(
      run.cells.begin(), run.cells.end(), [](const stats::Outcome& o) { return o.failed(); }));
  const stats::ResolutionOutcome& r = *run.resolution;
  out << (r.rejected ? "FAIL " : "") << "exact cell (delay 1, f 1), " << r.state.n()
      << " draws: " << r.verdict << "\n  estimate: " << r.result.estimate << "\n";
  if (!r.state.range.ok()) out << "  delays: " << stats::outside_text(r.state.range) << "\n";
  if (run.fleet) {
    const stats::FleetOutcome& f = *run.fleet;
    out << (f.failed() ? "FAIL " : "") << "fleet (" << f.draws.size()
        << " processes started at once, the first " << f.result.draws << " draws of each): "
        << (f.failed() ? "the processes do not draw their own streams"
                       : "each draws its own stream")
        << "\n  " << (f.shared_rejected ? "REJECTED " : "") << stats::kFleetShared << ": "
        << f.result.shared_words << " (p " << f.result.shared.p_value << ")\n  "
        << (f.clustered_rejected ? "REJECTED " : "") << stats::kFleetClustered << ": "
        << f.result.clustered_words << " (p " << f.result.clustered.p_value << ")\n";
    if (f.outside > 0) {
      out << "  " << f.outside
          << " of the fleet's delays outside [0, 2) (2r for r in [0, 1)): " << f.outside_shown
          << "\n";
    }
  }
  print_failing_cells(out, run);
  if (!run.passed()) {
    const std::string cells_rejected = tally(run);
    std::string what =
        cells_rejected.empty() ? std::string("every cell passes the battery") : cells_rejected;
    if (r.rejected) what += "; the resolution";
    if (run.fleet && run.fleet->failed()) {
      what += "; the fleet (";
      what += run.fleet->shared_rejected ? stats::kFleetShared : "";
      if (run.fleet->clustered_rejected) {
        what += std::string(run.fleet->shared_rejected ? ", " : "") + stats::kFleetClustered;
      }
      if (run.fleet->outside > 0) what += "draws out of range";
      what += ")";
    }
    out << "Rejected: " << what << "\n";
  }

  std::string report;
  bool report_written = true;
  try {
    report = stats::write_report(options.report_dir, run).string();
  } catch (const std::exception& e) {
    report_written = false;
    report = "NOT WRITTEN (" + std::string(e.what()) + ")";
  }
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.3g", static_cast<double>(options.n * drawn_cells) / elapsed);
  const bool complete = stopped_in.empty();
  out << stats::verdict_word(run.end()) << ": " << run.cells.size() - failing << " of "
      << run.cells.size() << " cells pass"
      << (complete ? "" : " (of those drawn; the adapter answered an error in " + stopped_in + ")")
      << " at n " << options.n << " a cell, family-wise alpha " << stats::kFamilyAlpha << "; "
      << r.verdict
      << (run.fleet
              ? (run.fleet->failed() ? "; the fleet shares its streams" : "; the fleet draws apart")
              : "")
      << "; " << stats::duration_text(elapsed) << ", " << rate
      << " draws/s; the port's own source, not replayable; report " << report << "\n";
  if (!report_written) return kFailedToTest;
  return stats::exit_code(run.end());
}

}  // namespace

std::optional<std::string> report_dir_problem(const std::string& dir) {
  std::error_code error;
  const std::filesystem::path path(dir);
  std::filesystem::create_directories(path / "svg", error);
  if (error) return "cannot create it (" + error.message() + ")";
  const std::filesystem::path probe = path / ".retry-policy-stats-probe";
  {
    std::ofstream file(probe, std::ios::binary);
    file << "probe\n";
    if (!file) return "cannot write in it";
  }
  std::filesystem::remove(probe, error);
  return std::nullopt;
}

int run_port_stats(const PortStatsOptions& options, std::ostream& out, std::ostream& progress) {
  // Whatever the adapter wrote, a library's exception must not stand in for
  // a verdict; the battery answers degenerate data itself
  // (stats/battery/degenerate_test.cc), so reaching this is a bug of this command.
  try {
    return run(options, out, progress);
  } catch (const std::exception& e) {
    out << "FAILED TO TEST: internal error in retry-policy stats: " << clip(e.what()) << "\n";
    return kFailedToTest;
  }
}

}  // namespace acemq::conformance
