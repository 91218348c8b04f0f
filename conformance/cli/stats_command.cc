// retry-policy stats: the statistics battery on a port's own jitter.
#include <iostream>
#include <optional>
#include <string>

#include "conformance/cli/flags.hpp"
#include "conformance/cli/subcommand.hpp"
#include "conformance/port_stats/port_stats.hpp"
#include "conformance/protocol/limits.hpp"
#include "stats/battery/battery.hpp"
#include "stats/battery/fleet.hpp"
#include "stats/battery/resolution_bits.hpp"
#include "stats/battery/runs.hpp"

namespace acemq::conformance::cli {
namespace {

class StatsCommand final : public Subcommand {
 public:
  explicit StatsCommand(CLI::App& parent)
      : Subcommand(parent.add_subcommand(
            "stats",
            "Run the statistics battery on a port's own jitter, drawn by its adapter's sample "
            "op. Exit 0: every cell passes; 1: a test rejects; 2: a usage error, or the adapter "
            "failed")) {
    value_option("--impl", options_.command,
                 "the adapter, a shell command speaking the protocol (with the sample op; "
                 "required)");
    value_option("--n", n_,
                 "draws a cell (default " + flag_text(std::int64_t{kPortStatsSamples}) + ")");
    app().add_flag("--quick", quick_,
                   "n " + flag_text(std::int64_t{kPortStatsQuickSamples}) +
                       " a cell: a size for a port's CI that still sees a 32-bit source");
    value_option("--report-dir", options_.report_dir,
                 "where the report goes (default " + options_.report_dir + ")");
    value_option("--timeout", timeout_,
                 "seconds to wait for each answer of up to 65536 draws (default " + timeout_ + ")");
    value_option("--progress-every", progress_,
                 "seconds between progress lines on stderr (default " + progress_ + ")");
    value_option("--min-bits", min_bits_,
                 "accept a source of this many bits of resolution or more, knowingly below the "
                 "contract's 53 (default " +
                     min_bits_ + "; docs/contract.md section 5)");
    value_option("--processes", processes_,
                 "start this many adapter processes at once and judge their first draws: "
                 "a fleet must not share its streams (default " +
                     processes_ + "; 1 leaves the fleet out)");
    value_option("--threads", threads_,
                 "draw one more cell by this many threads at once (sample's threads; default " +
                     threads_ + "; 1 leaves it out)");
  }

  int run() override {
    if (!given(app(), "--impl")) usage("--impl", "required: the command that starts the adapter");
    require_value(app(), "--impl", options_.command, "the command that starts the adapter");
    require_value(app(), "--n", n_, "draws a cell");
    require_value(app(), "--report-dir", options_.report_dir, "a directory");
    require_value(app(), "--timeout", timeout_, "seconds");
    require_value(app(), "--progress-every", progress_, "seconds");
    require_value(app(), "--min-bits", min_bits_, "bits");
    if (quick_ && given(app(), "--n")) usage("--quick", "cannot be used with --n: pick one");
    options_.quick = quick_;
    options_.n = quick_ ? kPortStatsQuickSamples : kPortStatsSamples;
    if (given(app(), "--n")) {
      const std::int64_t n = count_flag("--n", n_);
      if (n < static_cast<std::int64_t>(stats::kMinimumSamples) ||
          n > static_cast<std::int64_t>(stats::kMaxSamples)) {
        usage("--n", "must be in [" + std::to_string(stats::kMinimumSamples) + ", " +
                         std::to_string(stats::kMaxSamples) +
                         "], the battery's least and most a cell, got " + n_);
      }
      options_.n = static_cast<std::uint64_t>(n);
    }
    options_.timeout = timeout_flag("--timeout", timeout_);
    options_.progress_interval = number_flag("--progress-every", progress_);
    if (!(options_.progress_interval > 0.0)) {
      usage("--progress-every", "must be seconds above 0, got " + progress_);
    }
    if (given(app(), "--min-bits")) {
      const std::int64_t bits = integer_flag("--min-bits", min_bits_);
      if (bits < stats::kLeastMinBits || bits > stats::kContractBits) {
        usage("--min-bits", "must be in [" + std::to_string(stats::kLeastMinBits) + ", " +
                                std::to_string(stats::kContractBits) +
                                "] (53 is the contract's), got " + min_bits_);
      }
      options_.min_bits = static_cast<int>(bits);
    }
    require_value(app(), "--processes", processes_, "processes");
    require_value(app(), "--threads", threads_, "threads");
    if (given(app(), "--processes")) {
      const std::int64_t processes = integer_flag("--processes", processes_);
      if (processes < 1 || processes > 64) {
        usage("--processes", "must be in [1, 64] (1 leaves the fleet out), got " + processes_);
      }
      options_.processes = static_cast<int>(processes);
    }
    if (given(app(), "--threads")) {
      const std::int64_t threads = integer_flag("--threads", threads_);
      if (threads < 1 || threads > kMaxSampleThreads) {
        usage("--threads", "must be in [1, " + std::to_string(kMaxSampleThreads) +
                               "] (the protocol's most; 1 leaves the threads cell out), got " +
                               threads_);
      }
      options_.threads = static_cast<int>(threads);
    }
    // Found now, not after a run of minutes whose verdict it would lose.
    if (const std::optional<std::string> problem = report_dir_problem(options_.report_dir)) {
      usage("--report-dir", *problem + ", got " + options_.report_dir);
    }
    return run_port_stats(options_, std::cout, std::cerr);
  }

 private:
  PortStatsOptions options_;
  std::string n_;
  bool quick_ = false;
  // The defaults are PortStatsOptions', as typed.
  std::string timeout_ = flag_text(PortStatsOptions{}.timeout);
  std::string progress_ = flag_text(PortStatsOptions{}.progress_interval);
  std::string min_bits_ = flag_text(std::int64_t{PortStatsOptions{}.min_bits});
  std::string processes_ = flag_text(std::int64_t{PortStatsOptions{}.processes});
  std::string threads_ = flag_text(std::int64_t{PortStatsOptions{}.threads});
};

}  // namespace

std::unique_ptr<Subcommand> stats_command(CLI::App& app) {
  return std::make_unique<StatsCommand>(app);
}

}  // namespace acemq::conformance::cli
